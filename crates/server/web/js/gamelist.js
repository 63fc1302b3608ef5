// @ts-check
// A list of games with its filters, as "My games" and each player's page show it: newest
// first, each game with the opponent, the result from the player's side, why it ended, the
// variant, the clock, rated or casual, and when; filtered by variant and result, and paged
// back by "More games". Everything the server or a player wrote goes in as textContent.

import { h } from './panels.js';
import { localeOf, language, t } from './i18n.js';
import { clockWords } from './format.js';

/**
 * A game of `GET /api/session/games` or `GET /api/players/{name}/games`.
 * @typedef {{ id: string, variant: string, white: string | null, black: string | null,
 *   clock: string | null, rated: boolean, color?: 'white' | 'black' | null,
 *   result: string | null, reason: string | null, plies: number, updated: number }} Summary
 */
/** @typedef {{ variant: string, result: string }} Filters */

/** The variants a list can be filtered by, in the order the new-game dialog names them. */
export const VARIANTS = ['nine', 'six', 'three', 'twelve', 'morabaraba', 'lasker'];
/** The results a list can be filtered by, from the player's side. */
export const RESULTS = ['win', 'draw', 'loss'];
/** How many games are asked for at a time. */
export const PAGE = 20;

/**
 * The result of a game from the side of the player whose list it is: `win`, `draw`, `loss`,
 * `aborted` (it counts for nobody) or `playing`; null when the list names no seat.
 * @param {Summary} g
 * @returns {'win' | 'draw' | 'loss' | 'aborted' | 'playing' | null}
 */
export function playerResult(g) {
  if (g.result === null || g.result === undefined) return 'playing';
  if (g.result === '*') return 'aborted';
  if (g.result === '1/2-1/2') return 'draw';
  if (g.color !== 'white' && g.color !== 'black') return null;
  return (g.result === '1-0') === (g.color === 'white') ? 'win' : 'loss';
}

/**
 * The name of the player's opponent, null for an anonymous one; undefined when the list
 * names no seat.
 * @param {Summary} g
 * @returns {string | null | undefined}
 */
export function opponentOf(g) {
  if (g.color === 'white') return g.black;
  if (g.color === 'black') return g.white;
  return undefined;
}

/**
 * The query of a list (and the address of its page): the filters that are set and, for the
 * next page, the time of the oldest game shown (games changed in that same second are
 * asked for again: `unseen` drops them). A page holds the server's default of 20 games.
 * @param {Filters} filters
 * @param {number | null} [oldest]
 */
export function listQuery(filters, oldest = null) {
  const q = new URLSearchParams();
  if (VARIANTS.includes(filters.variant)) q.set('variant', filters.variant);
  if (RESULTS.includes(filters.result)) q.set('result', filters.result);
  if (oldest !== null) q.set('before', String(oldest + 1));
  const text = q.toString();
  return text ? `?${text}` : '';
}

/**
 * The games of a next page that are not shown yet.
 * @param {Summary[]} shown
 * @param {Summary[]} page
 */
export function unseen(shown, page) {
  const ids = new Set(shown.map((g) => g.id));
  return page.filter((g) => !ids.has(g.id));
}

/**
 * The filters an address asks for (`?variant=six&result=win`), unknown values left out.
 * @param {string} search
 * @returns {Filters}
 */
export function filtersOf(search) {
  const q = new URLSearchParams(search);
  const variant = q.get('variant') ?? '';
  const result = q.get('result') ?? '';
  return { variant: VARIANTS.includes(variant) ? variant : '', result: RESULTS.includes(result) ? result : '' };
}

/** The page's language as `Intl` takes it. */
const locale = () => localeOf(language());

/**
 * When a game last changed, as a date and time in the page's language.
 * @param {number} seconds since 1970
 */
export function whenText(seconds) {
  try {
    return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(seconds * 1000));
  } catch {
    return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  }
}

// The reasons said in a row (an aborted game says so in its result).
const REASONS = ['fewer_than_three', 'blocked', 'line', 'repetition', 'n_move_rule', 'full_board', 'resignation', 'agreement', 'timeout', 'abandonment'];

/**
 * One game of the list: a link to it that holds everything said about it.
 * @param {Summary} g
 * @param {(path: string, text: string, className?: string) => HTMLAnchorElement} link
 */
function gameRow(g, link) {
  const li = h('li', 'game-row');
  li.dataset.game = g.id;
  const outcome = playerResult(g);
  li.dataset.result = outcome ?? '';
  const a = link(`/g/${encodeURIComponent(g.id)}`, '', 'game-link');
  const badge = h('span', `outcome ${outcome ?? 'over'}`, outcome ? t(`outcome.${outcome}`) : g.result ?? '');
  const main = h('span', 'game-main');
  const opponent = opponentOf(g);
  const anonymous = t('site.anonymous');
  const who = opponent === undefined
    ? `${g.white ?? anonymous} – ${g.black ?? anonymous}`
    : t('site.vs', { name: opponent ?? anonymous });
  main.append(h('span', 'who', who));
  const terms = [t(`variant.${g.variant}`), clockWords(g.clock), g.rated ? t('site.rated') : t('site.casual')];
  if (g.color) terms.push(t('site.as_color', { color: t(`color.${g.color}`) }));
  main.append(h('span', 'terms', terms.join(' · ')));
  const end = [];
  if (g.reason && REASONS.includes(g.reason)) end.push(t(`reason.${g.reason}`));
  if (g.result && g.result !== '*') end.push(g.result);
  end.push(t('site.plies_count', { count: g.plies }));
  main.append(h('span', 'terms', end.join(' · ')));
  const when = h('time', 'when', whenText(g.updated));
  when.setAttribute('datetime', new Date(g.updated * 1000).toISOString());
  a.append(badge, main, when);
  li.append(a);
  return li;
}

/**
 * @typedef {{ link: (path: string, text: string, className?: string) => HTMLAnchorElement,
 *   describe: (err: any) => string, empty: string }} ListOptions
 */

/**
 * The filters and the list of games that `fetchGames(query)` answers, drawn into a new
 * element; the filters follow the address (`?variant=…&result=…`) so that a reload keeps
 * them. `empty` is said when the player has no game at all.
 * @param {(query: string) => Promise<Summary[]>} fetchGames
 * @param {ListOptions} options
 */
export function gameList(fetchGames, { link, describe, empty }) {
  const box = h('div', 'game-list');
  const filters = h('form', 'filters');
  const chosen = filtersOf(location.search);
  /**
   * @param {string} name
   * @param {string[]} values
   * @param {(v: string) => string} words
   * @param {string} all
   * @param {string} label
   */
  const select = (name, values, words, all, label) => {
    const s = document.createElement('select');
    s.name = name;
    s.id = `filter-${name}`;
    s.setAttribute('aria-label', label);
    for (const v of ['', ...values]) s.append(new Option(v ? words(v) : all, v));
    s.value = chosen[/** @type {keyof Filters} */ (name)];
    return s;
  };
  const variant = select('variant', VARIANTS, (v) => t(`variant.${v}`), t('site.all_variants'), t('form.game'));
  const result = select('result', RESULTS, (v) => t(`site.result_${v}`), t('site.all_results'), t('site.result_label'));
  filters.append(variant, result);
  const status = h('p', 'fine list-status');
  status.setAttribute('role', 'status');
  const list = h('ul', 'games');
  list.id = 'games-list';
  const more = h('button', 'more-games', t('site.more_games'));
  more.type = 'button';
  more.hidden = true;
  box.append(filters, status, list, more);

  /** @type {Summary[]} */
  let shown = [];
  let asked = 0; // the newest request: an older answer that arrives late is dropped
  const current = () => ({ variant: variant.value, result: result.value });
  /** @param {boolean} next */
  const load = async (next) => {
    const mine = ++asked;
    const oldest = next && shown.length ? shown[shown.length - 1].updated : null;
    more.disabled = true;
    try {
      const page = await fetchGames(listQuery(current(), oldest));
      if (mine !== asked) return;
      const fresh = next ? unseen(shown, page) : page;
      if (!next) {
        shown = [];
        list.replaceChildren();
      }
      shown = shown.concat(fresh);
      for (const g of fresh) list.append(gameRow(g, link));
      const filtered = Boolean(variant.value || result.value);
      status.textContent = shown.length ? '' : filtered ? t('site.games_filtered_none') : empty;
      more.hidden = page.length < PAGE || fresh.length === 0;
    } catch (err) {
      if (mine === asked) status.textContent = describe(err);
    } finally {
      more.disabled = false;
    }
  };
  const refilter = () => {
    const url = new URL(location.href);
    url.search = listQuery(current());
    history.replaceState(history.state, '', url);
    load(false);
  };
  variant.addEventListener('change', refilter);
  result.addEventListener('change', refilter);
  more.addEventListener('click', () => load(true));
  return { element: box, ready: load(false) };
}
