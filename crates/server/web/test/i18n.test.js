// The translation files of i18n/ and the helpers of js/i18n.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { LANGUAGES, pickLanguage, placeholders, fill, setMessages, t } from '../js/i18n.js';

const dir = new URL('../i18n/', import.meta.url);
/** @param {string} code */
const load = (code) => JSON.parse(readFileSync(new URL(`${code}.json`, dir), 'utf8'));
const english = load('en');

test('there is one file for each language of the switch, and no other', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(files, Object.keys(LANGUAGES).sort());
});

for (const code of Object.keys(LANGUAGES)) {
  test(`${code}.json has every key of en.json, no other, with the same placeholders`, () => {
    const table = load(code);
    assert.deepEqual(Object.keys(table).sort(), Object.keys(english).sort());
    for (const [key, text] of Object.entries(table)) {
      assert.equal(typeof text, 'string', `${code} ${key}`);
      assert.notEqual(text.trim(), '', `${code} ${key} is empty`);
      assert.deepEqual(placeholders(text), placeholders(english[key]), `${code} ${key}: ${text}`);
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
    for (const [key, text] of Object.entries(load(code))) assert.doesNotMatch(text, /[<>]/, `${code} ${key}`);
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
