// The notification client's logic (js/notify.js): what each message of the channel does to
// the tray, the tab's title and the page, and what the notices say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { NoticeBoard, KEPT, titled, noticeWords } from '../js/notify.js';
import { setMessages } from '../js/i18n.js';

const load = (code) => JSON.parse(readFileSync(new URL(`../i18n/${code}.json`, import.meta.url), 'utf8'));

const challenge = (id, by = 'ann') => ({
  id,
  by,
  rating: 1500,
  provisional: true,
  variant: 'nine',
  clock_text: '3+2',
  rated: true,
  color: 'random',
  direct: true,
});

test('challenges to the player are listed from the first message, added once and removed when gone', () => {
  const board = new NoticeBoard();
  assert.deepEqual(board.take({ type: 'hello', challenges: [challenge(1)] }, '/lobby'), { changed: true, alert: false });
  assert.equal(board.count(), 1);
  assert.deepEqual(board.take({ type: 'challenge', challenge: challenge(2, 'kim') }, '/lobby'), { changed: true, alert: true });
  assert.equal(board.take({ type: 'challenge', challenge: challenge(2, 'kim') }, '/lobby').changed, false, 'once');
  assert.equal(board.count(), 2);
  assert.equal(board.items[0].kind, 'challenge');
  assert.equal(board.take({ type: 'challenge_gone', id: 1, why: 'withdrawn' }, '/lobby').changed, true);
  assert.deepEqual(board.items.map((i) => i.kind === 'challenge' && i.challenge.id), [2]);
  assert.equal(board.take({ type: 'challenge_gone', id: 1, why: 'withdrawn' }, '/lobby').changed, false);
  // A reconnection's hello replaces the challenges and keeps the news.
  board.take({ type: 'declined', id: 9, by: 'eve' }, '/lobby');
  board.take({ type: 'hello', challenges: [] }, '/lobby');
  assert.deepEqual(board.items.map((i) => i.kind), ['declined']);
  // Nonsense changes nothing.
  for (const msg of [null, 7, {}, { type: 'pong' }, { type: 'challenge' }]) {
    assert.deepEqual(board.take(msg, '/'), { changed: false, alert: false });
  }
});

test('a game that started opens at once unless the page shows another game', () => {
  const board = new NoticeBoard();
  const started = { type: 'started', game: 'abc123def456', color: 'white', opponent: 'kim' };
  assert.deepEqual(board.take(started, '/lobby'), { changed: false, alert: true, open: '/g/abc123def456' });
  assert.deepEqual(board.take(started, '/games'), { changed: false, alert: true, open: '/g/abc123def456' });
  assert.deepEqual(board.take(started, '/g/abc123def456'), { changed: false, alert: false }, 'there already');
  assert.equal(board.count(), 0);
  const effect = board.take(started, '/g/zzzzzzzzzzzz');
  assert.equal(effect.open, undefined, 'a game being played is not left');
  assert.equal(effect.changed, true);
  assert.equal(board.items[0].kind, 'started');
});

test('offers and turns of a game are kept once each, not on the game page, and leave when it is seen', () => {
  const board = new NoticeBoard();
  const turn = { type: 'turn', game: 'g1', opponent: 'ann' };
  assert.equal(board.take(turn, '/g/g1').changed, false, 'the game page shows it');
  board.take(turn, '/games');
  board.take(turn, '/games');
  board.take({ type: 'offer', game: 'g1', offer: 'draw', by: 'ann' }, '/games');
  board.take({ type: 'turn', game: 'g2', opponent: 'kim' }, '/games');
  assert.deepEqual(board.items.map((i) => `${i.kind} ${i.game}`), ['turn g2', 'offer g1', 'turn g1']);
  assert.equal(board.seenGame('g1'), true);
  assert.deepEqual(board.items.map((i) => `${i.kind} ${i.game}`), ['turn g2']);
  assert.equal(board.dismiss(board.items[0].key), true);
  assert.equal(board.count(), 0);
});

test('the tray keeps the newest news and every open challenge', () => {
  const board = new NoticeBoard();
  board.take({ type: 'challenge', challenge: challenge(1) }, '/');
  for (let i = 0; i < KEPT + 4; i += 1) board.take({ type: 'turn', game: `g${i}`, opponent: null }, '/');
  assert.equal(board.count(), KEPT + 1);
  assert.ok(board.items.some((i) => i.kind === 'challenge'));
  assert.equal(board.items[0].game, `g${KEPT + 3}`);
  assert.ok(!board.items.some((i) => i.game === 'g0'), 'the oldest left');
});

test('the tab title counts the notices and loses the count at none', () => {
  assert.equal(titled("Nine Men's Morris", 2), "(2) Nine Men's Morris");
  assert.equal(titled("(2) Nine Men's Morris", 3), "(3) Nine Men's Morris");
  assert.equal(titled("(3) Nine Men's Morris", 0), "Nine Men's Morris");
  assert.equal(titled('Morris', 0), 'Morris');
});

test('the notices say who and what, in every language', () => {
  const board = new NoticeBoard();
  board.take({ type: 'hello', challenges: [challenge(1)] }, '/');
  board.take({ type: 'declined', id: 4, by: 'kim' }, '/');
  board.take({ type: 'offer', game: 'g', offer: 'rematch', by: null }, '/');
  setMessages('en', load('en'));
  const words = board.items.map(noticeWords);
  assert.deepEqual(words, [
    'Anonymous offers a rematch.',
    'kim declined your challenge.',
    "ann (1500?) challenges you: Nine Men's Morris · 3+2 · Rated",
  ]);
  for (const code of ['de', 'fr', 'sr', 'nl', 'it', 'es', 'af']) {
    setMessages(code, load(code));
    const said = board.items.map(noticeWords);
    for (const text of said) assert.doesNotMatch(text, /notice\.|site\.|\{/, `${code}: ${text}`);
    assert.ok(said[1].includes('kim'), code);
  }
  setMessages('en', load('en'));
});
