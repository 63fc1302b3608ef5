// @ts-check
// The player's settings, kept per browser in local storage: how the board is drawn, how fast
// it moves, whether it sounds, and the colours of the page.

/**
 * @typedef {{
 *   flip: boolean,
 *   coords: boolean,
 *   dots: boolean,
 *   speed: 'off' | 'fast' | 'normal' | 'slow',
 *   sound: 'off' | 'quiet' | 'normal',
 *   theme: 'auto' | 'wood' | 'dark' | 'contrast',
 * }} Settings
 */

/** What a first visit gets: sounds off until the player turns them on. */
export const DEFAULTS = /** @type {Readonly<Settings>} */ (Object.freeze({
  flip: false,
  coords: true,
  dots: true,
  speed: 'normal',
  sound: 'off',
  theme: 'auto',
}));

/** The values each choice takes, first the default. */
export const CHOICES = Object.freeze({
  speed: ['normal', 'fast', 'slow', 'off'],
  sound: ['off', 'quiet', 'normal'],
  theme: ['auto', 'wood', 'dark', 'contrast'],
});

/** How long animations take at each speed, as a factor of the normal one. */
export const SPEED_FACTOR = Object.freeze({ off: 0, fast: 0.5, normal: 1, slow: 2 });

/** The gain of the sounds at each volume. */
export const VOLUME = Object.freeze({ off: 0, quiet: 0.12, normal: 0.35 });

const STORE = 'morris.settings';

/**
 * Settings from what was stored (any JSON value, perhaps from an older page or edited by
 * hand): each known field of the right type and value is taken, every other is the default.
 * @param {unknown} raw
 * @returns {Settings}
 */
export function readSettings(raw) {
  const s = { ...DEFAULTS };
  if (!raw || typeof raw !== 'object') return s;
  const r = /** @type {Record<string, unknown>} */ (raw);
  for (const key of /** @type {const} */ (['flip', 'coords', 'dots'])) {
    if (typeof r[key] === 'boolean') s[key] = r[key];
  }
  const pick = (/** @type {'speed' | 'sound' | 'theme'} */ key) => {
    const v = r[key];
    return typeof v === 'string' && /** @type {readonly string[]} */ (CHOICES[key]).includes(v) ? v : null;
  };
  s.speed = /** @type {Settings['speed'] | null} */ (pick('speed')) ?? s.speed;
  s.sound = /** @type {Settings['sound'] | null} */ (pick('sound')) ?? s.sound;
  s.theme = /** @type {Settings['theme'] | null} */ (pick('theme')) ?? s.theme;
  return s;
}

/**
 * The theme drawn: "auto" follows the system's light or dark choice.
 * @param {Settings['theme']} theme
 * @param {boolean} systemDark
 * @returns {'wood' | 'dark' | 'contrast'}
 */
export function resolveTheme(theme, systemDark) {
  if (theme === 'auto') return systemDark ? 'dark' : 'wood';
  return theme;
}

/** The settings of this browser. */
export function loadSettings() {
  try {
    return readSettings(JSON.parse(localStorage.getItem(STORE) ?? 'null'));
  } catch {
    return { ...DEFAULTS };
  }
}

/** @param {Settings} settings */
export function saveSettings(settings) {
  try {
    localStorage.setItem(STORE, JSON.stringify(settings));
  } catch {
    /* storage disabled: the settings last for this visit */
  }
}
