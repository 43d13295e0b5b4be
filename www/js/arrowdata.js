// Decoded columns as Apache Arrow record batches, for DuckDB (SQL) and the
// Arrow IPC export. The package's own Arrow adapter (columns-wasm/arrow) is
// not on main yet; until it is, the page builds Arrow data itself with
// apache-arrow from site/vendor/arrow. Buffers are shared, not copied:
// the column layout is Arrow's already (validity bitmap LSB first, 32-bit
// offsets for strings and bytes), except bools, which Arrow packs to bits.

import { moduleTrouble } from "./served.js";

export const ARROW_URL = new URL("../vendor/arrow/arrow.mjs", import.meta.url);
let arrowModule = null;

/** apache-arrow, loaded on first use. */
export async function loadArrow() {
  if (!arrowModule) {
    try {
      arrowModule = await import(ARROW_URL.href);
    } catch (e) {
      // Missing, or there but served so that the browser refuses to run it.
      const trouble = await moduleTrouble(ARROW_URL.href);
      const err = new Error(
        trouble && !trouble.missing
          ? `apache-arrow did not load: ${trouble.message}. (${e.message})`
          : `apache-arrow is not part of this site (${trouble ? trouble.message : e.message}; is this the built site? scripts/build-site)`,
      );
      err.kind = trouble && !trouble.missing ? "load_failed" : "internal";
      throw err;
    }
  }
  return arrowModule;
}

function arrowType(A, type) {
  switch (type) {
    case "bool": return new A.Bool();
    case "int8": return new A.Int8();
    case "int16": return new A.Int16();
    case "int32": return new A.Int32();
    case "int64": return new A.Int64();
    case "uint8": return new A.Uint8();
    case "uint16": return new A.Uint16();
    case "uint32": return new A.Uint32();
    case "uint64": return new A.Uint64();
    case "float32": return new A.Float32();
    case "float64": return new A.Float64();
    case "string": return new A.Utf8();
    case "bytes": return new A.Binary();
    default: throw new Error(`no Arrow type for ${type}`);
  }
}

/** The Arrow schema for `fields`: [{ name, type, nullable }]. */
export function arrowSchema(A, fields) {
  return new A.Schema(fields.map((f) => new A.Field(f.name, arrowType(A, f.type), true)));
}

function packBools(bytes, n) {
  const out = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) if (bytes[i]) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** One Arrow Data of a decoded column ({ type, length, nullCount, values, validity }). */
export function columnData(A, col) {
  const type = arrowType(A, col.type);
  const n = col.length;
  const nullBitmap = col.validity && col.nullCount > 0 ? col.validity : null;
  const common = { type, length: n, nullCount: nullBitmap ? col.nullCount : 0, nullBitmap };
  if (col.type === "string" || col.type === "bytes") {
    const o = col.values.offsets;
    return A.makeData({ ...common, valueOffsets: new Int32Array(o.buffer, o.byteOffset, o.length), data: col.values.data });
  }
  if (col.type === "bool") return A.makeData({ ...common, data: packBools(col.values, n) });
  return A.makeData({ ...common, data: col.values });
}

const fatal = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8", { ignoreBOM: true }); // a leading U+FEFF is part of the value
const enc = new TextEncoder();

/** A string column whose bytes are not all UTF-8, with U+FFFD in their place (an Arrow Utf8 column must be UTF-8, and DuckDB's VARCHAR). */
export function asUtf8(col) {
  const { offsets, data } = col.values;
  try {
    fatal.decode(data);
    return { col, replaced: false };
  } catch {
    /* rebuilt below */
  }
  const parts = [];
  const o = new Uint32Array(col.length + 1);
  let at = 0;
  for (let i = 0; i < col.length; i++) {
    const b = enc.encode(lossy.decode(data.subarray(offsets[i], offsets[i + 1])));
    parts.push(b);
    at += b.length;
    o[i + 1] = at;
  }
  const d = new Uint8Array(at);
  parts.forEach((b, i) => d.set(b, o[i]));
  return { col: { type: col.type, length: col.length, nullCount: col.nullCount, validity: col.validity, values: { offsets: o, data: d } }, replaced: true };
}

/** A record batch of columns that all have the same length. */
export function recordBatch(A, schema, cols) {
  const length = cols.length ? cols[0].length : 0;
  const children = cols.map((c) => columnData(A, c));
  const data = A.makeData({ type: new A.Struct(schema.fields), length, nullCount: 0, children });
  return new A.RecordBatch(schema, data);
}

/**
 * Arrow IPC stream pieces: `start()` is the schema message, `batch(b)` one
 * record batch message, `end()` the end-of-stream marker. Written one
 * after the other they are one valid stream, so a large export never
 * holds more than one batch of it.
 */
export function ipcStreamWriter(A, schema) {
  const empty = A.RecordBatchStreamWriter.writeAll(new A.Table(schema)).toUint8Array(true);
  const EOS = 8; // continuation marker 0xFFFFFFFF and a zero length
  const head = empty.subarray(0, empty.length - EOS);
  return {
    start: () => head.slice(),
    batch(b) {
      const one = A.RecordBatchStreamWriter.writeAll(new A.Table(schema, [b])).toUint8Array(true);
      if (one.length < head.length + EOS || !one.subarray(0, head.length).every((x, i) => x === head[i])) throw new Error("Arrow writer: unexpected stream layout");
      return one.slice(head.length, one.length - EOS);
    },
    end: () => empty.slice(empty.length - EOS),
    /** A whole stream of these batches (schema, batches, end). */
    whole: (...bs) => A.RecordBatchStreamWriter.writeAll(new A.Table(schema, bs)).toUint8Array(true),
  };
}
