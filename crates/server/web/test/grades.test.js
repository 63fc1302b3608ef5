import { test } from 'node:test';
import assert from 'node:assert/strict';
import { grade, rank, whiteValue, gradePlies, worstPlies, tally, curve, THRESHOLDS } from '../js/grades.js';

const cp = (value) => ({ kind: 'cp', value });
const mate = (value) => ({ kind: 'mate', value });

test('grades follow the loss beside the best ply, as the server grades an analysis', () => {
  assert.equal(grade(cp(50), cp(50)), 'best');
  assert.equal(grade(cp(50), cp(80)), 'best');
  assert.equal(grade(cp(50), cp(30)), 'good');
  assert.equal(grade(cp(50), cp(50 - THRESHOLDS.good)), 'good');
  assert.equal(grade(cp(50), cp(50 - THRESHOLDS.good - 1)), 'inaccuracy');
  assert.equal(grade(cp(50), cp(-20)), 'inaccuracy');
  assert.equal(grade(cp(50), cp(-50)), 'inaccuracy');
  assert.equal(grade(cp(50), cp(-51)), 'mistake');
  assert.equal(grade(cp(50), cp(-200)), 'mistake');
  assert.equal(grade(cp(50), cp(-251)), 'blunder');
  assert.equal(grade(cp(50), cp(-900)), 'blunder');
});

test('forced wins and losses: a slower win is good, a win thrown away or a loss walked into is a blunder', () => {
  assert.equal(grade(mate(3), mate(3)), 'best');
  assert.equal(grade(mate(3), mate(9)), 'good');
  assert.equal(grade(mate(3), cp(500)), 'blunder');
  assert.equal(grade(cp(0), mate(-4)), 'blunder');
  assert.equal(grade(mate(-8), mate(-2)), 'good');
  assert.equal(grade(mate(-2), mate(-8)), 'best');
  assert.equal(grade(mate(-2), cp(0)), 'best');
});

test('the rank orders quick wins over slow ones and slow losses over quick ones', () => {
  const order = [mate(1), mate(5), cp(300), cp(0), cp(-300), mate(-9), mate(-1), mate(0)];
  const ranks = order.map(rank);
  assert.deepEqual([...ranks].sort((a, b) => b - a), ranks);
});

test('the curve is seen from White: a score for Black is turned round', () => {
  assert.equal(whiteValue(cp(0), 'white'), 0);
  assert.ok(whiteValue(cp(100), 'white') > 0);
  assert.ok(whiteValue(cp(100), 'black') < 0);
  assert.equal(whiteValue(mate(3), 'black'), -1);
  assert.equal(whiteValue(mate(-3), 'black'), 1);
  assert.equal(whiteValue(mate(0), 'white'), -1);
  const pts = curve([{ score: cp(0), turn: 'white' }, { score: mate(2), turn: 'black' }], 100, 50);
  assert.deepEqual(pts, [{ x: 0, y: 25 }, { x: 100, y: 50 }]);
});

test('a review is graded ply by ply, tallied per side, and its worst plies found worst first', () => {
  const review = {
    positions: [
      { score: cp(0), turn: 'white' },
      { score: cp(0), turn: 'black' },
      { score: cp(50), turn: 'white' },
      { score: cp(300), turn: 'black' },
      { score: mate(3), turn: 'white' },
    ],
    plies: [
      { move: 'd6', side: 'white', score: cp(0) },
      { move: 'f4', side: 'black', score: cp(-50) },
      { move: 'd2', side: 'white', score: cp(-200) },
      { move: 'b4', side: 'black', score: mate(-4) },
    ],
  };
  const grades = gradePlies(review);
  assert.deepEqual(grades, ['best', 'inaccuracy', 'mistake', 'blunder']);
  assert.deepEqual(worstPlies(grades), [3, 2, 1]);
  assert.deepEqual(worstPlies(grades, 1), [3]);
  const t = tally(review, grades);
  assert.equal(t.white.best, 1);
  assert.equal(t.white.mistake, 1);
  assert.equal(t.black.inaccuracy, 1);
  assert.equal(t.black.blunder, 1);
});
