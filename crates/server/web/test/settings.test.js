// The settings kept per browser (js/settings.js) and the cues of the sounds (js/sound.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, CHOICES, SPEED_FACTOR, VOLUME, readSettings, resolveTheme } from '../js/settings.js';
import { NOTES, cueOf, play } from '../js/sound.js';

test('a first visit has sounds off and the board as usual', () => {
  assert.deepEqual(readSettings(null), DEFAULTS);
  assert.equal(DEFAULTS.sound, 'off');
  assert.equal(DEFAULTS.flip, false);
  for (const key of Object.keys(CHOICES)) assert.equal(CHOICES[key][0], DEFAULTS[key], key);
});

test('stored settings are taken field by field; bad values fall back to the defaults', () => {
  const s = readSettings({ flip: true, coords: 'no', dots: false, speed: 'slow', sound: 'loud', theme: 'contrast', extra: 1 });
  assert.deepEqual(s, { ...DEFAULTS, flip: true, dots: false, speed: 'slow', theme: 'contrast' });
  assert.deepEqual(readSettings('dark'), DEFAULTS);
  assert.deepEqual(readSettings([]), DEFAULTS);
});

test('every choice has its factor or volume', () => {
  for (const speed of CHOICES.speed) assert.equal(typeof SPEED_FACTOR[speed], 'number', speed);
  for (const sound of CHOICES.sound) assert.equal(typeof VOLUME[sound], 'number', sound);
  assert.equal(SPEED_FACTOR.off, 0);
  assert.equal(VOLUME.off, 0);
});

test('the automatic theme follows the system', () => {
  assert.equal(resolveTheme('auto', true), 'dark');
  assert.equal(resolveTheme('auto', false), 'wood');
  assert.equal(resolveTheme('contrast', true), 'contrast');
});

test('each ply has its cue, and every cue has notes', () => {
  assert.equal(cueOf({ from: null, removes: [] }), 'place');
  assert.equal(cueOf({ from: 'f2', removes: [] }), 'slide');
  assert.equal(cueOf({ from: null, removes: ['a1'] }), 'mill');
  for (const cue of ['place', 'slide', 'mill', 'end', 'low', 'notice']) assert.ok(NOTES[cue].length > 0, cue);
});

test('the notes are soft and short: audible pitches, at most the volume chosen', () => {
  for (const [cue, notes] of Object.entries(NOTES)) {
    for (const [at, freq, length, , share] of notes) {
      assert.ok(at >= 0 && at < 1, `${cue} starts within a second`);
      assert.ok(freq >= 100 && freq <= 2000, `${cue} ${freq} Hz`);
      assert.ok(length > 0 && length <= 0.6, `${cue} lasts ${length} s`);
      assert.ok(share > 0 && share <= 1, `${cue} share ${share}`);
    }
  }
});

test('before a person has pressed anything, a cue plays nothing and throws nothing', () => {
  assert.equal(play('mill', 'normal'), undefined);
  assert.equal(play('end', 'off'), undefined);
});
