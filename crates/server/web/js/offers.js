// @ts-check
// What the page offers a person: which actions can work in a game, from the GAME object
// alone, so that no button leads to a refusal.

import { other, sideOf } from './plies.js';

/**
 * The parts of the API's GAME object these rules read.
 * @typedef {{
 *   opponent: 'computer' | 'friend' | 'local',
 *   status: 'playing' | 'over',
 *   start: string,
 *   moves: string[],
 *   thinking: boolean,
 *   draw_offer: 'white' | 'black' | null,
 *   result: {winner: 'white' | 'black' | null, reason: string} | null,
 * }} Game
 */
/** @typedef {'white' | 'black' | 'both' | null} You */

/**
 * The colour that played ply `i` (from 0) of the game.
 * @param {Pick<Game, 'start'>} game
 * @param {number} i
 */
export function colorOfPly(game, i) {
  const first = sideOf(game.start).turn;
  return i % 2 === 0 ? first : other(first);
}

/**
 * Whether taking back can work now: as the server allows it (docs/api.md), and never while
 * the computer thinks.
 * @param {Game | null} game
 * @param {You} you
 */
export function canTakeBack(game, you) {
  if (!game || !you || game.thinking || game.moves.length === 0) return false;
  if (game.result && ['resignation', 'agreement'].includes(game.result.reason)) return false;
  if (you === 'both') return true;
  // Between people a take-back is a request the opponent answers (canAskTakeBack).
  if (game.opponent === 'friend') return false;
  return game.moves.some((_, i) => colorOfPly(game, i) === you);
}

/**
 * Whether a seat of a game between people can ask to take back its last ply now: the game
 * is played, the seat has played a ply, and no request is open.
 * @param {Game | null} game
 * @param {You} you
 */
export function canAskTakeBack(game, you) {
  if (!game || (you !== 'white' && you !== 'black') || game.opponent !== 'friend') return false;
  if (game.status !== 'playing' || game.takeback_offer) return false;
  return game.moves.some((_, i) => colorOfPly(game, i) === you);
}

/**
 * Whether the game can be resigned, or a draw offered, by this seat now.
 * @param {Game | null} game
 * @param {You} you
 */
export function canEnd(game, you) {
  return Boolean(game && you && game.status === 'playing' && !game.thinking);
}

/**
 * Whether a draw can be offered now: the game goes on and no offer is open.
 * @param {Game | null} game
 * @param {You} you
 */
export function canOfferDraw(game, you) {
  return canEnd(game, you) && !game?.draw_offer;
}

/**
 * Whether hints and analyses can be asked for: not in a friend game while it is played (the
 * server refuses them), and not while the computer thinks.
 * @param {Game | null} game
 */
export function canCoach(game) {
  return Boolean(game && game.status === 'playing' && game.opponent !== 'friend' && !game.thinking);
}

/**
 * Whether the take-back that seat `you` asked for was declined between two views of a game
 * between people: the request is gone, the game goes on, and no ply was taken back or played
 * (accepted, two plies go; the asker's own ply lets it lapse).
 * @param {Pick<Game, 'status' | 'moves'> & {id: string, takeback_offer?: 'white' | 'black' | null} | null} old
 * @param {Pick<Game, 'status' | 'moves'> & {id: string, takeback_offer?: 'white' | 'black' | null}} game
 * @param {You} you
 */
export function takebackDeclined(old, game, you) {
  return Boolean(
    old && old.id === game.id && (you === 'white' || you === 'black') && old.takeback_offer === you &&
      !game.takeback_offer && game.status === 'playing' && game.moves.length === old.moves.length,
  );
}

/**
 * Whether the actions card's own take-back button applies: against the computer and on one
 * device. In a game between people a seat asks the opponent instead, from the table card.
 * @param {Pick<Game, 'opponent'> | null} game
 * @param {You} you
 */
export function ownTakeback(game, you) {
  return !game || game.opponent !== 'friend' || you === 'both';
}
