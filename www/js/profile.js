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
import { mulberry32 } from "./stats.js";

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

/**
 * Counts of 64-bit values (two 32-bit words each) in an open-addressing
 * hash table: numbers as Map keys cost about a microsecond each once they
 * are not small integers, this a few nanoseconds.
 */
class WordCounter {
  constructor(limit) {
    this.limit = limit;
    this.cap = 1 << Math.ceil(Math.log2(limit * 2 + 2));
    this.lo = new Uint32Array(this.cap);
    this.hi = new Uint32Array(this.cap);
    this.count = new Uint32Array(this.cap); // 0 = empty slot
    this.size = 0;
    this.rand = mulberry32(0x5eed);
  }
  slot(lo, hi) {
    const mask = this.cap - 1;
    let i = fmix32(Math.imul(lo, 0x9e3779b1) ^ fmix32(hi + 0x7f4a7c15)) & mask;
    while (this.count[i] !== 0 && (this.lo[i] !== lo || this.hi[i] !== hi)) i = (i + 1) & mask;
    return i;
  }
  /** Adds one; false when the value is new and the table is full. */
  add(lo, hi) {
    const i = this.slot(lo, hi);
    if (this.count[i] !== 0) {
      this.count[i]++;
      return true;
    }
    if (this.size >= this.limit) return false;
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.count[i] = 1;
    this.size++;
    return true;
  }
  *entries() {
    for (let i = 0; i < this.cap; i++) if (this.count[i] !== 0) yield [this.lo[i], this.hi[i], this.count[i]];
  }
  /**
   * A new table with about the `keep` most common values. Among values of
   * the cut-off count the kept ones are drawn at random (a seeded
   * generator), not by slot order, so they spread over the table (kept in
   * slot order they would pile into one end of it and every probe there
   * would crawl).
   */
  pruned(keep) {
    const counts = [];
    for (let i = 0; i < this.cap; i++) if (this.count[i] !== 0) counts.push(this.count[i]);
    counts.sort((a, b) => b - a);
    const cut = counts[Math.min(keep, counts.length) - 1] ?? 0;
    const above = counts.filter((c) => c > cut).length;
    const atCut = counts.filter((c) => c === cut).length;
    const share = atCut ? Math.max(0, keep - above) / atCut : 0;
    const next = new WordCounter(this.limit);
    for (let i = 0; i < this.cap; i++) {
      const c = this.count[i];
      if (c === 0 || c < cut) continue;
      const lo = this.lo[i];
      const hi = this.hi[i];
      if (c === cut && this.rand() >= share) continue;
      const j = next.slot(lo, hi);
      next.lo[j] = lo;
      next.hi[j] = hi;
      next.count[j] = c;
      next.size++;
    }
    return next;
  }
}

export class ColumnProfile {
  constructor(type) {
    this.type = type;
    this.rows = 0;
    this.nulls = 0;
    this.nans = 0;
    this.min = null;
    this.max = null;
    this.counts = new Map(); // strings and bools
    this.words = TEXT.has(type) || type === "bool" ? null : new WordCounter(EXACT_LIMIT); // numbers
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
    const bump = (key) => {
      const counts = this.counts; // prune() replaces the map
      const c = counts.get(key);
      if (c !== undefined) counts.set(key, c + 1);
      else {
        if (counts.size >= EXACT_LIMIT) {
          this.prune();
          this.counts.set(key, 1);
        } else counts.set(key, 1);
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
    if (bool) {
      for (let i = 0; i < n; i++) {
        if (isNull(i)) {
          this.nulls++;
          continue;
        }
        const x = v[i] === 1;
        this.hll.addHash(hashNumber(+x));
        bump(x);
        if (min === null || x < min) min = x;
        if (max === null || x > max) max = x;
      }
      this.min = min;
      this.max = max;
      return;
    }
    // Numbers count by their 64-bit pattern: int64/uint64 as stored, the
    // rest as float64 (exact for every narrower type; -0 counts as 0).
    const wide = WIDE.has(this.type);
    const w = wide ? new Uint32Array(v.buffer, v.byteOffset, n * 2) : null;
    for (let i = 0; i < n; i++) {
      if (isNull(i)) {
        this.nulls++;
        continue;
      }
      const x = v[i];
      if (x !== x) {
        this.nans++;
        continue;
      }
      let lo;
      let hi;
      if (wide) {
        lo = w[2 * i];
        hi = w[2 * i + 1];
      } else {
        f64[0] = x === 0 ? 0 : x;
        lo = u32[0];
        hi = u32[1];
      }
      this.hll.addHash(fmix32(Math.imul(lo, 0x9e3779b1) ^ fmix32(hi + 0x7f4a7c15)));
      if (!this.words.add(lo, hi)) {
        this.exact = false;
        this.words = this.words.pruned(EXACT_LIMIT >> 1);
        this.words.add(lo, hi);
      }
      if (min === null || x < min) min = x;
      if (max === null || x > max) max = x;
    }
    this.min = min;
    this.max = max;
  }

  /** The counted values as [value, count], numbers decoded from their words. */
  countEntries() {
    if (!this.words) return [...this.counts];
    const out = [];
    const signed = this.type === "int64";
    for (const [lo, hi, c] of this.words.entries()) {
      let value;
      if (WIDE.has(this.type)) {
        const big = (BigInt(hi) << 32n) | BigInt(lo);
        value = signed ? BigInt.asIntN(64, big) : big;
      } else {
        u32[0] = lo;
        u32[1] = hi;
        value = f64[0];
      }
      out.push([value, c]);
    }
    return out;
  }

  /** Keeps the most common half when the table of counts is full (two passes, no sort). */
  prune() {
    this.exact = false;
    const half = EXACT_LIMIT >> 1;
    const freq = new Map(); // count -> how many values have it
    for (const c of this.counts.values()) freq.set(c, (freq.get(c) || 0) + 1);
    const levels = [...freq.keys()].sort((a, b) => b - a);
    let kept = 0;
    let cut = levels.at(-1);
    for (const lv of levels) {
      if (kept + freq.get(lv) > half) {
        cut = lv;
        break;
      }
      kept += freq.get(lv);
      cut = lv - 1;
    }
    let room = half - kept; // how many values at the cut level still fit
    const next = new Map();
    for (const [k, c] of this.counts) {
      if (c > cut) next.set(k, c);
      else if (c === cut && room > 0) {
        next.set(k, c);
        room--;
      }
    }
    this.counts = next;
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
    const entries = this.countEntries();
    const top = entries.sort((a, b) => b[1] - a[1]).slice(0, topN).map(([k, c]) => ({ value: enc(k), count: c }));
    const nonNull = this.rows - this.nulls;
    return {
      type: this.type,
      rows: this.rows,
      nulls: this.nulls,
      nans: this.nans,
      min: this.min === null ? null : enc(this.min),
      max: this.max === null ? null : enc(this.max),
      distinct: this.exact ? (this.words ? this.words.size : this.counts.size) : this.hll.estimate(),
      distinctExact: this.exact,
      distinctEstimate: this.hll.estimate(),
      top,
      topExact: this.exact,
      lengths: TEXT.has(this.type) && nonNull > 0 ? { min: this.minLen, max: this.maxLen, mean: this.totalLen / nonNull } : null,
      histogram: this.hist ? { lo: this.hist.lo, width: this.hist.width, counts: Array.from(this.hist.counts), integer: this.hist.integer, outside: this.hist.outside } : null,
    };
  }
}
