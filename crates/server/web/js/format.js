// @ts-check
// Words and numbers of the page that depend on no DOM: scores.

import { t } from './i18n.js';

/**
 * A score as the API sends it: `{kind: "cp", value: 35}` (centipawns for the side to move)
 * or `{kind: "mate", value: 7}` (a win in 7 plies; negative: a loss); the older text form
 * `"cp 35"` / `"mate 7"` is read too.
 * @typedef {{kind: string, value: number} | string} Score
 */

/**
 * Reads a score into `{kind, value}`, or null when it is missing or not understood.
 * @param {Score | null | undefined} score
 * @returns {{kind: 'cp' | 'mate', value: number} | null}
 */
export function readScore(score) {
  if (!score) return null;
  let kind;
  let value;
  if (typeof score === 'string') {
    const [k, v] = score.trim().split(/\s+/);
    kind = k;
    value = Number(v);
  } else {
    kind = score.kind;
    value = Number(score.value);
  }
  if ((kind !== 'cp' && kind !== 'mate') || !Number.isFinite(value)) return null;
  return { kind, value };
}

/**
 * "cp 35" → "+0.35", "cp -120" → "−1.20"; a mate score → `{mate: "win", plies}` for the
 * caller to put into words.
 * @param {Score | null | undefined} score
 * @returns {{text: string} | {win: boolean, plies: number} | null}
 */
export function scoreParts(score) {
  const s = readScore(score);
  if (!s) return null;
  if (s.kind === 'mate') return { win: s.value >= 0, plies: Math.abs(s.value) };
  return { text: `${s.value >= 0 ? '+' : '−'}${(Math.abs(s.value) / 100).toFixed(2)}` };
}

/**
 * A score for the side to move (`turn`) as seen from White's side, so that a review keeps
 * to one view: Black's +0.40 is White's −0.40, Black's win in 7 White's loss in 7.
 * @param {Score | null | undefined} score
 * @param {'white' | 'black'} turn
 * @returns {{kind: 'cp' | 'mate', value: number} | null}
 */
export function fromWhite(score, turn) {
  const s = readScore(score);
  if (!s || turn === 'white') return s;
  return { kind: s.kind, value: -s.value };
}

/**
 * A score in words: "+0.35", "−1.20", "win in 7", "loss in 4"; "" when there is none.
 * @param {Score | null | undefined} score
 */
export function scoreWords(score) {
  const p = scoreParts(score);
  if (!p) return '';
  if ('text' in p) return p.text;
  return t(p.win ? 'score.win' : 'score.loss', { plies: p.plies });
}

/**
 * The words for a level, 1 to 10: which kind of player it plays like.
 * @param {number} level
 * @returns {'level.beginner' | 'level.casual' | 'level.club' | 'level.strong' | 'level.full'}
 */
export function levelKey(level) {
  if (level <= 2) return 'level.beginner';
  if (level <= 4) return 'level.casual';
  if (level <= 7) return 'level.club';
  if (level <= 9) return 'level.strong';
  return 'level.full';
}

/**
 * A time control as the server writes it short ("3+2", "0:30+0", "3d"), in words: a
 * correspondence control is said in days ("1 day a move", "3 days a move"), a Fischer one
 * stays as it is; no control is "no clock".
 * @param {string | null | undefined} text
 */
export function clockWords(text) {
  if (!text) return t('site.no_clock');
  const days = /^(\d+)d$/.exec(text);
  return days ? t('site.days', { count: Number(days[1]) }) : text;
}

/**
 * The terms of a game, as its page says them above the turn: "Rated · 3+2 · Blitz",
 * "Casual · 3 days a move · Correspondence", "Casual · no clock".
 * @param {{rated?: boolean, clock?: {text: string, class: string} | null}} game
 */
export function gameTerms(game) {
  const terms = [t(game.rated ? 'site.rated' : 'site.casual'), clockWords(game.clock?.text)];
  if (game.clock?.class) terms.push(t(`site.class_${game.clock.class}`));
  return terms.join(' · ');
}

/**
 * A rating as lists show it: rounded, with "?" while it is provisional.
 * @param {number} rating
 * @param {boolean} [provisional]
 */
export function ratingText(rating, provisional = false) {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}
