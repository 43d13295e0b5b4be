// A tiny writer for synthetic `columns` files, written from FORMAT.md for
// the tests (never from the code under test): a Go-gob encoder for the
// footer (only what the footer needs: structs, slices, uint, int, bool,
// string, []byte), Plain-encoded uncompressed chunks, and a sparse byte
// source so a file can place its row groups beyond 4 GiB without existing
// in memory.

const enc = new TextEncoder();

// ---- gob ----------------------------------------------------------------

/** Appends gob's unsigned integer encoding of `v` (number or bigint). */
function putUint(out, v) {
  let x = BigInt(v);
  if (x < 0n) throw new Error("negative uint");
  if (x < 128n) {
    out.push(Number(x));
    return;
  }
  const bytes = [];
  while (x > 0n) {
    bytes.unshift(Number(x & 0xffn));
    x >>= 8n;
  }
  out.push(256 - bytes.length, ...bytes);
}

/** Signed: bit 0 says complement, the rest is the magnitude. */
function putInt(out, v) {
  const x = BigInt(v);
  putUint(out, x < 0n ? ((~x) << 1n) | 1n : x << 1n);
}

function putBytes(out, b) {
  putUint(out, b.length);
  for (const x of b) out.push(x);
}

const putString = (out, s) => putBytes(out, enc.encode(s));

/** A struct body: [fieldIndex, writer|null] in index order; zero fields (null) are not sent. */
function putStruct(out, fields) {
  let last = -1;
  for (const [i, write] of fields) {
    if (write === null) continue;
    putUint(out, i - last);
    write(out);
    last = i;
  }
  out.push(0);
}

function putSlice(out, items, writeItem) {
  putUint(out, items.length);
  for (const it of items) writeItem(out, it);
}

/** One message: byte count, then signed type id, then body. */
function message(out, typeId, writeBody) {
  const body = [];
  putInt(body, typeId);
  writeBody(body);
  putUint(out, body.length);
  // (Not push(...body): a body of 100,000 bytes would overflow the stack.)
  for (const b of body) out.push(b);
}

// Builtin type ids.
const BOOL = 1, INT = 2, UINT = 3, BYTES = 5, STRING = 6;

/** A wireType StructT definition message. */
function defineStruct(out, id, name, fields) {
  message(out, -id, (b) =>
    putStruct(b, [
      [2, (b) => putStruct(b, [
        [0, (b) => putStruct(b, [[0, (b) => putString(b, name)], [1, (b) => putInt(b, id)]])],
        [1, (b) => putSlice(b, fields, (b, [fname, fid]) => putStruct(b, [[0, (b) => putString(b, fname)], [1, (b) => putInt(b, fid)]]))],
      ])],
    ]),
  );
}

function defineSlice(out, id, name, elem) {
  message(out, -id, (b) =>
    putStruct(b, [
      [1, (b) => putStruct(b, [
        [0, (b) => putStruct(b, [[0, (b) => putString(b, name)], [1, (b) => putInt(b, id)]])],
        [1, (b) => putInt(b, elem)],
      ])],
    ]),
  );
}

const nz = (v, write) => (v === 0 || v === 0n || v === false || v === "" || v === undefined || (v.length === 0) ? null : write);

/**
 * Encodes a footer { Schema: [{name, type, nullable}], RowGroups: [{numRows,
 * byteOffset, columns: [{byteLength, nullCount, minVal, maxVal, minLen,
 * maxLen, encoding, compress, tokenizer}]}] } as a gob stream.
 */
export function encodeFooter({ schema, rowGroups }) {
  const out = [];
  const [FOOTER, SCHEMA_SLICE, COLUMN_SCHEMA, RG_SLICE, RG, COL_SLICE, COL] = [65, 66, 67, 68, 69, 70, 71];
  defineStruct(out, FOOTER, "Footer", [["Schema", SCHEMA_SLICE], ["RowGroups", RG_SLICE]]);
  defineSlice(out, SCHEMA_SLICE, "[]main.ColumnSchema", COLUMN_SCHEMA);
  defineStruct(out, COLUMN_SCHEMA, "ColumnSchema", [["Name", STRING], ["Type", UINT], ["Nullable", BOOL]]);
  defineSlice(out, RG_SLICE, "[]main.RowGroupMeta", RG);
  defineStruct(out, RG, "RowGroupMeta", [["NumRows", UINT], ["ByteOffset", INT], ["Columns", COL_SLICE]]);
  defineSlice(out, COL_SLICE, "[]main.ColMeta", COL);
  defineStruct(out, COL, "ColMeta", [
    ["ByteLength", INT], ["NullCount", UINT], ["MinVal", BYTES], ["MaxVal", BYTES], ["MinLen", UINT],
    ["MaxLen", UINT], ["Encoding", UINT], ["Compress", UINT], ["Tokenizer", INT],
  ]);
  message(out, FOOTER, (b) =>
    putStruct(b, [
      [0, nz(schema, (b) => putSlice(b, schema, (b, s) => putStruct(b, [
        [0, nz(s.name, (b) => putString(b, s.name))],
        [1, nz(s.type, (b) => putUint(b, s.type))],
        [2, nz(s.nullable, (b) => putUint(b, 1))],
      ])))],
      [1, nz(rowGroups, (b) => putSlice(b, rowGroups, (b, rg) => putStruct(b, [
        [0, nz(rg.numRows, (b) => putUint(b, rg.numRows))],
        [1, nz(rg.byteOffset, (b) => putInt(b, rg.byteOffset))],
        [2, nz(rg.columns, (b) => putSlice(b, rg.columns, (b, c) => putStruct(b, [
          [0, nz(c.byteLength, (b) => putInt(b, c.byteLength))],
          [1, nz(c.nullCount, (b) => putUint(b, c.nullCount))],
          [2, nz(c.minVal, (b) => putBytes(b, c.minVal))],
          [3, nz(c.maxVal, (b) => putBytes(b, c.maxVal))],
          [4, nz(c.minLen, (b) => putUint(b, c.minLen))],
          [5, nz(c.maxLen, (b) => putUint(b, c.maxLen))],
          [6, nz(c.encoding, (b) => putUint(b, c.encoding))],
          [7, nz(c.compress, (b) => putUint(b, c.compress))],
          [8, nz(c.tokenizer, (b) => putInt(b, c.tokenizer))],
        ])))],
      ])))],
    ]),
  );
  return Uint8Array.from(out);
}

// ---- chunks -------------------------------------------------------------

export const TYPES = { bool: 1, int8: 2, int16: 3, int32: 4, int64: 5, uint8: 6, uint16: 7, uint32: 8, uint64: 9, float32: 10, float64: 11, bytes: 12, string: 13 };

function u32(v) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const MAGIC = Uint8Array.of(0x41, 0x42, 0x43, 0x44);

/** A version 1 file's header: the magic, then the version byte. */
const HEADER = Uint8Array.of(...MAGIC, 1);

/** A file's end after its footer: the footer's length, then the magic (FORMAT.md's trailer). */
const trailer = (footerLength) => concat([u32(footerLength), MAGIC]);

/** Plain fixed-width bytes of one value (int32 / int64 only: what the tests use). */
function fixed(type, v) {
  const b = new Uint8Array(type === "int32" ? 4 : 8);
  const dv = new DataView(b.buffer);
  if (type === "int32") dv.setInt32(0, v, true);
  else if (type === "float64") dv.setFloat64(0, v, true);
  else dv.setBigInt64(0, BigInt(v), true);
  return b;
}

/** A Plain, uncompressed (codec None), single-block chunk and its footer entry.
 *  `values` may hold null for nullable columns. Types: int32, int64, float64, string
 *  and bytes (a string value may be a Uint8Array: its bytes as they are, UTF-8
 *  or not; a bytes value is one). */
export function plainChunk(type, nullable, values) {
  const present = values.filter((v) => v !== null);
  const nulls = values.length - present.length;
  if (!nullable && nulls > 0) throw new Error("nulls in a non-nullable column");
  const utf8 = (v) => (v instanceof Uint8Array ? v : enc.encode(v));
  const varying = type === "string" || type === "bytes";
  const items = present.map((v) => (varying ? concat([u32(utf8(v).length), utf8(v)]) : fixed(type, v)));
  const stream = concat(items);
  const bitmap = new Uint8Array(nullable ? Math.ceil(values.length / 8) : 0);
  values.forEach((v, i) => {
    if (v === null) bitmap[i >> 3] |= 1 << (i & 7);
  });
  const header = concat([Uint8Array.of(1, 0), u32(bitmap.length), u32(stream.length), u32(stream.length), u32(1), u32(stream.length), u32(stream.length)]);
  const bytes = concat([header, bitmap, stream]);
  // Statistics as the writer keeps them: Plain bytes for fixed width, raw bytes for strings.
  let minVal = new Uint8Array(0), maxVal = new Uint8Array(0), minLen = 0, maxLen = 0;
  if (present.length > 0) {
    if (varying) {
      const raw = present.map(utf8);
      const cmp = (a, b) => {
        for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
        return a.length - b.length;
      };
      const sorted = [...raw].sort(cmp);
      [minVal, maxVal] = [sorted[0], sorted[sorted.length - 1]];
      minLen = Math.min(...raw.map((r) => r.length));
      maxLen = Math.max(...raw.map((r) => r.length));
    } else if (type === "float64") {
      [minVal, maxVal] = [fixed(type, Math.min(...present)), fixed(type, Math.max(...present))];
      minLen = maxLen = 8;
    } else {
      const big = present.map((v) => BigInt(v));
      const lo = big.reduce((a, b) => (b < a ? b : a));
      const hi = big.reduce((a, b) => (b > a ? b : a));
      [minVal, maxVal] = [fixed(type, type === "int32" ? Number(lo) : lo), fixed(type, type === "int32" ? Number(hi) : hi)];
      minLen = maxLen = type === "int32" ? 4 : 8;
    }
  }
  return { bytes, meta: { byteLength: bytes.length, nullCount: nulls, minVal, maxVal, minLen, maxLen, encoding: 1, compress: 0, tokenizer: 0 } };
}

/** A chunk of an encoded `stream` as it is (codec None, one block, no null
 *  bitmap), and its footer entry (statistics empty). */
export function encodedChunk(encoding, stream) {
  const n = stream.length;
  const bytes = concat([Uint8Array.of(encoding, 0), u32(0), u32(n), u32(n), u32(1), u32(n), u32(n), stream]);
  return { bytes, meta: { byteLength: bytes.length, encoding, compress: 0 } };
}

/** A version 1 file of one non-nullable column of `type` and one row group
 *  of `rows` rows, whose chunk is `chunk` (from encodedChunk). */
export function oneChunkFile(type, rows, chunk) {
  const footer = encodeFooter({ schema: [{ name: "v", type: TYPES[type], nullable: false }], rowGroups: [{ numRows: rows, byteOffset: 5, columns: [chunk.meta] }] });
  return concat([HEADER, chunk.bytes, footer, trailer(footer.length)]);
}

/** uint32s, little-endian, back to back. */
export const u32s = (...vs) => concat(vs.map(u32));

/**
 * A version 1 file with no chunks whose footer's Schema slice claims `n`
 * elements, followed by `n` bytes (so the count is within the footer), the
 * first element invalid (a field number past the struct's). A reader that
 * sizes anything by the count before reading the elements pays for it.
 */
export function footerClaiming(n) {
  const types = encodeFooter({ schema: [], rowGroups: [] });
  // encodeFooter's last message is the empty value (3 bytes: the type id
  // 65, then the struct's end): dropped, the type definitions kept.
  if (types.at(-4) !== 3) throw new Error("unexpected end of an empty footer");
  const defs = types.subarray(0, types.length - 4);
  const head = [];
  putInt(head, 65); // the Footer type
  head.push(1); // field 0, Schema
  putUint(head, n);
  head.push(0x7f); // the first element: a field delta of 127
  const len = [];
  putUint(len, head.length + n);
  const footerLength = defs.length + len.length + head.length + n;
  const out = new Uint8Array(5 + footerLength + 8);
  out.set(HEADER);
  out.set(defs, 5);
  out.set(len, 5 + defs.length);
  out.set(head, 5 + defs.length + len.length);
  out.set(trailer(footerLength), 5 + footerLength);
  return out;
}

// ---- files --------------------------------------------------------------

/**
 * A version 1 file as sparse segments: `schema` [{name, type, nullable}],
 * `rowGroups` [{offset, columns: [values per schema column]}] with offsets
 * ascending (anything between is zero padding; no offset: right after the
 * row group before, or the header). Returns { size, segments:
 * [{start, bytes}], footerStart, chunks: [[{start, end}]], rowGroups: the
 * footer's row groups, as encodeFooter takes them }.
 */
export function buildFile(schema, rowGroups) {
  const segments = [{ start: 0, bytes: HEADER.slice() }];
  let end = 5;
  const metas = [];
  const chunks = [];
  for (const rg of rowGroups) {
    const offset = rg.offset ?? end;
    if (offset < end) throw new Error("row groups overlap");
    const built = schema.map((s, c) => plainChunk(s.type, s.nullable, rg.columns[c]));
    const numRows = rg.columns[0].length;
    let at = offset;
    const ranges = [];
    for (const b of built) {
      segments.push({ start: at, bytes: b.bytes });
      ranges.push({ start: at, end: at + b.bytes.length });
      at += b.bytes.length;
    }
    chunks.push(ranges);
    metas.push({ numRows, byteOffset: offset, columns: built.map((b) => b.meta) });
    end = at;
  }
  const footer = encodeFooter({ schema: schema.map((s) => ({ name: s.name, type: TYPES[s.type], nullable: s.nullable })), rowGroups: metas });
  segments.push({ start: end, bytes: concat([footer, trailer(footer.length)]) });
  return { size: end + footer.length + 8, segments, footerStart: end, footerLength: footer.length, chunks, rowGroups: metas };
}

/** `bytes` (a materialized file, its footer at `footerStart`) with the footer `footer` instead. */
export function withFooter(bytes, footerStart, footer) {
  const enc = encodeFooter(footer);
  return concat([bytes.subarray(0, footerStart), enc, trailer(enc.length)]);
}

/** The whole file in memory (only for small files). */
export function materialize(file) {
  const out = new Uint8Array(file.size);
  for (const s of file.segments) out.set(s.bytes, s.start);
  return out;
}

/** An AsyncBuffer serving a sparse file (zeros between segments). Every
 *  slice call is logged; a request larger than `maxRequest` is refused. */
export function sparseAsyncBuffer(file, log = [], maxRequest = 1 << 20) {
  return {
    byteLength: file.size,
    slice(start, end) {
      log.push([start, end]);
      if (!(Number.isSafeInteger(start) && Number.isSafeInteger(end) && 0 <= start && start <= end && end <= file.size)) {
        return Promise.reject(new Error(`bad range ${start}..${end}`));
      }
      if (end - start > maxRequest) return Promise.reject(new Error(`refusing a ${end - start}-byte request at ${start}`));
      const out = new Uint8Array(end - start);
      for (const s of file.segments) {
        const a = Math.max(start, s.start);
        const b = Math.min(end, s.start + s.bytes.length);
        if (a < b) out.set(s.bytes.subarray(a - s.start, b - s.start), a - start);
      }
      return Promise.resolve(out);
    },
  };
}

/**
 * A version 1 file of any number of rows in a few hundred bytes (the SQL
 * tab's size check): every column non-nullable and the same value in every
 * row, each chunk Dict-encoded with a dictionary of that one value and an
 * index width of 0, so it stores no index at all (FORMAT.md section 5).
 * `columns` [{ name, type, value }]: value is a number or bigint for the
 * integer types, a string (or its bytes) for string and bytes; `rowGroups`
 * the row groups' row counts (each at most 2^32 - 1). The footer's
 * statistics are the value's (a string's length as MinLen and MaxLen).
 */
export function constantDictFile(columns, rowGroups) {
  const INT_WIDTHS = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8 };
  const entries = columns.map(({ type, value }) => {
    if (type === "string" || type === "bytes") return value instanceof Uint8Array ? value : enc.encode(value);
    const width = INT_WIDTHS[type];
    if (!width) throw new Error(`constantDictFile: no ${type}`);
    const b = new Uint8Array(width);
    let x = BigInt.asUintN(8 * width, BigInt(value));
    for (let k = 0; k < width; k++, x >>= 8n) b[k] = Number(x & 0xffn);
    return b;
  });
  const parts = [HEADER];
  let at = 5;
  const metas = rowGroups.map((rows) => {
    const byteOffset = at;
    const chunks = entries.map((entry, c) => {
      // n, dictionary size 1, bit width 0, no indices; the entry as OffsetBytes (count 1, offset 0, bytes)
      const chunk = encodedChunk(4, concat([u32s(rows, 1, 0, 1, 0), entry]));
      parts.push(chunk.bytes);
      at += chunk.bytes.length;
      return { ...chunk.meta, minVal: entry, maxVal: entry, minLen: entry.length, maxLen: entry.length, nullCount: 0 };
    });
    return { numRows: rows, byteOffset, columns: chunks };
  });
  const footer = encodeFooter({ schema: columns.map((c) => ({ name: c.name, type: TYPES[c.type], nullable: false })), rowGroups: metas });
  parts.push(footer, trailer(footer.length));
  return concat(parts);
}
