// @ts-check
// A position set up by hand, as the board editor holds it, and its position string
// (docs/interfaces.md): rows from the top rank, `W`, `B` or `.` per point, then the side to
// move, the pieces in hand, the N-move counter (0) and the move number (1).

/** @typedef {'white' | 'black'} Color */
/** @typedef {Record<string, Color>} BoardMap */
/** @typedef {{board: BoardMap, turn: Color, hand: Record<Color, number>}} Setup */

/**
 * The rows of a variant's points, top rank first, in position-string order.
 * @param {string[]} points the variant's points in position-string order
 * @returns {string[][]}
 */
export function rows(points) {
  /** @type {string[][]} */
  const out = [];
  let rank = '';
  for (const p of points) {
    const r = p.slice(1);
    if (r !== rank || out.length === 0) {
      out.push([]);
      rank = r;
    }
    out[out.length - 1].push(p);
  }
  return out;
}

/**
 * The position string of a setup.
 * @param {string[]} points
 * @param {Setup} setup
 */
export function positionString(points, setup) {
  const board = rows(points)
    .map((row) => row.map((p) => ({ white: 'W', black: 'B' })[setup.board[p]] ?? '.').join(''))
    .join('/');
  const hand = (/** @type {Color} */ c) => Math.max(0, Math.floor(Number(setup.hand[c]) || 0));
  return `${board} ${setup.turn === 'black' ? 'b' : 'w'} ${hand('white')} ${hand('black')} 0 1`;
}

/**
 * A setup read back from a position string of the project's form; null when it does not fit
 * the points.
 * @param {string[]} points
 * @param {string} text
 * @returns {Setup | null}
 */
export function readSetup(points, text) {
  const f = text.trim().split(/\s+/);
  if (f.length < 4) return null;
  const cells = f[0].split('/');
  const shape = rows(points);
  if (cells.length !== shape.length || cells.some((c, i) => c.length !== shape[i].length)) return null;
  if (!/^[WB.]+$/.test(cells.join(''))) return null;
  /** @type {BoardMap} */
  const board = {};
  shape.flat().forEach((p, i) => {
    const c = cells.join('')[i];
    if (c === 'W') board[p] = 'white';
    else if (c === 'B') board[p] = 'black';
  });
  const white = Number(f[2]);
  const black = Number(f[3]);
  if (!Number.isInteger(white) || !Number.isInteger(black)) return null;
  return { board, turn: f[1] === 'b' ? 'black' : 'white', hand: { white, black } };
}

/**
 * The next setup after a click on `point` with `brush`: a piece of that colour, or empty.
 * @param {Setup} setup
 * @param {string} point
 * @param {Color | 'empty'} brush
 * @returns {Setup}
 */
export function paint(setup, point, brush) {
  const board = { ...setup.board };
  if (brush === 'empty' || board[point] === brush) delete board[point];
  else board[point] = brush;
  return { ...setup, board };
}
