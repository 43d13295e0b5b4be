// Whole-file sort of row ids by one column, run in the worker.
//
// Every value becomes an unsigned 64-bit key (hi, lo) whose unsigned order
// is the value order: integers with the sign bit flipped, floats with the
// IEEE-754 trick (negative: all bits inverted; positive: sign bit set),
// strings and bytes by their rank among the column's distinct values
// (byte order). A stable LSD radix sort with 16-bit digits then orders the
// row ids: 2 or 4 passes over the rows, skipping passes whose digit is the
// same everywhere; progress and cancellation between passes. NaN sorts
// after every number and null after everything, in both directions;
// equal values keep file order.

export const CLS_VALUE = 0;
export const CLS_NAN = 1;
export const CLS_NULL = 2;

// Types whose key takes 64 bits (hi and lo); the others' fit in lo.
const WIDE = new Set(["int64", "uint64", "float32", "float64"]);

/**
 * The bytes a sort of `rows` rows of a `type` column holds at its peak:
 * the keys (lo, hi if wide, a class byte) and sortIds' three row lists,
 * with `ids` (a filter's rows) 4 more a row. A string column's distinct
 * values come on top (not known before they are read): SortKeys counts
 * them as they come (`tableBytes`).
 */
export function sortBytes(type, rows, ids) {
  return rows * ((WIDE.has(type) ? 9 : 5) + 12 + (ids ? 4 : 0));
}

/**
 * What a string column's distinct value is counted to hold beside its own
 * bytes (a JS string of one char per byte: a byte each): the string's
 * header, its entry in the Map, and in finish() its place in the list of
 * keys, in their order and in the ranks (16 + 16 + 8 + 8 + 4, rounded
 * up). An estimate: V8's sizes vary with the build and the string.
 */
export const DISTINCT_ENTRY = 64;

/**
 * Holds the keys of the rows to sort, of one column: every row of the
 * file, or only `ids` (file rows, ascending: a filter's), key p that of
 * ids[p]. `add(base, column)` takes one row group's decoded column (file
 * rows base .. base + column.length). A string column's table of distinct
 * values is counted as it grows (`tableBytes`, DISTINCT_ENTRY and its
 * bytes each); once `bytes` (all the sort will hold) passes `limit`, add
 * stops taking values and `over` is set: the caller gives up.
 */
export class SortKeys {
  constructor(type, numRows, ids = null, limit = Infinity) {
    this.limit = limit;
    this.tableBytes = 0;
    this.over = false;
    this.rowBytes = sortBytes(type, ids ? ids.length : numRows, ids);
    this.type = type;
    this.numRows = numRows;
    this.ids = ids;
    const n = ids ? ids.length : numRows;
    this.wide = WIDE.has(type); // the keys use hi
    this.hi = this.wide ? new Uint32Array(n) : null;
    this.lo = new Uint32Array(n);
    this.cls = new Uint8Array(n);
    this.strings = type === "string" || type === "bytes" ? new Map() : null; // value (one char per byte) -> id
  }

  /** The bytes the sort holds at its peak, as far as known: its rows' (sortBytes) and the distinct values' so far. */
  get bytes() {
    return this.rowBytes + this.tableBytes;
  }

  /** Keys p0 .. p1 (exclusive): the rows of the row group at file row
   *  `base`, of `n` rows, that are sorted; and row i of the group for key p. */
  span(base, n) {
    const ids = this.ids;
    if (!ids) return [base, base + n, (p) => p - base];
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid] < base) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    hi = ids.length;
    while (end < hi) {
      const mid = (end + hi) >>> 1;
      if (ids[mid] < base + n) end = mid + 1;
      else hi = mid;
    }
    return [lo, end, (p) => ids[p] - base];
  }

  add(base, col) {
    if (this.over) return;
    const { hi, lo, cls } = this;
    const [p0, p1, row] = this.span(base, col.length);
    const v = col.values;
    const valid = col.validity;
    const isNull = (i) => valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0;
    const t = this.type;
    if (this.strings) {
      const { offsets, data } = v;
      const map = this.strings;
      for (let p = p0; p < p1; p++) {
        const i = row(p);
        if (isNull(i)) {
          cls[p] = CLS_NULL;
          continue;
        }
        const key = byteString(data, offsets[i], offsets[i + 1]);
        let id = map.get(key);
        if (id === undefined) {
          this.tableBytes += DISTINCT_ENTRY + key.length;
          if (this.rowBytes + this.tableBytes > this.limit) {
            this.over = true;
            return;
          }
          id = map.size;
          map.set(key, id);
        }
        lo[p] = id;
      }
      return;
    }
    if (t === "int64" || t === "uint64") {
      const w = new Uint32Array(v.buffer, v.byteOffset, col.length * 2);
      const flip = t === "int64" ? 0x80000000 : 0;
      for (let p = p0; p < p1; p++) {
        const i = row(p);
        if (isNull(i)) {
          cls[p] = CLS_NULL;
          continue;
        }
        lo[p] = w[2 * i];
        hi[p] = (w[2 * i + 1] ^ flip) >>> 0;
      }
      return;
    }
    if (t === "float32" || t === "float64") {
      const f = new Float64Array(1);
      const u = new Uint32Array(f.buffer);
      for (let p = p0; p < p1; p++) {
        const i = row(p);
        if (isNull(i)) {
          cls[p] = CLS_NULL;
          continue;
        }
        const x = v[i];
        if (x !== x) {
          cls[p] = CLS_NAN;
          continue;
        }
        f[0] = x === 0 ? 0 : x; // -0 and 0 are equal
        let h = u[1];
        let l = u[0];
        if (h & 0x80000000) {
          h = ~h >>> 0;
          l = ~l >>> 0;
        } else h = (h | 0x80000000) >>> 0;
        hi[p] = h;
        lo[p] = l;
      }
      return;
    }
    // 8, 16 and 32-bit integers and bools: one 32-bit key.
    const signed = t === "int8" || t === "int16" || t === "int32";
    for (let p = p0; p < p1; p++) {
      const i = row(p);
      if (isNull(i)) {
        cls[p] = CLS_NULL;
        continue;
      }
      lo[p] = signed ? (v[i] ^ 0x80000000) >>> 0 : v[i] >>> 0;
    }
  }

  /** Strings: turns first-seen ids into ranks in byte order. */
  finish() {
    if (!this.strings) return;
    const keys = [...this.strings.keys()];
    const order = keys.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
    const rank = new Uint32Array(keys.length);
    order.forEach((id, r) => (rank[id] = r));
    const { lo, cls } = this;
    for (let i = 0; i < lo.length; i++) if (cls[i] === CLS_VALUE) lo[i] = rank[lo[i]];
    this.distinct = keys.length;
    this.strings = null;
  }
}

/** A JS string with one char per byte: compares like the bytes do. */
export function byteString(data, a, b) {
  if (b - a <= 64) {
    let s = "";
    for (let i = a; i < b; i++) s += String.fromCharCode(data[i]);
    return s;
  }
  let s = "";
  for (let i = a; i < b; i += 4096) s += String.fromCharCode.apply(null, data.subarray(i, Math.min(b, i + 4096)));
  return s;
}

/**
 * Sorts the rows of `keys` (its ids, else every file row) by the keys;
 * returns their file row ids in that order, a new Uint32Array. `desc`
 * reverses the value order (NaN and null stay last, ties stay in file
 * order). `step(done, total)` may throw to cancel.
 */
export async function sortIds(keys, desc, step = async () => {}) {
  const { hi, lo, cls, ids } = keys;
  // Keys come in file order, so the stable sort keeps ties in file order;
  // the sort moves key positions, made file rows at the end.
  const rows = cls.length;
  let src;
  const values = new Uint32Array(rows);
  let n = 0;
  let nans = 0;
  for (let r = 0; r < rows; r++) {
    const c = cls[r];
    if (c === CLS_VALUE) values[n++] = r;
    else if (c === CLS_NAN) nans++;
  }
  src = values.subarray(0, n);
  let dst = new Uint32Array(n);
  const flip = desc ? 0xffffffff : 0;
  const passes = keys.wide ? [[lo, 0], [lo, 16], [hi, 0], [hi, 16]] : [[lo, 0], [lo, 16]];
  const count = new Uint32Array(65536);
  let p = 0;
  for (const [k, shift] of passes) {
    await step(p++, passes.length);
    count.fill(0);
    for (let i = 0; i < n; i++) count[(((k[src[i]] ^ flip) >>> shift) & 0xffff)]++;
    if (n === 0 || count[(((k[src[0]] ^ flip) >>> shift) & 0xffff)] === n) continue; // one digit everywhere
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const r = src[i];
      dst[count[(((k[r] ^ flip) >>> shift) & 0xffff)]++] = r;
    }
    [src, dst] = [dst, src];
  }
  const out = new Uint32Array(rows);
  out.set(src, 0);
  // Then NaN, then null, each in file order.
  let a = n;
  let b = n + nans;
  for (let r = 0; r < rows; r++) {
    const c = cls[r];
    if (c === CLS_NAN) out[a++] = r;
    else if (c === CLS_NULL) out[b++] = r;
  }
  if (ids) for (let j = 0; j < rows; j++) out[j] = ids[out[j]];
  return out;
}
