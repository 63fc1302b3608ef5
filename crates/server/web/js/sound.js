// @ts-check
// The page's sounds, made on the spot with the Web Audio API (no sound files): a soft click
// for a placement, a slide, a rising pair for a mill and its removal, a chord at the end, two
// short high beeps when the player's own clock runs low, and two soft notes for a notice.

import { VOLUME } from './settings.js';

/** @typedef {'place' | 'slide' | 'mill' | 'end' | 'low' | 'notice'} Cue */

/**
 * The notes of each cue: `[start s, frequency Hz, length s, wave, share of the gain]`.
 * @type {Record<Cue, [number, number, number, OscillatorType, number][]>}
 */
export const NOTES = {
  place: [[0, 520, 0.07, 'triangle', 1]],
  slide: [[0, 330, 0.05, 'triangle', 0.8], [0.05, 392, 0.08, 'triangle', 0.8]],
  mill: [[0, 523, 0.1, 'sine', 1], [0.09, 784, 0.16, 'sine', 1], [0.22, 220, 0.12, 'triangle', 0.9]],
  end: [[0, 392, 0.35, 'sine', 0.8], [0.12, 494, 0.35, 'sine', 0.7], [0.24, 587, 0.5, 'sine', 0.7]],
  low: [[0, 880, 0.06, 'square', 0.35], [0.16, 880, 0.06, 'square', 0.35]],
  notice: [[0, 660, 0.12, 'sine', 0.7], [0.13, 880, 0.2, 'sine', 0.7]],
};

/** @type {AudioContext | null} */
let context = null;

/**
 * Browsers let audio start only from a person's gesture: the context is made at the first
 * press or key on the page, and cues before it are silent (no warnings, no queued sounds).
 */
export function unlockOnGesture() {
  if (typeof AudioContext === 'undefined') return;
  const unlock = () => {
    try {
      context ??= new AudioContext();
      if (context.state === 'suspended') context.resume();
    } catch {
      return;
    }
    window.removeEventListener('pointerdown', unlock, true);
    window.removeEventListener('keydown', unlock, true);
  };
  window.addEventListener('pointerdown', unlock, true);
  window.addEventListener('keydown', unlock, true);
}

/**
 * Plays a cue at a volume of the settings; silent when off or where there is no Web Audio.
 * @param {Cue} cue
 * @param {keyof typeof VOLUME} volume
 */
export function play(cue, volume) {
  const gain = VOLUME[volume];
  if (!gain || !context || context.state !== 'running') return;
  try {
    const now = context.currentTime + 0.01;
    for (const [at, freq, length, type, share] of NOTES[cue]) {
      const osc = context.createOscillator();
      const env = context.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      // A quick attack and a smooth decay: no clicks at the edges.
      env.gain.setValueAtTime(0.0001, now + at);
      env.gain.exponentialRampToValueAtTime(gain * share, now + at + 0.008);
      env.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
      osc.connect(env).connect(context.destination);
      osc.start(now + at);
      osc.stop(now + at + length + 0.02);
    }
  } catch {
    /* audio refused (autoplay rules): the game goes on silently */
  }
}

/**
 * The cue of a ply: a mill (a removal) over a slide over a placement.
 * @param {{from: string | null, removes: string[]}} ply
 * @returns {Cue}
 */
export function cueOf(ply) {
  if (ply.removes.length) return 'mill';
  return ply.from ? 'slide' : 'place';
}
