// The API's refusals as sentences (js/errors.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { errorKey, ERROR_KEYS } from '../js/errors.js';

const english = JSON.parse(readFileSync(new URL('../i18n/en.json', import.meta.url), 'utf8'));

test('the server\'s messages map to sentences', () => {
  // The messages as crates/server writes them.
  const cases = [
    [0, 'Cannot reach the server.', 'error.offline'],
    [400, 'cannot read the ply "zz": no such point', 'error.bad_ply'],
    [400, 'the position cannot be used: bad hand counts', 'error.bad_position'],
    [400, 'the record cannot be imported: ply 3 is not legal', 'error.bad_record'],
    [400, 'cannot read the body: missing field', 'error.bad_request'],
    [403, 'this token holds no seat in this game: you can only watch', 'error.no_seat'],
    [404, 'there is no game 0123abcd', 'error.no_game'],
    [404, 'there is no such API endpoint', 'error.server_changed'],
    [409, 'it is not your turn: White is to move', 'error.not_your_turn'],
    [409, 'the game is over: Black is blocked', 'error.game_over'],
    [409, 'hints and analysis are off in a game against a friend until it is over', 'error.no_coaching'],
    [409, 'you have no ply to take back', 'error.no_takeback'],
    [409, 'the game ended by resignation or agreement: it cannot be taken back', 'error.no_takeback'],
    [409, 'a draw is already offered', 'error.draw_pending'],
    [409, 'no draw is offered', 'error.no_draw'],
    [409, 'you offered this draw: the other side answers it', 'error.own_draw'],
    [409, 'the ply a7 is not legal here', 'error.illegal'],
    [409, 'something new', 'error.not_now'],
    [413, 'the request body is too large', 'error.too_large'],
    [415, 'the request body must be JSON', 'error.bad_request'],
    [429, 'too many new games from this address: wait a minute and try again', 'error.too_many_games'],
    [500, 'the server failed; the game is unchanged', 'error.server'],
    [502, 'Bad Gateway', 'error.server'],
    [503, 'the server is stopping', 'error.unavailable'],
    [400, 'this user name is kept for the site: choose another', 'error.reserved_name'],
    [400, 'this name is kept for the site: choose another', 'error.reserved_name'],
    [400, "this name is another player's account: choose another", 'error.name_not_yours'],
    [400, 'this password is too common or too easy to guess: choose another', 'error.weak_password'],
    [400, 'a password has at least 8 characters', 'error.bad_password'],
    [404, 'no session of yours has this id', 'error.no_session'],
    [429, 'too many wrong passwords for this account: wait 4 seconds', 'error.account_wait'],
    [429, 'too many sign-in attempts from this address: wait a minute', 'error.too_many_attempts'],
    [507, 'the site is full: no new game can be stored now', 'error.full'],
    [418, 'I am a teapot', 'error.unknown'],
    [-1, 'TypeError: x is undefined', 'error.unknown'],
  ];
  for (const [status, message, key] of cases) assert.equal(errorKey(status, message), key, `${status} ${message}`);
});

test('every sentence an error can take is in the translations', () => {
  assert.ok(ERROR_KEYS.length > 10);
  for (const key of ERROR_KEYS) assert.ok(Object.hasOwn(english, key), key);
});

test('no sentence repeats the server\'s own words', () => {
  for (const key of ERROR_KEYS) assert.doesNotMatch(english[key], /token|ply|endpoint|409|JSON/i, key);
});
