// @ts-check
// The page's words: one JSON file per language in /i18n/, chosen from the browser's
// languages or the player's choice (kept in local storage). Every text is set as text.

/** The languages of the page, each named in itself. */
export const LANGUAGES = /** @type {const} */ ({
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  nl: 'Nederlands',
  it: 'Italiano',
  es: 'Español',
  sr: 'Srpski',
  af: 'Afrikaans',
});

/** @typedef {keyof typeof LANGUAGES} Lang */
/** @typedef {Record<string, string | number>} Params */
/**
 * A text, or a counted text: its forms by plural category (`one`, `few`, `many`, `other`,
 * as `Intl.PluralRules` names them), of which `other` is always there.
 * @typedef {string | Partial<Record<Intl.LDMLPluralRule, string>> & {other: string}} Message
 */

const STORE = 'morris.lang';

/** @type {Record<string, Message>} */
let messages = {};
/** @type {Lang} */
let current = 'en';

/**
 * Whether `code` is a language of the page.
 * @param {unknown} code
 * @returns {code is Lang}
 */
export function isLanguage(code) {
  return typeof code === 'string' && Object.hasOwn(LANGUAGES, code);
}

/**
 * The first language of `wanted` (BCP 47 tags such as "de-CH" or "sr-Latn-RS", best first)
 * that the page has, by its primary subtag; English when none is.
 * @param {readonly string[]} wanted
 * @returns {Lang}
 */
export function pickLanguage(wanted) {
  for (const tag of wanted) {
    const primary = String(tag).toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/**
 * The names of the placeholders of a text, `{name}`, sorted and each once.
 * @param {string} text
 * @returns {string[]}
 */
export function placeholders(text) {
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

/**
 * Fills the placeholders of a text; a placeholder without a value stays as it is.
 * @param {string} text
 * @param {Params} [params]
 */
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/**
 * The language as `Intl` takes it (Serbian is written in Latin letters here).
 * @param {Lang} lang
 */
export const localeOf = (lang) => (lang === 'sr' ? 'sr-Latn' : lang);

/** @type {Map<string, Intl.PluralRules>} */
const rules = new Map();

/**
 * The plural category of `count` in language `lang`: French says "1 partie" and "0 partie",
 * Serbian "1 partija", "2 partije", "5 partija", "21 partija".
 * @param {Lang} lang
 * @param {number} count
 * @returns {Intl.LDMLPluralRule}
 */
export function pluralCategory(lang, count) {
  let r = rules.get(lang);
  if (!r) {
    r = new Intl.PluralRules(localeOf(lang));
    rules.set(lang, r);
  }
  return r.select(count);
}

/**
 * The text of a message for `count`: the form of its plural category, else `other` (a
 * language whose `many` is the form of `other`, as French for millions, may leave it out).
 * @param {Message} message
 * @param {Lang} lang
 * @param {number} count
 */
export function pluralText(message, lang, count) {
  if (typeof message === 'string') return message;
  return message[pluralCategory(lang, count)] ?? message.other;
}

/**
 * Makes `table` the words in use, for language `lang`.
 * @param {Lang} lang
 * @param {Record<string, Message>} table
 */
export function setMessages(lang, table) {
  current = lang;
  messages = table;
}

/** The language in use. */
export const language = () => current;

/**
 * The text of `key` in the language in use, with its placeholders filled. A counted text
 * takes the form that `params.count` asks for. A missing key (which the tests rule out)
 * shows as itself rather than as nothing.
 * @param {string} key
 * @param {Params} [params]
 */
export function t(key, params) {
  const message = messages[key];
  if (message === undefined) return key;
  return fill(pluralText(message, current, Number(params?.count ?? 0)), params);
}

/**
 * Fetches and uses the words of `lang`.
 * @param {Lang} lang
 */
export async function loadLanguage(lang) {
  const res = await fetch(`/i18n/${lang}.json`, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`/i18n/${lang}.json: ${res.status}`);
  setMessages(lang, await res.json());
}

/** The language chosen in this browser before, if any. */
export function savedLanguage() {
  try {
    const code = localStorage.getItem(STORE);
    return isLanguage(code) ? code : null;
  } catch {
    return null;
  }
}

/** @param {Lang} lang */
export function saveLanguage(lang) {
  try {
    localStorage.setItem(STORE, lang);
  } catch {
    /* storage disabled: the choice lasts for this visit */
  }
}

/** The language to start with: the one chosen here before, else the browser's. */
export function startLanguage() {
  return savedLanguage() ?? pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/**
 * Sets the texts of the page's fixed elements: `data-i18n="key"` sets the text, and
 * `data-i18n-NAME="key"` the attribute NAME (`data-i18n-aria-label`, `data-i18n-placeholder`).
 * @param {ParentNode} root
 */
export function translatePage(root) {
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.getAttributeNames()) {
      if (!attr.startsWith('data-i18n')) continue;
      const key = el.getAttribute(attr) ?? '';
      if (attr === 'data-i18n') el.textContent = t(key);
      else el.setAttribute(attr.slice('data-i18n-'.length), t(key));
    }
  }
  document.documentElement.lang = current;
}
