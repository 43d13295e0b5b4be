// The JavaScript side of a decoded column. Rust hands over views of its
// memory and they are copied here, once per buffer, into JS-owned arrays;
// everything here is plain JS so a column outlives the wasm instance and
// needs no free().

// ignoreBOM: a value starting with U+FEFF keeps it (the decoder's default
// would drop it, as if each value were a document).
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

// ArrayBuffers made here (or transferred in from a pool worker) and so safe
// to overwrite when their column is handed back: never the wasm memory, a
// SharedArrayBuffer or a caller's own buffer.
const owned = new WeakSet();
const RELEASED = "this column was handed back with { reuse }: its buffers belong to a newer read";

// What only the package's own code passes to `new Column`: one made by
// anyone else would be an empty column, undefined everywhere.
const MINT = {};
// Lent columns (scoped.js), which share Column's methods.
export const lent = new WeakSet();
// Columns the package made: `instanceof` would take Object.create(Column.prototype).
const made = new WeakSet();
// Where each column was read, [row group, column]: what its toArray()'s error names.
export const placeOf = new WeakMap();
const placed = (col, at) => (placeOf.set(col, at), col);

export class Column {
  constructor(type, length, nullCount, values, validity, boolBits = false, mint) {
    if (mint !== MINT) throw notMine("Column", ", not by new Column()");
    made.add(this);
    /** Column type name: "int64", "string", ... */
    this.type = type;
    /** Number of rows. */
    this.length = length;
    /** Number of null rows. */
    this.nullCount = nullCount;
    /** Typed array, or { offsets, data } for string and bytes. */
    this.values = values;
    /** null when there are no nulls; else bit i (LSB first) set = row i valid. */
    this.validity = validity;
    /** true when this bool column's values are bit-packed (bit i, LSB
     *  first, is row i: Arrow's layout), read with `{ boolBits: true }`;
     *  false: one byte (0 or 1) per row. */
    this.boolBits = boolBits;
    /** Milliseconds spent per stage of this read, when measured. */
    this.timings = null;
  }

  /** @internal Copies a decoded column out of wasm `memory`, where Rust
   *  says its buffers lie (see `views`), into JS-owned arrays, taking
   *  buffers from `recycler` when one is given. */
  static fromWasm(type, length, nullCount, memory, values, count, offsets, offsetsLength, validity, validityLength, recycler, g, c) {
    const [v, bits] = views(memory.buffer, type, nullCount, [values, count, offsets, offsetsLength, validity, validityLength]);
    return columnFromViews(type, length, nullCount, v, bits, recycler, [g, c]);
  }

  /** @internal The read's stage times (`readMs` for the async reads
   *  only), as `Timings`. */
  setTimings(readMs, decompressMs, decodeMs, copyMs, totalMs, fromMemory) {
    this.timings = { ...(readMs === undefined ? null : { readMs }), decompressMs, decodeMs, copyMs, totalMs, fromMemory };
  }

  /** A bool column's values bit-packed, bit i (LSB first) = row i, as
   *  Arrow lays them out: `values` itself when read with `{ boolBits: true }`,
   *  else a packed copy (one byte per 8 rows). */
  boolBitmap() {
    released(this);
    if (this.type !== "bool") throw new ColumnsError(`boolBitmap() needs a bool column, not ${this.type}`, "bad_argument");
    return this.boolBits ? this.values : packBits(this.values, new Uint8Array((this.length + 7) >> 3));
  }

  /** Keeps this column's buffers out of `{ reuse }` for good: handing the
   *  column back still empties it, but no later read writes into its
   *  arrays, so views made on them (Arrow vectors, your own) stay valid. */
  pin() {
    mine(this, isColumn, "Column");
    for (const a of this.arrays()) owned.delete(a.buffer);
    return this;
  }

  /** @internal Every typed array of this column. */
  arrays() {
    const v = this.values;
    const out = v === null ? [] : ArrayBuffer.isView(v) ? [v] : [v.offsets, v.data];
    if (this.validity) out.push(this.validity);
    return out;
  }

  /** Whether row i holds a value: false for a null, and for anything that
   *  is not a row (-1, 1.5, "0", length) rather than some other row's bit. */
  isValid(i) {
    released(this);
    return Number.isInteger(i) && i >= 0 && i < this.length && (this.validity === null || bitOf(this.validity, i));
  }

  /** Plain JS values: numbers, bigints, booleans, strings (UTF-8 with
   *  replacement), Uint8Array for bytes, null for nulls. */
  toArray() {
    released(this);
    const n = this.length;
    const out = new Array(n);
    const v = this.values;
    const bits = this.validity;
    const valid = bits === null ? null : (i) => bitOf(bits, i);
    if (this.type === "string" || this.type === "bytes") {
      const { offsets, data } = v;
      const text = this.type === "string";
      let i = 0;
      try {
        for (; i < n; i++) {
          if (valid && !valid(i)) { out[i] = null; continue; }
          const s = data.subarray(offsets[i], offsets[i + 1]);
          out[i] = text ? utf8.decode(s) : s.slice();
        }
      } catch {
        // A value longer than a string can be (V8: 2^29 - 24), or no memory for its copy.
        const [g, c] = placeOf.get(this) ?? [];
        throw new ColumnsError(`toArray(): row ${i}'s value, ${offsets[i + 1] - offsets[i]} bytes, is too large for JavaScript (row group ${g}, column ${c})`, "too_large", g, c);
      }
    } else if (this.type === "bool" && this.boolBits) {
      for (let i = 0; i < n; i++) out[i] = valid && !valid(i) ? null : ((v[i >> 3] >> (i & 7)) & 1) === 1;
    } else if (this.type === "bool") {
      for (let i = 0; i < n; i++) out[i] = valid && !valid(i) ? null : v[i] === 1;
    } else {
      for (let i = 0; i < n; i++) out[i] = valid && !valid(i) ? null : v[i];
    }
    return out;
  }
}

const ARRAYS = {
  bool: Uint8Array,
  int8: Int8Array,
  int16: Int16Array,
  int32: Int32Array,
  int64: BigInt64Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
  uint64: BigUint64Array,
  float32: Float32Array,
  float64: Float64Array,
};

/** @internal Views of a column's buffers in wasm memory `buffer`, where
 *  Rust says they lie (`places` in src/wasm/convert.rs: the values' address
 *  and count, the offsets', the validity bitmap's): [values (a typed array,
 *  or { offsets, data }), validity (null without nulls)]. */
export function views(buffer, type, nullCount, [values, count, offsets, offsetsLength, validity, validityLength]) {
  return [
    type === "string" || type === "bytes"
      ? { offsets: new Uint32Array(buffer, offsets, offsetsLength), data: new Uint8Array(buffer, values, count) }
      : new ARRAYS[type](buffer, values, count),
    nullCount > 0 ? new Uint8Array(buffer, validity, validityLength) : null,
  ];
}

const bitOf = (bits, i) => ((bits[i >> 3] >> (i & 7)) & 1) === 1;

/** @internal The `this` of a method of `name`'s: what `ok` says is one (a
 *  column from a read), or a bad_argument, where the method's own code
 *  would throw a TypeError (null) or make something up (a plain object). */
export function mine(self, ok, name) {
  let yes = false;
  try {
    yes = ok(self);
  } catch {
    // (a Proxy whose traps throw: not one)
  }
  if (!yes) throw notMine(name, `; this is ${describe(self)}`);
}

/** @internal Copies `values` (a typed array or { offsets, data }) and
 *  `validity`, views of wasm memory, into JS-owned arrays. (Not a static of
 *  Column: only the package makes columns.) */
export function columnFromViews(type, length, nullCount, values, validity, recycler, at) {
  const copy = (view) => (view === null ? null : recycler ? recycler.copy(view) : own(fresh(view)));
  // Packing replaces the copy (it reads the view once, as a copy does).
  const bits = type === "bool" && !!recycler?.boolBits;
  const v = values.data ? { offsets: copy(values.offsets), data: copy(values.data) } : bits ? recycler.pack(values) : copy(values);
  return placed(new Column(type, length, nullCount, v, copy(validity), bits, MINT), at);
}

/** @internal A Column around buffers a pool worker transferred (they become
 *  the package's, refilled by a later `{ reuse }`: never a caller's). */
export function columnFromParts(type, length, nullCount, values, validity, boolBits, at) {
  return placed(adopt(new Column(type, length, nullCount, values, validity, boolBits, MINT)), at);
}

/** @internal The error of a `this` (or a `new`) that is not one of `name`'s. */
export const notMine = (name, what) => new ColumnsError(`${name} methods need a ${name} made by this package${what}`, "bad_argument");

const isColumn = (x) => made.has(x) || lent.has(x);

/** A Column method's `this`, which refuses use once handed back (its
 *  buffers belong to a newer read). */
function released(col) {
  mine(col, isColumn, "Column");
  if (col.values === null) throw new ColumnsError(RELEASED, "released");
}

// A fresh copy of a view. Under Node, uninitialized memory that the copy
// then fills completely (slice() zero-fills first: ~0.5 ms per 14 MB there);
// a buffer that is not exactly its own (a polyfill's pool) is not used.
const nodeBuffer = typeof process === "object" && process.versions?.node && typeof Buffer === "function" ? Buffer : null;
function fresh(view) {
  if (nodeBuffer && view.byteLength > 0) {
    const b = nodeBuffer.allocUnsafeSlow(view.byteLength);
    if (b.byteOffset === 0 && b.buffer.byteLength === view.byteLength) {
      const out = new view.constructor(b.buffer, 0, view.length);
      out.set(view);
      return out;
    }
  }
  return view.slice();
}

function own(array) {
  owned.add(array.buffer);
  return array;
}

/** Writes bools `v` (each byte 0 or 1, as the core guarantees) into `out`
 *  as bits, LSB first; every byte of `out` is written. Eight values per
 *  output byte: 3M values in ~1.5 ms in Node. */
function packBits(v, out) {
  const n = v.length;
  const full = n >> 3;
  let i = 0;
  for (let j = 0; j < full; j++, i += 8) {
    out[j] = v[i] | (v[i + 1] << 1) | (v[i + 2] << 2) | (v[i + 3] << 3) | (v[i + 4] << 4) | (v[i + 5] << 5) | (v[i + 6] << 6) | (v[i + 7] << 7);
  }
  if (i < n) {
    let last = 0;
    for (let k = 0; i < n; i++, k++) last |= v[i] << k;
    out[full] = last;
  }
  return out;
}

/** @internal Marks a pool worker's transferred buffers as reusable here. */
export function adopt(column) {
  for (const a of column.arrays()) owned.add(a.buffer);
  return column;
}

/** @internal `options.reuse` as a list of Columns. Refused, not skipped,
 *  when it holds anything else: a mistake there would silently cost fresh
 *  memory on every read. */
export function reused(options) {
  const reuse = option(options, "reuse");
  const list = reuse == null ? [] : Array.isArray(reuse) ? reuse : [reuse];
  for (const col of list) if (!made.has(col)) throw new ColumnsError(`options.reuse must be a Column or an array of Columns; got type ${typeof col}`, "bad_argument");
  return list;
}

/** @internal An option that is true, false or absent (false). */
export function flag(value, key) {
  const b = value ?? false;
  if (typeof b !== "boolean") throw new ColumnsError(`options.${key} must be true or false; got type ${typeof b}`, "bad_argument");
  return b;
}

/** @internal `options.boolBits`. */
export const boolBitsOf = (options) => flag(option(options, "boolBits"), "boolBits");

/**
 * @internal What a value is, for an error message: "undefined", "the number
 * 5", "a string", "a function", "an Array", "a Uint8Array", "a Promise
 * (await it first)". The module's messages use it too (src/wasm/convert.rs).
 * Never throws: what throws when looked at (a Proxy whose traps throw, a
 * revoked Proxy) is "an object".
 */
export function describe(x) {
  try {
    if (x == null) return `${x}`;
    if (typeof x === "number") return `the number ${x}`;
    if (typeof x !== "object") return `a ${typeof x}`;
    // (A class's name is the caller's to choose: at most 100 characters of it.)
    const name = Array.isArray(x) ? "Array" : x.constructor?.name;
    if (typeof name !== "string" || !name) return "an object";
    return `${/^[aeio]/i.test(name) ? "an" : "a"} ${name.slice(0, 100)}${typeof x.then === "function" ? " (await it first)" : ""}`;
  } catch {
    return "an object";
  }
}

/** @internal One option (none when `options` is null or undefined), read
 *  where a throwing getter is a bad_argument; `method`, when given, starts
 *  the message. */
export function option(options, key, method) {
  try {
    return options?.[key];
  } catch (e) {
    const err = new ColumnsError(`${method ? `${method}: ` : ""}reading options.${key} threw`, "bad_argument");
    err.cause = e;
    throw err;
  }
}

/** @internal Refuses a name in an options object that `method` does not
 *  take (`keys`, separated by ", "): a misspelt one (`{ colums: [0] }`) would
 *  be ignored, and its default taken in silence. Anything but an object is
 *  left to the method's own checks. */
export function known(options, method, keys) {
  if (options === null || typeof options !== "object") return;
  let names;
  try {
    names = Object.keys(options);
  } catch (e) {
    const err = new ColumnsError(`${method}: listing its options threw`, "bad_argument");
    err.cause = e;
    throw err;
  }
  for (const k of names) if (!keys.split(", ").includes(k)) throw new ColumnsError(`${method} has no option "${k.slice(0, 100)}"; it takes ${keys}`, "bad_argument");
}

/**
 * @internal Takes back the buffers of `columns` (see `reused`) so a later
 * read can refill them instead of allocating fresh memory, which in
 * Chromium costs more than the copy itself. Only buffers this package
 * allocated are taken. The columns are emptied, so that using one after
 * handing it back fails loudly instead of showing newer data.
 */
export function handBack(columns) {
  const buffers = new Set();
  for (const col of columns) {
    // A transferred (detached) buffer has byteLength 0 and is skipped.
    for (const a of col.arrays()) if (owned.has(a.buffer) && a.buffer.byteLength > 0) buffers.add(a.buffer);
    col.values = null;
    col.validity = null;
  }
  return [...buffers];
}

/** @internal What a read with `options` copies into (null: fresh arrays,
 *  bools one byte per value). */
export function recycler(options) {
  const list = reused(options);
  const boolBits = boolBitsOf(options);
  return list.length === 0 && !boolBits ? null : new Recycler(handBack(list), boolBits);
}

class Recycler {
  constructor(buffers, boolBits) {
    // Smallest first, so the first fit is the best fit.
    this.free = buffers.sort((a, b) => a.byteLength - b.byteLength);
    /** Whether bool columns come bit-packed (`{ boolBits: true }`). */
    this.boolBits = boolBits;
  }

  /** A recycled buffer of at least `byteLength` bytes, taken off the free list. */
  take(byteLength) {
    const i = byteLength === 0 ? -1 : this.free.findIndex((b) => b.byteLength >= byteLength);
    return i < 0 ? null : this.free.splice(i, 1)[0];
  }

  /** Bools (bytes 0 or 1) bit-packed into a recycled or fresh array. */
  pack(view) {
    const size = (view.length + 7) >> 3;
    const buffer = this.take(size);
    return packBits(view, buffer ? new Uint8Array(buffer, 0, size) : own(new Uint8Array(size)));
  }

  /** A copy of `view` in a recycled buffer when one is big enough. */
  copy(view) {
    // An empty view takes no buffer (any would fit, and be wasted).
    const buffer = this.take(view.byteLength);
    if (buffer === null) return own(fresh(view));
    const out = new view.constructor(buffer, 0, view.length);
    out.set(view);
    return out;
  }
}

/** @internal A genuine promise for what a source returned (a promise, a
 *  thenable or bytes): never throws, so nothing a source does can unwind
 *  through wasm. With a `signal`, it rejects as soon as the signal aborts. */
export function settle(value, signal) {
  const settled = new Promise((resolve) => resolve(value));
  if (!signal) return settled;
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    settled.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** @internal A source's failure keeps its kind when it is a ColumnsError
 *  saying the source was aborted or is over its limit; else bad_source. */
export function failedKind(e) {
  try {
    const kind = e instanceof ColumnsError && e.kind;
    if (kind === "aborted" || kind === "too_large") return kind;
  } catch {}
  return "bad_source";
}

/** Every failure the package reports: `kind` names the error class (see
 *  the README), `rowGroup`, `column` and `offset` say where, when known. */
export class ColumnsError extends Error {
  // `instanceof` by a registered symbol, not by this class: the pool's
  // errors come from the browser build, which in Node (or with two copies
  // of the package in one bundle) is not the class the caller imported.
  static [Symbol.hasInstance](x) {
    return x instanceof Error && x.name === "ColumnsError";
  }

  constructor(message, kind, rowGroup = null, column = null, offset = null) {
    super(message);
    this.name = "ColumnsError";
    this.kind = kind;
    this.rowGroup = rowGroup;
    this.column = column;
    this.offset = offset;
  }

  /** A plain object, so the error survives postMessage and JSON. */
  toJSON() {
    const { name, message, kind, rowGroup, column, offset } = this;
    return { name, message, kind, rowGroup, column, offset };
  }
}
