// The translation files of i18n/ and the helpers of js/i18n.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { LANGUAGES, pickLanguage, placeholders, fill, setMessages, t, pluralCategory } from '../js/i18n.js';

const dir = new URL('../i18n/', import.meta.url);
/** @param {string} code */
const load = (code) => JSON.parse(readFileSync(new URL(`${code}.json`, dir), 'utf8'));
const english = load('en');
/** Every text of a message: itself, or each of its plural forms. */
const texts = (message) => (typeof message === 'string' ? [message] : Object.values(message));

test('there is one file for each language of the switch, and no other', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(files, Object.keys(LANGUAGES).sort());
});

for (const code of Object.keys(LANGUAGES)) {
  test(`${code}.json has every key of en.json, no other, with the same placeholders`, () => {
    const table = load(code);
    assert.deepEqual(Object.keys(table).sort(), Object.keys(english).sort());
    for (const [key, message] of Object.entries(table)) {
      // A text is counted in every language or in none.
      assert.equal(typeof message, typeof english[key], `${code} ${key}`);
      const want = placeholders(texts(english[key])[0]);
      for (const text of texts(message)) {
        assert.equal(typeof text, 'string', `${code} ${key}`);
        assert.notEqual(text.trim(), '', `${code} ${key} is empty`);
        assert.deepEqual(placeholders(text), want, `${code} ${key}: ${text}`);
      }
    }
  });
}

test('each language names the game in its own words', () => {
  const names = { de: 'Mühle', sr: 'Mlin', fr: 'Jeu du moulin', nl: 'Molenspel', it: 'Filetto', es: 'Molino', af: 'Morabaraba' };
  for (const [code, name] of Object.entries(names)) {
    const table = load(code);
    const said = Object.entries(table).filter(([k]) => k.startsWith('variant.') || k === 'app.description').map(([, v]) => v);
    assert.ok(said.some((v) => v.includes(name)), `${code} names ${name}`);
  }
});

test('the texts hold no markup: they are set as text', () => {
  for (const code of Object.keys(LANGUAGES)) {
    for (const [key, message] of Object.entries(load(code))) {
      for (const text of texts(message)) assert.doesNotMatch(text, /[<>]/, `${code} ${key}`);
    }
  }
});

test('pickLanguage takes the first language the page has, by its primary subtag', () => {
  assert.equal(pickLanguage(['de-CH', 'en']), 'de');
  assert.equal(pickLanguage(['pt-BR', 'sr-Latn-RS', 'de']), 'sr');
  assert.equal(pickLanguage(['AF']), 'af');
  assert.equal(pickLanguage(['ja', 'zh-Hant']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('placeholders and fill', () => {
  assert.deepEqual(placeholders('{b} and {a}, {b}'), ['a', 'b']);
  assert.equal(fill('{color} plays {from}-{to}.', { color: 'White', from: 'f2', to: 'f4' }), 'White plays f2-f4.');
  assert.equal(fill('Waiting for {name}…', { name: '<b>{to}</b>' }), 'Waiting for <b>{to}</b>…');
  assert.equal(fill('{missing}', {}), '{missing}');
});

test('t looks up the language in use', () => {
  setMessages('de', load('de'));
  assert.equal(t('status.to_move', { color: t('color.black') }), 'Schwarz ist am Zug');
  setMessages('en', english);
  assert.equal(t('status.to_move', { color: t('color.black') }), 'Black to move');
  assert.equal(t('no.such.key'), 'no.such.key');
});

for (const code of Object.keys(LANGUAGES)) {
  test(`${code}.json: every counted text has each plural form its language uses, and {count}`, () => {
    const table = load(code);
    // The forms Intl.PluralRules gives for the counts the page shows; French, Italian and
    // Spanish "many" (a million and more) takes the form of "other".
    const used = new Set([...Array(200).keys()].map((n) => pluralCategory(code, n)));
    const counted = Object.entries(table).filter(([, m]) => typeof m !== 'string');
    assert.ok(counted.length >= 15, code);
    for (const [key, forms] of counted) {
      assert.ok(forms.other, `${code} ${key} has "other"`);
      for (const form of used) assert.ok(forms[form], `${code} ${key} has "${form}"`);
      for (const form of Object.keys(forms)) assert.ok(used.has(form) || form === 'many', `${code} ${key}: no "${form}" in ${code}`);
      for (const text of Object.values(forms)) assert.match(text, /\{count\}/, `${code} ${key}`);
    }
  });
}

/** The words of `key` for each count, in language `code`. */
function counted(code, key, counts, params = {}) {
  setMessages(/** @type {any} */ (code), load(code));
  const said = counts.map((count) => t(key, { ...params, count }));
  setMessages('en', english);
  return said;
}

test('the counts read right in every language', () => {
  assert.deepEqual(counted('en', 'site.days', [1, 3]), ['1 day a move', '3 days a move']);
  assert.deepEqual(counted('en', 'site.games', [0, 1, 2]), ['0 games', '1 game', '2 games']);
  assert.deepEqual(counted('en', 'site.plies_count', [1, 37]), ['1 ply', '37 plies']);
  assert.deepEqual(counted('de', 'site.days', [1, 3]), ['1 Tag pro Zug', '3 Tage pro Zug']);
  assert.deepEqual(counted('de', 'site.games', [1, 2]), ['1 Partie', '2 Partien']);
  // French counts 0 and 1 alike.
  assert.deepEqual(counted('fr', 'site.days', [0, 1, 2]), ['0 jour par coup', '1 jour par coup', '2 jours par coup']);
  assert.deepEqual(counted('fr', 'site.games', [0, 1, 2]), ['0 partie', '1 partie', '2 parties']);
  assert.deepEqual(counted('fr', 'site.won', [1, 3]), ['1 gagnée', '3 gagnées']);
  assert.deepEqual(counted('nl', 'site.games', [1, 2]), ['1 partij', '2 partijen']);
  assert.deepEqual(counted('it', 'site.days', [1, 3]), ['1 giorno a mossa', '3 giorni a mossa']);
  assert.deepEqual(counted('es', 'site.games', [1, 2]), ['1 partida', '2 partidas']);
  assert.deepEqual(counted('af', 'site.days', [1, 3]), ['1 dag per skuif', '3 dae per skuif']);
  // Serbian: one (1, 21, 31…), few (2–4, 22–24…), other (0, 5–20, 25…).
  assert.deepEqual(counted('sr', 'site.days', [1, 2, 5]), ['1 dan po potezu', '2 dana po potezu', '5 dana po potezu']);
  assert.deepEqual(counted('sr', 'site.games', [1, 2, 5, 11, 21, 22, 25]),
    ['1 partija', '2 partije', '5 partija', '11 partija', '21 partija', '22 partije', '25 partija']);
  assert.deepEqual(counted('sr', 'site.plies_count', [1, 3, 12]), ['1 potez', '3 poteza', '12 poteza']);
  assert.deepEqual(counted('sr', 'site.lost', [1, 4, 5]), ['1 poraz', '4 poraza', '5 poraza']);
});

test('a counted text without a form for the category falls back to "other"', () => {
  setMessages('fr', { n: { one: '{count} partie', other: '{count} parties' } });
  assert.equal(pluralCategory('fr', 1_000_000), 'many');
  assert.equal(t('n', { count: 1_000_000 }), '1000000 parties');
  assert.equal(t('n', { count: 1 }), '1 partie');
  setMessages('en', english);
});
