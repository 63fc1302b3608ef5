// The review page: a finished (or imported) game ply by ply, with the evaluation graph, the
// grade of every ply, the engine's line at each, and play on from any ply.

import { api, tokens } from './api.js';
import { Board } from './board.js';
import { parsePly, replay, sideOf } from './plies.js';
import { scoreWords, fromWhite } from './format.js';
import { formatClock } from './clock.js';
import { leftAt, moverOf, spentOn } from './plyclock.js';
import { errorKey } from './errors.js';
import { t } from './i18n.js';
import { GRADES, gradePlies, worstPlies, tally, curve } from './grades.js';
import { startShell, untilReached } from './shell.js';
import { startNotices } from './notify.js';
import { loadSettings, resolveTheme, SPEED_FACTOR } from './settings.js';

const $ = (id) => document.getElementById(id);
const cap = (color) => t(`color.${color}`);
const GRAPH = { width: 300, height: 90 };

const state = {
  id: null,
  variant: null,
  game: null,
  review: null, // the answer of POST /api/games/{id}/review
  grades: [],
  index: 0, // plies shown: 0 is the start
  worst: -1, // the last of the worst plies jumped to
  message: null, // {key, params} of what the page waits for or what went wrong, or null
  error: null, // a refusal of the server, said in the page's language at each render, or null
};

let board;

/** The number and colour of ply `i`: "12." for White, "12…" for Black. */
function plyNumber(i) {
  const start = sideOf(state.game.start);
  const whiteFirst = start.turn === 'white';
  const half = i + (whiteFirst ? 0 : 1);
  const number = start.number + Math.floor(half / 2);
  return half % 2 === 0 ? `${number}.` : `${number}…`;
}

function errorText(err) {
  return t(errorKey(typeof err?.status === 'number' ? err.status : -1, err?.message));
}

// ----- rendering -----

function render() {
  renderBoard();
  renderPly();
  renderClocks();
  renderGraph();
  renderTally();
  renderList();
  renderPlayOn();
  const n = state.game ? state.game.moves.length : 0;
  $('nav-where').textContent = state.game ? t('review.where', { ply: state.index, total: n }) : '';
  $('nav-first').disabled = state.index === 0;
  $('nav-prev').disabled = state.index === 0;
  $('nav-next').disabled = state.index >= n;
  $('nav-last').disabled = state.index >= n;
  $('btn-worst').disabled = !state.review || worstPlies(state.grades).length === 0;
  $('board').dataset.version = String(state.review ? state.index + 1 : 0);
  document.title = `${t('review.title')} · Morris`;
}

function renderBoard() {
  const g = state.game;
  if (!g || !state.variant) return;
  board.setVariant(state.variant);
  const shown = replay(g.start, g.moves, state.index, state.variant.points);
  const last = state.index > 0 ? { ...parsePly(g.moves[state.index - 1]), key: state.index } : null;
  const classes = new Map();
  // The better ply of the position before, when the one played was not the best.
  let hint = null;
  const before = state.review?.positions[state.index - 1];
  if (before && state.index > 0 && before.best && before.best !== g.moves[state.index - 1]) {
    hint = parsePly(before.best);
  }
  board.render({ board: shown, classes, labels: new Map(), last, hint, draggable: new Set(), interactive: false, anim: null });
}

function renderPly() {
  const g = state.game;
  const words = $('ply-words');
  const line = $('ply-line');
  const progress = $('review-progress');
  const message = state.error ? errorText(state.error) : state.message ? t(state.message.key, state.message.params) : '';
  progress.hidden = !message;
  progress.textContent = message;
  if (!g) {
    words.textContent = '';
    line.textContent = '';
    return;
  }
  if (state.index === 0) {
    words.textContent = t('review.at_start');
  } else {
    const i = state.index - 1;
    const ply = g.moves[i];
    const color = state.review ? state.review.plies[i].side : null;
    let text = t('review.ply', { number: plyNumber(i), ply });
    if (state.review) {
      const grade = state.grades[i];
      text = t('review.ply_graded', { number: plyNumber(i), ply, color: cap(color), grade: t(`grade.${grade}`) });
      const before = state.review.positions[i];
      if (grade !== 'best' && before.best) {
        text += ` ${t('review.best_was', { ply: before.best, score: scoreWords(fromWhite(before.score, before.turn)) })}`;
      }
      if (state.review.plies[i].source === 'tablebase') text += ` ${t('review.exact')}`;
    }
    words.textContent = text;
    words.className = `ply-words${state.review ? ` grade-${state.grades[i]}` : ''}`;
  }
  const at = state.review?.positions[state.index];
  if (!at) {
    line.textContent = state.review && state.index >= state.review.positions.length ? t('review.not_reviewed') : '';
  } else if (!at.best) {
    line.textContent = t('review.line_over');
  } else {
    const score = scoreWords(fromWhite(at.score, at.turn));
    line.textContent = t('review.line', { color: cap(at.turn), score, line: at.line.join(' ') });
  }
}

/** Each side's time left at the ply shown, in a game with a clock. */
function renderClocks() {
  const box = $('review-clocks');
  const g = state.game;
  box.hidden = !g?.clock;
  if (!g?.clock) return;
  const left = leftAt(g.clock, g.start, state.index);
  const over = g.status === 'over' && state.index >= g.moves.length;
  for (const color of ['white', 'black']) {
    const el = box.querySelector(`[data-color="${color}"]`);
    el.querySelector('.time').textContent = formatClock(left[color]);
    el.classList.toggle('to-move', !over && moverOf(g.start, state.index) === color);
  }
}

function renderGraph() {
  const svg = $('eval-graph');
  svg.replaceChildren();
  const r = state.review;
  const { width, height } = GRAPH;
  const NS = 'http://www.w3.org/2000/svg';
  const el = (name, attrs) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.append(e);
    return e;
  };
  el('rect', { class: 'graph-bg', x: 0, y: 0, width, height });
  el('line', { class: 'graph-mid', x1: 0, y1: height / 2, x2: width, y2: height / 2 });
  if (!r) {
    svg.setAttribute('aria-label', t('review.graph'));
    return;
  }
  const pts = curve(r.positions, width, height);
  const path = pts.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
  // White's share is the area below the curve, down to the bottom edge.
  el('path', { class: 'graph-white', d: `${path} L${width} ${height} L0 ${height} Z` });
  el('path', { class: 'graph-line', d: path });
  const x = pts[Math.min(state.index, pts.length - 1)]?.x ?? 0;
  el('line', { class: 'graph-cursor', x1: x, y1: 0, x2: x, y2: height });
  state.grades.forEach((g, i) => {
    if (GRADES.indexOf(g) < GRADES.indexOf('inaccuracy')) return;
    const p = pts[i + 1];
    el('circle', { class: `graph-dot grade-${g}`, cx: p.x, cy: p.y, r: 3.2, 'data-index': i + 1 });
  });
  const worst = worstPlies(state.grades, 3).map((i) => `${plyNumber(i)} ${state.game.moves[i]} (${t(`grade.${state.grades[i]}`)})`);
  svg.setAttribute('aria-label', worst.length ? t('review.graph_worst', { plies: worst.join(', ') }) : t('review.graph_clean'));
}

function renderTally() {
  const table = $('review-tally');
  table.replaceChildren();
  if (!state.review) return;
  const counts = tally(state.review, state.grades);
  const head = table.createTHead().insertRow();
  const corner = document.createElement('th');
  corner.textContent = t('review.grade');
  corner.scope = 'col';
  head.append(corner);
  for (const c of ['white', 'black']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = cap(c);
    head.append(th);
  }
  const body = table.createTBody();
  for (const g of GRADES) {
    const row = body.insertRow();
    row.className = `grade-${g}`;
    const th = document.createElement('th');
    th.scope = 'row';
    th.className = 'grade-word';
    th.textContent = t(`grade.${g}`);
    row.append(th);
    for (const c of ['white', 'black']) row.insertCell().textContent = String(counts[c][g]);
  }
}

function renderList() {
  const list = $('review-plies');
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.index : null;
  list.replaceChildren();
  const g = state.game;
  if (!g) return;
  g.moves.forEach((ply, i) => {
    const li = document.createElement('li');
    const grade = state.grades[i];
    if (grade) li.className = `grade-${grade}`;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'review-ply';
    b.dataset.index = String(i + 1);
    b.dataset.ply = ply;
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = plyNumber(i);
    const text = document.createElement('span');
    text.className = 'ply';
    text.textContent = ply;
    b.append(num, text);
    const spent = g.clock ? spentOn(g.clock, i) : null;
    if (spent !== null) {
      const took = document.createElement('span');
      took.className = 'spent';
      took.textContent = formatClock(spent);
      took.title = t('moves.took', { time: took.textContent });
      b.append(took);
    }
    if (grade) {
      const word = document.createElement('span');
      word.className = 'grade-word';
      word.textContent = t(`grade.${grade}`);
      b.append(word);
    }
    if (i + 1 === state.index) b.setAttribute('aria-current', 'step');
    b.addEventListener('click', () => go(i + 1));
    li.append(b);
    list.append(li);
  });
  // Keep the current ply in view by scrolling the list itself (never the page).
  const current = list.querySelector('[aria-current]')?.parentElement;
  if (current) {
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
  if (focused !== null) list.querySelector(`[data-index="${focused}"]`)?.focus();
}

function renderPlayOn() {
  const at = state.review?.positions[state.index];
  const open = Boolean(at && at.best);
  $('playon-computer').disabled = !open;
  $('playon-analysis').disabled = !open;
  const level = $('playon-level');
  if (level.options.length === 0) {
    for (let i = 1; i <= 10; i++) level.append(new Option(String(i), String(i), i === 3, i === 3));
  }
}

// ----- actions -----

function go(index) {
  const n = state.game ? state.game.moves.length : 0;
  state.index = Math.max(0, Math.min(n, index));
  const url = new URL(location.href);
  url.searchParams.set('ply', String(state.index));
  history.replaceState(null, '', url);
  render();
}

function nextWorst() {
  const worst = worstPlies(state.grades);
  if (!worst.length) return;
  const at = worst.indexOf(state.worst);
  state.worst = worst[(at + 1) % worst.length];
  go(state.worst + 1);
}

async function playOn(opponent) {
  const at = state.review?.positions[state.index];
  if (!at) return;
  const body = { variant: state.game.variant, opponent, position: at.position };
  if (opponent === 'computer') {
    body.level = Number($('playon-level').value);
    body.color = at.turn;
  }
  try {
    const res = await api.create(body);
    tokens.set(res.id, res.token);
    tokens.setLast(res.id);
    location.href = `/g/${encodeURIComponent(res.id)}${opponent === 'local' ? '?analysis=1' : ''}`;
  } catch (err) {
    showError(err);
  }
}

/** The error said in the banner, again in the new words when the language changes. */
let shownError = null;

function showError(err) {
  shownError = err;
  $('error-text').textContent = errorText(err);
  $('error').hidden = false;
}

function onKey(e) {
  if (e.target.closest?.('input, select, textarea')) return;
  const n = state.game ? state.game.moves.length : 0;
  const moves = { ArrowLeft: state.index - 1, ArrowRight: state.index + 1, ArrowUp: 0, ArrowDown: n, Home: 0, End: n };
  if (!(e.key in moves) || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  go(moves[e.key]);
}

async function load() {
  const id = state.id;
  const game = await untilReached(() => api.game(id, tokens.get(id)), () => {
    state.message = { key: 'conn.offline' };
    render();
  });
  state.message = null;
  state.game = game;
  $('back-game').href = `/g/${encodeURIComponent(id)}`;
  const variants = await api.variants();
  state.variant = variants.find((v) => v.name === game.variant) ?? variants[0];
  const plyParam = new URLSearchParams(location.search).get('ply');
  const asked = plyParam === null ? NaN : Number(plyParam);
  state.index = Number.isInteger(asked) && asked >= 0 && asked <= game.moves.length ? asked : game.moves.length;
  if (game.moves.length === 0) {
    state.message = { key: 'review.empty' };
    render();
    return;
  }
  const key = `morris.review.${id}.${game.version}`;
  let review = null;
  try {
    review = JSON.parse(sessionStorage.getItem(key) ?? 'null');
  } catch {
    review = null;
  }
  if (!review) {
    const seconds = Math.max(1, Math.round((game.moves.length + 1) * 0.15));
    state.message = { key: 'review.working', params: { count: seconds } };
    render();
    review = await api.review(id);
    try {
      sessionStorage.setItem(key, JSON.stringify(review));
    } catch {
      /* storage full or off: the review is asked for again next time */
    }
  }
  state.review = review;
  state.message = null;
  state.grades = gradePlies(review);
  render();
  $('announce').textContent = t('review.done', { count: review.plies.length });
}

async function main() {
  await startShell(() => {
    if (shownError) $('error-text').textContent = errorText(shownError);
    render();
  });
  startNotices();
  const settings = loadSettings();
  const root = document.documentElement;
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  root.dataset.theme = resolveTheme(settings.theme, dark.matches);
  root.dataset.coords = settings.coords ? 'on' : 'off';
  board = new Board($('board'), { onActivate() {}, onCancel() {}, onDragStart() {}, onDrop() {} });
  board.setView(settings.flip, SPEED_FACTOR[settings.speed]);
  state.id = new URLSearchParams(location.search).get('game');
  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('nav-first', () => go(0));
  on('nav-prev', () => go(state.index - 1));
  on('nav-next', () => go(state.index + 1));
  on('nav-last', () => go(state.game ? state.game.moves.length : 0));
  on('btn-worst', nextWorst);
  on('playon-computer', () => playOn('computer'));
  on('playon-analysis', () => playOn('local'));
  $('eval-graph').addEventListener('click', (e) => {
    if (!state.review) return;
    const box = e.currentTarget.getBoundingClientRect();
    const share = (e.clientX - box.left) / box.width;
    go(Math.round(share * (state.review.positions.length - 1)));
  });
  document.addEventListener('keydown', onKey);
  if (!state.id) {
    state.message = { key: 'review.no_game' };
    render();
    return;
  }
  try {
    await load();
  } catch (err) {
    state.message = null;
    state.error = err;
    render();
  }
}

main();
