// @ts-check
import { t } from './i18n.js';
// Plies in the project's notation, and the click-by-click steps that build one.
//
// The page knows no rules: every legal ply comes from the server (`legal`). A ply is
// `d6` (placement), `f2-f4` (slide or flight), with removals appended: `d6xa1`, `f2-f4xd5`,
// and in one-removal-per-mill variants `e4xg7xa1`. The builder below walks that list:
//   step "start":  pick a placement point, or a piece to move (Lasker offers both);
//   step "to":     pick the destination of the chosen piece;
//   step "remove": pick the piece(s) to remove, one click per removal;
// and reports the full ply as soon as the clicks so far name exactly one.

/** @typedef {'white' | 'black'} Color */
/**
 * A ply taken apart: `from` is null for a placement.
 * @typedef {{text: string, from: string | null, to: string, removes: string[]}} Ply
 */
/** @typedef {{from: string | null, to: string, removes: string[]}} Pending */
/** @typedef {{kind: 'place' | 'piece' | 'to' | 'remove', plies: Ply[]}} Target */
/** @typedef {Record<string, Color>} BoardMap */

/**
 * Splits a ply into `{text, from, to, removes}`; `from` is null for a placement.
 * @param {string} text
 * @returns {Ply}
 */
export function parsePly(text) {
  const [head, ...removes] = text.toLowerCase().split('x');
  const dash = head.indexOf('-');
  return dash < 0
    ? { text, from: null, to: head, removes }
    : { text, from: head.slice(0, dash), to: head.slice(dash + 1), removes };
}

/** @type {(color: Color) => Color} */
export const other = (color) => (color === 'white' ? 'black' : 'white');

/** Builds one ply from clicks on points, given the legal plies of the position. */
export class PlyBuilder {
  /** @param {string[]} legal */
  constructor(legal) {
    /** @type {Ply[]} */
    this.plies = legal.map(parsePly);
    /** @type {string | null | undefined} undefined: not chosen; null: a placement; else a point */
    this.from = undefined;
    /** @type {string | undefined} */
    this.to = undefined;
    /** @type {string[]} */
    this.removes = [];
  }

  reset() {
    this.from = undefined;
    this.to = undefined;
    this.removes = [];
  }

  /** @returns {'start' | 'to' | 'remove'} */
  get step() {
    if (this.to !== undefined) return 'remove';
    if (this.from !== undefined) return 'to';
    return 'start';
  }

  /** True once a click has been made: Esc has something to cancel. */
  get started() {
    return this.from !== undefined;
  }

  /**
   * The plies that agree with every choice made so far.
   * @returns {Ply[]}
   */
  matching() {
    return this.plies.filter((p) => {
      if (this.from !== undefined && p.from !== this.from) return false;
      if (this.to !== undefined && p.to !== this.to) return false;
      return this.removes.every((r, i) => p.removes[i] === r);
    });
  }

  /**
   * The points that are a legal click in the current step, each with the plies through
   * it and its kind: "place", "piece" (a piece to move), "to" or "remove".
   * @returns {Map<string, Target>}
   */
  targets() {
    /** @type {Map<string, Target>} */
    const map = new Map();
    /** @type {(point: string, kind: Target['kind'], ply: Ply) => void} */
    const add = (point, kind, ply) => {
      let entry = map.get(point);
      if (!entry) map.set(point, (entry = { kind, plies: [] }));
      entry.plies.push(ply);
    };
    const step = this.step;
    for (const p of this.matching()) {
      if (step === 'start') add(p.from ?? p.to, p.from ? 'piece' : 'place', p);
      else if (step === 'to') add(p.to, 'to', p);
      else if (p.removes.length > this.removes.length) add(p.removes[this.removes.length], 'remove', p);
    }
    return map;
  }

  /**
   * The pieces that may be picked up (and dragged) right now.
   * @returns {Set<string>}
   */
  movable() {
    /** @type {Set<string>} */
    const set = new Set();
    if (this.step === 'remove') return set;
    for (const p of this.plies) if (p.from) set.add(p.from);
    return set;
  }

  /**
   * Acts on a click on `point`. Returns `{ply}` when the ply is complete, `{changed: true}`
   * when a step was taken, or `{cancelled: true}` when the click undid the half-made ply.
   * @param {string} point
   * @returns {{ply?: string, changed?: boolean, cancelled?: boolean}}
   */
  choose(point) {
    const step = this.step;
    const target = this.targets().get(point);
    if (step !== 'remove' && this.movable().has(point)) {
      if (this.from === point) {
        this.reset(); // clicking the chosen piece again puts it down
        return { cancelled: true };
      }
      this.reset();
      this.from = point;
      return { changed: true };
    }
    if (!target) {
      const was = this.started;
      this.reset();
      // In Lasker a click on an empty point while a piece is chosen starts a placement.
      if (step === 'to' && this.targets().has(point)) return this.choose(point);
      return was ? { cancelled: true } : {};
    }
    if (step === 'start') {
      this.from = null;
      this.to = point;
    } else if (step === 'to') {
      this.to = point;
    } else {
      this.removes.push(point);
    }
    return this.complete() ?? { changed: true };
  }

  /**
   * The ply if the choices so far name a whole one and no longer one extends them.
   * @returns {{ply: string} | null}
   */
  complete() {
    if (this.to === undefined) return null;
    const m = this.matching();
    const exact = m.find((p) => p.removes.length === this.removes.length);
    const longer = m.some((p) => p.removes.length > this.removes.length);
    return exact && !longer ? { ply: exact.text } : null;
  }

  /**
   * The half-made ply, for drawing it on the board: `{from, to, removes}` or null.
   * @returns {Pending | null}
   */
  pending() {
    if (this.to === undefined) return null;
    return { from: this.from ?? null, to: this.to, removes: this.removes.slice() };
  }
}

/**
 * The board of a position string: `{point: "white" | "black"}` for the occupied points.
 * @param {string} position
 * @param {string[]} points the variant's points in position-string order
 * @returns {BoardMap}
 */
export function boardOf(position, points) {
  const cells = position.split(' ')[0].replace(/\//g, '');
  /** @type {BoardMap} */
  const board = {};
  points.forEach((pt, i) => {
    if (cells[i] === 'W') board[pt] = 'white';
    else if (cells[i] === 'B') board[pt] = 'black';
  });
  return board;
}

/**
 * The side to move and the move number of a position string.
 * @param {string} position
 * @returns {{turn: Color, number: number}}
 */
export function sideOf(position) {
  const f = position.split(' ');
  return { turn: f[1] === 'b' ? 'black' : 'white', number: Number(f[5]) || 1 };
}

/**
 * Plays a ply (already parsed) on a board map, in place, for `color`.
 * @param {BoardMap} board
 * @param {Pending} ply
 * @param {Color} color
 * @returns {BoardMap}
 */
export function applyPly(board, ply, color) {
  if (ply.from) delete board[ply.from];
  board[ply.to] = color;
  for (const r of ply.removes) delete board[r];
  return board;
}

/**
 * The board after the first `count` plies of a game that started at `start`.
 * @param {string} start
 * @param {string[]} moves
 * @param {number} count
 * @param {string[]} points
 * @returns {BoardMap}
 */
export function replay(start, moves, count, points) {
  const board = boardOf(start, points);
  let color = sideOf(start).turn;
  for (const text of moves.slice(0, count)) {
    applyPly(board, parsePly(text), color);
    color = other(color);
  }
  return board;
}

/**
 * The pieces in hand after the first `count` plies: the start's counts less the placements.
 * @param {string} start
 * @param {string[]} moves
 * @param {number} count
 * @returns {Record<Color, number>}
 */
export function handAfter(start, moves, count) {
  const f = start.split(' ');
  const hand = { white: Number(f[2]) || 0, black: Number(f[3]) || 0 };
  let color = sideOf(start).turn;
  for (const text of moves.slice(0, count)) {
    if (!parsePly(text).from) hand[color] -= 1;
    color = other(color);
  }
  return hand;
}

/**
 * A ply in words, for screen readers: "White places d6.", "Black plays f2-f4 and removes d5."
 * @param {string} text
 * @param {Color} color the side that played it
 */
export function describePly(text, color) {
  const p = parsePly(text);
  const params = { color: t(`color.${color}`), from: p.from ?? '', to: p.to, removes: p.removes.join(', ') };
  const kind = p.from ? 'slide' : 'place';
  return t(p.removes.length ? `ply.${kind}_remove` : `ply.${kind}`, params);
}
