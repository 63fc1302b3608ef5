// The end of a game on the game page: the result in large type, the mill or the block that
// decided it marked on the board, and what comes next (rematch, review, new game); and the
// links from the game page to the review, the rules and the board editor.

import { t } from './i18n.js';

const $ = (id) => document.getElementById(id);

/** @typedef {'white' | 'black'} Color */

/**
 * The points that decided a finished game: the mill its last ply closed (a win by removal or,
 * in Three Men's Morris, by a line), or the pieces of the side that is blocked.
 * @param {{status: string, result: ?{winner: ?Color, reason: string}, last: ?string,
 *   board: Record<string, Color>}} game
 * @param {{mills: string[][]}} variant
 * @returns {{kind: 'mill' | 'blocked', points: string[]} | null}
 */
export function decidingPoints(game, variant) {
  const r = game?.result;
  if (!r || game.status !== 'over' || !r.winner) return null;
  if (r.reason === 'blocked') {
    const loser = r.winner === 'white' ? 'black' : 'white';
    const points = Object.keys(game.board).filter((p) => game.board[p] === loser);
    return points.length ? { kind: 'blocked', points } : null;
  }
  if ((r.reason === 'fewer_than_three' || r.reason === 'line') && game.last) {
    const head = game.last.toLowerCase().split('x')[0];
    const to = head.includes('-') ? head.split('-')[1] : head;
    const points = millPoints(game.board, to, r.winner, variant.mills);
    return points.length ? { kind: 'mill', points } : null;
  }
  return null;
}

/**
 * The points of the mills through `to` that `color` holds on `board`: the mill a ply to `to`
 * closed (two at once, as a cross, when it closed two).
 * @param {Record<string, Color>} board
 * @param {string} to
 * @param {Color} color
 * @param {string[][]} mills
 * @returns {string[]}
 */
export function millPoints(board, to, color, mills) {
  const closed = mills.filter((m) => m.includes(to) && m.every((p) => board[p] === color));
  return [...new Set(closed.flat())];
}

/**
 * The headline of a finished game: who won, a draw, or that it was aborted (which is no
 * result at all).
 * @param {{winner: ?Color, reason: string}} result
 */
export function headline(result) {
  if (result.reason === 'aborted') return t('end.aborted');
  return result.winner ? t('end.wins', { color: t(`color.${result.winner}`) }) : t('end.draw');
}

/**
 * The end's part of the status card, made once under the status: the marks explained and
 * what comes next. The card's own lines carry the headline (in place of whose turn it is)
 * and the reason, so that the result and its next steps fit the first screen of a phone.
 */
function card() {
  let el = $('end-card');
  if (el) return el;
  el = document.createElement('div');
  el.id = 'end-card';
  el.className = 'end-card';
  el.hidden = true;
  const mark = document.createElement('p');
  mark.id = 'end-mark';
  mark.className = 'fine';
  const actions = document.createElement('div');
  actions.className = 'actions end-actions';
  const button = (id, cls) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    if (cls) b.className = cls;
    actions.append(b);
    return b;
  };
  button('end-rematch', 'primary');
  const review = document.createElement('a');
  review.id = 'end-review';
  review.className = 'button';
  actions.append(review);
  button('end-new');
  el.append(mark, actions);
  $('status')?.after(el);
  return el;
}

/**
 * The reason a game ended in words (`words`), with a word for this browser's seat `you` when
 * it won or lost.
 */
export function endWords(result, you, words) {
  if (!result.winner || (you !== 'white' && you !== 'black')) return words;
  return `${words} ${you === result.winner ? t('end.you_won') : t('end.you_lost')}`;
}

/**
 * Draws the end's marks and next steps for a finished game (hidden otherwise). `you` is this
 * browser's seat; `on` has rematch() and newGame().
 */
export function renderEnd(game, variant, you, on) {
  const el = card();
  el.hidden = !game || game.status !== 'over' || !game.result;
  document.querySelector('.status-card')?.classList.toggle('over', !el.hidden);
  if (el.hidden) return;
  const decided = decidingPoints(game, variant);
  $('end-mark').textContent = decided ? t(decided.kind === 'mill' ? 'end.mill_marked' : 'end.block_marked') : '';
  $('end-mark').hidden = !decided;
  const rematch = $('end-rematch');
  rematch.textContent = t('end.rematch');
  // Between two people a rematch is a request the opponent answers, offered beside the
  // clocks; this one starts a new game at once.
  rematch.hidden = !you || game.opponent === 'friend';
  rematch.onclick = on.rematch;
  const review = $('end-review');
  review.textContent = t('end.review');
  review.href = `/review.html?game=${encodeURIComponent(game.id)}`;
  review.hidden = game.moves.length === 0;
  $('end-new').textContent = t('top.new');
  $('end-new').onclick = on.newGame;
}

/**
 * The options of a rematch: the same game again from the same start, the sides swapped
 * against the computer or a friend.
 */
export function rematchOptions(game, you) {
  const opponent = game.opponent;
  const options = { variant: game.variant, opponent, position: game.start };
  if (opponent === 'computer') {
    const computer = game.players.white.kind === 'computer' ? game.players.white : game.players.black;
    options.level = computer.level ?? 3;
  }
  if (opponent !== 'local' && (you === 'white' || you === 'black')) options.color = you === 'white' ? 'black' : 'white';
  return options;
}

/** A link to the review beside the record's buttons, for any game with plies. */
export function renderReviewLink(game) {
  let a = $('btn-review-link');
  if (!a) {
    a = document.createElement('a');
    a.id = 'btn-review-link';
    a.className = 'button small';
    document.querySelector('.record-actions')?.append(a);
  }
  a.textContent = t('review.open');
  a.hidden = !game || game.moves.length === 0 || (game.opponent === 'friend' && game.status !== 'over');
  if (game) a.href = `/review.html?game=${encodeURIComponent(game.id)}`;
}

/** The rules link of the new-game dialog follows the game chosen in it. */
export function wireDialogLinks() {
  const form = document.querySelector('#new-game form');
  const rules = $('rules-link');
  if (!form || !rules) return;
  const follow = () => {
    rules.href = `/rules.html?variant=${encodeURIComponent(form.elements.variant.value || 'nine')}`;
  };
  form.addEventListener('change', follow);
  follow();
}
