// The pure parts of js/site.js: the rating chart, pairings, pools, ratings and sign-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartPoints, chartDots, pairedPath, poolSize, poolGames, ratingFor, passwordsAgree, browserName } from '../js/site.js';

test('the rating chart spans its box, oldest game left, higher ratings up', () => {
  const points = chartPoints([{ rating: 1500 }, { rating: 1600 }, { rating: 1400 }], 400, 120)
    .split(' ')
    .map((p) => p.split(',').map(Number));
  assert.equal(points.length, 3);
  assert.deepEqual(points.map(([x]) => x), [0, 200, 400]);
  assert.ok(points[1][1] < points[0][1] && points[0][1] < points[2][1]);
  assert.ok(points.every(([, y]) => y >= 0 && y <= 120));
  assert.equal(chartPoints([], 400, 120), '');
  assert.equal(chartPoints([{ rating: 1500 }], 400, 120), '200.0,60.0');
});

test('a single rated game is drawn as a dot; a long history as the line alone', () => {
  assert.deepEqual(chartDots(chartPoints([{ rating: 1500 }], 400, 120)), [[200, 60]]);
  assert.equal(chartDots(chartPoints([{ rating: 1500 }, { rating: 1600 }], 400, 120)).length, 2);
  const long = Array.from({ length: 61 }, (_, i) => ({ rating: 1500 + i }));
  assert.deepEqual(chartDots(chartPoints(long, 400, 120)), []);
  assert.deepEqual(chartDots(''), []);
});

test('a pairing opens its game once: the second word of it finds the page there', () => {
  assert.equal(pairedPath('/lobby', 'abc'), '/g/abc');
  assert.equal(pairedPath('/g/abc', 'abc'), null);
  assert.equal(pairedPath('/g/abc', 'xyz'), '/g/xyz');
  assert.equal(pairedPath('/lobby', 'a b'), '/g/a%20b');
});

test('the quick buttons count who waits at their clock and the games it is played in', () => {
  const waiting = [{ clock: '3+2', players: 2, games: 0 }, { clock: '5+3', players: 1, games: 4 }];
  assert.equal(poolSize(waiting, '3+2'), 2);
  assert.equal(poolSize(waiting, '1+0'), 0);
  assert.equal(poolSize(undefined, '3+2'), 0);
  assert.equal(poolGames(waiting, '5+3'), 4);
  assert.equal(poolGames(waiting, '3+2'), 0);
  assert.equal(poolGames([{ clock: '1+0', players: 1 }], '1+0'), 0);
  assert.equal(poolGames(undefined, '1+0'), 0);
});

test('a rating is looked up by variant and time class', () => {
  const player = {
    ratings: [
      { variant: 'nine', class: 'blitz', rating: { rating: 1662.4 }, provisional: true },
      { variant: 'nine', class: 'rapid', rating: { rating: 1433.6 }, provisional: false },
    ],
  };
  assert.deepEqual(ratingFor(player, 'nine', 'rapid'), { rating: 1434, provisional: false });
  assert.deepEqual(ratingFor(player, 'nine', 'blitz'), { rating: 1662, provisional: true });
  assert.equal(ratingFor(player, 'six', 'blitz'), null);
});

test('a sign-up is sent only when both entries of the password agree', () => {
  assert.equal(passwordsAgree('correct horse', 'correct horse'), true);
  assert.equal(passwordsAgree('correct horse', 'correct hrose'), false);
  assert.equal(passwordsAgree('', ''), false);
});

test('a session is named by its browser and system', () => {
  const chrome =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  assert.equal(browserName(chrome), 'Chrome, Linux');
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  assert.equal(browserName(iphone), 'Safari, iOS');
  const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  assert.equal(browserName(firefox), 'Firefox, Windows');
  assert.equal(browserName('curl/8.5.0'), 'curl');
  assert.equal(browserName(''), '');
});
