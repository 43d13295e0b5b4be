// One vocabulary for sizes, used by every view (schema, chunks, column
// detail, byte map, timing):
//
//   stored   bytes the chunk takes in the file: its 18-byte header, block
//            table, null bitmap and compressed blocks (the footer's
//            ByteLength). What a reader must fetch.
//   encoded  the encoded values before compression: the sum of the blocks'
//            raw lengths (known once the chunk header is read).
//   decoded  the values in memory once read: typed arrays, string offsets
//            and data, validity bitmap (as the package returns them).
//
//   compression ratio = encoded ÷ stored. Above 1× the chunk is smaller
//   than its encoded values; a tiny chunk can fall below 1× because the
//   stored bytes include its header.

import { h } from "./dom.js";
import { fmtBytes, fmtInt } from "./format.js";

export const SIZE_WORDS = {
  stored: "stored: bytes in the file, chunk header, block table and null bitmap included (what is fetched)",
  encoded: "encoded: the encoded values before compression (the blocks' raw lengths)",
  decoded: "decoded: the values in memory once read (typed arrays, string offsets and data, validity bitmap)",
  ratio: "compression ratio = encoded ÷ stored",
};

const FIXED = { bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8 };

/**
 * Decoded bytes of a chunk, or null when not known yet: exact for fixed
 * widths from the row count; for Plain strings and bytes from the encoded
 * length (each value is a 4-byte length, then its bytes); otherwise learnt
 * when the chunk is read (`known`).
 */
export function decodedSize(type, rows, cm, known) {
  if (known !== undefined && known !== null) return known;
  const validity = cm.nullCount > 0 ? Math.ceil(rows / 8) : 0;
  if (FIXED[type]) return rows * FIXED[type] + validity;
  if (cm.encoding === "Plain" && cm.rawLength !== null && cm.rawLength !== undefined) return cm.rawLength - 4 * (rows - cm.nullCount) + 4 * (rows + 1) + validity;
  return null;
}

// No encoded bytes (every value null, or no rows): no ratio, "—" as for a
// block of 0 stored bytes, not a "0.00×" that reads as a failed compression.
export const ratio = (encoded, stored) => (encoded === null || encoded === undefined || !encoded || !stored ? null : encoded / stored);
export const fmtRatioValue = (r) => (r === null ? "—" : `${r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`);

/** A size cell: "…" (not known yet) or the size, exact bytes in the title. */
export function sizeCell(n, what) {
  if (n === null || n === undefined) return h("span", { class: "muted", title: what === "decoded" ? "known once the chunk is read" : "known once the chunk header is read" }, "…");
  return h("span", { title: `${fmtInt(n)} bytes ${what}` }, fmtBytes(n));
}

/** The legend of the size words, for a view's footnote. */
export function sizeLegend() {
  return h(
    "details",
    { class: "size-legend", "data-testid": "size-legend" },
    h("summary", {}, "Sizes: stored, encoded, decoded, ratio"),
    h("dl", { class: "kv" }, Object.entries(SIZE_WORDS).map(([k, v]) => [h("dt", {}, k === "ratio" ? "compression ratio" : k), h("dd", {}, v.replace(/^[a-z]+: /, ""))])),
  );
}

/** Column header titles in the same words. */
export const sizeTitle = (k) => SIZE_WORDS[k];

// Bytes a value of each column type takes in DuckDB's table t (an
// in-memory database: its columns uncompressed): the fixed widths, and for
// VARCHAR and BLOB a 16-byte slot, which holds a value of up to 12 bytes
// itself and points at the bytes of a longer one.
const DUCKDB_WIDTH = { ...FIXED, string: 16, bytes: 16 };
const DUCKDB_INLINE = 12;

/**
 * What table t would take in DuckDB's memory, from the footer (and the
 * chunk headers where read) alone, nothing decoded: for each column `cols`
 * (indices; default all), rows × its width (DUCKDB_WIDTH) and a bit a row
 * for its nulls, and for text and bytes whose longest value is over 12
 * bytes, their bytes: exact for a Plain chunk whose header is read (its
 * encoded length less the 4-byte lengths), else at least the values ×
 * the footer's shortest length. flights-3m (3,000,000 rows: int64, two
 * int16, two strings of 3 bytes) is estimated at 127.7 MiB;
 * DuckDB-Wasm 1.32 (DuckDB 1.4.3) held it in 129.3 MiB. Returns { bytes, rows, columns }.
 */
export function tableEstimate(file, cols = file.schema.map((_, c) => c)) {
  let bytes = 0;
  let rows = 0;
  for (const rg of file.rowGroups) {
    const n = rg.numRows;
    rows += n;
    for (const c of cols) {
      const type = file.schema[c].type;
      const cm = rg.columns[c];
      bytes += n * (DUCKDB_WIDTH[type] ?? 16) + Math.ceil(n / 8);
      if ((type === "string" || type === "bytes") && cm.maxLen > DUCKDB_INLINE) {
        const values = n - (cm.nullCount || 0);
        const plain = cm.encoding === "Plain" && cm.rawLength !== null && cm.rawLength !== undefined;
        bytes += plain ? Math.max(0, cm.rawLength - 4 * values) : values * (cm.minLen || 0);
      }
    }
  }
  return { bytes, rows, columns: cols.length };
}

// An export the person did not give a file to (no save picker in this
// browser, or not asked for) is made as one Blob of its blocks, which the
// browser holds in its blob store until the download is saved: at most
// this many bytes, as much as a file held whole (urlbuffer.js WHOLE_LIMIT).
// The save picker writes straight into the file, with no such limit.
export const EXPORT_LIMIT = 1536 * 1024 * 1024;

const utf8 = new TextEncoder();
// The least text a value of a number column takes: a digit; as a date
// (timefmt.js formatTime), "2001-03-01 12:30:00".
const DATE_TEXT = 19;

/**
 * At least how many bytes an export writes, from the footer alone, nothing
 * read: the rows of row groups `groups` (the footer's), columns `cols`, as
 * `format` ("csv", "json", "arrow"), `units` the columns written as dates,
 * `labels` their names. Each value at its least: a digit for a number,
 * "true" for a bool, the footer's shortest length for text (twice that in
 * hex for bytes), quoted in JSON; a null nothing in CSV, "null" in JSON;
 * in Arrow its fixed width, or a 4-byte offset and the shortest length
 * (a null its slot).
 * Then the commas, line ends, and JSON's names of every row. `rows`: the
 * rows of a view that is not every row (a filter's), each counted at the
 * least a row of any row group takes. Returns { bytes, rows, perRow }
 * (perRow: the least bytes a row, over the row groups).
 */
export function exportEstimate(groups, schema, cols, { format, units = {}, labels = [], rows = null }) {
  const json = format === "json";
  const arrow = format === "arrow";
  const valueBytes = (c, cm) => {
    const type = schema[c].type;
    const len = cm.minLen || 0;
    if (arrow) return type === "string" || type === "bytes" ? 4 + len : type === "bool" ? 1 / 8 : FIXED[type] ?? 0;
    if (type === "string") return json ? len + 2 : Math.max(1, len);
    if (type === "bytes") return json ? 2 * len + 2 : len ? 2 * len : 2;
    if (type === "bool") return 4;
    if (units[c]) return DATE_TEXT + (json ? 2 : 0);
    return 1;
  };
  // (in Arrow a null keeps its slot: its fixed width, or an offset)
  const nullBytes = (c, v) => (arrow ? (schema[c].type === "string" || schema[c].type === "bytes" ? 4 : v) : json ? 4 : 0);
  // Per row beside its values: CSV's commas and CRLF; JSON's braces, names
  // and colons, commas and the ",\n" between rows.
  const around = arrow ? 0 : json ? 2 + cols.reduce((a, c, k) => a + utf8.encode(JSON.stringify(labels[k] ?? "")).length + 1, 0) + (cols.length - 1) + 2 : cols.length - 1 + 2;
  let bytes = 0;
  let all = 0;
  let perRow = Infinity;
  for (const rg of groups) {
    const n = rg.numRows;
    all += n;
    let row = around;
    bytes += n * around;
    for (const c of cols) {
      const cm = rg.columns[c];
      const nulls = Math.min(n, cm.nullCount || 0);
      const v = valueBytes(c, cm);
      const nb = nullBytes(c, v);
      bytes += (n - nulls) * v + nulls * nb;
      row += nulls ? Math.min(v, nb) : v;
    }
    if (n) perRow = Math.min(perRow, row);
  }
  if (perRow === Infinity) perRow = 0;
  if (rows !== null && rows !== all) return { bytes: Math.ceil(rows * perRow), rows, perRow };
  return { bytes: Math.ceil(bytes), rows: all, perRow };
}
