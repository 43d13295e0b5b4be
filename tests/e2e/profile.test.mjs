// The page's column profile (www/js/profile.js), in Node without a browser:
// text columns against a plain count of their values as Latin-1 strings
// (byte order is their order), exact while the values fit, and with exact
// minimum and maximum, lower-bound counts and an estimate past that.

import { test } from "node:test";
import { Worker } from "node:worker_threads";
import assert from "node:assert/strict";
import { ColumnProfile, HyperLogLog, EXACT_LIMIT, ARENA_LIMIT, TOP_KEPT, TOP_FULL, CUT_BYTES, BINS, edgeText } from "../../www/js/profile.js";
import { parseValue } from "../../www/js/filter.js";
import { scalarText } from "../../www/js/format.js";
import { mulberry32 } from "../../www/js/stats.js";
import path from "node:path";
import { corpusDir, expectedPath, readJson } from "../node/corpus.mjs";
import { textColumn } from "./textcolumn.mjs";


const latin1 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
const bytesOf = (s) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/** What the profile must say of these row groups, counted the plain way. */
function expected(groups, topN = 20) {
  const counts = new Map();
  let rows = 0;
  let nulls = 0;
  const lens = [];
  for (const g of groups) {
    for (const v of g) {
      rows++;
      if (v === null) {
        nulls++;
        continue;
      }
      const k = latin1(v);
      counts.set(k, (counts.get(k) || 0) + 1);
      lens.push(v.length);
    }
  }
  const keys = [...counts.keys()].sort();
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, topN);
  return {
    rows,
    nulls,
    counts,
    distinct: counts.size,
    min: keys[0],
    max: keys.at(-1),
    top,
    lengths: lens.length ? { min: lens.reduce((a, b) => Math.min(a, b)), max: lens.reduce((a, b) => Math.max(a, b)), mean: lens.reduce((a, b) => a + b, 0) / lens.length } : null,
  };
}

function profile(type, groups) {
  const p = new ColumnProfile(type);
  for (const g of groups) p.add(textColumn(g));
  return p.result();
}

test("a text column's profile is exact: counts, ties in byte order, minimum, maximum, lengths, nulls", () => {
  const rand = mulberry32(7);
  // Short values drawn unevenly from 300, with "", bytes above 0x7f, a
  // prefix of another value, and nulls, over three row groups.
  const pool = ["", "a", "ab", "abc", "b", "\u00ff", "\u00ff\u0000", "\u0000"];
  for (let k = 0; pool.length < 300; k++) pool.push(`v${k}-${"x".repeat(k % 17)}`);
  const groups = [1000, 1, 4000].map((n) =>
    Array.from({ length: n }, () => {
      if (rand() < 0.1) return null;
      const i = Math.floor(pool.length * rand() ** 3);
      return bytesOf(pool[i]);
    }),
  );
  for (const type of ["string", "bytes"]) {
    const got = profile(type, groups);
    const want = expected(groups);
    assert.equal(got.rows, want.rows);
    assert.equal(got.nulls, want.nulls);
    assert.equal(got.distinct, want.distinct);
    assert.equal(got.distinctExact, true);
    assert.equal(got.topExact, true);
    assert.equal(latin1(got.min), want.min);
    assert.equal(latin1(got.max), want.max);
    assert.deepEqual(got.lengths, want.lengths);
    assert.deepEqual(
      got.top.map((t) => [latin1(t.value), t.count]),
      want.top,
    );
    assert.ok(got.top.every((t) => t.value instanceof Uint8Array));
  }
});

test(`the ${TOP_KEPT} most common values the page asks for: exact, in order, long ones past the first ${TOP_FULL} cut to ${CUT_BYTES} bytes with their length`, () => {
  // 30 long values (300 bytes; counts 100 down to 71), then 1,200 short ones once each.
  const long = (k) => bytesOf(`L${String(k).padStart(2, "0")}`.padEnd(300, "x"));
  const values = [];
  for (let k = 0; k < 30; k++) for (let n = 0; n < 100 - k; n++) values.push(long(k));
  for (let k = 0; k < 1200; k++) values.push(bytesOf(`s${String(k).padStart(4, "0")}`));
  const groups = [values.slice(0, 2000), values.slice(2000)];
  const want = expected(groups, TOP_KEPT);
  const p = new ColumnProfile("string");
  for (const g of groups) p.add(textColumn(g));
  const got = p.result(TOP_KEPT);
  assert.equal(got.distinct, 1230);
  assert.equal(got.top.length, TOP_KEPT);
  got.top.forEach((t, k) => {
    const [value, count] = want.top[k];
    assert.equal(t.count, count, `count of value ${k}`);
    if (k >= TOP_FULL && value.length > CUT_BYTES) {
      assert.equal(latin1(t.value), value.slice(0, CUT_BYTES), `value ${k} cut`);
      assert.equal(t.length, value.length);
    } else {
      assert.equal(latin1(t.value), value, `value ${k} whole`);
      assert.equal(t.length, undefined);
    }
  });
  assert.ok(got.top.slice(TOP_FULL, 30).every((t) => t.length === 300), "the long values past the first 20 come cut");
  // The default stays the first 20, whole.
  assert.deepEqual(p.result().top.map((t) => [latin1(t.value), t.count]), want.top.slice(0, 20));
});

test("an all-null text column and an empty one have no minimum, maximum or lengths", () => {
  for (const groups of [[[null, null]], [[]]]) {
    const got = profile("string", groups);
    assert.equal(got.min, null);
    assert.equal(got.max, null);
    assert.equal(got.lengths, null);
    assert.equal(got.distinct, 0);
    assert.deepEqual(got.top, []);
  }
});

test(`past ${EXACT_LIMIT} distinct values: an estimate, lower-bound counts that keep the common values, exact minimum and maximum`, () => {
  const n = EXACT_LIMIT + 100_000;
  // Every value once, and three heavy ones often, spread through the file.
  const heavy = ["m-heavy", "n-heavy", "o-heavy"];
  const groups = [];
  for (let g = 0; g < 6; g++) {
    const part = [];
    for (let i = g * (n / 6); i < (g + 1) * (n / 6); i++) {
      part.push(bytesOf(`k${String(i).padStart(7, "0")}`));
      if (i % 50 === 0) part.push(bytesOf(heavy[i % 3]));
    }
    groups.push(part);
  }
  const want = expected(groups);
  const got = profile("string", groups);
  assert.equal(got.distinctExact, false);
  assert.equal(got.topExact, false);
  assert.ok(Math.abs(got.distinct - want.distinct) / want.distinct < 0.03, `estimate ${got.distinct} of ${want.distinct}`);
  assert.equal(latin1(got.min), want.min);
  assert.equal(latin1(got.max), want.max);
  assert.deepEqual(
    got.top.slice(0, 3).map((t) => latin1(t.value)).sort(),
    heavy,
  );
  for (const t of got.top) assert.ok(t.count <= want.counts.get(latin1(t.value)), `${latin1(t.value)}: ${t.count} is a lower bound`);
  // The heavy values were never pruned: they were common from the start.
  for (const t of got.top.slice(0, 3)) assert.equal(t.count, want.counts.get(latin1(t.value)));
});

test(`past ${ARENA_LIMIT} bytes of distinct text: pruned like too many values, and a value longer than that is profiled but not counted`, () => {
  const big = 1 << 20;
  const value = (k) => {
    const v = new Uint8Array(big);
    v.fill(0x61 + (k % 26));
    v[0] = 0x30 + Math.floor(k / 26);
    return v;
  };
  const count = Math.ceil(ARENA_LIMIT / big) + 8;
  const common = bytesOf("common");
  const groups = [Array.from({ length: count }, (_, k) => value(k)).flatMap((v) => [v, common])];
  const want = expected(groups, 1);
  const got = profile("bytes", groups);
  assert.equal(got.distinctExact, false);
  assert.equal(latin1(got.min), want.min);
  assert.equal(latin1(got.max), want.max);
  assert.deepEqual([latin1(got.top[0].value), got.top[0].count], ["common", count]);

  const huge = new Uint8Array(ARENA_LIMIT + 1).fill(0x7a);
  const alone = profile("bytes", [[bytesOf("a"), huge, bytesOf("a")]]);
  assert.equal(alone.distinctExact, false);
  assert.equal(alone.min.length, 1);
  assert.equal(alone.max.length, ARENA_LIMIT + 1);
  assert.equal(alone.lengths.max, ARENA_LIMIT + 1);
  assert.deepEqual(alone.top.map((t) => [latin1(t.value), t.count]), [["a", 2]]);
});

test("a bool column's profile counts both values", () => {
  const p = new ColumnProfile("bool");
  const n = 37;
  const values = Uint8Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const validity = new Uint8Array(5).fill(0xff);
  validity[0] = 0xfe; // row 0 (a true) is null
  p.add({ length: n, validity, values });
  const got = p.result();
  assert.equal(got.nulls, 1);
  assert.equal(got.distinct, 2);
  assert.deepEqual(got.top, [{ value: false, count: 24 }, { value: true, count: 12 }]);
  assert.equal(got.min, false);
  assert.equal(got.max, true);
});

test("two distinct values of more than half ARENA_LIMIT each take turns in the table (in a worker: a pruning that never frees room would spin)", async () => {
  const half = ARENA_LIMIT / 2 + 1;
  const code = `
    const { parentPort } = require("node:worker_threads");
    import(${JSON.stringify(new URL("../../www/js/profile.js", import.meta.url).href)}).then(({ ColumnProfile }) => {
      // "aaa…", "bbb…", "aaa…": each value alone fits, no two together.
      const data = new Uint8Array(3 * ${half}).fill(0x61);
      data.fill(0x62, ${half}, 2 * ${half});
      const col = { length: 3, validity: null, values: { offsets: Uint32Array.of(0, ${half}, 2 * ${half}, 3 * ${half}), data } };
      const p = new ColumnProfile("bytes");
      p.add(col);
      const r = p.result();
      parentPort.postMessage({ exact: r.distinctExact, min: r.min[0], max: r.max[0], top: r.top.map((t) => [t.value[0], t.count]) });
    });`;
  const worker = new Worker(code, { eval: true });
  const got = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      reject(new Error("the profile did not finish in 30 s"));
    }, 30_000);
    worker.once("message", (m) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(m);
    });
    worker.once("error", reject);
  });
  assert.deepEqual(got, { exact: false, min: 0x61, max: 0x62, top: [[0x61, 1]] });
});

test("a number column's mean and sample standard deviation: over the finite values (nulls, NaN and infinities left out), int64 included, none for text", () => {
  const plain = (xs) => {
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const std = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    return { mean, std };
  };
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${what}: ${a}, not ${b}`);
  // float64, two row groups, a null in the first (bit clear), NaN and infinities among the values.
  const vals = [[1.5, 2.25, NaN, -4, 1e6], [Infinity, 3, -Infinity, 0.125, 7]];
  const p = new ColumnProfile("float64");
  for (const [g, xs] of vals.entries()) {
    const validity = g === 0 ? Uint8Array.of(0b11101) : null; // row 1 (2.25) null
    p.add({ length: xs.length, validity, values: Float64Array.from(xs) });
  }
  const r = p.result();
  const finite = [1.5, -4, 1e6, 3, 0.125, 7];
  const want = plain(finite);
  near(r.mean, want.mean, "float64 mean");
  near(r.std, want.std, "float64 std");
  // int64 beyond 2^53 apart (each as a double) and one value: a mean, no spread.
  const q = new ColumnProfile("int64");
  q.add({ length: 3, validity: null, values: BigInt64Array.from([9007199254740993n, -5n, 12n]) });
  const w = plain([9007199254740993, -5, 12]);
  near(q.result().mean, w.mean, "int64 mean");
  near(q.result().std, w.std, "int64 std");
  const one = new ColumnProfile("int32");
  one.add({ length: 1, validity: null, values: Int32Array.of(42) });
  assert.deepEqual([one.result().mean, one.result().std], [42, null], "one value: its mean, no spread");
  const text = new ColumnProfile("string");
  text.add(textColumn([bytesOf("a"), bytesOf("b")]));
  assert.deepEqual([text.result().mean, text.result().std], [null, null], "text has no mean");
});

test("an integer column's mean is exact (the double nearest the sum over the count), where a running mean of doubles drifted: edge values, 2^63 apart, and more rows than are summed in doubles at once", () => {
  const mean = (type, values) => {
    const p = new ColumnProfile(type);
    p.add({ length: values.length, validity: null, values });
    return p.result().mean;
  };
  // enc_plain_none's edge_int32 and edge_int64 over 1,200 rows summed to -240: -0.2 (the page showed -0.19999998699116986 and 48.87749999999999).
  const edge32 = [-2147483648, 2147483647, -1, 0, 1, 2147483646];
  const rows32 = Array.from({ length: 1200 }, (_, i) => edge32[i % 6]);
  const sum32 = rows32.reduce((a, b) => a + b, 0);
  assert.equal(sum32 % 1200 === 0 ? 0 : sum32 / 1200, mean("int32", Int32Array.from(rows32)));
  assert.equal(mean("int64", BigInt64Array.from([-(2n ** 63n), 2n ** 63n - 1n])), -0.5);
  assert.equal(mean("int64", BigInt64Array.from([-(2n ** 63n), 2n ** 63n - 1n, -240n + 1n, 0n])), -60);
  // (2^64 - 1) × 2 / 3 = 12297829382473034410: its nearest double.
  assert.equal(mean("uint64", BigUint64Array.from([2n ** 64n - 1n, 2n ** 64n - 1n, 0n])), Number(12297829382473034410n));
  // 1,200,000 rows of i % 600,000 (past the rows summed in doubles at once): 359,999,400,000 / 1,200,000.
  assert.equal(mean("int32", Int32Array.from({ length: 1_200_000 }, (_, i) => i % 600_000)), 299999.5);
  // 700,000 rows of i % 600,000: 184,999,650,000 / 700,000 = 264285.2142857142857…, whose nearest double prints as below (Python's float(Fraction) agrees)
  assert.equal(mean("uint32", Uint32Array.from({ length: 700_000 }, (_, i) => i % 600_000)), 264285.21428571426);
  assert.equal(mean("int64", new BigInt64Array(1_100_000).fill(2n ** 62n)), 2 ** 62);
  assert.equal(mean("int8", Int8Array.of(-128, 127, 127)), 42);
});

test("the standard deviation of values whose squares overflow a double (edge_float64: 0, 5e-324, 0.1 and the largest double) is finite and accurate, as are a mean and spread of values near ±the largest double", () => {
  // The plain two passes over the values scaled by 2^-600 (exact: a power
  // of two), so no square overflows.
  const plain = (xs) => {
    const s = xs.map((x) => x * 2 ** -600);
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    return { mean: mean * 2 ** 600, std: Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / (s.length - 1)) * 2 ** 600 };
  };
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b), `${what}: ${a}, not ${b}`);
  const want = readJson(expectedPath(path.join(corpusDir, "valid/enc_plain_none.cols")));
  const c = want.schema.findIndex((s) => s.name === "edge_float64");
  const p = new ColumnProfile("float64");
  const finite = [];
  for (const rg of want.row_groups) {
    const xs = Float64Array.from(rg.values[c], (v) => Buffer.from(v.slice(2), "hex").readDoubleBE(0));
    p.add({ length: xs.length, validity: null, values: xs });
    finite.push(...[...xs].filter(Number.isFinite));
  }
  const r = p.result();
  assert.equal(finite.length, 684);
  const w = plain(finite);
  assert.ok(w.std > 7.7e307 && w.std < 7.8e307, `the column's spread ${w.std}`);
  near(r.mean, w.mean, "edge_float64 mean");
  near(r.std, w.std, "edge_float64 std");
  // Small values first, then values near ±the largest double (their
  // difference itself overflows), then small ones again.
  const big = 1.7976931348623157e308;
  const xs = [1.5, -2, 3, big, -big, 0.5 * big, -1e300, 7, 1e-300, -big];
  const q = new ColumnProfile("float64");
  q.add({ length: xs.length, validity: null, values: Float64Array.from(xs) });
  const wq = plain(xs);
  near(q.result().mean, wq.mean, "mean near ±the largest double");
  near(q.result().std, wq.std, "std near ±the largest double");
});

test("-0 is counted with 0, one value (as Data's filter, where = 0 and = -0 each match both), and shown as -0 when every zero is -0 (edge_float64, edge_float32), else as 0 saying how many are -0", () => {
  const want = readJson(expectedPath(path.join(corpusDir, "valid/enc_plain_none.cols")));
  for (const [name, type, read, negZeros] of [["edge_float64", "float64", (b) => b.readDoubleBE(0), 172], ["edge_float32", "float32", (b) => b.readFloatBE(0), 200]]) {
    const c = want.schema.findIndex((s) => s.name === name);
    const p = new ColumnProfile(type);
    let zeros = 0;
    for (const rg of want.row_groups) {
      const xs = (type === "float64" ? Float64Array : Float32Array).from(rg.values[c], (v) => read(Buffer.from(v.slice(2), "hex")));
      zeros += xs.filter((x) => Object.is(x, -0)).length;
      assert.equal(xs.filter((x) => Object.is(x, 0)).length, 0, `${name}: no +0`);
      p.add({ length: xs.length, validity: null, values: xs });
    }
    const zero = p.result().top.filter((t) => t.value === 0);
    assert.equal(zeros, negZeros, `${name}: its -0s in the corpus JSON`);
    assert.equal(zero.length, 1, `${name}: one entry for zero`);
    assert.ok(Object.is(zero[0].value, -0), `${name}: shown as ${zero[0].value}, not -0`);
    assert.deepEqual([zero[0].count, zero[0].negZeros], [zeros, undefined], name);
  }
  // Both zeros: one value, shown as 0 with how many are -0; +0 alone: 0.
  for (const [xs, count, negZeros, distinct] of [[[0, -0, 1, -0, -0, 2], 4, 3, 3], [[0, 1, 0], 2, undefined, 2]]) {
    const p = new ColumnProfile("float64");
    p.add({ length: xs.length, validity: null, values: Float64Array.from(xs) });
    const r = p.result();
    const zero = r.top.filter((t) => t.value === 0);
    assert.equal(zero.length, 1);
    assert.ok(Object.is(zero[0].value, 0), `${xs}: 0`);
    assert.deepEqual([zero[0].count, zero[0].negZeros], [count, negZeros], `${xs}`);
    assert.equal(r.distinct, distinct);
  }
});

/**
 * The rows each bar of a histogram selects in Data: the filter's own
 * parseValue of the conditions the page writes for it (≥ its low edge,
 * < the next, the last ≤ the histogram's maximum), over `xs`.
 */
function barRows(type, hist, xs) {
  const bins = hist.counts.length;
  // (a bigint against a number compares exactly, as the filter's BigInts)
  const edge = (k) => parseValue(type, edgeText(hist, k)).value;
  const top = parseValue(type, scalarText(type, hist.hi)).value;
  return hist.counts.map((_, k) => xs.filter((x) => x >= edge(k) && (k === bins - 1 ? x <= top : x < edge(k + 1))).length);
}

test("a float column with infinities (edge_float64, edge_float32): its histogram spans the finite values, the infinities counted apart, and each bar's conditions select the rows it counts", () => {
  const want = readJson(expectedPath(path.join(corpusDir, "valid/enc_plain_none.cols")));
  for (const [name, type, read, max] of [["edge_float64", "float64", (b) => b.readDoubleBE(0), 1.7976931348623157e308], ["edge_float32", "float32", (b) => b.readFloatBE(0), 3.4028234663852886e38]]) {
    const c = want.schema.findIndex((s) => s.name === name);
    const groups = want.row_groups.map((rg) => (type === "float64" ? Float64Array : Float32Array).from(rg.values[c], (v) => read(Buffer.from(v.slice(2), "hex"))));
    const xs = groups.flatMap((g) => [...g]);
    const p = new ColumnProfile(type);
    // The footer's range, were it ±Infinity (or NaN, as this file's), is no histogram's.
    assert.equal(p.startHistogram(-Infinity, Infinity), false, `${name}: bins over ±Infinity`);
    assert.equal(p.startHistogram(NaN, NaN), false, `${name}: bins over NaN`);
    for (const g of groups) p.add({ length: g.length, validity: null, values: g });
    assert.equal(p.startHistogram(), true);
    for (const g of groups) p.addHistogram({ length: g.length, validity: null, values: g });
    const r = p.result();
    assert.deepEqual([r.min, r.max], [-Infinity, Infinity], `${name}: the column's minimum and maximum`);
    assert.deepEqual([r.histogram.lo, r.histogram.hi], [-0, max], `${name}: the bins' range, the finite values'`);
    assert.equal(r.histogram.counts.length, 40);
    const finite = xs.filter(Number.isFinite);
    assert.equal(r.histogram.counts.reduce((a, b) => a + b, 0), finite.length, `${name}: the bars hold the finite values`);
    assert.deepEqual([r.negInf, r.posInf, r.nans], [xs.filter((x) => x === -Infinity).length, xs.filter((x) => x === Infinity).length, xs.filter((x) => x !== x).length], `${name}: infinities and NaN`);
    assert.ok(r.negInf > 0 && r.posInf > 0);
    assert.deepEqual(barRows(type, r.histogram, xs), r.histogram.counts, `${name}: each bar's rows in Data`);
  }
});

test("a float histogram's bins are the rows its bars' conditions select, the values at and beside each edge included (float32 edges read back as float32 by the filter)", () => {
  const rand = mulberry32(21);
  for (const type of ["float64", "float32"]) {
    const A = type === "float64" ? Float64Array : Float32Array;
    // Values drawn over [0.1, 7.3], then each edge of the histogram over
    // that range and its neighbours (one ulp either side, of the type).
    const xs = Array.from({ length: 2000 }, () => 0.1 + 7.2 * rand());
    xs.push(0.1, 7.3);
    const p = new ColumnProfile(type);
    p.add({ length: xs.length, validity: null, values: A.from(xs) });
    p.startHistogram();
    const near = new A(3);
    const bits = new (type === "float64" ? BigInt64Array : Int32Array)(near.buffer);
    const one = type === "float64" ? 1n : 1;
    for (let k = 1; k < BINS; k++) {
      for (const e of [p.hist.lo + k * p.hist.width, Number(parseValue(type, edgeText(p.hist, k)).value)]) {
        near[1] = e;
        bits[0] = bits[1] - one;
        bits[2] = bits[1] + one;
        xs.push(...near);
      }
    }
    const values = A.from(xs);
    p.addHistogram({ length: values.length, validity: null, values });
    const r = p.result();
    assert.equal(r.histogram.counts.reduce((a, b) => a + b, 0), values.length);
    assert.deepEqual(barRows(type, r.histogram, [...values]), r.histogram.counts, `${type}: each bar's rows in Data`);
  }
});

test("64-bit integers at their edges: minimum, maximum as their values, the mean from their exact sum, and the histogram's bars as their conditions select the values, signed and unsigned, past 2^53 and with a negative high word", () => {
  const cases = {
    int64: [-(2n ** 63n), 2n ** 63n - 1n, -1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 0n, -(2n ** 32n), 2n ** 32n - 1n, 4294967297n, -4294967297n],
    uint64: [2n ** 64n - 1n, 0n, 2n ** 63n, 2n ** 63n - 1n, 2n ** 53n + 1n, 2n ** 32n, 1n, 2n ** 32n - 1n],
  };
  for (const [type, xs] of Object.entries(cases)) {
    const values = type === "int64" ? BigInt64Array.from(xs) : BigUint64Array.from(xs);
    const p = new ColumnProfile(type);
    p.add({ length: xs.length, validity: null, values });
    assert.equal(p.min, xs.reduce((a, b) => (b < a ? b : a)), `${type} min`);
    assert.equal(p.max, xs.reduce((a, b) => (b > a ? b : a)), `${type} max`);
    assert.equal(typeof p.min, "bigint");
    // The exact mean's nearest double (Python's float(Fraction(sum, n))): -5 / 10, 36902495355263778815 / 8.
    assert.equal(p.result().mean, { int64: -0.5, uint64: 4.612811919407972e18 }[type], `${type} mean`);
    assert.ok(p.startHistogram());
    p.addHistogram({ length: xs.length, validity: null, values });
    const { histogram } = p.result();
    const counts = histogram.counts;
    // (int64: -1 lies below bin 20's edge 0, but (-1 - lo) / width rounds
    // to 20; uint64: 2^63 - 1 lies below bin 20's edge 2^63, and reads as it)
    assert.deepEqual(counts, barRows(type, histogram, xs), `${type} histogram`);
    assert.equal(counts.reduce((a, b) => a + b, 0), xs.length);
  }
});

test("a number column's counts are exact as its table grows (or is sized from the rows at once): every count, ties in value order", () => {
  const rand = mulberry32(11);
  // 5,000 distinct int32 values (the table starts with room for 512), drawn unevenly, some negative, with nulls.
  const groups = [];
  const counts = new Map();
  for (let g = 0; g < 4; g++) {
    const n = 20_000;
    const values = new Int32Array(n);
    const validity = new Uint8Array(n / 8).fill(255);
    for (let i = 0; i < n; i++) {
      if (rand() < 0.01) {
        validity[i >> 3] &= ~(1 << (i & 7));
        continue;
      }
      const r = rand();
      values[i] = (Math.floor(r * r * 5000) - 1000) * 7919;
      counts.set(values[i], (counts.get(values[i]) ?? 0) + 1);
    }
    groups.push({ length: n, validity, values });
  }
  const want = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  assert.ok(want.length > 4000, `${want.length} distinct`);
  assert.ok(want.some(([, c], i) => i > 0 && c === want[i - 1][1]), "ties among the counts");
  for (const rows of [0, 80_000]) {
    const p = new ColumnProfile("int32", rows);
    for (const g of groups) p.add(g);
    const r = p.result(want.length);
    assert.equal(r.distinct, want.length, `rows ${rows}: distinct`);
    assert.equal(r.distinctExact, true);
    assert.deepEqual(r.top.map((t) => [t.value, t.count]), want, `rows ${rows}: every value's count, most first, ties by value`);
    // The 50 most common: those tied at the 50th count, the least values first.
    assert.deepEqual(p.result(50).top.map((t) => [t.value, t.count]), want.slice(0, 50), `rows ${rows}: the first 50`);
  }
  // The same counts as int64 past 2^53 (negative too) and as uint64 past 2^63.
  for (const [type, Array64, map] of [
    ["int64", BigInt64Array, (x) => BigInt(x) * 2n ** 34n + 1n],
    ["uint64", BigUint64Array, (x) => BigInt(x + 8_000_000_000) + 2n ** 63n],
  ]) {
    const p = new ColumnProfile(type);
    for (const g of groups) p.add({ length: g.length, validity: g.validity, values: Array64.from(g.values, map) });
    assert.deepEqual(p.result(want.length).top.map((t) => [t.value, t.count]), want.map(([v, c]) => [map(v), c]), `${type}: every value's count`);
    assert.deepEqual(p.result(50).top.map((t) => [t.value, t.count]), want.slice(0, 50).map(([v, c]) => [map(v), c]), `${type}: the first 50`);
  }
});

test(`past ${EXACT_LIMIT} distinct numbers: an estimate, and the common values' counts kept exact`, () => {
  const n = EXACT_LIMIT + 100_000;
  const p = new ColumnProfile("float64");
  const heavy = [-2.5, 0.75, 1e300];
  for (let g = 0; g < 6; g++) {
    const xs = [];
    for (let i = g * (n / 6); i < (g + 1) * (n / 6); i++) {
      xs.push(i * 1.000001);
      if (i % 50 === 0) xs.push(heavy[i % 3]);
    }
    p.add({ length: xs.length, validity: null, values: Float64Array.from(xs) });
  }
  const each = heavy.map((_, k) => Array.from({ length: n / 50 }, (_, j) => j * 50).filter((i) => i % 3 === k).length);
  const r = p.result();
  assert.equal(r.distinctExact, false);
  assert.ok(Math.abs(r.distinct - (n + 3)) / n < 0.03, `estimate ${r.distinct} of ${n + 3}`);
  // The heavy values were never pruned: they were common from the start.
  assert.deepEqual(
    r.top.slice(0, 3).map((t) => [t.value, t.count]).sort((a, b) => a[0] - b[0]),
    heavy.map((v, k) => [v, each[k]]),
  );
  assert.deepEqual([r.min, r.max], [-2.5, 1e300]);
});

test("HyperLogLog: a hash's register (its top 14 bits) holds 1 + the leading zeros of its low 18 bits, 19 when they are all 0, whatever its top bit", () => {
  const rank = (h) => {
    let z = 0;
    for (let bit = 17; bit >= 0 && !((h >>> bit) & 1); bit--) z++;
    return z + 1; // 19 when the 18 bits are 0
  };
  const random = mulberry32(14);
  const hashes = [0, 0xffffffff, 0x80000000, 0x7fffffff, 0x00020000, 0x0003ffff, 0x0001ffff, 0x00000001, 0xfffc0000, 0x8001ffff];
  for (let k = 0; k < 20000; k++) hashes.push(Math.floor(random() * 2 ** 32));
  for (const h of hashes) {
    const hll = new HyperLogLog();
    hll.addHash(h);
    assert.equal(hll.reg[h >>> 18], rank(h), `hash 0x${h.toString(16)}`);
    assert.equal(hll.reg.reduce((a, b) => a + (b ? 1 : 0), 0), 1);
  }
});
