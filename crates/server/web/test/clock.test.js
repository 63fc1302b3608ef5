// The clocks of js/clock.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, isLow, timeLeft, warnLow } from '../js/clock.js';

const blitz = { kind: 'fischer', base: 180, increment: 2 };

test('only the running clock counts down, never below zero', () => {
  const clock = { left: { white: 60000, black: 30000 }, running: 'white', control: blitz };
  assert.deepEqual(timeLeft(clock, 1500), { white: 58500, black: 30000 });
  assert.deepEqual(timeLeft(clock, 99999), { white: 0, black: 30000 });
  assert.deepEqual(timeLeft({ ...clock, running: null }, 5000), { white: 60000, black: 30000 });
  assert.deepEqual(timeLeft(clock, -20), { white: 60000, black: 30000 }, 'a clock never runs back');
});

test('times are written as a clock', () => {
  assert.equal(formatClock(245000), '4:05');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatClock(7450), '7.4');
  assert.equal(formatClock(0), '0.0');
  assert.equal(formatClock(-5), '0.0');
  assert.equal(formatClock(2 * 86400000 + 3 * 3600000), '2d 03h');
});

test('a clock runs low under a tenth of the base, at most 20 seconds', () => {
  assert.ok(isLow(17000, blitz));
  assert.ok(!isLow(21000, blitz));
  const bullet = { kind: 'fischer', base: 60, increment: 0 };
  assert.ok(isLow(5999, bullet));
  assert.ok(!isLow(6000, bullet));
  assert.ok(isLow(3600000, { kind: 'correspondence', days: 1 }));
});

test('a low clock sounds once per game, and only for the player whose clock it is', () => {
  const warned = new Set();
  assert.equal(warnLow(warned, 'g1', 'white', 'white', false), false);
  assert.equal(warnLow(warned, 'g1', 'white', 'black', true), false);
  assert.equal(warnLow(warned, 'g1', null, 'white', true), false);
  assert.equal(warnLow(warned, 'g1', 'white', 'white', true), true);
  assert.equal(warnLow(warned, 'g1', 'white', 'white', true), false);
  assert.equal(warnLow(warned, 'g2', 'white', 'white', true), true);
});
