// What the import dialog says of a record the server cannot read (js/dialogs.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { refusalWords, importProblem } from '../js/dialogs.js';
import { setMessages } from '../js/i18n.js';

setMessages('en', JSON.parse(readFileSync(new URL('../i18n/en.json', import.meta.url), 'utf8')));

test('a record refused with 400 is told in the server’s own words', () => {
  const err = { status: 400, message: 'line 1, column 7: ply 2: illegal ply d6: d6 is not empty' };
  assert.equal(refusalWords(err, true), 'This record cannot be imported: line 1, column 7: ply 2: illegal ply d6: d6 is not empty');
  // Not a record, or not a 400: the page's own sentence.
  assert.equal(refusalWords(err, false), 'The server could not understand the request. Reload the page and try again.');
  assert.equal(refusalWords({ status: 429, message: 'too many games' }, true), 'Too many new games from here: wait a minute and try again.');
  assert.equal(refusalWords({ status: 0, message: 'Cannot reach the server.' }, true), 'Cannot reach the server. Check the connection and try again.');
});

test('the listing of a pasted text names why its one game cannot be read', () => {
  assert.equal(importProblem([{ error: 'line 2, column 22: ply 5: illegal ply d7-a4' }]), 'line 2, column 22: ply 5: illegal ply d7-a4');
  assert.equal(importProblem([{ error: null }]), null);
  // Several games: those that can be read are listed; only when none can is it said.
  assert.equal(importProblem([{ error: 'bad' }, { error: null }]), null);
  assert.equal(importProblem([{ error: 'first' }, { error: 'second' }]), 'first');
  assert.equal(importProblem([]), null);
});
