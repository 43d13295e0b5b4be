// A column's profile over every row group, computed in the worker:
// null share, exact minimum and maximum, distinct values, the most common
// values with their counts, string lengths, and a histogram for numbers
// and times: in the first pass over the footer statistics' range when
// they give one that proves exact, else in a second pass over the range
// the first one found.
//
// Distinct values and counts are exact while the column has at most
// EXACT_LIMIT distinct values (and, for text, at most ARENA_LIMIT bytes of
// them). Past that the count is a HyperLogLog estimate (2^14 registers:
// about 0.8% standard error) and the top values' counts become lower
// bounds (the table of counts is pruned to its most common half whenever
// it fills up); the result says which. Minimum and maximum stay exact.

import { mulberry32 } from "./stats.js";
import { parseValue } from "./filter.js";

export const EXACT_LIMIT = 500_000;
/** Bytes of distinct text values counted exactly, whatever their number. */
export const ARENA_LIMIT = 64 << 20;
export const BINS = 40;
/** Most common values the page asks for (it shows 20 at first, more on request). */
export const TOP_KEPT = 1000;
/** Past the first 20 of them, a text value is sent as its first CUT_BYTES bytes (the page shows 60 characters of one). */
export const TOP_FULL = 20;
export const CUT_BYTES = 256;
/** Values past ±this (2^480) switch the mean and spread to a unit of 2^544:
 *  then every finite double is within it, and a sum of up to 2^53 squares
 *  of differences (at most 2^962 each) stays below 2^1024. */
const SPREAD_MAX = 2 ** 480;
const HLL_P = 14;
const HLL_M = 1 << HLL_P;

const TEXT = new Set(["string", "bytes"]);
/** Whether a column of `type` has a histogram (numbers and times: not text, not bool). */
export const hasHistogram = (type) => !TEXT.has(type) && type !== "bool";
const WIDE = new Set(["int64", "uint64"]);
// Rows summed in doubles before the sum goes into the BigInt: 2^20 values
// below 2^32 sum to under 2^52, where a double is exact.
const SUM_ROWS = 1 << 20;

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
    // (an int32: clz32 reads the same 32 bits, where a uint32 past 2^31 - 1
    // made Chromium's Maglev code bail out at the clz32, again and again
    // until TurboFan's came: 244-633 ms of counting flights-3m's date
    // instead of 175-219)
    const w = h << HLL_P;
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

/** A number's hash, from its 64-bit pattern's two words. */
const wordHash = (lo, hi) => fmix32(Math.imul(lo, 0x9e3779b1) ^ fmix32(hi + 0x7f4a7c15));

function hashBytes(data, a, b) {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) h = Math.imul(h ^ data[i], 0x01000193);
  return fmix32(h ^ (b - a));
}

/** Number() of the 64-bit integer of words lo, hi: hi * 2^32 is exact, and
 *  adding lo rounds once, as Number(bigint) does. */
const wordNumber = (lo, hi, signed) => (signed ? hi | 0 : hi) * 4294967296 + lo;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const b64 = new BigInt64Array(f64.buffer);
function hashNumber(x) {
  if (typeof x === "bigint") b64[0] = BigInt.asIntN(64, x);
  else f64[0] = x === 0 ? 0 : x;
  return wordHash(u32[0], u32[1]);
}

/**
 * Which of a table's counts (`count`: 0 for an empty slot) pruning to about
 * `keep` values keeps: every count above `cut`, and each at `cut` with
 * probability `share`.
 */
function pruneCut(count, keep) {
  if (keep < 1) return { cut: Infinity, share: 0 };
  const counts = [];
  for (let i = 0; i < count.length; i++) if (count[i] !== 0) counts.push(count[i]);
  counts.sort((a, b) => b - a);
  const cut = counts[Math.min(keep, counts.length) - 1] ?? 0;
  const above = counts.filter((c) => c > cut).length;
  const atCut = counts.filter((c) => c === cut).length;
  return { cut, share: atCut ? Math.max(0, keep - above) / atCut : 0 };
}

/**
 * Counts of 64-bit values (two 32-bit words each) in an open-addressing
 * hash table: numbers as Map keys cost about a microsecond each once they
 * are not small integers, this a few nanoseconds. It grows from small, at
 * most half full, to room for `limit` values: made whole at once it was
 * 12 MB a column, and the page counts up to 64 columns together.
 */
class WordCounter {
  constructor(limit, values = 0) {
    this.limit = limit;
    this.maxCap = 1 << Math.ceil(Math.log2(limit * 2 + 2));
    this.table(Math.min(Math.max(1 << 10, 1 << Math.ceil(Math.log2(values * 2 + 2))), this.maxCap));
    this.size = 0;
    this.rand = mulberry32(0x5eed);
  }
  table(cap) {
    this.cap = cap;
    this.lo = new Uint32Array(cap);
    this.hi = new Uint32Array(cap);
    this.count = new Uint32Array(cap); // 0 = empty slot
  }
  slot(lo, hi, h = wordHash(lo, hi)) {
    const mask = this.cap - 1;
    let i = h & mask;
    while (this.count[i] !== 0 && (this.lo[i] !== lo || this.hi[i] !== hi)) i = (i + 1) & mask;
    return i;
  }
  /** A value not in the table yet, with its count (there is room for it). */
  put(lo, hi, c) {
    if (2 * (this.size + 1) > this.cap && this.cap < this.maxCap) {
      const { lo: los, hi: his, count, cap } = this;
      this.table(cap * 2);
      for (let k = 0; k < cap; k++) if (count[k] !== 0) this.place(this.slot(los[k], his[k]), los[k], his[k], count[k]);
    }
    this.place(this.slot(lo, hi), lo, hi, c);
    this.size++;
  }
  place(i, lo, hi, c) {
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.count[i] = c;
  }
  /** Adds one of hash h (wordHash): 0 if the value was in the table, 1 if
   *  it is new, -1 if it is new and the table is full. */
  add(lo, hi, h) {
    const i = this.slot(lo, hi, h);
    if (this.count[i] !== 0) {
      this.count[i]++;
      return 0;
    }
    if (this.size >= this.limit) return -1;
    this.put(lo, hi, 1);
    return 1;
  }
  /** The n-th greatest count, or 0 if there are fewer values. */
  nthCount(n) {
    if (n > this.size || n < 1) return 0;
    const counts = new Uint32Array(this.size);
    let k = 0;
    for (let i = 0; i < this.cap; i++) if (this.count[i] !== 0) counts[k++] = this.count[i];
    return counts.sort()[k - n];
  }
  /**
   * A new table with about the `keep` most common values. Among values of
   * the cut-off count the kept ones are drawn at random (a seeded
   * generator), not by slot order, so they spread over the table (kept in
   * slot order they would pile into one end of it and every probe there
   * would crawl).
   */
  pruned(keep) {
    const { cut, share } = pruneCut(this.count, keep);
    const next = new WordCounter(this.limit, this.limit); // (as large: it fills again)
    for (let i = 0; i < this.cap; i++) {
      const c = this.count[i];
      if (c === 0 || c < cut) continue;
      if (c === cut && this.rand() >= share) continue;
      next.put(this.lo[i], this.hi[i], c);
    }
    return next;
  }
}

/** Byte order of x[xa, xb) against y[ya, yb): negative, 0 or positive. */
export function compareBytes(x, xa, xb, y, ya, yb) {
  const n = Math.min(xb - xa, yb - ya);
  for (let k = 0; k < n; k++) if (x[xa + k] !== y[ya + k]) return x[xa + k] - y[ya + k];
  return xb - xa - (yb - ya);
}

/**
 * Counts of byte strings in an open-addressing hash table whose keys are
 * kept once each in one byte arena. A JS string per value and a Map
 * lookup cost 150-400 ns a value in Chromium (flights-3m's 3,000,000
 * airport codes took 440-1200 ms); this builds bytes only for values it
 * has not seen. Grows from small, to `limit` values and `arenaLimit` bytes.
 */
class TextCounter {
  constructor(limit, arenaLimit, rand) {
    this.limit = limit;
    this.arenaLimit = arenaLimit;
    this.rand = rand;
    this.size = 0;
    this.used = 0;
    this.arena = new Uint8Array(Math.min(arenaLimit, 1 << 16));
    this.slots(1 << 10);
  }
  slots(cap) {
    this.cap = cap;
    this.hash = new Uint32Array(cap);
    this.start = new Uint32Array(cap);
    this.len = new Uint32Array(cap);
    this.count = new Uint32Array(cap); // 0 = empty slot
  }
  /** The first empty slot for hash `h` (the table has room). */
  free(h) {
    const mask = this.cap - 1;
    let i = h & mask;
    while (this.count[i] !== 0) i = (i + 1) & mask;
    return i;
  }
  put(i, h, bytes, a, len, c) {
    if (this.used + len > this.arena.length) {
      const grown = new Uint8Array(Math.min(this.arenaLimit, Math.max(this.used + len, 2 * this.arena.length)));
      grown.set(this.arena.subarray(0, this.used));
      this.arena = grown;
    }
    for (let k = 0; k < len; k++) this.arena[this.used + k] = bytes[a + k];
    this.hash[i] = h;
    this.start[i] = this.used;
    this.len[i] = len;
    this.count[i] = c;
    this.used += len;
    this.size++;
  }
  /**
   * Counts data[a, b) (`h`: its hash). 0: seen before; 1: new, now counted;
   * -1: new, and the table has no room for it.
   */
  add(data, a, b, h) {
    const len = b - a;
    const mask = this.cap - 1;
    const { hash, start, count, arena } = this;
    let i = h & mask;
    for (let c = count[i]; c !== 0; c = count[i]) {
      if (hash[i] === h && this.len[i] === len) {
        const s = start[i];
        let k = 0;
        while (k < len && arena[s + k] === data[a + k]) k++;
        if (k === len) {
          count[i] = c + 1;
          return 0;
        }
      }
      i = (i + 1) & mask;
    }
    if (this.size >= this.limit || this.used + len > this.arenaLimit) return -1;
    if (2 * (this.size + 1) > this.cap) {
      this.grow();
      i = this.free(h);
    }
    this.put(i, h, data, a, len, 1);
    return 1;
  }
  /** Twice the slots, the keys where they are in the arena. */
  grow() {
    const { cap, hash, start, len, count } = this;
    this.slots(2 * cap);
    for (let j = 0; j < cap; j++) {
      if (count[j] === 0) continue;
      const k = this.free(hash[j]);
      this.hash[k] = hash[j];
      this.start[k] = start[j];
      this.len[k] = len[j];
      this.count[k] = count[j];
    }
  }
  /** A new table with about the `keep` most common values (ties drawn as WordCounter's). */
  pruned(keep) {
    const { cut, share } = pruneCut(this.count, keep);
    const next = new TextCounter(this.limit, this.arenaLimit, this.rand);
    next.slots(Math.max(1 << 10, 1 << Math.ceil(Math.log2(2 * keep + 2))));
    for (let i = 0; i < this.cap; i++) {
      const c = this.count[i];
      if (c === 0 || c < cut || (c === cut && this.rand() >= share)) continue;
      next.put(next.free(this.hash[i]), this.hash[i], this.arena, this.start[i], this.len[i], c);
    }
    return next;
  }
  /**
   * The `n` most common values as { value, count }, ties in byte order;
   * past the first TOP_FULL, a value longer than CUT_BYTES as its first
   * CUT_BYTES bytes, with `length` its whole length.
   */
  top(n) {
    const best = []; // slot indexes, best first
    const before = (i, j) => this.count[i] > this.count[j] || (this.count[i] === this.count[j] && compareBytes(this.arena, this.start[i], this.start[i] + this.len[i], this.arena, this.start[j], this.start[j] + this.len[j]) < 0);
    for (let i = 0; i < this.cap; i++) {
      if (this.count[i] === 0 || (best.length === n && !before(i, best[n - 1]))) continue;
      // Its place, after the last one it is not before, found by halves: a
      // column of many values put each in place by comparing it with one
      // after another (millions of byte comparisons for 1,000 kept).
      let lo = 0;
      let hi = best.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(i, best[mid])) hi = mid;
        else lo = mid + 1;
      }
      best.splice(lo, 0, i);
      if (best.length > n) best.pop();
    }
    return best.map((i, k) => {
      const len = this.len[i];
      if (k < TOP_FULL || len <= CUT_BYTES) return { value: this.arena.slice(this.start[i], this.start[i] + len), count: this.count[i] };
      return { value: this.arena.slice(this.start[i], this.start[i] + CUT_BYTES), count: this.count[i], length: len };
    });
  }
}

/**
 * The text of bin k's low edge, as the condition a bar's click writes
 * (≥ its low edge, < the next one's; the last bin's ≤ the histogram's
 * `hi`), and as the filter reads back to a value (parseValue: a float32's
 * rounded to float32).
 */
export function edgeText(hist, k) {
  const x = hist.lo + k * hist.width;
  return hist.integer ? BigInt(Math.round(x)).toString() : String(x);
}

export class ColumnProfile {
  /** `rows`: the column's rows, if known (a number column's table is sized for them at once). */
  constructor(type, rows = 0) {
    this.type = type;
    this.rows = 0;
    this.nulls = 0;
    this.nans = 0;
    this.min = null;
    this.max = null;
    // Numbers: the least and greatest finite values (a histogram's range)
    // and the infinities, which no bin holds.
    this.lowest = null;
    this.highest = null;
    this.negInf = 0;
    this.posInf = 0;
    this.bools = type === "bool" ? new Map() : null;
    this.text = TEXT.has(type) ? new TextCounter(EXACT_LIMIT, ARENA_LIMIT, mulberry32(0x5eed)) : null;
    this.words = this.bools || this.text ? null : new WordCounter(EXACT_LIMIT, rows); // numbers
    this.exact = true;
    this.hll = new HyperLogLog();
    this.minLen = Infinity;
    this.maxLen = 0;
    this.totalLen = 0;
    this.hist = null;
    // Numbers' mean and spread (Welford's running sums: no large sum to
    // lose digits in), over the finite values, in units of 1/`inv`: 1 until
    // a value past SPREAD_MAX comes, then 2^544, so that no square of a
    // difference overflows (edge_float64's came to Infinity).
    this.finite = 0;
    this.mean = 0;
    this.m2 = 0;
    this.inv = 1;
    // Integers' exact sum, for their mean (Welford's running mean only
    // comes near: edge_int64's -0.2 came to 48.9): 32-bit halves summed in
    // doubles (exact), carried into a BigInt every SUM_ROWS values.
    this.sum = this.words && !type.startsWith("float") ? 0n : null;
    this.sumLo = 0;
    this.sumHi = 0;
    this.summed = 0;
    // -0 is counted as 0, one value: Data's filter has "= 0" and "= -0"
    // each match both, so the count is what a click on it selects. How
    // many zeros are -0 says how to show that value (topNumbers).
    this.zeros = 0;
    this.negZeros = 0;
  }

  /** The doubles' part of the integers' sum into the BigInt. */
  carry() {
    this.sum += BigInt(this.sumHi) * 4294967296n + BigInt(this.sumLo);
    this.sumLo = 0;
    this.sumHi = 0;
    this.summed = 0;
  }

  /** The mean of the finite values; integers' from their exact sum, as
   *  the double nearest it: 60 decimals (toward zero) read by Number(),
   *  which rounds once (a mean of n < 2^53 integers is a rational that no
   *  tie between two doubles lies within 10^-60 of). */
  meanOf() {
    if (this.sum === null) return this.mean / this.inv;
    this.carry();
    const scaled = (this.sum * 10n ** 60n) / BigInt(this.finite);
    const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(61, "0");
    return Number(`${scaled < 0n ? "-" : ""}${digits.slice(0, -60)}.${digits.slice(-60)}`);
  }

  /** add()'s mean and spread of a value past ±SPREAD_MAX in the current unit: an infinity (left out), or the first finite one (the unit becomes 2^544). */
  spreadFar(x) {
    if (x === Infinity || x === -Infinity) {
      if (x > 0) this.posInf++;
      else this.negInf++;
      return;
    }
    if (this.inv === 1) {
      // (exact, powers of two; what falls below 2^-1074 of the new unit
      // is nothing beside a value past 2^480)
      this.inv = 2 ** -544;
      this.mean *= this.inv;
      this.m2 = this.m2 * this.inv * this.inv;
    }
    const xs = x * this.inv;
    const d = xs - this.mean;
    this.mean += d / ++this.finite;
    this.m2 += d * (xs - this.mean);
  }

  /** First pass over one row group's decoded column. */
  add(col) {
    const n = col.length;
    const valid = col.validity;
    const isNull = (i) => valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0;
    this.rows += n;
    if (this.text) {
      const { offsets, data } = col.values;
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
        const h = hashBytes(data, a, b);
        // A value longer than ARENA_LIMIT is never counted; any other
        // finds room once the table is pruned far enough.
        let seen = len > ARENA_LIMIT ? -1 : this.text.add(data, a, b, h);
        if (seen < 0) this.exact = false;
        while (seen < 0 && len <= ARENA_LIMIT) {
          this.text = this.text.pruned(this.text.size >> 1);
          seen = this.text.add(data, a, b, h);
        }
        // A value already in the table was counted by the estimate and
        // compared when it went in (a value pruned since comes in anew).
        if (seen === 0) continue;
        this.hll.addHash(h);
        const min = this.min;
        const max = this.max;
        if (min === null || compareBytes(data, a, b, min, 0, min.length) < 0) this.min = data.slice(a, b);
        if (max === null || compareBytes(data, a, b, max, 0, max.length) > 0) this.max = data.slice(a, b);
      }
      return;
    }
    const v = col.values;
    const bool = this.type === "bool";
    let min = this.min;
    let max = this.max;
    let inv = this.inv;
    if (bool) {
      for (let i = 0; i < n; i++) {
        if (isNull(i)) {
          this.nulls++;
          continue;
        }
        const x = v[i] === 1;
        const seen = this.bools.get(x) || 0;
        if (!seen) this.hll.addHash(hashNumber(+x));
        this.bools.set(x, seen + 1);
        if (min === null || x < min) min = x;
        if (max === null || x > max) max = x;
      }
      this.min = min;
      this.max = max;
      return;
    }
    // Numbers count by their 64-bit pattern: int64/uint64 as stored, the
    // rest as float64 (exact for every narrower type; -0 counts as 0, and
    // is counted apart too).
    const wide = WIDE.has(this.type);
    const w = wide ? new Uint32Array(v.buffer, v.byteOffset, n * 2) : null;
    const signed = this.type === "int64";
    const ints = this.sum !== null;
    for (let i = 0; i < n; i++) {
      if (isNull(i)) {
        this.nulls++;
        continue;
      }
      // (a 64-bit value is read as a BigInt only when new to the table:
      // one BigInt a row cost 2-3x the whole loop)
      let x = wide ? null : v[i];
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
        if (x === 0) {
          this.zeros++;
          if (1 / x < 0) this.negZeros++;
          f64[0] = 0;
        } else f64[0] = x;
        lo = u32[0];
        hi = u32[1];
      }
      if (ints) {
        if (wide) {
          this.sumLo += lo;
          this.sumHi += signed ? hi | 0 : hi;
        } else this.sumLo += x;
        if (++this.summed === SUM_ROWS) this.carry();
      }
      // (Welford's step here for values within ±SPREAD_MAX in the current
      // unit; the others, infinities too, in spreadFar)
      const xf = wide ? wordNumber(lo, hi, signed) : x;
      const xs = xf * inv;
      if (xs <= SPREAD_MAX && xs >= -SPREAD_MAX) {
        const d = xs - this.mean;
        this.mean += d / ++this.finite;
        this.m2 += d * (xs - this.mean);
      } else {
        this.spreadFar(xf);
        inv = this.inv;
      }
      const h = wordHash(lo, hi);
      let seen = this.words.add(lo, hi, h);
      if (seen < 0) {
        this.exact = false;
        this.words = this.words.pruned(EXACT_LIMIT >> 1);
        seen = this.words.add(lo, hi, h);
      }
      // A value already in the table was counted by the estimate and
      // compared when it went in (a value pruned since comes in anew).
      if (seen === 0) continue;
      this.hll.addHash(h);
      if (wide) x = v[i];
      if (min === null || x < min) min = x;
      if (max === null || x > max) max = x;
      if (xf !== Infinity && xf !== -Infinity) {
        if (this.lowest === null || x < this.lowest) this.lowest = x;
        if (this.highest === null || x > this.highest) this.highest = x;
      }
    }
    this.min = min;
    this.max = max;
  }

  /**
   * The topN most common bools or numbers as { value, count }, ties in
   * value order (as text's are in byte order, not the table's). Only
   * values as common as the topN-th are decoded, and those tied at that
   * count are sorted as a typed array: a column of 500,000 values seen
   * once each spent 300 ms sorting them all as pairs.
   */
  topNumbers(topN) {
    const byCount = (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    if (this.bools) return [...this.bools].sort(byCount).slice(0, topN).map(([value, count]) => ({ value, count }));
    const w = this.words;
    const cut = w.nthCount(topN);
    const above = [];
    const tied = new (this.type === "int64" ? BigInt64Array : this.type === "uint64" ? BigUint64Array : Float64Array)(w.size);
    const bits = new Uint32Array(tied.buffer);
    let k = 0;
    for (let i = 0; i < w.cap; i++) {
      const c = w.count[i];
      if (c === 0 || c < cut) continue;
      // (each slot of `tied` is the value's 64-bit pattern, as counted)
      bits[2 * k] = w.lo[i];
      bits[2 * k + 1] = w.hi[i];
      if (c > cut) above.push([tied[k], c]);
      else k++;
    }
    above.sort(byCount);
    const rest = Array.from(tied.subarray(0, k).sort().subarray(0, Math.max(0, topN - above.length)), (v) => [v, cut]);
    // Zero (counted as +0) is -0 where every zero was; where some were, it
    // says how many.
    const { zeros, negZeros } = this;
    const zero = (value, count) => (negZeros === 0 ? { value, count } : negZeros === zeros ? { value: -0, count } : { value, count, negZeros });
    return [...above, ...rest].slice(0, topN).map(([value, count]) => (value === 0 ? zero(value, count) : { value, count }));
  }

  /**
   * Whether a histogram applies, and its bins (numbers and times), over
   * `min`..`max`: the exact range of the finite values once counted (a
   * second pass), or before, the footer's statistics, to count it in the
   * first pass (kept only if the range proves exact: see `rangeIs`; a
   * footer's infinity or NaN is no range of bins).
   */
  startHistogram(min = this.lowest, max = this.highest) {
    this.hist = null;
    if (!hasHistogram(this.type) || min === null || max === null) return false;
    const lo = Number(min);
    const hi = Number(max);
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return false;
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
    // `hi`: the value the last bin holds up to. `edges`: each bin's low
    // edge as the filter reads its text back, which addHistogram bins by,
    // so that a bar counts the rows its click selects.
    // (and `big`, a 64-bit column's edges as BigInts)
    const h = (this.hist = { lo, width, hi: max, counts: new Float64Array(bins), integer, outside: 0, edges: new Float64Array(bins), big: [] });
    h.edges[0] = -Infinity; // (nothing below the first bin)
    for (let k = 1; k < bins; k++) {
      const edge = parseValue(this.type, edgeText(h, k)).value;
      h.edges[k] = Number(edge);
      h.big[k] = edge;
    }
    return true;
  }

  /** Whether the exact range counted is `min`..`max` (the bins a histogram started over it has are the exact range's). */
  rangeIs(min, max) {
    return this.min !== null && this.max !== null && this.min == min && this.max == max; // eslint-disable-line eqeqeq -- bigint against number
  }

  /** One row group's column into the histogram (second pass, or the first one's over the footer's range). */
  addHistogram(col) {
    const h = this.hist;
    const n = col.length;
    const valid = col.validity;
    const v = col.values;
    const bins = h.counts.length;
    const { edges, big, lo, width } = h;
    const wide = WIDE.has(this.type);
    const w = wide ? new Uint32Array(v.buffer, v.byteOffset, n * 2) : null;
    const signed = this.type === "int64";
    for (let i = 0; i < n; i++) {
      if (valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0) continue;
      const x = wide ? wordNumber(w[2 * i], w[2 * i + 1], signed) : v[i];
      if (x !== x || x === Infinity || x === -Infinity) {
        h.outside++;
        continue;
      }
      let b = Math.floor((x - lo) / width);
      if (b >= bins) b = bins - 1; // the maximum itself
      if (b < 0) b = 0;
      // (the division can round a value next to an edge into the bin
      // beside the one the edges put it in; a 64-bit integer that reads as
      // an edge's double may lie below the edge: then compared as itself)
      if (x < edges[b] || (x === edges[b] && wide && v[i] < big[b])) b--;
      else if (b < bins - 1 && x >= edges[b + 1] && !(x === edges[b + 1] && wide && v[i] < big[b + 1])) b++;
      h.counts[b]++;
    }
  }

  /** A structured-cloneable summary; `top` values as the page shows them. */
  result(topN = 20) {
    const top = this.text
      ? this.text.top(topN)
      : this.topNumbers(topN);
    const nonNull = this.rows - this.nulls;
    return {
      type: this.type,
      rows: this.rows,
      nulls: this.nulls,
      nans: this.nans,
      negInf: this.negInf,
      posInf: this.posInf,
      min: this.min,
      max: this.max,
      distinct: this.exact ? (this.bools || this.text || this.words).size : this.hll.estimate(),
      distinctExact: this.exact,
      distinctEstimate: this.hll.estimate(),
      top,
      topExact: this.exact,
      lengths: this.text && nonNull > 0 ? { min: this.minLen, max: this.maxLen, mean: this.totalLen / nonNull } : null,
      // Numbers only: the mean and the sample standard deviation of the finite values.
      mean: this.words && this.finite > 0 ? this.meanOf() : null,
      std: this.words && this.finite > 1 ? Math.sqrt(this.m2 / (this.finite - 1)) / this.inv : null,
      histogram: this.hist ? { lo: this.hist.lo, width: this.hist.width, hi: this.hist.hi, counts: Array.from(this.hist.counts), integer: this.hist.integer, outside: this.hist.outside } : null,
    };
  }
}
