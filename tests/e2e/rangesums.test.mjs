// www/js/views/range.js's sums without a browser: integers summed exactly
// (BigInt), and a mean past 2^53 worked out from that exact sum, not
// printed from a double with digits it does not hold.

import { test } from "node:test";
import assert from "node:assert/strict";
import { rangeSums } from "../../www/js/views/range.js";

test("a mean past 2^53 from the exact sum, to 6 decimals, rounded; below it, as a double", () => {
  const u64 = [{ type: "uint64" }];
  // (2^64 - 1 + 2) / 2 = 9223372036854775808.5, which no double holds.
  assert.equal(rangeSums(u64, [[18446744073709551615n], [2n]]), "2 numbers: sum 18446744073709551617, min 2, max 18446744073709551615, mean 9223372036854775808.5");
  // Three times 2^64 - 1 and two zeros: 3 × (2^64 - 1) / 5 = 11068046444225730969 exactly.
  const max = 18446744073709551615n;
  assert.match(rangeSums(u64, [[max], [max], [max], [0n], [0n]]), /mean 11068046444225730969$/);
  // Negative: -(2^63 + 3) / 3 = -3074457345618258603.666…, rounded to 6 decimals.
  assert.match(rangeSums([{ type: "int64" }], [[-9223372036854775808n], [-1n], [-2n]]), /mean -3074457345618258603\.666667$/);
  assert.match(rangeSums([{ type: "int32" }], [[5], [6], [8]]), /mean 6\.333333333333333$/);
  assert.match(rangeSums([{ type: "float64" }], [[0.5], [NaN], [1]]), /^2 numbers \(1 NaN left out\): sum 1\.5, min 0\.5, max 1, mean 0\.75$/);
});

test("min and max are cells' own values, exact past 2^53 beside a float column and a float32 as its column shows it; a sum of doubles that lost an integer's digits says ≈", () => {
  const mixed = [{ type: "int64" }, { type: "float64" }];
  // 2^53 + 1 beside 2^53 as a double: the double sum cannot hold it.
  assert.equal(rangeSums(mixed, [[9007199254740993n, 9007199254740992]]), "2 numbers: sum ≈ 18014398509481984, min 9007199254740992, max 9007199254740993, mean ≈ 9007199254740992");
  // Integers a double holds: no ≈.
  assert.equal(rangeSums(mixed, [[3n, 0.5]]), "2 numbers: sum 3.5, min 0.5, max 3, mean 1.75");
  const f32 = [{ type: "float32" }];
  assert.equal(rangeSums(f32, [[Math.fround(3.4028234663852886e38)], [1]]).split(": ")[1].split(", ").slice(1, 3).join(", "), "min 1, max 3.4028235e+38");
  assert.match(rangeSums([{ type: "int8" }, { type: "uint64" }], [[-1, 18446744073709551615n]]), /min -1, max 18446744073709551615,/);
});
