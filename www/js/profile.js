// A column's profile over every row group, computed in the worker:
// null share, exact minimum and maximum, distinct values, the most common
// values with their counts, string lengths, and (second pass, once the
// range is known) a histogram for numbers and times.
//
// Distinct values and counts are exact while the column has at most
// EXACT_LIMIT distinct values. Past that the count is a HyperLogLog
// estimate (2^14 registers: about 0.8% standard error) and the top values'
// counts become lower bounds (the table of counts is pruned to its most
// common half whenever it fills up); the result says which.

import { byteString } from "./sort.js";

export const EXACT_LIMIT = 500_000;
export const BINS = 40;
const HLL_P = 14;
const HLL_M = 1 << HLL_P;

const TEXT = new Set(["string", "bytes"]);
const WIDE = new Set(["int64", "uint64"]);

function fmix32(h) {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** HyperLogLog with a 32-bit hash (Flajolet et al., with the small-range correction). */
export class HyperLogLog {
  constructor() {
    this.reg = new Uint8Array(HLL_M);
  }
  addHash(h) {
    const idx = h >>> (32 - HLL_P);
    const w = (h << HLL_P) >>> 0;
    const rank = w === 0 ? 32 - HLL_P + 1 : Math.clz32(w) + 1;
    if (rank > this.reg[idx]) this.reg[idx] = rank;
  }
  estimate() {
    let sum = 0;
    let zeros = 0;
    for (let i = 0; i < HLL_M; i++) {
      sum += 2 ** -this.reg[i];
      if (this.reg[i] === 0) zeros++;
    }
    const alpha = 0.7213 / (1 + 1.079 / HLL_M);
    const e = (alpha * HLL_M * HLL_M) / sum;
    if (e <= 2.5 * HLL_M && zeros) return Math.round(HLL_M * Math.log(HLL_M / zeros));
    return Math.round(e);
  }
}

function hashBytes(data, a, b) {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) h = Math.imul(h ^ data[i], 0x01000193);
  return fmix32(h ^ (b - a));
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const b64 = new BigInt64Array(f64.buffer);
function hashNumber(x) {
  if (typeof x === "bigint") b64[0] = BigInt.asIntN(64, x);
  else f64[0] = x === 0 ? 0 : x;
  return fmix32(Math.imul(u32[0], 0x9e3779b1) ^ fmix32(u32[1] + 0x7f4a7c15));
}

export class ColumnProfile {
  constructor(type) {
    this.type = type;
    this.rows = 0;
    this.nulls = 0;
    this.nans = 0;
    this.min = null;
    this.max = null;
    this.counts = new Map();
    this.exact = true;
    this.hll = new HyperLogLog();
    this.minLen = Infinity;
    this.maxLen = 0;
    this.totalLen = 0;
    this.hist = null;
  }

  /** First pass over one row group's decoded column. */
  add(col) {
    const n = col.length;
    const valid = col.validity;
    const isNull = (i) => valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0;
    this.rows += n;
    const counts = this.counts;
    const bump = (key) => {
      const c = counts.get(key);
      if (c !== undefined) counts.set(key, c + 1);
      else {
        if (counts.size >= EXACT_LIMIT) this.prune();
        counts.set(key, 1);
      }
    };
    if (TEXT.has(this.type)) {
      const { offsets, data } = col.values;
      let min = this.min;
      let max = this.max;
      for (let i = 0; i < n; i++) {
        if (isNull(i)) {
          this.nulls++;
          continue;
        }
        const a = offsets[i];
        const b = offsets[i + 1];
        const len = b - a;
        if (len < this.minLen) this.minLen = len;
        if (len > this.maxLen) this.maxLen = len;
        this.totalLen += len;
        const key = byteString(data, a, b);
        this.hll.addHash(hashBytes(data, a, b));
        bump(key);
        if (min === null || key < min) min = key;
        if (max === null || key > max) max = key;
      }
      this.min = min;
      this.max = max;
      return;
    }
    const v = col.values;
    const bool = this.type === "bool";
    let min = this.min;
    let max = this.max;
    for (let i = 0; i < n; i++) {
      if (isNull(i)) {
        this.nulls++;
        continue;
      }
      const x = bool ? v[i] === 1 : v[i];
      if (x !== x) {
        this.nans++;
        continue;
      }
      this.hll.addHash(hashNumber(bool ? +x : x));
      bump(x);
      if (min === null || x < min) min = x;
      if (max === null || x > max) max = x;
    }
    this.min = min;
    this.max = max;
  }

  /** Keeps the most common half when the table of counts is full. */
  prune() {
    this.exact = false;
    const kept = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, EXACT_LIMIT >> 1);
    this.counts = new Map(kept);
  }

  /** Whether a histogram applies, and its bins (numbers and times). */
  startHistogram() {
    if (TEXT.has(this.type) || this.type === "bool" || this.min === null) return false;
    const lo = Number(this.min);
    const hi = Number(this.max);
    const integer = !(this.type === "float32" || this.type === "float64");
    let bins = BINS;
    let width = (hi - lo) / bins;
    if (integer && hi - lo + 1 <= BINS) {
      bins = hi - lo + 1;
      width = 1;
    } else if (integer) width = Math.ceil((hi - lo + 1) / bins);
    if (!Number.isFinite(width) || width <= 0) {
      bins = 1;
      width = 1;
    }
    this.hist = { lo, width, counts: new Float64Array(bins), integer, outside: 0 };
    return true;
  }

  /** Second pass: one row group's column into the histogram. */
  addHistogram(col) {
    const h = this.hist;
    const n = col.length;
    const valid = col.validity;
    const v = col.values;
    const bins = h.counts.length;
    const wide = WIDE.has(this.type);
    for (let i = 0; i < n; i++) {
      if (valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const x = wide ? Number(v[i]) : v[i];
      if (x !== x || x === Infinity || x === -Infinity) {
        h.outside++;
        continue;
      }
      let b = Math.floor((x - h.lo) / h.width);
      if (b >= bins) b = bins - 1; // the maximum itself
      if (b < 0) b = 0;
      h.counts[b]++;
    }
  }

  /** A structured-cloneable summary; `top` values as the page shows them. */
  result(topN = 20) {
    const enc = (k) => (TEXT.has(this.type) ? Uint8Array.from(k, (ch) => ch.charCodeAt(0)) : k);
    const top = [...this.counts].sort((a, b) => b[1] - a[1]).slice(0, topN).map(([k, c]) => ({ value: enc(k), count: c }));
    const nonNull = this.rows - this.nulls;
    return {
      type: this.type,
      rows: this.rows,
      nulls: this.nulls,
      nans: this.nans,
      min: this.min === null ? null : enc(this.min),
      max: this.max === null ? null : enc(this.max),
      distinct: this.exact ? this.counts.size : this.hll.estimate(),
      distinctExact: this.exact,
      distinctEstimate: this.hll.estimate(),
      top,
      topExact: this.exact,
      lengths: TEXT.has(this.type) && nonNull > 0 ? { min: this.minLen, max: this.maxLen, mean: this.totalLen / nonNull } : null,
      histogram: this.hist ? { lo: this.hist.lo, width: this.hist.width, counts: Array.from(this.hist.counts), integer: this.hist.integer, outside: this.hist.outside } : null,
    };
  }
}
