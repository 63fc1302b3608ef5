// The parts of the page around the board: player bars with the pieces in hand, the move
// list, and the analysis list. Everything the server or a user wrote goes in as textContent.

import { other, sideOf } from './plies.js';
import { scoreWords } from './format.js';
import { formatClock } from './clock.js';
import { spentOn } from './plyclock.js';
import { t } from './i18n.js';

/** Creates an HTML element with a class and text. */
export function h(tag, className = '', text = '') {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

const cap = (color) => t(`color.${color}`);

/** Which colour sits at the bottom: the viewer's own, else White. */
export function bottomColor(you) {
  return you === 'black' ? 'black' : 'white';
}

/**
 * Fills a player bar: name, what kind of player, pieces in hand drawn as discs, counts.
 * `counts` is `{inHand, onBoard}` of the position shown; `rating` the side's rating
 * `{rating, provisional, diff?}` in a rated game (`diff`: its change once the game is over) (whose players are accounts: the name links to
 * their page), or null.
 */
export function renderPlayer(el, color, game, you, counts, rating = null) {
  const player = game?.players?.[color];
  el.dataset.color = color;
  const toMove = game && game.status === 'playing' && game.turn === color;
  el.classList.toggle('to-move', Boolean(toMove));
  el.classList.toggle('winner', Boolean(game?.result && game.result.winner === color));
  el.replaceChildren();

  const who = h('div', 'who');
  who.append(h('span', `disc big ${color}`));
  const names = h('div', 'names');
  // The computer's name is the server's word for it: shown in the page's language instead.
  const computer = player?.kind === 'computer';
  const shownName = computer ? t('player.computer') : player?.name || cap(color);
  const nameRow = h('span', 'name-row');
  if (game?.rated && player?.name && !computer) {
    const a = h('a', 'name', shownName);
    a.href = `/@/${encodeURIComponent(player.name)}`;
    nameRow.append(a);
  } else {
    nameRow.append(h('span', 'name', shownName));
  }
  if (rating) {
    nameRow.append(h('span', 'rating', `${rating.rating}${rating.provisional ? '?' : ''}`));
    if (typeof rating.diff === 'number') {
      const diff = h('span', `rating-diff ${rating.diff >= 0 ? 'up' : 'down'}`, rating.diff >= 0 ? `+${rating.diff}` : `−${-rating.diff}`);
      nameRow.append(diff);
    }
  }
  names.append(nameRow);
  const role = [cap(color)];
  if (computer) role.push(player.level ? t('player.computer_level', { level: player.level }) : t('player.computer'));
  if (you === color || you === 'both') role.push(t('player.you'));
  const roleEl = h('span', 'role', role.join(' · '));
  // Drawn after the role by CSS while it applies.
  roleEl.dataset.winner = t('player.winner');
  roleEl.dataset.thinking = t('player.thinking');
  names.append(roleEl);
  who.append(names);
  el.append(who);

  const { inHand, onBoard } = counts;
  const hand = h('div', 'hand');
  hand.setAttribute('aria-label', t('hand.label', { hand: inHand, board: onBoard }));
  const discs = h('div', 'discs');
  discs.setAttribute('aria-hidden', 'true');
  for (let i = 0; i < inHand; i++) discs.append(h('span', `disc ${color}`));
  hand.append(discs);
  const numbers = h('div', 'counts');
  numbers.append(h('span', 'count', t('hand.in', { count: inHand })), h('span', 'count', t('hand.on', { count: onBoard })));
  hand.append(numbers);
  el.append(hand);
  if (toMove) el.append(h('span', 'move-dot'));
}

/**
 * The move list: one <li data-ply data-index> per ply, white and black side by side; the
 * move number is drawn by CSS from data-num, and in a game with a clock the time the ply
 * took from data-spent, so that an item's text is exactly its ply.
 */
export function renderMoves(list, game, reviewing, onPick) {
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.index : null;
  list.replaceChildren();
  if (!game) return;
  const start = sideOf(game.start);
  let number = start.number;
  let color = start.turn;
  game.moves.forEach((ply, i) => {
    // The item stays a list item; the button inside it is what a click or a key presses.
    const li = h('li', `ply ${color}`);
    li.dataset.ply = ply;
    li.dataset.index = String(i);
    if (color === 'white') li.dataset.num = `${number}.`;
    else if (i === 0) li.dataset.num = `${number}…`;
    const b = h('button', 'move-ply', ply);
    b.type = 'button';
    b.dataset.index = String(i);
    let label = t('moves.item', { number: `${number}${color === 'white' ? '.' : '…'}`, color: cap(color), ply });
    const spent = game.clock ? spentOn(game.clock, i) : null;
    if (spent !== null) {
      li.dataset.spent = formatClock(spent);
      label += `, ${t('moves.took', { time: li.dataset.spent })}`;
    }
    b.setAttribute('aria-label', label);
    const shown = reviewing ?? game.moves.length - 1;
    if (i === shown) {
      li.classList.add('current');
      b.setAttribute('aria-current', 'step');
    }
    b.addEventListener('click', () => onPick(i));
    li.append(b);
    list.append(li);
    if (color === 'black') number += 1;
    color = other(color);
  });
  // Follow the live game by scrolling the list itself (never the page).
  if (reviewing === null) list.scrollTop = list.scrollHeight;
  // The list is rebuilt on every render: keep the keyboard focus where it was.
  if (focused !== null) list.querySelector(`button[data-index="${focused}"]`)?.focus();
}

/** The analysis list: every legal ply with its score and grade, best first. */
export function renderAnalysis(list, caption, data, onPick) {
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  list.replaceChildren();
  if (!data) {
    caption.textContent = t('analysis.working');
    return;
  }
  caption.textContent =
    data.source === 'tablebase' ? t('analysis.tablebase') : t('analysis.engine', { depth: data.depth });
  for (const m of data.moves) {
    const li = h('li', `grade-${m.grade}`);
    const b = h('button', 'analysis-move');
    b.type = 'button';
    b.append(h('span', 'ply', m.move), h('span', 'score', scoreWords(m.score)), h('span', 'grade-word', t(`grade.${m.grade}`)));
    b.dataset.move = m.move;
    b.addEventListener('click', () => onPick(m.move));
    li.append(b);
    list.append(li);
    if (m.move === focused) b.focus();
  }
}
