// Fingerprints of column values, so every reader's output can be compared
// with the expected values (NAME.variant.json) and with every other reader's,
// exactly and cheaply: per column a running hash over a canonical word
// sequence of its values, in row order, the same whatever shape a reader
// hands them in (columns-wasm columns, JSON arrays, hyparquet chunks, Arrow
// vectors, JS arrays).
//
// The canonical sequence, per row: the word 0 for a null; else the word 1,
// then the value's words by kind:
//   int    the value as 64-bit two's complement: low word, high word (so an
//          int16 column and Parquet's INT32 with INT(16) compare by value)
//   f32    its IEEE bits (one word); f64: its IEEE bits, low word, high word
//   bool   0 or 1
//   bytes  the byte length, then one word per byte (strings: their exact
//          bytes, UTF-8 for readers that hand JS strings)
// The encoding is prefix-free, and each hash step is a bijection of the
// state for a fixed word and injective in the word for a fixed state, so two
// sequences that differ in one word always give different hashes; two lanes
// with different constants make other collisions ~2^-64 unlikely.

const KIND = {
  bool: "bool",
  int8: "int", int16: "int", int32: "int", int64: "int",
  uint8: "int", uint16: "int", uint32: "int", uint64: "int",
  float32: "f32", float64: "f64",
  string: "bytes", bytes: "bytes",
};
/** The fingerprint kind of a columns type name ("int16" -> "int"). */
export function kindOf(type) {
  const k = KIND[type];
  if (!k) throw new Error(`no fingerprint kind for type ${type}`);
  return k;
}

const f64 = new Float64Array(1);
const f64w = new Int32Array(f64.buffer);
const f32 = new Float32Array(1);
const f32w = new Int32Array(f32.buffer);

/** One column's running fingerprint. Feed its values in row order (any
 *  number of pieces, e.g. one per row group), then `result()`. */
export class Fingerprint {
  constructor(kind) {
    if (!["int", "f32", "f64", "bool", "bytes"].includes(kind)) throw new Error(`bad fingerprint kind ${kind}`);
    this.kind = kind;
    this.h1 = 0x12345678;
    this.h2 = 0x9abcdef0 | 0;
    this.rows = 0;
    this.nulls = 0;
  }

  w(x) {
    let a = Math.imul(this.h1 ^ x, 0x9e3779b1);
    this.h1 = (a << 15) | (a >>> 17);
    let b = Math.imul(this.h2 ^ x, 0x85ebca77);
    this.h2 = (((b << 13) | (b >>> 19)) + 0x1b873593) | 0;
  }

  null() {
    this.rows++;
    this.nulls++;
    this.w(0);
  }

  /** One non-null value given as a JS value (number, bigint, boolean,
   *  string, Uint8Array, or for expected JSON: decimal or hex strings). */
  value(v) {
    this.rows++;
    this.w(1);
    switch (this.kind) {
      case "int":
        if (typeof v === "bigint") {
          this.w(Number(BigInt.asIntN(32, v)));
          this.w(Number(BigInt.asIntN(32, v >> 32n)));
        } else if (typeof v === "number" && Number.isSafeInteger(v)) {
          this.w(v | 0);
          this.w(Math.floor(v / 4294967296) | 0);
        } else if (typeof v === "string" && /^-?\d+$/.test(v)) {
          this.value_int64(BigInt(v));
        } else {
          throw new Error(`not an integer: ${String(v)}`);
        }
        break;
      case "f64":
        if (typeof v === "string") {
          // JSON: IEEE bits as 0x + 16 hex digits
          if (!/^0x[0-9a-f]{16}$/.test(v)) throw new Error(`not float64 bits: ${v}`);
          this.w(parseInt(v.slice(10), 16) | 0);
          this.w(parseInt(v.slice(2, 10), 16) | 0);
        } else {
          if (typeof v !== "number") throw new Error(`not a number: ${String(v)}`);
          f64[0] = v;
          this.w(f64w[0]);
          this.w(f64w[1]);
        }
        break;
      case "f32":
        if (typeof v === "string") {
          if (!/^0x[0-9a-f]{8}$/.test(v)) throw new Error(`not float32 bits: ${v}`);
          this.w(parseInt(v.slice(2), 16) | 0);
        } else {
          if (typeof v !== "number") throw new Error(`not a number: ${String(v)}`);
          f32[0] = v;
          this.w(f32w[0]);
        }
        break;
      case "bool":
        if (typeof v !== "boolean" && v !== 0 && v !== 1) throw new Error(`not a bool: ${String(v)}`);
        this.w(v ? 1 : 0);
        break;
      case "bytes":
        if (typeof v === "string") this.utf8(v);
        else if (v instanceof Uint8Array) this.bytes(v, 0, v.length);
        else if (v && typeof v === "object" && typeof v.hex === "string") this.bytes(hexBytes(v.hex), 0, v.hex.length >> 1); // JSON: not valid UTF-8
        else throw new Error(`not a string or bytes: ${String(v)}`);
        break;
    }
  }

  // The remainder of `value` for a bigint already parsed (no second tag word).
  value_int64(v) {
    this.w(Number(BigInt.asIntN(32, v)));
    this.w(Number(BigInt.asIntN(32, v >> 32n)));
  }

  bytes(data, start, end) {
    this.w(end - start);
    for (let i = start; i < end; i++) this.w(data[i]);
  }

  /** A JS string's UTF-8 bytes (lone surrogates as U+FFFD, as TextEncoder). */
  utf8(s) {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) n += 1;
      else if (c < 0x800) n += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        n += 4;
        i++;
      } else n += 3;
    }
    this.w(n);
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        this.w(c);
        continue;
      }
      if (c < 0x800) {
        this.w(0xc0 | (c >> 6));
        this.w(0x80 | (c & 63));
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
        this.w(0xf0 | (c >> 18));
        this.w(0x80 | ((c >> 12) & 63));
        this.w(0x80 | ((c >> 6) & 63));
        this.w(0x80 | (c & 63));
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      this.w(0xe0 | (c >> 12));
      this.w(0x80 | ((c >> 6) & 63));
      this.w(0x80 | (c & 63));
    }
  }

  /** Rows [0, n) of a typed array or Arrow-like buffers, with an optional
   *  validity test. `values`: a typed array (fixed width) or
   *  { offsets, data } (bytes: value i is data[offsets[i], offsets[i+1])).
   *  `valid(i)`: null when every row is valid. */
  typed(values, n, valid = null) {
    const k = this.kind;
    if (k === "bytes") {
      const { offsets, data } = values;
      if (offsets.length < n + 1) throw new Error(`offsets hold ${offsets.length} entries for ${n} rows`);
      for (let i = 0; i < n; i++) {
        if (valid && !valid(i)) this.null();
        else {
          this.rows++;
          this.w(1);
          this.bytes(data, offsets[i], offsets[i + 1]);
        }
      }
      return;
    }
    if (!ArrayBuffer.isView(values)) throw new Error(`expected a typed array, got ${Object.prototype.toString.call(values)}`);
    if (values.length < n) throw new Error(`${values.length} values for ${n} rows`);
    const width = values.BYTES_PER_ELEMENT;
    const big = values instanceof BigInt64Array || values instanceof BigUint64Array;
    if (k === "int" && values instanceof Float64Array) throw new Error("integers expected, got a Float64Array");
    // 64-bit values and float64 read as pairs of words through a view.
    const words = (big || values instanceof Float64Array) && values.byteOffset % 4 === 0 ? new Int32Array(values.buffer, values.byteOffset, n * 2) : null;
    const f32bits = values instanceof Float32Array ? new Int32Array(values.buffer, values.byteOffset, n) : null;
    for (let i = 0; i < n; i++) {
      if (valid && !valid(i)) {
        this.null();
        continue;
      }
      this.rows++;
      this.w(1);
      if (k === "int") {
        if (words) {
          this.w(words[2 * i]);
          this.w(words[2 * i + 1]);
        } else {
          const v = values[i];
          this.w(v | 0);
          // unsigned 32-bit values: the high word is 0, not the sign
          this.w(values instanceof Uint32Array ? 0 : v < 0 ? -1 : 0);
        }
      } else if (k === "f64") {
        if (!words) throw new Error(`float64 expected, got a ${values.constructor.name}`);
        this.w(words[2 * i]);
        this.w(words[2 * i + 1]);
      } else if (k === "f32") {
        if (!f32bits) throw new Error(`float32 expected, got a ${values.constructor.name}`);
        this.w(f32bits[i]);
      } else {
        if (width !== 1) throw new Error(`bool expected, got a ${values.constructor.name}`);
        this.w(values[i] ? 1 : 0);
      }
    }
  }

  /** A JS array of values (null or undefined = null). */
  array(values) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (v === null || v === undefined) this.null();
      else this.value(v);
    }
  }

  result() {
    const hex = (x) => (x >>> 0).toString(16).padStart(8, "0");
    return { rows: this.rows, nulls: this.nulls, hash: hex(this.h1) + hex(this.h2) };
  }
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

/** A validity test for an LSB-first bitmap (bit set = valid), or null. */
export function bitmapValid(bitmap, offset = 0) {
  if (!bitmap || bitmap.length === 0) return null;
  return (i) => ((bitmap[(offset + i) >> 3] >> ((offset + i) & 7)) & 1) === 1;
}

/** Two fingerprint lists agree: same length, rows, nulls and hash. Returns
 *  null, or a message naming the first column that differs. */
export function compareFingerprints(got, want, names) {
  if (got.length !== want.length) return `${got.length} columns, expected ${want.length}`;
  for (let i = 0; i < want.length; i++) {
    const [g, e] = [got[i], want[i]];
    if (g.rows !== e.rows || g.nulls !== e.nulls || g.hash !== e.hash) {
      return `column ${i} (${names?.[i] ?? "?"}): got ${g.rows} rows, ${g.nulls} nulls, hash ${g.hash}; expected ${e.rows}, ${e.nulls}, ${e.hash}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- per shape

/** columns-wasm: columns of one column index in row-group order
 *  (Column objects: values, validity, length). */
export function fingerprintColumns(kind, columns) {
  const fp = new Fingerprint(kind);
  for (const col of columns) feedColumn(fp, col);
  return fp.result();
}

/** One more piece of a column (a Column-like { values, validity, length }). */
export function feedColumn(fp, col) {
  if (col.values === null || col.values === undefined) throw new Error("a column without values");
  fp.typed(col.values, col.length, bitmapValid(col.validity));
}

/** Expected values: the JSON's column arrays of every row group, in order. */
export function fingerprintJson(kind, arrays) {
  const fp = new Fingerprint(kind);
  for (const a of arrays) fp.array(a);
  return fp.result();
}

/** hyparquet's onChunk output for one column: [{rowStart, columnData}],
 *  in any order; contiguous from row 0 once sorted. */
export function fingerprintHyparquet(kind, chunks) {
  const fp = new Fingerprint(kind);
  const sorted = [...chunks].sort((a, b) => a.rowStart - b.rowStart);
  let at = 0;
  for (const { rowStart, columnData } of sorted) {
    if (rowStart !== at) throw new Error(`chunks leave a gap or overlap at row ${at} (next starts at ${rowStart})`);
    if (ArrayBuffer.isView(columnData)) fp.typed(columnData, columnData.length, null);
    else fp.array(columnData);
    at += columnData.length;
  }
  return fp.result();
}

/** An apache-arrow Vector: its Data chunks' buffers, validity included. */
export function fingerprintArrow(kind, vector) {
  const fp = new Fingerprint(kind);
  for (const d of vector.data) {
    if (d.offset !== 0) throw new Error(`an Arrow chunk at offset ${d.offset} (not handled)`);
    const valid = d.nullCount > 0 ? bitmapValid(d.nullBitmap, 0) : null;
    if (kind === "bytes") {
      if (!d.valueOffsets) throw new Error(`Arrow type ${d.type} has no value offsets`);
      fp.typed({ offsets: d.valueOffsets, data: d.values }, d.length, valid);
    } else if (kind === "bool") {
      fp.typed(Uint8Array.from({ length: d.length }, (_, i) => (d.values[i >> 3] >> (i & 7)) & 1), d.length, valid);
    } else {
      fp.typed(d.values, d.length, valid);
    }
  }
  return fp.result();
}

/** What parquet-wasm -> JS hands over for one column: `array` from
 *  Vector.toArray() (a typed array, which carries no nulls, or an Array
 *  with nulls) and the vector it came from, whose validity is used when the
 *  array is typed. */
export function fingerprintJsArray(kind, array, vector) {
  const fp = new Fingerprint(kind);
  if (ArrayBuffer.isView(array)) {
    let at = 0;
    for (const d of vector.data) {
      const valid = d.nullCount > 0 ? bitmapValid(d.nullBitmap, d.offset) : null;
      const part = array.subarray(at, at + d.length);
      if (kind === "bool") fp.array(Array.from(part, (v, i) => (valid && !valid(i) ? null : v)));
      else fp.typed(part, d.length, valid);
      at += d.length;
    }
    if (at !== array.length) throw new Error(`toArray gave ${array.length} values, the vector has ${at}`);
  } else {
    fp.array(array);
  }
  return fp.result();
}
