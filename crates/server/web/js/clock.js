// @ts-check
// The clocks of a game as the page shows them: the server's view counted down from when it
// arrived, written as a clock, with a warning when a side's time runs low.

/**
 * @typedef {{ left: { white: number, black: number }, running: 'white' | 'black' | null,
 *   control: { kind: string, base?: number, increment?: number, days?: number } }} ClockView
 */

/**
 * Each side's time left `elapsed` milliseconds after the view arrived: only the running
 * clock counts down, and never below zero.
 * @param {ClockView} clock
 * @param {number} elapsed
 * @returns {{ white: number, black: number }}
 */
export function timeLeft(clock, elapsed) {
  const run = (/** @type {'white' | 'black'} */ side) =>
    clock.running === side ? Math.max(0, clock.left[side] - Math.max(0, elapsed)) : clock.left[side];
  return { white: run('white'), black: run('black') };
}

/**
 * A time as a clock writes it: `4:05`, `1:02:03`, and tenths under ten seconds (`7.4`);
 * days and hours for correspondence (`2d 03h`).
 * @param {number} ms
 */
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  const day = 86400000;
  if (t >= day) {
    const d = Math.floor(t / day);
    const h = Math.floor((t % day) / 3600000);
    return `${d}d ${String(h).padStart(2, '0')}h`;
  }
  if (t < 10000) return `${Math.floor(t / 1000)}.${Math.floor((t % 1000) / 100)}`;
  const s = Math.floor(t / 1000);
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * Whether a clock runs low: under a tenth of the base time, and never more than 20 s
 * (a correspondence clock: under a tenth of its days).
 * @param {number} ms
 * @param {ClockView['control']} control
 */
export function isLow(ms, control) {
  if (control.kind === 'correspondence') return ms < (control.days ?? 1) * 8640000;
  const base = (control.base ?? 0) * 1000;
  return ms < Math.min(20000, base / 10);
}

/**
 * Whether the player's own clock has just run low and should be sounded: once per game and
 * side, only while the game is being played. `warned` keeps what was sounded already.
 * @param {Set<string>} warned
 * @param {string} game
 * @param {string | null} you
 * @param {string} color
 * @param {boolean} low
 */
export function warnLow(warned, game, you, color, low) {
  if (!low || color !== you) return false;
  const key = `${game}:${color}`;
  if (warned.has(key)) return false;
  warned.add(key);
  return true;
}
