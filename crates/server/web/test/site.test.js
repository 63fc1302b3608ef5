// The rating chart of js/site.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartPoints } from '../js/site.js';

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
