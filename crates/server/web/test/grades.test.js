import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GRADES, whiteValue, gradePlies, worstPlies, tally, curve } from '../js/grades.js';

const cp = (value) => ({ kind: 'cp', value });
const mate = (value) => ({ kind: 'mate', value });

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

test('a review keeps the grades the server gave, tallies them per side and finds its worst plies worst first', () => {
  const review = {
    positions: [
      { score: cp(0), turn: 'white' },
      { score: cp(0), turn: 'black' },
      { score: cp(50), turn: 'white' },
      { score: cp(300), turn: 'black' },
      { score: mate(3), turn: 'white' },
    ],
    plies: [
      { move: 'd6', side: 'white', score: cp(0), grade: 'best' },
      { move: 'f4', side: 'black', score: cp(-50), grade: 'inaccuracy' },
      { move: 'd2', side: 'white', score: cp(-200), grade: 'mistake' },
      { move: 'b4', side: 'black', score: mate(-4), grade: 'blunder' },
    ],
  };
  const grades = gradePlies(review);
  assert.deepEqual(grades, ['best', 'inaccuracy', 'mistake', 'blunder']);
  assert.deepEqual(worstPlies(grades), [3, 2, 1]);
  assert.deepEqual(worstPlies(grades, 1), [3]);
  assert.deepEqual(worstPlies(['good', 'best']), [], 'good plies are not among the worst');
  const t = tally(review, grades);
  assert.equal(t.white.best, 1);
  assert.equal(t.white.mistake, 1);
  assert.equal(t.black.inaccuracy, 1);
  assert.equal(t.black.blunder, 1);
  assert.equal(t.black.good, 0);
  assert.deepEqual(Object.keys(t.white), [...GRADES]);
});
