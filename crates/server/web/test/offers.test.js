// What the page offers in a game (js/offers.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colorOfPly, canTakeBack, canAskTakeBack, canEnd, canOfferDraw, canCoach, takebackDeclined, ownTakeback } from '../js/offers.js';

const START = '.../.../.../....../.../.../... w 9 9 0 1';
/** @param {object} fields */
const game = (fields = {}) => ({
  opponent: 'computer', status: 'playing', start: START, moves: [], thinking: false,
  draw_offer: null, result: null, ...fields,
});

test('colorOfPly follows the side to move of the start', () => {
  assert.equal(colorOfPly(game(), 0), 'white');
  assert.equal(colorOfPly(game(), 1), 'black');
  assert.equal(colorOfPly({ start: '.../.../.../....../.../.../... b 8 9 0 1' }, 0), 'black');
});

test('take back against the computer needs a ply of one\'s own, and no thinking', () => {
  assert.equal(canTakeBack(game(), 'white'), false);
  assert.equal(canTakeBack(game({ moves: ['d6'], thinking: true }), 'white'), false);
  assert.equal(canTakeBack(game({ moves: ['d6', 'f4'] }), 'white'), true);
  // The computer opened as White: Black has nothing to take back yet.
  assert.equal(canTakeBack(game({ moves: ['d6'] }), 'black'), false);
  assert.equal(canTakeBack(game({ moves: ['d6'] }), null), false);
});

test('between people a take-back is always a request, asked while the game is on', () => {
  const friend = { opponent: 'friend' };
  assert.equal(canTakeBack(game({ ...friend, moves: ['d6'] }), 'white'), false, 'never at once');
  assert.equal(canAskTakeBack(game({ ...friend, moves: ['d6'] }), 'white'), true, 'before the answer too');
  assert.equal(canAskTakeBack(game({ ...friend, moves: ['d6'] }), 'black'), false, 'no ply of Black\'s');
  assert.equal(canAskTakeBack(game({ ...friend, moves: ['d6', 'f4'] }), 'white'), true);
  assert.equal(canAskTakeBack(game({ ...friend, moves: ['d6', 'f4'], takeback_offer: 'black' }), 'white'), false, 'one request at a time');
  assert.equal(canAskTakeBack(game({ ...friend, moves: ['d6'], status: 'over', result: { winner: 'white', reason: 'blocked' } }), 'white'), false);
  assert.equal(canAskTakeBack(game({ opponent: 'computer', moves: ['d6'] }), 'white'), false);
});

test('no take back after a resignation or an agreed draw; on one device the last ply', () => {
  const over = (reason) => game({ opponent: 'local', moves: ['d6'], status: 'over', result: { winner: null, reason } });
  assert.equal(canTakeBack(over('agreement'), 'both'), false);
  assert.equal(canTakeBack(over('resignation'), 'both'), false);
  assert.equal(canTakeBack(over('blocked'), 'both'), true);
  assert.equal(canTakeBack(game({ opponent: 'local' }), 'both'), false);
});

test('resign and draw offers only in a game on, by a seat, not while the computer thinks', () => {
  assert.equal(canEnd(game(), 'white'), true);
  assert.equal(canEnd(game(), null), false);
  assert.equal(canEnd(game({ thinking: true }), 'white'), false);
  assert.equal(canEnd(game({ status: 'over' }), 'white'), false);
  assert.equal(canOfferDraw(game(), 'white'), true);
  assert.equal(canOfferDraw(game({ draw_offer: 'black' }), 'white'), false);
  assert.equal(canEnd(null, 'white'), false);
});

test('hints and analysis: not between friends while they play, not while the computer thinks', () => {
  assert.equal(canCoach(game()), true);
  assert.equal(canCoach(game({ opponent: 'friend' })), false);
  assert.equal(canCoach(game({ thinking: true })), false);
  assert.equal(canCoach(game({ status: 'over' })), false);
  assert.equal(canCoach(null), false);
});

test('a take-back request that is gone with the plies unchanged was declined', () => {
  const asked = { id: 'g', status: 'playing', moves: ['d6', 'f4'], takeback_offer: 'white' };
  const declined = { ...asked, takeback_offer: null };
  assert.equal(takebackDeclined(asked, declined, 'white'), true);
  // The opponent sees no notice of their own answer; the asker's own ply lets it lapse.
  assert.equal(takebackDeclined(asked, declined, 'black'), false);
  assert.equal(takebackDeclined(asked, { ...declined, moves: ['d6', 'f4', 'a7'] }, 'white'), false);
  // Accepted: two plies are taken back.
  assert.equal(takebackDeclined(asked, { ...declined, moves: [] }, 'white'), false);
  assert.equal(takebackDeclined(asked, { ...declined, status: 'over' }, 'white'), false);
  assert.equal(takebackDeclined(asked, { ...declined, id: 'h' }, 'white'), false);
  assert.equal(takebackDeclined(null, declined, 'white'), false);
  assert.equal(takebackDeclined(asked, asked, 'white'), false);
});

test('the actions card takes back against the computer and on one device, not between people', () => {
  assert.equal(ownTakeback(game(), 'white'), true);
  assert.equal(ownTakeback(game({ opponent: 'local' }), 'both'), true);
  assert.equal(ownTakeback(game({ opponent: 'friend' }), 'white'), false);
  assert.equal(ownTakeback(game({ opponent: 'friend' }), null), false);
  assert.equal(ownTakeback(null, null), true);
});
