// The clocks at each ply of js/plyclock.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialTime, leftAt, moverOf, spentOn } from '../js/plyclock.js';
import { formatClock } from '../js/clock.js';

const START = '.../.../.../....../.../.../... w 9 9 0 1';
const T0 = 1800000000000;
// 3+2: White thinks 5 s from the game's start, Black 12.3 s, White 65 s.
const blitz = {
  control: { kind: 'fischer', base: 180, increment: 2 },
  plies: [[T0 + 5000, 177000], [T0 + 17300, 169700], [T0 + 82300, 114000]],
};

test('each side starts with its whole time', () => {
  assert.equal(initialTime({ kind: 'fischer', base: 180, increment: 2 }), 180000);
  assert.equal(initialTime({ kind: 'correspondence', days: 3 }), 3 * 86400000);
});

test('plies alternate from the side to move at the start', () => {
  assert.equal(moverOf(START, 0), 'white');
  assert.equal(moverOf(START, 3), 'black');
  const blackFirst = '.../.W./.../....../.../.../... b 8 9 0 1';
  assert.equal(moverOf(blackFirst, 0), 'black');
  assert.equal(moverOf(blackFirst, 1), 'white');
});

test('the time left at a ply is each side\'s time after its last ply so far', () => {
  assert.deepEqual(leftAt(blitz, START, 0), { white: 180000, black: 180000 });
  assert.deepEqual(leftAt(blitz, START, 1), { white: 177000, black: 180000 });
  assert.deepEqual(leftAt(blitz, START, 2), { white: 177000, black: 169700 });
  assert.deepEqual(leftAt(blitz, START, 3), { white: 114000, black: 169700 });
  assert.deepEqual(leftAt(blitz, START, 99), { white: 114000, black: 169700 }, 'counts past the end stop there');
  assert.deepEqual(leftAt(blitz, START, -1), { white: 180000, black: 180000 });
});

test('at the end of a finished game the clocks stand as they stopped', () => {
  const flagged = { ...blitz, left: { white: 114000, black: 0 }, running: null };
  assert.deepEqual(leftAt(flagged, START, 3), { white: 114000, black: 0 });
  assert.deepEqual(leftAt(flagged, START, 2), { white: 177000, black: 169700 });
  const playing = { ...blitz, left: { white: 114000, black: 150000 }, running: 'black' };
  assert.deepEqual(leftAt(playing, START, 3), { white: 114000, black: 169700 }, 'a running clock is not the ply\'s');
});

test('a Fischer ply took what its mover had before less what it had after, plus the increment', () => {
  // Each side's first ply comes off no clock: 3+2, White's first ply at 5 s, Black's 12.3 s
  // later, then White thinks 65 s.
  const played = {
    control: { kind: 'fischer', base: 180, increment: 2 },
    plies: [[T0 + 5000, 180000], [T0 + 17300, 180000], [T0 + 82300, 117000]],
  };
  assert.equal(spentOn(played, 0), null, 'the start of the game\'s first ply is not sent');
  assert.equal(spentOn(played, 1), 12300, 'Black\'s first ply counts from White\'s');
  assert.equal(spentOn(played, 2), 65000);
  assert.equal(spentOn(played, 3), null, 'no such ply');
  assert.deepEqual([1, 2].map((i) => formatClock(spentOn(played, i))), ['0:12', '1:05']);
  const instant = { control: { kind: 'fischer', base: 60, increment: 5 }, plies: [[T0, 60000], [T0, 60000], [T0, 65000]] };
  assert.equal(spentOn(instant, 2), 0, 'never below nothing');
});

test('a correspondence ply took the time since the ply before', () => {
  const day = 86400000;
  const slow = {
    control: { kind: 'correspondence', days: 2 },
    plies: [[T0 + day, 2 * day], [T0 + day + 3600000, 2 * day]],
  };
  assert.equal(spentOn(slow, 0), null, 'the start of its first ply is not sent');
  assert.equal(spentOn(slow, 1), 3600000);
  assert.deepEqual(leftAt(slow, START, 1), { white: 2 * day, black: 2 * day });
  assert.equal(formatClock(spentOn(slow, 1)), '1:00:00');
});
