// columns-wasm/arrow: columns and row groups as apache-arrow Vectors and
// Tables that share the package's buffers. A column's arrays already have
// Arrow's layout (little-endian values, LSB-first validity with 1 = valid,
// one offsets array and one data buffer per string column), so they are
// wrapped, not copied. The exceptions, where Arrow's layout differs:
//   - bool: Arrow packs 8 values per byte. Reads made here ask for
//     `{ boolBits: true }`, so the package packs while copying out of wasm
//     memory; a column read without it is packed here (a copy of n/8 bytes).
//   - offsets: the package's Uint32Array is viewed as the Int32Array Arrow
//     wants (same memory) while the last offset is below 2^31; beyond that
//     the column becomes LargeUtf8 / LargeBinary with 64-bit offsets (a copy
//     of the offsets only, Arrow's only layout for it). A read in wasm never
//     gives such offsets (a chunk's string data is one allocation, at most
//     2^31 - 1 bytes there): a guard, reached only by a column made through
//     the package's internals (tests/arrow/large-offsets.test.mjs).
//   - strings: Arrow's Utf8 must hold valid UTF-8; the format's strings
//     are bytes that usually are. Utf8 by default (getters decode as
//     Column.toArray() does, U+FFFD for invalid bytes), Binary on request,
//     or "auto": Utf8 where every value is valid UTF-8, else Binary.
// Every column wrapped is pinned (`Column.pin()`), so a later read with
// `{ reuse }` never rewrites data an Arrow vector still shows.
//
// apache-arrow is a peer dependency, and two modules: an ES module build
// and a CommonJS build, whose classes are not each other's. This module is
// built twice too (tools/package.mjs): as an ES module, which imports the
// ES module build, and for require() (arrow.cjs), which requires the
// CommonJS build. So its Tables are made with the copy the application has
// when the application loads apache-arrow and this module the same way
// (both imported, or both required); mixed, they are two copies, and
// apache-arrow's functions refuse the other's Tables.
// It needs nothing else from the package at run time.

import {
  Binary,
  Bool,
  Field,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  LargeBinary,
  LargeUtf8,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  makeData,
  Vector,
} from "apache-arrow";

const FIXED = {
  int8: Int8,
  int16: Int16,
  int32: Int32,
  int64: Int64,
  uint8: Uint8,
  uint16: Uint16,
  uint32: Uint32,
  uint64: Uint64,
  float32: Float32,
  float64: Float64,
};

const INT32_MAX = 0x7fffffff;

// The adapter's errors are ColumnsErrors as the package's are: that class
// is recognised by its name (its `instanceof` tests the name, as each build
// has a class of its own), so this module makes its own and still takes
// nothing from the package at run time.
class AdapterError extends Error {
  constructor(message, kind) {
    super(`columns-wasm/arrow: ${message}`);
    this.name = "ColumnsError";
    this.kind = kind;
    this.rowGroup = this.column = this.offset = null;
  }

  toJSON() {
    const { name, message, kind, rowGroup, column, offset } = this;
    return { name, message, kind, rowGroup, column, offset };
  }
}

function argumentError(message, kind = "bad_argument") {
  return new AdapterError(message, kind);
}

/** Whether `e` is one of the package's errors (any build's: by its name
 *  and kind, as the package's own `instanceof` tells them). */
function isColumnsError(e) {
  try {
    return e instanceof Error && e.name === "ColumnsError" && typeof e.kind === "string";
  } catch {
    return false;
  }
}

/** What the caller passed, looked at by `look`: a Proxy whose traps throw,
 *  a revoked one or a getter that throws is a bad_argument (what it threw
 *  as `cause`), not its own error. */
function inspected(look) {
  try {
    return look();
  } catch (e) {
    // (this adapter's errors, and the package's own, a freed file's among
    // them, keep their kind: both are ColumnsErrors by name and kind)
    if (isColumnsError(e)) throw e;
    const err = argumentError("what it was given threw when read");
    err.cause = e;
    throw err;
  }
}

/** A value as a message shows it: strings quoted; never throws (a BigInt,
 *  a cycle or a hostile object is no reason for an error without a kind). */
function show(x) {
  try {
    return typeof x === "string" ? JSON.stringify(x) : typeof x === "object" && x !== null ? "an object" : String(x);
  } catch {
    return "a value that cannot be shown";
  }
}

/** `options` (an object, null or undefined) and its `strings`, checked:
 *  "utf8" (default), "binary" or "auto". `method` takes the option names
 *  `keys`, no others: a misspelt one would be ignored, its default taken. */
function stringsOption(options, method, keys) {
  if (options != null && typeof options !== "object") throw argumentError(`options must be an object; got ${show(options)}`);
  for (const k of Object.keys(options ?? {})) if (!keys.includes(k)) throw argumentError(`${method} has no option ${show(k.slice(0, 100))}; it takes ${keys.join(", ")}`);
  const s = options?.strings ?? "utf8";
  if (s !== "utf8" && s !== "binary" && s !== "auto") {
    throw argumentError(`strings must be "utf8", "binary" or "auto", not ${show(s)}`);
  }
  return s;
}

/** Refuses what is not a live Column of this package. */
function checkColumn(column) {
  if (column === null || typeof column !== "object" || typeof column.pin !== "function") {
    // A scoped read's column (a ScopedColumn) is lent for its callback only:
    // Arrow data over it would outlive the loan.
    if (typeof column?.copy === "function") {
      throw argumentError("this is a scoped read's column, lent only until its callback returns: pass column.copy(), a Column of its own");
    }
    throw argumentError("expected a Column from columns-wasm");
  }
  if (column.values === null) {
    throw argumentError("this column was handed back with { reuse } and its buffers belong to a newer read");
  }
}

/** Whether a string/bytes column needs 64-bit offsets: offsets never
 *  decrease, so the last one is the largest. */
function needsLargeOffsets(column) {
  const { offsets } = column.values;
  return offsets.length > 0 && offsets[offsets.length - 1] > INT32_MAX;
}

// Node's isAscii and isUtf8 (simdutf) where there are; elsewhere a word
// scan for ASCII, then TextDecoder.
const nodeBuffer = globalThis.process?.getBuiltinModule?.("node:buffer");
const nodeIsUtf8 = nodeBuffer?.isUtf8 ?? null;
const isAscii = nodeBuffer?.isAscii ?? asciiOnly;

/** Whether no byte has its high bit set, four bytes at a time. */
function asciiOnly(bytes) {
  const { byteOffset, byteLength } = bytes;
  const head = Math.min(byteLength, (4 - (byteOffset & 3)) & 3);
  const words = (byteLength - head) >> 2;
  let high = 0;
  for (let i = 0; i < head; i++) high |= bytes[i];
  const w = new Uint32Array(bytes.buffer, byteOffset + head, words);
  for (let i = 0; i < words; i++) high |= w[i];
  for (let i = head + words * 4; i < byteLength; i++) high |= bytes[i];
  return (high & 0x80808080) === 0;
}

/** Whether every value of a string/bytes column is valid UTF-8: the bytes
 *  of all values are (they are contiguous), and no value starts inside a
 *  character (on a continuation byte), so none ends inside one either. */
function validUtf8(column) {
  const { offsets, data } = column.values;
  const n = column.length;
  const first = offsets[0];
  const end = offsets[n];
  // ASCII has no multi-byte characters to split.
  if (isAscii(data.subarray(first, end))) return true;
  for (let i = 0; i < n; i++) {
    const o = offsets[i];
    if (o < end && (data[o] & 0xc0) === 0x80) return false;
  }
  if (nodeIsUtf8) return nodeIsUtf8(data.subarray(first, end));
  // In slices, so no string of the whole column is ever made.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for (let s = first; s < end; s += 1 << 16) decoder.decode(data.subarray(s, Math.min(end, s + (1 << 16))), { stream: true });
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/** The Arrow type of a column made of `chunks` (one per row group): a
 *  string column is Utf8 unless `strings` says "binary", or says "auto" and
 *  a chunk holds invalid UTF-8; 64-bit offsets if any chunk needs them. */
function columnType(type, chunks, strings) {
  const Fixed = FIXED[type];
  if (Fixed) return new Fixed();
  if (type === "bool") return new Bool();
  if (type !== "string" && type !== "bytes") throw argumentError(`unknown column type ${show(type)}`);
  const large = chunks.some(needsLargeOffsets);
  const text = type === "string" && (strings === "utf8" || (strings === "auto" && chunks.every(validUtf8)));
  if (text) return large ? new LargeUtf8() : new Utf8();
  return large ? new LargeBinary() : new Binary();
}

/** One column as Arrow Data of `type` (from `columnType`), sharing its
 *  buffers (see the top of the file); pins the column. */
function toData(column, type) {
  column.pin();
  const common = { type, length: column.length, nullCount: column.nullCount, nullBitmap: column.validity ?? undefined };
  if (column.type === "bool") return makeData({ ...common, data: column.boolBitmap() });
  if (column.type === "string" || column.type === "bytes") {
    const { offsets, data } = column.values;
    if (type instanceof LargeUtf8 || type instanceof LargeBinary) {
      // Arrow's only layout for offsets past 2^31: a 64-bit copy of them.
      const wide = new BigInt64Array(offsets.length);
      for (let i = 0; i < offsets.length; i++) wide[i] = BigInt(offsets[i]);
      return makeData({ ...common, valueOffsets: wide, data });
    }
    // Below 2^31 (columnType checked the last offset) a Uint32 offset and
    // its Int32 reading are the same number: view the same memory.
    const valueOffsets = new Int32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    return makeData({ ...common, valueOffsets, data });
  }
  return makeData({ ...common, data: column.values });
}

/**
 * A Column as an Arrow Vector over the same memory (bool: see the top of
 * the file). Pins the column: handing it back with `{ reuse }` later empties
 * it but never rewrites what the vector shows.
 * `options.strings`: how a string column becomes Arrow: "utf8" (default)
 * as Utf8, "binary" as Binary, "auto" as Utf8 if every value is valid
 * UTF-8, else Binary.
 */
export function toArrowVector(column, options = undefined) {
  const strings = inspected(() => {
    const strings = stringsOption(options, "toArrowVector", ["strings"]);
    checkColumn(column);
    return strings;
  });
  return new Vector([toData(column, columnType(column.type, [column], strings))]);
}

/**
 * Column names made unique the way DuckDB does it: a name used once keeps
 * it; the second `s` becomes `s_1`, the third `s_2`, skipping any name the
 * file already has. Names are compared as DuckDB compares them, ignoring
 * ASCII case only: DuckDB would rename a later `ID` beside `id` itself, and
 * SQL written with the Table's names would then read the wrong column.
 */
export function uniqueNames(names) {
  if (!inspected(() => Array.isArray(names) && names.every((name) => typeof name === "string"))) {
    throw argumentError("uniqueNames needs an array of names (strings)");
  }
  const fold = (name) => name.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const taken = new Set(names.map(fold));
  const seen = new Set();
  return names.map((name) => {
    if (!seen.has(fold(name))) {
      seen.add(fold(name));
      return name;
    }
    let k = 1;
    while (taken.has(fold(`${name}_${k}`))) k++;
    const unique = `${name}_${k}`;
    taken.add(fold(unique));
    return unique;
  });
}

/** The file's schema and row groups, taken once (each getter call builds
 *  them anew): a ColumnsFile, or a pool's file (its `meta`). */
function metaOf(file) {
  const meta = file?.meta ?? file;
  const schema = meta?.schema;
  const rowGroups = meta?.rowGroups;
  if (!Array.isArray(schema) || !Array.isArray(rowGroups)) throw argumentError("expected a ColumnsFile (or a pool's file)");
  return { schema, rowGroups };
}

/** Row group and column indices from the options, names resolved against
 *  the unique names (so "s_1" is the second "s"). */
function plan(meta, options, method, keys = ["rowGroups", "columns", "strings"]) {
  const strings = stringsOption(options, method, keys); // (first: it checks options is an object)
  const names = uniqueNames(meta.schema.map((c) => c.name));
  const asked = options?.columns ?? names.map((_, i) => i);
  if (!Array.isArray(asked)) throw argumentError("columns must be an array of column indices or names");
  const columns = asked.map((c) => {
    const i = typeof c === "string" ? names.indexOf(c) : c;
    if (!Number.isInteger(i) || i < 0 || i >= names.length) {
      throw argumentError(`column ${show(c)} does not exist; the file has ${names.length}: ${names.join(", ")}`, "out_of_range");
    }
    return i;
  });
  // A Table's fields need distinct names.
  const twice = columns.find((c, k) => columns.indexOf(c) !== k);
  if (twice !== undefined) throw argumentError(`column ${show(names[twice])} is asked for twice; a Table's columns need distinct names`);
  // Out-of-range row groups are refused by the read itself, with its kind.
  const rowGroups = options?.rowGroups ?? meta.rowGroups.map((_, i) => i);
  return { names, strings, columns, rowGroups };
}

/** A Table from columns read in row-group-major order: one RecordBatch per row group. */
function assemble(meta, { names, strings, columns, rowGroups }, read) {
  const width = columns.length;
  // Only a file object not made by columns-wasm reads otherwise.
  if (read?.length !== rowGroups.length * width) throw argumentError(`expected ${rowGroups.length * width} columns from the file's read, got ${show(read?.length)}`);
  read.forEach(checkColumn);
  const fields = columns.map((c, k) => {
    const chunks = rowGroups.map((_, r) => read[r * width + k]);
    const nullable = meta.schema[c].nullable || chunks.some((col) => col.nullCount > 0);
    return new Field(names[c], columnType(meta.schema[c].type, chunks, strings), nullable);
  });
  const schema = new Schema(fields);
  const batches = rowGroups.map((g, r) => {
    const numRows = meta.rowGroups[g].numRows;
    const children = fields.map((field, k) => {
      const col = read[r * width + k];
      // Arrow would pad a short column with nulls without a word.
      if (col.length !== numRows) throw argumentError(`row group ${g} has ${numRows} rows but column ${columns[k]} has ${show(col.length)}`);
      return toData(col, field.type);
    });
    return new RecordBatch(schema, makeData({ type: new Struct(fields), length: numRows, nullCount: 0, children }));
  });
  return new Table(schema, batches);
}

/**
 * Row groups of a file held in memory (`ColumnsFile.fromBytes`) as one Arrow
 * Table, one RecordBatch per row group, sharing the buffers of the read.
 * options.rowGroups: row group indices (default: all).
 * options.columns: column indices or names (default: all); names are the
 *   Table's, made unique by `uniqueNames` (comparison.cols: i, i_1, f, s, s_1).
 * options.strings: "utf8" (default), "binary" or "auto" for string columns
 *   (as for toArrowVector; "auto" decides per Table column).
 */
export function toArrowTable(file, options = undefined) {
  const [meta, p, readColumns, pooled] = inspected(() => {
    const meta = metaOf(file);
    return [meta, plan(meta, options, "toArrowTable"), file.readColumns, file.meta !== undefined];
  });
  if (typeof readColumns !== "function") throw argumentError("expected a ColumnsFile");
  // A pool's file (its `meta` the file) reads asynchronously: refused before
  // its read starts, which would run on, and could fail, with no one to hear.
  if (pooled) throw argumentError("this file reads asynchronously: use toArrowTableAsync");
  const read = readColumns.call(file, p.rowGroups, p.columns, { boolBits: true });
  if (typeof read?.then === "function") {
    read.then(undefined, () => {});
    throw argumentError("this file reads asynchronously: use toArrowTableAsync");
  }
  return assemble(meta, p, read);
}

/**
 * Like `toArrowTable`, for any file: one opened from a Blob or an
 * AsyncBuffer (only the chunks selected are fetched, neighbours merged
 * into one request), or a file opened on a `ColumnsPool`.
 * options.signal: an AbortSignal, given to the read (which checks it): an
 *   abort rejects with an `aborted` ColumnsError (the reason as its
 *   `cause`); one aborted already, before anything is read.
 */
export async function toArrowTableAsync(file, options = undefined) {
  // A ColumnsFile reads with readColumnsAsync, a pool's file with readColumns.
  const [meta, p, readColumns, signal, aborted] = inspected(() => {
    const meta = metaOf(file);
    const method = [file.readColumnsAsync, file.readColumns].find((f) => typeof f === "function");
    const p = plan(meta, options, "toArrowTableAsync", ["rowGroups", "columns", "strings", "signal"]);
    const signal = options?.signal ?? undefined;
    return [meta, p, method, signal, signal?.aborted === true];
  });
  if (!readColumns) throw argumentError("expected a ColumnsFile or a pool's file");
  if (aborted) {
    const err = argumentError("the read was aborted", "aborted");
    err.cause = signal.reason;
    throw err;
  }
  const read = await readColumns.call(file, p.rowGroups, p.columns, signal === undefined ? { boolBits: true } : { boolBits: true, signal });
  return assemble(meta, p, read);
}
