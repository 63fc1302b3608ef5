// The lists of games of js/gamelist.js: results from the player's side, queries, pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filtersOf, listQuery, opponentOf, playerResult, unseen, whenText } from '../js/gamelist.js';

const game = (fields) => ({
  id: 'g1', variant: 'nine', white: 'ann', black: null, clock: '3+2', rated: false,
  color: 'white', result: null, reason: null, plies: 0, updated: 1800000000, ...fields,
});

test('a result is said from the side of the player whose list it is', () => {
  assert.equal(playerResult(game({ result: '1-0' })), 'win');
  assert.equal(playerResult(game({ result: '0-1' })), 'loss');
  assert.equal(playerResult(game({ color: 'black', result: '0-1' })), 'win');
  assert.equal(playerResult(game({ color: 'black', result: '1-0' })), 'loss');
  assert.equal(playerResult(game({ result: '1/2-1/2' })), 'draw');
  assert.equal(playerResult(game({ result: '*' })), 'aborted', 'an aborted game counts for nobody');
  assert.equal(playerResult(game({ result: null })), 'playing');
  assert.equal(playerResult(game({ color: null, result: '1-0' })), null, 'a list of nobody in particular');
});

test('the opponent is the other seat, anonymous as null', () => {
  assert.equal(opponentOf(game({})), null);
  assert.equal(opponentOf(game({ color: 'black' })), 'ann');
  assert.equal(opponentOf(game({ color: null })), undefined);
});

test('a query holds the filters that are set and the page before the oldest game shown', () => {
  assert.equal(listQuery({ variant: '', result: '' }), '');
  assert.equal(listQuery({ variant: 'six', result: '' }), '?variant=six');
  assert.equal(listQuery({ variant: 'six', result: 'loss' }), '?variant=six&result=loss');
  assert.equal(listQuery({ variant: 'chess', result: 'maybe' }), '', 'unknown values are left out');
  assert.equal(listQuery({ variant: '', result: 'win' }, 1800000000), '?result=win&before=1800000001');
});

test('filters are read back from the address', () => {
  assert.deepEqual(filtersOf('?variant=lasker&result=draw'), { variant: 'lasker', result: 'draw' });
  assert.deepEqual(filtersOf('?variant=chess&result=1'), { variant: '', result: '' });
  assert.deepEqual(filtersOf(''), { variant: '', result: '' });
});

test('a next page adds only the games not shown yet', () => {
  const shown = [game({ id: 'a' }), game({ id: 'b' })];
  assert.deepEqual(unseen(shown, [game({ id: 'b' }), game({ id: 'c' })]).map((g) => g.id), ['c']);
  assert.deepEqual(unseen([], [game({ id: 'a' })]).map((g) => g.id), ['a']);
});

test('a date is written with its time', () => {
  const text = whenText(1800000000);
  assert.match(text, /2027/);
  assert.match(text, /\d:\d\d/);
});
