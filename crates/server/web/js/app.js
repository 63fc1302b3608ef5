// The page's state machine: which game is open, whose seat this browser holds, the half-made
// ply, hint, analysis and review; it turns every GAME object from the server into a render.

import { api, tokens, Live } from './api.js';
import { Board } from './board.js';
import { PlyBuilder, parsePly, other, replay, describePly, applyPly, handAfter } from './plies.js';
import { renderPlayer, renderMoves, renderAnalysis, bottomColor } from './panels.js';
import { scoreWords, gameTerms } from './format.js';
import { Dialogs, copyText, flash } from './dialogs.js';
import { errorKey } from './errors.js';
import { loadSettings, saveSettings, readSettings, resolveTheme, SPEED_FACTOR } from './settings.js';
import { play as playSound, cueOf, unlockOnGesture } from './sound.js';
import { colorOfPly, canTakeBack, canEnd, canOfferDraw, canCoach, ownTakeback } from './offers.js';
import { renderEnd, headline, endWords, decidingPoints, millPoints, rematchOptions, renderReviewLink, wireDialogLinks } from './endgame.js';
import { startShell, untilReached } from './shell.js';
import { initSite, siteRoute, gameChanged, gameEvent, drawClocks, retranslateSite, suspendSite, resumeSite, playerRatings } from './site.js';
import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);
const cap = (color) => t(`color.${color}`);
const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

const state = {
  variants: new Map(), // name -> variant from GET /api/variants
  variant: null, // the variant drawn
  id: null, // the open game
  token: null, // this browser's seat token for it, if any
  you: null, // "white" | "black" | "both" | null (spectator)
  game: null, // the last GAME rendered
  builder: new PlyBuilder([]), // the half-made ply
  inFlight: null, // the ply posted and not yet answered, drawn on the board meanwhile
  busy: false, // a request that changes the game is under way
  anim: null, // what the next render animates
  dragging: false,
  hint: null, // {ply, score}
  preview: null, // a ply from the analysis list shown on the board
  analysisOn: false,
  analysis: null, // {key, data}: the analysis of the position positionKey() names
  review: null, // number of plies shown while looking back; null: the live position
  inviteHidden: false,
  live: null,
  missing: null, // the key of why the game of the address cannot be shown, or null
  ratings: null, // {white, black}: each side's rating {rating, provisional} in a rated game, or null
  settings: loadSettings(),
};

let board;
let dialogs;

// ----- derived facts -----

/** Whether this browser may make a ply now. */
function canMove() {
  const g = state.game;
  return Boolean(
    g && g.status === 'playing' && !g.thinking && !state.busy && state.review === null &&
      g.legal.length && (state.you === 'both' || state.you === g.turn),
  );
}

// A seat is held by its token or, in a game of the lobby, by the session's player.
const hasSeat = () => Boolean(state.you);

/** What a ply, hint or analysis depends on: the position and the plies that led to it. */
const positionKey = (g) => (g ? `${g.position}|${g.moves.length}|${g.status}` : '');

/** The best grade of the analysed plies among `plies`, or null. */
function bestGrade(plies) {
  const a = state.analysis;
  if (!state.analysisOn || !a?.data || a.key !== positionKey(state.game)) return null;
  let best = null;
  for (const p of plies) {
    const m = a.data.moves.find((x) => x.move === p.text);
    if (m && (best === null || GRADES.indexOf(m.grade) < GRADES.indexOf(best))) best = m.grade;
  }
  return best;
}

/** The variant's name in the page's language. */
const variantTitle = (v) => t(`variant.${v.name}`);

/** Why a game ended, in words, from its reason (the server's own text is for programs). */
function reasonWords(result) {
  const params = {
    winner: result.winner ? cap(result.winner) : '',
    loser: result.winner ? cap(other(result.winner)) : '',
  };
  const known = ['fewer_than_three', 'blocked', 'line', 'repetition', 'n_move_rule', 'full_board', 'resignation', 'agreement', 'timeout', 'abandonment', 'aborted'];
  const reason = result.reason === 'abandonment' && !result.winner ? 'abandonment_draw' : result.reason;
  return known.includes(result.reason) ? t(`result.${reason}`, params) : t('result.other');
}

/** The end of a game in words: why, and who won. */
function resultWords(result) {
  const text = reasonWords(result);
  return result.winner ? `${text} ${t('result.wins', { color: cap(result.winner) })}` : text;
}

// ----- rendering -----

function render() {
  const g = state.game;
  const v = state.variant;
  if (!v) return;
  renderMissing();
  board.setVariant(v);
  $('board').dataset.version = String(g ? g.version : 0);
  $('variant-title').textContent = state.missing ? '' : variantTitle(v);
  // A phone's top bar has no room for the game's name: the status card says it there.
  $('variant-line').textContent = $('variant-title').textContent;
  renderBoard();

  const bottom = bottomColor(state.you);
  for (const [id, color] of [['player-bottom', bottom], ['player-top', other(bottom)]]) {
    renderPlayer($(id), color, g, state.you, counts(color), sideRating(color));
  }
  for (const el of [$('player-top'), $('player-bottom')]) {
    el.classList.toggle('thinking', Boolean(g?.thinking && g.turn === el.dataset.color));
  }
  renderStatus();
  renderTerms();
  renderButtons();
  renderMoves($('moves'), g, state.review === null ? null : state.review - 1, (i) => reviewTo(i + 1));
  $('review').hidden = !g || g.moves.length === 0;
  $('rev-live').hidden = state.review === null;
  renderAnalysisPanel();
  renderInvite();
  renderEnd(g, v, hasSeat() ? state.you : null, {
    rematch: () => createGame(rematchOptions(g, state.you)).catch((err) => showError(() => errorText(err))),
    newGame: () => dialogs.openNewGame(v.name),
  });
  renderReviewLink(g);
  drawClocks(state.review);
  document.title = g ? t('app.title', { status: statusTurn() }) : 'Morris';
}

/**
 * A side's rating in a rated game: before the game, from the view once it is over, else as
 * the player's page gives it for the game's variant and time class.
 * @param {'white' | 'black'} color
 */
function sideRating(color) {
  const g = state.game;
  if (!g?.rated) return null;
  const r = g.ratings?.[color];
  // Once over: the rating the game started from, and what it changed by.
  if (r) return { rating: r.before, provisional: false, diff: r.after - r.before };
  return state.ratings?.[color] ?? null;
}

/** "Rated · 3+2 · Blitz" above the turn, for a game between people or with a clock. */
function renderTerms() {
  const el = $('game-terms');
  const g = state.game;
  el.hidden = !g || state.missing !== null || (g.opponent !== 'friend' && !g.clock);
  if (!el.hidden) el.textContent = gameTerms(g);
}

/** Pieces in hand and on the board for the position shown (live or looked back at). */
function counts(color) {
  const g = state.game;
  if (!g) return { inHand: state.variant.pieces, onBoard: 0 };
  if (state.review === null) return { inHand: g.in_hand[color], onBoard: g.on_board[color] };
  const shown = replay(g.start, g.moves, state.review, state.variant.points);
  return {
    inHand: handAfter(g.start, g.moves, state.review)[color],
    onBoard: Object.values(shown).filter((c) => c === color).length,
  };
}

function renderBoard() {
  const g = state.game;
  const classes = new Map();
  const labels = new Map();
  const add = (pt, ...cls) => {
    if (!classes.has(pt)) classes.set(pt, []);
    classes.get(pt).push(...cls);
  };
  let shown;
  let last = null;
  if (!g) {
    shown = {};
  } else if (state.review !== null) {
    shown = replay(g.start, g.moves, state.review, state.variant.points);
    if (state.review > 0) last = parsePly(g.moves[state.review - 1]);
  } else {
    shown = { ...g.board };
    const pending = state.inFlight ?? state.builder.pending();
    if (pending) applyPly(shown, pending, g.turn);
    if (g.last) last = parsePly(g.last);
  }
  if (last) {
    if (last.from) add(last.from, 'last');
    add(last.to, 'last');
  }
  // The mill just closed, while its removal is chosen.
  if (g && state.review === null && state.builder.step === 'remove' && state.builder.pending()) {
    for (const pt of millPoints(shown, state.builder.pending().to, g.turn, state.variant.mills)) add(pt, 'mill-closed');
  }
  // The mill or the block that ended the game.
  const decided = g && state.review === null ? decidingPoints(g, state.variant) : null;
  for (const pt of decided?.points ?? []) add(pt, 'decisive', `decisive-${decided.kind}`);

  const live = g && state.review === null && g.status === 'playing';
  const mine = canMove();
  if (live) {
    // Legal clicks of the current step; for watchers, only the analysis colours of step one.
    const b = mine ? state.builder : new PlyBuilder(g.legal);
    for (const [pt, target] of b.targets()) {
      if (mine) {
        add(pt, 'target');
        if (target.kind === 'piece') add(pt, 'movable');
        if (target.kind === 'remove') add(pt, 'removable');
        labels.set(pt, t(`point.${{ piece: 'can_move', remove: 'can_remove' }[target.kind] ?? 'target'}`));
      }
      const grade = bestGrade(target.plies);
      if (grade) add(pt, 'graded', `grade-${grade}`);
    }
    if (mine && state.builder.step === 'to') {
      add(state.builder.from, 'selected');
      labels.set(state.builder.from, t('point.selected'));
      // The other pieces stay movable: a click on one picks it instead.
      for (const pt of state.builder.movable()) if (pt !== state.builder.from) add(pt, 'movable');
    }
  }
  const shownHint = state.review === null ? state.preview ?? state.hint?.ply ?? null : null;
  if (shownHint) {
    if (shownHint.from) add(shownHint.from, 'hint');
    add(shownHint.to, 'hint');
  }
  board.render({
    board: shown,
    classes,
    labels,
    last: last && state.review !== null ? { ...last, key: state.review } : last,
    hint: shownHint,
    draggable: mine && state.builder.step !== 'remove' ? state.builder.movable() : new Set(),
    interactive: mine,
    anim: state.anim,
  });
  state.anim = null;
}

/** "Your move · White", "Black to move", "White wins". */
function statusTurn() {
  const g = state.game;
  if (!g) return t('status.no_game');
  if (g.status === 'over') return g.result ? headline(g.result) : t('status.over');
  if (state.you === g.turn) return t('status.your_move', { color: cap(g.turn) });
  return t('status.to_move', { color: cap(g.turn) });
}

function stepWords() {
  const g = state.game;
  const b = state.builder;
  let step;
  if (b.step === 'remove') step = t(`step.remove_${other(g.turn)}`);
  else if (b.step === 'to') step = t('step.to', { point: b.from ?? '' });
  else {
    const kinds = new Set([...b.targets().values()].map((target) => target.kind));
    if (kinds.has('place') && kinds.has('piece')) step = t('step.place_or_move');
    else if (kinds.has('place')) step = t('step.place');
    else step = t('step.move');
  }
  return state.you === 'both' ? t('step.who', { color: cap(g.turn), step }) : step;
}

function renderStatus() {
  const g = state.game;
  const turn = $('turn');
  turn.textContent = statusTurn();
  turn.dataset.turn = g && g.status === 'playing' ? g.turn : '';
  turn.classList.toggle('over', g?.status === 'over');
  const status = $('status');
  status.classList.toggle('over', g?.status === 'over');
  status.classList.toggle('thinking', Boolean(g?.thinking));
  let text = '';
  if (!g) text = t('status.start');
  else if (g.status === 'over' && g.result) text = endWords(g.result, hasSeat() ? state.you : null, reasonWords(g.result));
  else if (state.review !== null) text = t('status.review', { ply: state.review, total: g.moves.length });
  else if (g.thinking) text = t('status.thinking');
  else if (state.busy) text = t('status.sending');
  else if (canMove()) text = stepWords();
  else if (!state.you) text = t('status.watching');
  else {
    const p = g.players?.[g.turn];
    text = p?.kind === 'computer' ? t('status.computer_to_move') : t('status.waiting', { name: p?.name || cap(g.turn) });
  }
  status.textContent = text;

  const hint = $('hint-text');
  hint.hidden = !state.hint;
  if (state.hint) {
    const score = scoreWords(state.hint.score);
    const words = score ? t('hint.text_score', { ply: state.hint.ply.text, score }) : t('hint.text', { ply: state.hint.ply.text });
    hint.textContent = state.hint.exact ? `${words} ${t('hint.exact')}` : words;
  }

  // A pending draw offer: the other side (or either, on one device) answers it.
  const offer = g?.status === 'playing' ? g.draw_offer : null;
  const box = $('draw-offer');
  box.hidden = !offer;
  if (offer) {
    const mineOffer = state.you === offer;
    $('draw-offer-text').textContent = mineOffer ? t('draw.you_offered') : t('draw.offers', { color: cap(offer) });
    const answer = hasSeat() && !mineOffer;
    $('btn-draw-accept').hidden = !answer;
    $('btn-draw-decline').hidden = !answer;
  }
}

function renderButtons() {
  const g = state.game;
  const seat = hasSeat();
  const you = seat ? state.you : null;
  // Only what can work now is offered; nothing while the computer thinks.
  const set = (id, enabled) => {
    $(id).disabled = !enabled || state.busy;
  };
  set('btn-takeback', canTakeBack(g, you));
  // Between people a take-back is asked for in the table card: no dead button here.
  $('btn-takeback').hidden = !ownTakeback(g, you);
  set('btn-hint', canCoach(g) && g.legal.length > 0);
  set('btn-analysis', canCoach(g) || state.analysisOn);
  set('btn-resign', canEnd(g, you));
  const offered = g?.draw_offer && g.draw_offer === state.you;
  set('btn-draw', canOfferDraw(g, you));
  $('btn-draw').textContent = offered ? t('action.draw_offered') : t('action.draw');
  set('btn-export', Boolean(g));
  $('btn-analysis').setAttribute('aria-pressed', String(state.analysisOn));
  $('controls').classList.toggle('spectator', Boolean(g) && !seat);
  $('controls').classList.toggle('over', g?.status === 'over');
}

function renderAnalysisPanel() {
  const panel = $('analysis-panel');
  panel.hidden = !state.analysisOn || state.game?.status !== 'playing';
  if (panel.hidden) return;
  const a = state.analysis;
  const fresh = a && a.key === positionKey(state.game) ? a.data : null;
  renderAnalysis($('analysis-list'), $('analysis-source'), fresh, (move) => {
    state.preview = parsePly(move);
    render();
  });
}

function renderInvite() {
  const card = $('invite');
  const invite = state.id && tokens.invite(state.id);
  const g = state.game;
  // Shown to the creator of a friend game until the friend has played or it is closed.
  const friendPlayed = g && g.moves.some((_, i) => colorOfPly(g, i) !== state.you);
  card.hidden = !invite || !g || g.status !== 'playing' || friendPlayed || state.inviteHidden;
  if (card.hidden) return;
  const base = `${location.origin}/g/${encodeURIComponent(state.id)}`;
  $('invite-link').value = `${base}?t=${invite}`;
  $('watch-link').value = base;
}

// ----- games -----

/** Takes a GAME object from any source; stale or foreign ones are dropped. */
function apply(game) {
  if (!game || game.id !== state.id) return;
  const old = state.game;
  if (old && game.version <= old.version) {
    if (!state.you && game.you) {
      state.you = game.you;
      render();
    }
    return;
  }
  if (game.you) state.you = game.you;
  const variant = state.variants.get(game.variant);
  if (variant) state.variant = variant;

  // Animate a single new ply, unless it is the one this page already drew.
  const grew = old && old.start === game.start && game.moves.length === old.moves.length + 1 &&
    old.moves.every((m, i) => game.moves[i] === m);
  const said = [];
  if (grew) {
    const text = game.moves[game.moves.length - 1];
    if (!state.inFlight || state.inFlight.text !== text) state.anim = parsePly(text);
    if (game.status !== 'over') playSound(cueOf(parsePly(text)), state.settings.sound);
    said.push(describePly(text, colorOfPly(game, game.moves.length - 1)));
  }
  if (game.status === 'over' && game.result && old?.status !== 'over') {
    said.push(resultWords(game.result));
    if (old) playSound('end', state.settings.sound);
  }
  if (old?.draw_offer && old.draw_offer === state.you && !game.draw_offer && game.status === 'playing') {
    showNotice(() => t('draw.declined'));
  }
  if (said.length) announce(said.join(' '));

  // A change beside the board (a draw offer, the computer starting to think) keeps the
  // half-made ply and the hint; a new position starts afresh.
  const moved = positionKey(old) !== positionKey(game);
  state.game = game;
  state.inFlight = null;
  if (moved || game.thinking) {
    state.builder = new PlyBuilder(game.legal);
    state.hint = null;
    state.preview = null;
  }
  if (state.review !== null && state.review > game.moves.length) state.review = null;
  if (state.analysisOn) fetchAnalysis();
  render();
  gameChanged(game, state.you, state.token);
}

async function openGame(id, initial = null) {
  state.live?.stop();
  Object.assign(state, {
    id, token: tokens.get(id), you: null, game: null, builder: new PlyBuilder([]), inFlight: null,
    hint: null, preview: null, analysis: null, review: null, inviteHidden: false, busy: false,
    missing: null, ratings: null,
  });
  try {
    apply(initial ?? (await api.game(id, state.token)));
  } catch (err) {
    // A game that cannot be shown gets a screen of its own, with only what makes sense.
    state.missing = err.status === 404 ? 'error.no_game' : errorKey(err.status ?? -1, err.message);
    render();
    return;
  }
  if (state.token && state.you) tokens.setLast(id);
  state.live = new Live(id, state.token, apply, setConnection, gameEvent);
  const g = state.game;
  if (g?.rated && g.status === 'playing') {
    playerRatings(g).then((ratings) => {
      if (state.id !== id) return;
      state.ratings = ratings;
      render();
    });
  }
}

/** The page goes into the back/forward cache: its sockets close, so the player counts as gone. */
function suspend() {
  state.live?.stop();
  state.live = null;
  suspendSite();
}

/** The page comes back from the back/forward cache: its sockets open again. */
function resume() {
  if (state.id && !state.live && !state.missing) {
    state.live = new Live(state.id, state.token, apply, setConnection, gameEvent);
  }
  resumeSite();
}

function setConnection(s) {
  const c = $('conn');
  c.dataset.state = s;
  c.textContent = s === 'live' ? t('conn.live') : t('conn.offline');
  c.title = s === 'live' ? t('conn.live_title') : t('conn.offline_title');
}

/** The route: `/g/{id}[?t=TOKEN]` opens a game; anything else shows the new-game dialog. */
async function route() {
  if (await siteRoute(location.pathname)) {
    state.live?.stop();
    state.live = null;
    return;
  }
  const m = /^\/g\/([^/]+)\/?$/.exec(location.pathname);
  if (!m) {
    state.live?.stop();
    state.live = null;
    Object.assign(state, { id: null, game: null, you: null, token: null, review: null, missing: null });
    if (location.pathname !== '/' && location.pathname !== '/index.html') {
      // An address of the app that names nothing (such as /g/ alone): say so, with the ways on.
      state.missing = 'missing.page';
      render();
      return;
    }
    const last = tokens.last();
    const resume = $('resume');
    resume.hidden = !last;
    if (last) resume.href = `/g/${encodeURIComponent(last)}`;
    render();
    dialogs.openNewGame(new URLSearchParams(location.search).get('variant') ?? undefined);
    return;
  }
  const id = decodeURIComponent(m[1]);
  const params = new URLSearchParams(location.search);
  const t = params.get('t');
  if (t) {
    // Keep the seat's token in this browser only, never in the address bar or history.
    tokens.set(id, t);
    params.delete('t');
    const rest = params.toString();
    history.replaceState(null, '', `/g/${encodeURIComponent(id)}${rest ? `?${rest}` : ''}`);
  }
  // A game opened for analysis (from the review or the editor) starts with the analysis on.
  if (params.get('analysis') === '1') {
    params.delete('analysis');
    const rest = params.toString();
    history.replaceState(null, '', `/g/${encodeURIComponent(id)}${rest ? `?${rest}` : ''}`);
    await openGame(id);
    state.analysisOn = true;
    fetchAnalysis();
    render();
    return;
  }
  await openGame(id);
}

/** `POST /api/games` from either dialog, then opens the new game. */
async function createGame(options) {
  const res = await api.create(options);
  tokens.set(res.id, res.token);
  tokens.setInvite(res.id, res.invite || null);
  tokens.setLast(res.id);
  history.pushState(null, '', `/g/${encodeURIComponent(res.id)}`);
  const game = { ...res.game };
  if (!game.you) game.you = options.opponent === 'local' ? 'both' : res.color;
  await openGame(res.id, game);
}

/** Runs a request that changes the game, showing its error and rendering its answer. */
async function act(request) {
  if (state.busy || !state.id) return false;
  state.busy = true;
  render();
  try {
    apply(await request());
    return true;
  } catch (err) {
    state.inFlight = null;
    state.builder.reset();
    showError(() => errorText(err));
    return false;
  } finally {
    state.busy = false;
    render();
  }
}

function submitPly(text) {
  state.inFlight = { ...parsePly(text), text };
  state.builder.reset();
  act(() => api.move(state.id, state.token, text));
}

async function fetchAnalysis() {
  const g = state.game;
  // Nothing to grade once the game is over, nor while the engine is busy with its own ply.
  const key = positionKey(g);
  if (!g || g.status !== 'playing' || g.thinking || state.analysis?.key === key) return;
  state.analysis = { key, data: null };
  try {
    const data = await api.analysis(state.id);
    if (positionKey(state.game) === key) state.analysis = { key, data };
  } catch (err) {
    state.analysisOn = false;
    showError(() => errorText(err));
  }
  render();
}

// ----- input -----

/** A step on the board, with the animation the step shows. */
function choose(point) {
  const b = state.builder;
  const before = b.pending();
  const result = b.choose(point);
  const after = result.ply ? parsePly(result.ply) : b.pending();
  if (after && !before) {
    // The piece arrives at its point now (a dragged piece is there already).
    state.anim = state.dragging ? { from: null, to: null, removes: after.removes } : after;
  } else if (after && before && after.removes.length > before.removes.length) {
    state.anim = { from: null, to: null, removes: after.removes.slice(before.removes.length) };
  }
  state.preview = null;
  if (result.ply) submitPly(result.ply);
  else render();
}

const boardHandlers = {
  onActivate(point) {
    if (state.review !== null) {
      reviewTo(null);
      return;
    }
    if (canMove()) choose(point);
  },
  onCancel() {
    cancel();
  },
  onDragStart(point) {
    if (!canMove()) return;
    if (state.builder.from !== point) {
      state.builder.reset();
      state.builder.choose(point);
    }
    render();
  },
  onDrop(from, to) {
    if (!canMove()) return;
    if (!to) {
      state.builder.reset();
      render();
      return;
    }
    state.dragging = true;
    choose(to);
    state.dragging = false;
  },
};

function cancel() {
  if (state.builder.started || state.preview) {
    state.builder.reset();
    state.preview = null;
    render();
  }
}

/** Shows the position after `count` plies (null: the live position). */
function reviewTo(count) {
  const g = state.game;
  if (!g) return;
  if (count !== null && (count >= g.moves.length || count < 0)) count = count < 0 ? 0 : null;
  state.review = count;
  state.builder.reset();
  render();
}

function announce(text) {
  const el = $('announce');
  el.textContent = '';
  // A fresh text node in a new frame makes screen readers speak repeated words too.
  requestAnimationFrame(() => {
    el.textContent = text;
  });
}

/** A refusal of the API, or a failure to reach it, as a sentence in the page's language. */
const errorText = (err) => t(errorKey(typeof err?.status === 'number' ? err.status : -1, err?.message));

/** The screen of an address whose game cannot be shown, instead of an empty board. */
function renderMissing() {
  const missing = state.missing;
  $('missing').hidden = !missing;
  document.querySelector('.layout').hidden = Boolean(missing);
  if (!missing) return;
  const page = missing === 'missing.page';
  const notFound = missing === 'error.no_game' || page;
  $('missing-title').textContent = t(page ? 'missing.page_title' : notFound ? 'missing.title' : 'missing.failed_title');
  $('missing-text').textContent = page ? t('missing.page_text') : notFound ? t('missing.text') : t(missing);
  $('missing-retry').hidden = notFound;
  $('missing-lobby').hidden = !page;
  const last = tokens.last();
  const resume = $('missing-resume');
  resume.hidden = !last || last === state.id;
  if (!resume.hidden) resume.href = `/g/${encodeURIComponent(last)}`;
}

/** Whether this browser plays a game that is on: leaving it asks first. */
const inGame = () => Boolean(state.game?.status === 'playing' && hasSeat() && state.game.moves.length > 0);

/**
 * The two banners: `#error` (role=alert) for what went wrong, kept until dismissed or ten
 * seconds, and `#notice` (role=status) for news that is no error (an offer declined), gone
 * after six. A message is a function, so that a change of language says it again.
 * @type {Record<'error' | 'notice', {words: (() => string) | null, timer: any}>}
 */
const banners = { error: { words: null, timer: null }, notice: { words: null, timer: null } };
const BANNER_MS = { error: 10000, notice: 6000 };

/**
 * @param {'error' | 'notice'} kind
 * @param {string | (() => string)} message
 */
function showBanner(kind, message) {
  const b = banners[kind];
  b.words = typeof message === 'function' ? message : () => message;
  $(`${kind}-text`).textContent = b.words();
  $(kind).hidden = false;
  clearTimeout(b.timer);
  b.timer = setTimeout(() => hideBanner(kind), BANNER_MS[kind]);
}

/** @param {'error' | 'notice'} kind */
function hideBanner(kind) {
  clearTimeout(banners[kind].timer);
  banners[kind].words = null;
  $(kind).hidden = true;
}

/** @param {string | (() => string)} message */
const showError = (message) => showBanner('error', message);
/** @param {string | (() => string)} message */
const showNotice = (message) => showBanner('notice', message);

function wireButtons() {
  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('btn-new', async () => {
    if (inGame() && !(await dialogs.confirm(t('confirm.new'), t('confirm.new_yes')))) return;
    dialogs.openNewGame(state.variant?.name);
  });
  on('btn-import', async () => {
    if (inGame() && !(await dialogs.confirm(t('confirm.new'), t('confirm.new_yes')))) return;
    dialogs.openImport();
  });
  on('missing-new', () => dialogs.openNewGame(state.variant?.name));
  on('missing-retry', () => route());
  on('btn-takeback', () => act(() => api.takeback(state.id, state.token)));
  on('btn-hint', async () => {
    const key = positionKey(state.game);
    try {
      const res = await api.hint(state.id);
      if (positionKey(state.game) !== key) return;
      state.hint = { ply: parsePly(res.move), score: res.score, exact: res.source === 'tablebase' };
      announce(t('hint.text', { ply: res.move }));
      render();
    } catch (err) {
      showError(() => errorText(err));
    }
  });
  on('btn-analysis', () => {
    state.analysisOn = !state.analysisOn;
    state.preview = null;
    if (state.analysisOn) fetchAnalysis();
    render();
  });
  on('btn-resign', async () => {
    if (await dialogs.confirm(t('confirm.resign'), t('confirm.resign_yes'))) act(() => api.resign(state.id, state.token));
  });
  on('btn-draw', async () => {
    // The computer answers at once, and may end the game by accepting.
    const computer = state.game?.opponent === 'computer';
    if (computer && !(await dialogs.confirm(t('confirm.draw_computer'), t('confirm.draw_yes')))) return;
    if (!(await act(() => api.draw(state.id, state.token, 'offer')))) return;
    // The computer answers at once: an offer that is gone from a game still on was declined.
    const g = state.game;
    if (g.status === 'playing' && !g.draw_offer) showNotice(() => t('draw.declined'));
  });
  on('btn-draw-accept', () => act(() => api.draw(state.id, state.token, 'accept')));
  on('btn-draw-decline', () => act(() => api.draw(state.id, state.token, 'decline')));
  on('btn-export', async () => {
    try {
      const id = state.id;
      dialogs.openExport(id, await api.record(id), (format) => api.record(id, format));
    } catch (err) {
      showError(() => errorText(err));
    }
  });
  on('error-close', () => hideBanner('error'));
  on('notice-close', () => hideBanner('notice'));
  on('invite-close', () => {
    state.inviteHidden = true;
    render();
  });
  for (const [button, input] of [['copy-invite', 'invite-link'], ['copy-watch', 'watch-link']]) {
    on(button, async (e) => {
      const b = e.currentTarget;
      flash(b, (await copyText($(input).value)) ? t('copy.done') : t('copy.failed'));
    });
  }
  on('rev-first', () => reviewTo(0));
  on('rev-prev', () => reviewTo((state.review ?? state.game.moves.length) - 1));
  on('rev-next', () => reviewTo(state.review === null ? null : state.review + 1));
  on('rev-live', () => reviewTo(null));
}

const systemDark = window.matchMedia('(prefers-color-scheme: dark)');

/** Draws the page as the settings say: theme, coordinates, dots, side and speed. */
function applySettings() {
  const s = state.settings;
  const root = document.documentElement;
  root.dataset.theme = resolveTheme(s.theme, systemDark.matches);
  root.dataset.coords = s.coords ? 'on' : 'off';
  root.dataset.dots = s.dots ? 'on' : 'off';
  board.setView(s.flip, SPEED_FACTOR[s.speed]);
}

/** The settings dialog: every change is drawn and kept at once. */
function wireSettings() {
  const dialog = $('settings');
  const form = dialog.querySelector('form');
  const fill = () => {
    const s = state.settings;
    for (const key of ['flip', 'coords', 'dots']) form.elements[key].checked = s[key];
    for (const key of ['speed', 'sound', 'theme']) form.elements[key].value = s[key];
  };
  form.addEventListener('change', () => {
    const f = form.elements;
    state.settings = readSettings({
      flip: f.flip.checked, coords: f.coords.checked, dots: f.dots.checked,
      speed: f.speed.value, sound: f.sound.value, theme: f.theme.value,
    });
    saveSettings(state.settings);
    applySettings();
    render();
    // A sample, so that the volume chosen is heard (and audio is allowed by this click).
    playSound('place', state.settings.sound);
  });
  $('btn-settings').addEventListener('click', () => {
    fill();
    dialog.showModal();
  });
  systemDark.addEventListener('change', applySettings);
}

/** Sets the texts made by script again in the language in use (the fixed ones are set). */
function retranslate() {
  dialogs.setVariants([...state.variants.values()]);
  dialogs.retranslate();
  if ($('conn').dataset.state) setConnection($('conn').dataset.state);
  for (const kind of /** @type {const} */ (['error', 'notice'])) {
    const words = banners[kind].words;
    if (words) $(`${kind}-text`).textContent = words();
  }
  render();
  retranslateSite();
}

async function main() {
  await startShell(retranslate);
  await initSite({ showError, showNotice, describe: (err) => errorText(err) });
  board = new Board($('board'), boardHandlers);
  applySettings();
  wireSettings();
  unlockOnGesture();
  dialogs = new Dialogs(createGame);
  wireDialogLinks();
  wireButtons();
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !document.querySelector('dialog[open]')) cancel();
  });
  // A click anywhere off the board's points cancels a half-made ply (the board itself
  // reports clicks beside its points; the analysis list shows plies on the board).
  // The event's path is taken, not target.closest(): a render may have detached the target.
  document.addEventListener('click', (e) => {
    const keep = e.composedPath().some((n) => n instanceof Element && n.matches('#board, dialog, #analysis-panel, .banner'));
    if (!keep) cancel();
  });
  window.addEventListener('popstate', route);
  window.addEventListener('pagehide', suspend);
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) resume();
  });
  try {
    // While the server restarts, the page (kept by the service worker) says so and waits.
    const variants = await untilReached(() => api.variants(), () => setConnection('offline'));
    for (const v of variants) state.variants.set(v.name, v);
    dialogs.setVariants(variants);
    state.variant = state.variants.get('nine') ?? variants[0];
  } catch (err) {
    showError(() => errorText(err));
    return;
  }
  await route();
}

main();
