// The ply builder and the position helpers of js/plies.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  parsePly, other, PlyBuilder, boardOf, sideOf, applyPly, replay, handAfter, describePly,
} from '../js/plies.js';
import { setMessages } from '../js/i18n.js';

setMessages('en', JSON.parse(readFileSync(new URL('../i18n/en.json', import.meta.url), 'utf8')));

// The 24 points of Nine Men's Morris in position-string order (GET /api/variants).
const NINE = ['a7', 'd7', 'g7', 'b6', 'd6', 'f6', 'c5', 'd5', 'e5', 'a4', 'b4', 'c4',
  'e4', 'f4', 'g4', 'c3', 'd3', 'e3', 'b2', 'd2', 'f2', 'a1', 'd1', 'g1'];

test('parsePly splits placements, slides and removals', () => {
  assert.deepEqual(parsePly('d6'), { text: 'd6', from: null, to: 'd6', removes: [] });
  assert.deepEqual(parsePly('f2-f4xd5'), { text: 'f2-f4xd5', from: 'f2', to: 'f4', removes: ['d5'] });
  assert.deepEqual(parsePly('e4xg7xa1').removes, ['g7', 'a1']);
  assert.equal(parsePly('D6XA1').to, 'd6');
});

test('other swaps the colours', () => {
  assert.equal(other('white'), 'black');
  assert.equal(other('black'), 'white');
});

test('a placement is complete after one click', () => {
  const b = new PlyBuilder(['a7', 'd7', 'g7']);
  assert.equal(b.step, 'start');
  assert.deepEqual([...b.targets().keys()], ['a7', 'd7', 'g7']);
  assert.equal(b.targets().get('d7')?.kind, 'place');
  assert.deepEqual(b.choose('d7'), { ply: 'd7' });
});

test('a click off the targets does nothing before the first step', () => {
  const b = new PlyBuilder(['a7']);
  assert.deepEqual(b.choose('g1'), {});
  assert.equal(b.started, false);
});

test('a placement that closes a mill waits for the removal', () => {
  const b2 = new PlyBuilder(['d6xa1', 'd6xg1', 'a7']);
  assert.deepEqual(b2.choose('d6'), { changed: true });
  assert.equal(b2.step, 'remove');
  assert.deepEqual([...b2.targets().keys()].sort(), ['a1', 'g1']);
  assert.equal(b2.targets().get('a1')?.kind, 'remove');
  assert.deepEqual(b2.pending(), { from: null, to: 'd6', removes: [] });
  assert.deepEqual(b2.choose('g1'), { ply: 'd6xg1' });
});

test('a slide: pick the piece, then the destination', () => {
  const b = new PlyBuilder(['f2-f4', 'f2-d2', 'b2-b4']);
  assert.deepEqual([...b.movable()].sort(), ['b2', 'f2']);
  assert.equal(b.targets().get('f2')?.kind, 'piece');
  assert.deepEqual(b.choose('f2'), { changed: true });
  assert.equal(b.step, 'to');
  assert.deepEqual([...b.targets().keys()].sort(), ['d2', 'f4']);
  assert.deepEqual(b.choose('f4'), { ply: 'f2-f4' });
});

test('clicking the chosen piece again puts it down; another piece is picked instead', () => {
  const b = new PlyBuilder(['f2-f4', 'b2-b4']);
  b.choose('f2');
  assert.deepEqual(b.choose('b2'), { changed: true });
  assert.equal(b.from, 'b2');
  assert.deepEqual(b.choose('b2'), { cancelled: true });
  assert.equal(b.started, false);
});

test('a click on a point that is no target cancels a half-made ply', () => {
  const b = new PlyBuilder(['f2-f4']);
  b.choose('f2');
  assert.deepEqual(b.choose('a7'), { cancelled: true });
  assert.equal(b.step, 'start');
});

test('a slide into a mill with two removals (one per mill) takes three clicks after the piece', () => {
  const b = new PlyBuilder(['d5-e4xg7xa1', 'd5-e4xg7xg1', 'd5-c5']);
  b.choose('d5');
  assert.deepEqual(b.choose('e4'), { changed: true });
  assert.deepEqual(b.choose('g7'), { changed: true });
  assert.deepEqual([...b.targets().keys()].sort(), ['a1', 'g1']);
  assert.deepEqual(b.pending(), { from: 'd5', to: 'e4', removes: ['g7'] });
  assert.deepEqual(b.choose('a1'), { ply: 'd5-e4xg7xa1' });
});

test('in Lasker a click on an empty point while a piece is chosen starts a placement', () => {
  const b = new PlyBuilder(['a7', 'f2-f4']);
  assert.deepEqual(new Set([...b.targets().values()].map((t) => t.kind)), new Set(['place', 'piece']));
  b.choose('f2');
  assert.deepEqual(b.choose('a7'), { ply: 'a7' });
});

test('no piece can be picked up while a removal is owed', () => {
  const b = new PlyBuilder(['f2-f4xd7', 'f2-f4xa1']);
  b.choose('f2');
  b.choose('f4');
  assert.equal(b.step, 'remove');
  assert.equal(b.movable().size, 0);
});

test('boardOf and sideOf read a position string', () => {
  // Cells in the order of the points (slashes between rings), side, hands, a counter, move.
  const pos = 'W..B/.../.../....../.../.../... b 8 8 0 3';
  assert.deepEqual(boardOf(pos, NINE), { a7: 'white', b6: 'black' });
  assert.deepEqual(sideOf(pos), { turn: 'black', number: 3 });
  assert.deepEqual(sideOf('.../.../.../....../.../.../... w 9 9 0 1'), { turn: 'white', number: 1 });
});

test('applyPly, replay and handAfter follow a game', () => {
  const start = '.../.../.../....../.../.../... w 9 9 0 1';
  const moves = ['d6', 'f4', 'd5', 'b4', 'd7xf4'];
  assert.deepEqual(replay(start, moves, 0, NINE), {});
  assert.deepEqual(replay(start, moves, 2, NINE), { d6: 'white', f4: 'black' });
  assert.deepEqual(replay(start, moves, 5, NINE), { d6: 'white', d5: 'white', b4: 'black', d7: 'white' });
  assert.deepEqual(handAfter(start, moves, 5), { white: 6, black: 7 });
  assert.deepEqual(handAfter(start, moves, 2), { white: 8, black: 8 });
  /** @type {Record<string, 'white' | 'black'>} */
  const board = { f2: 'white', d5: 'black' };
  assert.deepEqual(applyPly(board, parsePly('f2-f4xd5'), 'white'), { f4: 'white' });
});

test('describePly says a ply in words', () => {
  assert.equal(describePly('d6', 'white'), 'White places d6.');
  assert.equal(describePly('f2-f4xd5', 'black'), 'Black plays f2-f4 and removes d5.');
  assert.equal(describePly('e4xg7xa1', 'white'), 'White places e4 and removes g7, a1.');
});
