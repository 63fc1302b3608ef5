import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rows, positionString, readSetup, paint } from '../js/setup.js';

const NINE = ['a7', 'd7', 'g7', 'b6', 'd6', 'f6', 'c5', 'd5', 'e5', 'a4', 'b4', 'c4', 'e4', 'f4', 'g4',
  'c3', 'd3', 'e3', 'b2', 'd2', 'f2', 'a1', 'd1', 'g1'];
const SIX = ['a5', 'c5', 'e5', 'b4', 'c4', 'd4', 'a3', 'b3', 'd3', 'e3', 'b2', 'c2', 'd2', 'a1', 'c1', 'e1'];

test('the rows follow the ranks of the points', () => {
  assert.deepEqual(rows(NINE).map((r) => r.length), [3, 3, 3, 6, 3, 3, 3]);
  assert.deepEqual(rows(SIX).map((r) => r.length), [3, 3, 4, 3, 3]);
});

test('a setup is written as a position string and read back', () => {
  const empty = { board: {}, turn: 'white', hand: { white: 9, black: 9 } };
  assert.equal(positionString(NINE, empty), '.../.../.../....../.../.../... w 9 9 0 1');
  const s = { board: { d6: 'white', f4: 'black' }, turn: 'white', hand: { white: 8, black: 8 } };
  const text = positionString(NINE, s);
  assert.equal(text, '.../.W./.../....B./.../.../... w 8 8 0 1');
  assert.deepEqual(readSetup(NINE, text), s);
  assert.equal(readSetup(NINE, '..../.../.../....../.../.../... w 9 9 0 1'), null);
  assert.equal(readSetup(SIX, 'x'), null);
  const black = positionString(SIX, { board: { a5: 'black' }, turn: 'black', hand: { white: -2, black: 2.7 } });
  assert.equal(black, 'B../.../..../.../... b 0 2 0 1');
});

test('a click paints the brush, and the same colour again empties the point', () => {
  let s = { board: {}, turn: 'white', hand: { white: 0, black: 0 } };
  s = paint(s, 'd6', 'white');
  assert.deepEqual(s.board, { d6: 'white' });
  s = paint(s, 'd6', 'black');
  assert.deepEqual(s.board, { d6: 'black' });
  s = paint(s, 'd6', 'black');
  assert.deepEqual(s.board, {});
  s = paint(paint(s, 'a7', 'white'), 'a7', 'empty');
  assert.deepEqual(s.board, {});
});
