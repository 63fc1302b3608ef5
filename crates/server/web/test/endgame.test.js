// The end of a game (js/endgame.js): its headline and the mills it marks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { headline, millPoints, decidingPoints } from '../js/endgame.js';
import { setMessages } from '../js/i18n.js';

const load = (code) => JSON.parse(readFileSync(new URL(`../i18n/${code}.json`, import.meta.url), 'utf8'));
setMessages('en', load('en'));

const MILLS = [['a7', 'd7', 'g7'], ['a7', 'a4', 'a1'], ['d7', 'd6', 'd5'], ['g7', 'g4', 'g1']];

test('an aborted game is headed as aborted, not as a draw', () => {
  assert.equal(headline({ winner: null, reason: 'aborted' }), 'Game aborted');
  assert.equal(headline({ winner: null, reason: 'agreement' }), 'Draw');
  assert.equal(headline({ winner: 'black', reason: 'timeout' }), 'Black wins');
  setMessages('de', load('de'));
  assert.equal(headline({ winner: null, reason: 'aborted' }), 'Partie abgebrochen');
  setMessages('en', load('en'));
});

test('the mill a ply closed: every mill through its point that the mover holds', () => {
  const board = { a7: 'white', d7: 'white', g7: 'white', a4: 'white', a1: 'white', g4: 'black' };
  assert.deepEqual(millPoints(board, 'g7', 'white', MILLS).sort(), ['a7', 'd7', 'g7']);
  // Two mills at once, closed on their common point.
  assert.deepEqual(millPoints(board, 'a7', 'white', MILLS).sort(), ['a1', 'a4', 'a7', 'd7', 'g7']);
  assert.deepEqual(millPoints(board, 'g4', 'black', MILLS), []);
  assert.deepEqual(millPoints(board, 'g7', 'black', MILLS), []);
});

test('the mill that decided a game is the one its last ply closed', () => {
  const game = {
    status: 'over', result: { winner: 'white', reason: 'fewer_than_three' }, last: 'g4-g7xd5',
    board: { a7: 'white', d7: 'white', g7: 'white', a4: 'black', a1: 'black' },
  };
  assert.deepEqual(decidingPoints(game, { mills: MILLS }), { kind: 'mill', points: ['a7', 'd7', 'g7'] });
  assert.equal(decidingPoints({ ...game, result: { winner: null, reason: 'aborted' } }, { mills: MILLS }), null);
});
