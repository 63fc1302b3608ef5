// The formatting helpers of js/format.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { levelKey, readScore, scoreParts, scoreWords, clockWords, gameTerms, ratingText, fromWhite } from '../js/format.js';
import { setMessages, t } from '../js/i18n.js';

setMessages('en', JSON.parse(readFileSync(new URL('../i18n/en.json', import.meta.url), 'utf8')));

test('scores are read in the structured and the text form', () => {
  assert.deepEqual(readScore({ kind: 'cp', value: 35 }), { kind: 'cp', value: 35 });
  assert.deepEqual(readScore('cp -120'), { kind: 'cp', value: -120 });
  assert.deepEqual(readScore('mate 7'), { kind: 'mate', value: 7 });
  assert.equal(readScore(null), null);
  assert.equal(readScore('depth 8'), null);
  assert.equal(readScore({ kind: 'cp', value: Number.NaN }), null);
});

test('centipawns are shown as pieces with a sign', () => {
  assert.deepEqual(scoreParts({ kind: 'cp', value: 35 }), { text: '+0.35' });
  assert.deepEqual(scoreParts({ kind: 'cp', value: -120 }), { text: '−1.20' });
  assert.deepEqual(scoreParts({ kind: 'cp', value: 0 }), { text: '+0.00' });
  assert.deepEqual(scoreParts({ kind: 'mate', value: -4 }), { win: false, plies: 4 });
});

test('scoreWords puts mates into words', () => {
  assert.equal(scoreWords({ kind: 'mate', value: 7 }), 'win in 7');
  assert.equal(scoreWords('mate -4'), 'loss in 4');
  assert.equal(scoreWords({ kind: 'cp', value: 250 }), '+2.50');
  assert.equal(scoreWords(undefined), '');
});

test('each level is put into words, weakest to strongest', () => {
  assert.equal(levelKey(1), 'level.beginner');
  assert.equal(levelKey(2), 'level.beginner');
  assert.equal(levelKey(4), 'level.casual');
  assert.equal(levelKey(5), 'level.club');
  assert.equal(levelKey(9), 'level.strong');
  assert.equal(levelKey(10), 'level.full');
  assert.equal(t(levelKey(10), { rating: 2900 }), 'Full strength: the engine at its best (about 2900)');
});

test('clocks are said in words: days counted, Fischer controls as written', () => {
  assert.equal(clockWords('3+2'), '3+2');
  assert.equal(clockWords('0:30+0'), '0:30+0');
  assert.equal(clockWords('1d'), '1 day a move');
  assert.equal(clockWords('3d'), '3 days a move');
  assert.equal(clockWords(null), 'no clock');
});

test('a game says whether it is rated, its clock and its class', () => {
  assert.equal(gameTerms({ rated: true, clock: { text: '3+2', class: 'blitz' } }), 'Rated · 3+2 · Blitz');
  assert.equal(gameTerms({ rated: false, clock: { text: '3d', class: 'correspondence' } }), 'Casual · 3 days a move · Correspondence');
  assert.equal(gameTerms({ rated: false, clock: null }), 'Casual · no clock');
  assert.equal(ratingText(1662.4, true), '1662?');
  assert.equal(ratingText(1433.6), '1434');
});

test('the review says every score from White’s side', () => {
  assert.deepEqual(fromWhite({ kind: 'cp', value: 40 }, 'black'), { kind: 'cp', value: -40 });
  assert.deepEqual(fromWhite('cp 40', 'white'), { kind: 'cp', value: 40 });
  assert.deepEqual(fromWhite({ kind: 'mate', value: 7 }, 'black'), { kind: 'mate', value: -7 });
  assert.equal(scoreWords(fromWhite({ kind: 'cp', value: -15 }, 'black')), '+0.15');
  assert.equal(fromWhite(null, 'black'), null);
});
