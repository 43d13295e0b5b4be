// www/js/stats.js without a browser: the Timing tab's split of the median
// run adds up to the median, whatever order each part puts the runs in.

import { test } from "node:test";
import assert from "node:assert/strict";
import { splitOfMedian, summarize } from "../../www/js/stats.js";

const PARTS = ["readMs", "decompressMs", "decodeMs", "copyMs"];
const run = (wallMs, readMs, decompressMs, decodeMs, copyMs) => ({ wallMs, readMs, decompressMs, decodeMs, copyMs });

test("an odd number of runs: the middle run's own parts, and the rest of its time", () => {
  // Each part's median (2, 2, 2, 2) adds up to 8, more than the median run's 7 ms.
  const runs = [run(9, 1, 2, 2, 3), run(7, 2, 1, 3, 1), run(5, 2, 2, 0, 0)];
  assert.deepEqual(splitOfMedian(runs, PARTS), { readMs: 2, decompressMs: 1, decodeMs: 3, copyMs: 1, otherMs: 0 });
  assert.deepEqual(splitOfMedian([run(4, 1, 1, 1, 0)], PARTS), { readMs: 1, decompressMs: 1, decodeMs: 1, copyMs: 0, otherMs: 1 });
});

test("an even number: the mean of the two middle runs, as the median is their mean", () => {
  const runs = [run(10, 0, 0, 10, 0), run(6, 1, 1, 1, 1), run(8, 2, 2, 2, 0), run(1, 1, 0, 0, 0)];
  assert.deepEqual(splitOfMedian(runs, PARTS), { readMs: 1.5, decompressMs: 1.5, decodeMs: 1.5, copyMs: 0.5, otherMs: 2 });
});

test("the parts add up to the median over many drawn runs; never a negative rest", () => {
  let seed = 11;
  const next = () => ((seed = (seed * 48271) % 2147483647), seed / 2147483647);
  for (let round = 0; round < 500; round++) {
    const runs = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
      const parts = PARTS.map(() => next() * 5);
      return run(parts.reduce((a, b) => a + b, 0) + next() * 2, ...parts);
    });
    const split = splitOfMedian(runs, PARTS);
    const sum = [...PARTS, "otherMs"].reduce((a, k) => a + split[k], 0);
    assert.ok(Math.abs(sum - summarize(runs.map((r) => r.wallMs)).median) < 1e-9, JSON.stringify(runs));
    assert.ok(split.otherMs >= 0);
  }
  // Parts that pass their run's time (a timer tick each): the rest is 0, not below.
  assert.equal(splitOfMedian([run(3, 1, 1, 1, 1)], PARTS).otherMs, 0);
  assert.deepEqual(splitOfMedian([], PARTS), { readMs: 0, decompressMs: 0, decodeMs: 0, copyMs: 0, otherMs: 0 });
});
