import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';

const here = new URL('..', import.meta.url);
const worker = readFileSync(new URL('sw.js', here), 'utf8');
const listed = (name) => {
  const m = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(worker);
  assert.ok(m, `sw.js has its list ${name}`);
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]).sort();
};

test('the service worker keeps every script and every language of the page', () => {
  const scripts = readdirSync(new URL('js/', here)).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)).sort();
  assert.deepEqual(listed('JS'), scripts);
  const langs = readdirSync(new URL('i18n/', here)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(listed('LANGS'), langs);
});

test('every address the app itself answers is kept as the app, offline too', () => {
  const m = /function keyOf\(url\) \{[\s\S]*?\n\}/.exec(worker);
  assert.ok(m, 'sw.js has keyOf');
  const keyOf = new Function(`${m[0]}; return keyOf;`)();
  const key = (path) => keyOf(new URL(path, 'http://localhost'));
  for (const path of ['/', '/lobby', '/games', '/leaderboard', '/mod', '/games?variant=six&result=win', '/g/abc123', '/@/ann']) {
    assert.equal(key(path), '/', path);
  }
  assert.equal(key('/review.html'), '/review.html');
  assert.equal(key('/js/site.js'), '/js/site.js');
});
