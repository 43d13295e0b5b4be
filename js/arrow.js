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
//     of the offsets only, Arrow's only layout for it).
// Every column wrapped is pinned (`Column.pin()`), so a later read with
// `{ reuse }` never rewrites data an Arrow vector still shows.
//
// apache-arrow is a peer dependency: this module uses the copy the
// application imports, so its Tables work with that copy's functions.
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

function argumentError(message) {
  const e = new TypeError(`columns-wasm/arrow: ${message}`);
  e.kind = "bad_argument";
  return e;
}

/** "utf8" (default) or "binary" from `options.strings`, checked. */
function stringsOption(options) {
  const s = options?.strings ?? "utf8";
  if (s !== "utf8" && s !== "binary") throw argumentError(`strings must be "utf8" or "binary", not ${JSON.stringify(s)}`);
  return s;
}

/**
 * The Arrow type a column of `type` becomes. `large`: 64-bit offsets
 * (strings and bytes whose data reaches 2^31 bytes in one chunk).
 */
export function arrowType(type, options = undefined, large = false) {
  const Fixed = FIXED[type];
  if (Fixed) return new Fixed();
  if (type === "bool") return new Bool();
  if (type === "string" && stringsOption(options) === "utf8") return large ? new LargeUtf8() : new Utf8();
  if (type === "string" || type === "bytes") return large ? new LargeBinary() : new Binary();
  throw argumentError(`unknown column type ${JSON.stringify(type)}`);
}

/** Whether a string/bytes column needs 64-bit offsets: offsets never
 *  decrease, so the last one is the largest. */
function needsLargeOffsets(offsets) {
  return offsets.length > 0 && offsets[offsets.length - 1] > INT32_MAX;
}

/** One column as Arrow Data, sharing its buffers (see the top of the file). */
function toData(column, strings) {
  if (column === null || typeof column !== "object" || typeof column.pin !== "function") {
    throw argumentError("expected a Column from columns-wasm");
  }
  if (column.values === null) {
    throw argumentError("this column was handed back with { reuse } and its buffers belong to a newer read");
  }
  column.pin();
  const common = { length: column.length, nullCount: column.nullCount, nullBitmap: column.validity ?? undefined };
  if (column.type === "bool") return makeData({ type: new Bool(), data: column.boolBitmap(), ...common });
  if (column.type === "string" || column.type === "bytes") {
    const { offsets, data } = column.values;
    const options = { strings };
    if (needsLargeOffsets(offsets)) {
      const wide = new BigInt64Array(offsets.length);
      for (let i = 0; i < offsets.length; i++) wide[i] = BigInt(offsets[i]);
      return makeData({ type: arrowType(column.type, options, true), valueOffsets: wide, data, ...common });
    }
    // Below 2^31 a Uint32 offset and its Int32 reading are the same number.
    const valueOffsets = new Int32Array(offsets.buffer, offsets.byteOffset, offsets.length);
    return makeData({ type: arrowType(column.type, options), valueOffsets, data, ...common });
  }
  return makeData({ type: arrowType(column.type), data: column.values, ...common });
}

/**
 * A Column as an Arrow Vector over the same memory (bool: see the top of
 * the file). Pins the column: handing it back with `{ reuse }` later empties
 * it but never rewrites what the vector shows.
 * `options.strings`: "utf8" (default) makes string columns Utf8, "binary"
 * makes them Binary.
 */
export function toArrowVector(column, options = undefined) {
  return new Vector([toData(column, stringsOption(options))]);
}

/**
 * Column names made unique the way DuckDB does it: a name used once keeps
 * it; the second `s` becomes `s_1`, the third `s_2`, skipping any name the
 * file already has.
 */
export function uniqueNames(names) {
  const taken = new Set(names);
  const seen = new Set();
  return names.map((name) => {
    if (!seen.has(name)) {
      seen.add(name);
      return name;
    }
    let k = 1;
    while (taken.has(`${name}_${k}`)) k++;
    const unique = `${name}_${k}`;
    taken.add(unique);
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
function plan(meta, options) {
  const names = uniqueNames(meta.schema.map((c) => c.name));
  const strings = stringsOption(options);
  const columns = (options?.columns ?? names.map((_, i) => i)).map((c) => {
    const i = typeof c === "string" ? names.indexOf(c) : c;
    if (!Number.isInteger(i) || i < 0 || i >= names.length) {
      const e = argumentError(`column ${JSON.stringify(c)} does not exist; the file has ${names.length}: ${names.join(", ")}`);
      e.kind = "out_of_range";
      throw e;
    }
    return i;
  });
  // Out-of-range row groups are refused by the read itself, with its kind.
  const rowGroups = options?.rowGroups ?? meta.rowGroups.map((_, i) => i);
  return { names, strings, columns, rowGroups };
}

/** A Table from columns read in row-group-major order: one RecordBatch per row group. */
function assemble(meta, { names, strings, columns, rowGroups }, read) {
  const width = columns.length;
  const datas = read.map((col) => toData(col, strings));
  const fields = columns.map((c, k) => {
    let nullable = meta.schema[c].nullable;
    for (let g = 0; g < rowGroups.length && !nullable; g++) nullable = datas[g * width + k].nullCount > 0;
    // Each row group's chunk may need its own offset width: one column, one type.
    const large = rowGroups.some((_, g) => datas[g * width + k].type instanceof LargeUtf8 || datas[g * width + k].type instanceof LargeBinary);
    return new Field(names[c], arrowType(meta.schema[c].type, { strings }, large), nullable);
  });
  const schema = new Schema(fields);
  const batches = rowGroups.map((g, r) => {
    const numRows = meta.rowGroups[g].numRows;
    const children = fields.map((field, k) => {
      let d = datas[r * width + k];
      if (d.length !== numRows) throw new Error(`columns-wasm/arrow: row group ${g} has ${numRows} rows but column ${columns[k]} has ${d.length}`);
      // A chunk of 32-bit offsets in a column that needs 64-bit ones elsewhere.
      if (field.type.typeId !== d.type.typeId) d = widen(read[r * width + k], field.type);
      return d;
    });
    return new RecordBatch(schema, makeData({ type: new Struct(fields), length: numRows, nullCount: 0, children }));
  });
  return new Table(schema, batches);
}

/** A string/bytes chunk with 64-bit offsets (a copy of its offsets). */
function widen(column, type) {
  const { offsets, data } = column.values;
  const wide = new BigInt64Array(offsets.length);
  for (let i = 0; i < offsets.length; i++) wide[i] = BigInt(offsets[i]);
  return makeData({ type, length: column.length, nullCount: column.nullCount, nullBitmap: column.validity ?? undefined, valueOffsets: wide, data });
}

/**
 * Row groups of a file held in memory (`ColumnsFile.fromBytes`) as one Arrow
 * Table, one RecordBatch per row group, sharing the buffers of the read.
 * options.rowGroups: row group indices (default: all).
 * options.columns: column indices or names (default: all); names are the
 *   Table's, made unique by `uniqueNames` (comparison.cols: i, i_1, f, s, s_1).
 * options.strings: "utf8" (default) or "binary" for string columns.
 */
export function toArrowTable(file, options = undefined) {
  const meta = metaOf(file);
  const p = plan(meta, options);
  if (typeof file.readColumns !== "function") throw argumentError("expected a ColumnsFile");
  const read = file.readColumns(p.rowGroups, p.columns, { boolBits: true });
  if (typeof read?.then === "function") throw argumentError("this file reads asynchronously: use toArrowTableAsync");
  return assemble(meta, p, read);
}

/**
 * Like `toArrowTable`, for any file: one opened from a Blob or an
 * AsyncBuffer (only the chunks selected are fetched, neighbours merged
 * into one request), or a file opened on a `ColumnsPool`.
 */
export async function toArrowTableAsync(file, options = undefined) {
  const meta = metaOf(file);
  const p = plan(meta, options);
  const readOptions = { boolBits: true };
  let read;
  if (typeof file.readColumnsAsync === "function") read = await file.readColumnsAsync(p.rowGroups, p.columns, readOptions);
  else if (typeof file.readColumns === "function") read = await file.readColumns(p.rowGroups, p.columns, readOptions);
  else throw argumentError("expected a ColumnsFile or a pool's file");
  return assemble(meta, p, read);
}
