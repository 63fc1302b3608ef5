// @ts-check
// The grades of a review as the page shows them: tallied per side, the worst plies found, and
// the evaluation curve drawn over the plies. Pure: no DOM, no server.
//
// The server grades every ply (its thresholds live beside its engine); the page shows the
// grades it is sent.

/** @typedef {{kind: 'cp' | 'mate', value: number}} Score */
/** @typedef {'best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder'} Grade */
/** @typedef {'white' | 'black'} Color */

/** The grades, best first. @type {readonly Grade[]} */
export const GRADES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

/**
 * A score for `turn` as a value for White between -1 (Black wins) and 1 (White wins): the
 * height of the evaluation curve. A piece up is about 0.46.
 * @param {Score} s
 * @param {Color} turn
 */
export function whiteValue(s, turn) {
  const sign = turn === 'white' ? 1 : -1;
  if (s.kind === 'mate') return s.value > 0 ? sign : -sign;
  return sign * (2 / (1 + Math.exp(-s.value / 200)) - 1);
}

/**
 * @typedef {{score: Score, turn: Color}} ReviewedPosition
 * @typedef {{move: string, side: Color, score: Score, grade: Grade}} ReviewedPly
 * @typedef {{positions: ReviewedPosition[], plies: ReviewedPly[]}} Review
 */

/**
 * The grade of every ply of a review, as the server graded it.
 * @param {Review} review
 * @returns {Grade[]}
 */
export function gradePlies(review) {
  return review.plies.map((p) => p.grade);
}

/**
 * The indexes of the plies of the worst grades (inaccuracy or worse), worst first and, within a
 * grade, in the order played; at most `count`.
 * @param {Grade[]} grades
 * @param {number} [count]
 */
export function worstPlies(grades, count = 5) {
  return grades
    .map((g, i) => ({ g: GRADES.indexOf(g), i }))
    .filter((x) => x.g >= GRADES.indexOf('inaccuracy'))
    .sort((a, b) => b.g - a.g || a.i - b.i)
    .slice(0, count)
    .map((x) => x.i);
}

/**
 * How many plies of each grade each side played.
 * @param {Review} review
 * @param {Grade[]} grades
 * @returns {Record<Color, Record<Grade, number>>}
 */
export function tally(review, grades) {
  const zero = () => /** @type {Record<Grade, number>} */ (Object.fromEntries(GRADES.map((g) => [g, 0])));
  const out = { white: zero(), black: zero() };
  review.plies.forEach((p, i) => {
    out[p.side][grades[i]] += 1;
  });
  return out;
}

/**
 * The points of the evaluation curve in a box `width` × `height`: x from 0 to width over the
 * positions, y from 0 (White wins) to height (Black wins), the middle a level game.
 * @param {ReviewedPosition[]} positions
 * @param {number} width
 * @param {number} height
 * @returns {{x: number, y: number}[]}
 */
export function curve(positions, width, height) {
  const n = positions.length;
  return positions.map((p, i) => ({
    x: n > 1 ? (i * width) / (n - 1) : width / 2,
    y: ((1 - whiteValue(p.score, p.turn)) * height) / 2,
  }));
}
