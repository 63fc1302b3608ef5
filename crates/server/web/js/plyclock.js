// @ts-check
// The clocks of a game at any of its plies, from what the server keeps of each ply: when it
// was played and the time its mover had left after it (`GAME.clock.plies`, `[at, left]`).
//
// Each side's clock starts with its own first ply: the time before it is not counted and no
// increment is added (a side that waits too long aborts the game instead). After that a ply
// stops the mover's clock, takes the time spent off and adds the increment (a correspondence
// ply gives the days again). So a Fischer ply's time is what its mover had before it less
// what it had after, plus the increment. A first ply, and a correspondence ply, took the gap
// since the ply before; the start of the game's first ply is not sent.

import { other, sideOf } from './plies.js';

/** @typedef {import('./plies.js').Color} Color */
/**
 * @typedef {{ kind: string, base?: number, increment?: number, days?: number }} Control
 * @typedef {{ control: Control, plies: [number, number][],
 *   left?: { white: number, black: number }, running?: Color | null }} ClockRecord
 */

const DAY = 86400000;

/**
 * The time each side starts with, in milliseconds.
 * @param {Control} control
 */
export function initialTime(control) {
  return control.kind === 'correspondence' ? (control.days ?? 1) * DAY : (control.base ?? 0) * 1000;
}

/**
 * The side that plays ply `i` (counted from 0) of a game that started at `start`.
 * @param {string} start a position string
 * @param {number} i
 * @returns {Color}
 */
export function moverOf(start, i) {
  const first = sideOf(start).turn;
  return i % 2 === 0 ? first : other(first);
}

/**
 * Each side's time left in the position after the first `count` plies, as the clocks stood
 * when that position was reached: a side's time after its last ply so far, or its whole
 * time before it has played. At the end of a finished game, the clocks as they stopped (a
 * flag that fell shows nothing left).
 * @param {ClockRecord} clock
 * @param {string} start
 * @param {number} count
 * @returns {{ white: number, black: number }}
 */
export function leftAt(clock, start, count) {
  const n = Math.max(0, Math.min(count, clock.plies.length));
  if (n === clock.plies.length && clock.running === null && clock.left) return { ...clock.left };
  const initial = initialTime(clock.control);
  const left = { white: initial, black: initial };
  const seen = { white: false, black: false };
  for (let i = n - 1; i >= 0 && !(seen.white && seen.black); i--) {
    const side = moverOf(start, i);
    if (seen[side]) continue;
    seen[side] = true;
    left[side] = clock.plies[i][1];
  }
  return left;
}

/**
 * The time ply `i` took its mover, in milliseconds; null when the record cannot tell (the
 * game's first ply, a ply without its time).
 * @param {ClockRecord} clock
 * @param {number} i
 * @returns {number | null}
 */
export function spentOn(clock, i) {
  const ply = clock.plies[i];
  if (!ply) return null;
  if (clock.control.kind === 'correspondence' || i < 2) {
    const before = clock.plies[i - 1];
    return before ? Math.max(0, ply[0] - before[0]) : null;
  }
  // The mover's previous ply is two plies back (plies alternate).
  const before = i >= 2 ? clock.plies[i - 2][1] : initialTime(clock.control);
  return Math.max(0, before - ply[1] + (clock.control.increment ?? 0) * 1000);
}
