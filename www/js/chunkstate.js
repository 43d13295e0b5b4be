// What the page has learnt of chunks that do not read (ctx.chunkErrors,
// filled by the worker as reads and inspections fail): the error, and the
// chunk's own header bytes, whose encoding and codec tags may contradict
// the footer's.
//
//   0 encoding u8 | 1 codec u8 | 2 bitmap len u32 | 6 raw len u32
//   10 data len u32 | 14 block count u32   (all little-endian)

import { h } from "./dom.js";
import { fmtInt } from "./format.js";

const ENCODINGS = { 1: "Plain", 2: "RLEBitpack", 3: "Delta", 4: "Dict", 5: "OffsetBytes", 6: "Affix", 7: "Tokenized" };
const CODECS = { 0: "None", 1: "Zstd", 2: "Flate", 3: "Gzip", 4: "Zlib", 5: "Lzw" };

/** A tag's name, or "unknown". */
export const tagLabel = (kind, tag) => (kind === "codec" ? CODECS : ENCODINGS)[tag] ?? "unknown";
/** A tag as a name, or "tag 9 (unknown)". */
export const encodingName = (tag) => ENCODINGS[tag] ?? `tag ${tag} (unknown)`;
export const codecName = (tag) => CODECS[tag] ?? `tag ${tag} (unknown)`;

/** The fields of a chunk header's bytes (null where the bytes run out). */
export function parseHeader(bytes) {
  if (!bytes) return null;
  const b = bytes;
  const u32 = (at) => (at + 4 <= b.length ? (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0 : null);
  return {
    bytes: b,
    encodingTag: b.length > 0 ? b[0] : null,
    codecTag: b.length > 1 ? b[1] : null,
    bitmapLength: u32(2),
    rawLength: u32(6),
    dataLength: u32(10),
    blockCount: u32(14),
  };
}

/**
 * Chunk g:c as far as it is known not to read, or null: { error, header,
 * encoding, codec }, where encoding / codec are { footer, header } names
 * when the chunk's header names another than the footer.
 */
export function chunkFailure(ctx, g, c) {
  const f = ctx.file;
  const known = ctx.chunkErrors?.get(`${g}:${c}`);
  if (!known || !f?.rowGroups[g]) return null;
  const cm = f.rowGroups[g].columns[c];
  const header = parseHeader(known.header);
  const out = { error: known.error, header, encoding: null, codec: null };
  if (header?.encodingTag !== null && header?.encodingTag !== undefined && header.encodingTag !== cm.encodingTag) out.encoding = { footer: cm.encoding, header: encodingName(header.encodingTag) };
  if (header?.codecTag !== null && header?.codecTag !== undefined && header.codecTag !== cm.codecTag) out.codec = { footer: cm.codec, header: codecName(header.codecTag) };
  return out;
}

/** The failures of column c over the row groups: [{ g, ...chunkFailure }]. */
export function columnFailures(ctx, c) {
  const out = [];
  if (!ctx.chunkErrors?.size) return out;
  ctx.file.rowGroups.forEach((_, g) => {
    const x = chunkFailure(ctx, g, c);
    if (x) out.push({ g, ...x });
  });
  return out;
}

/** "Flate" as the footer says, or "footer: Flate · header: tag 9 (unknown)" where they disagree. */
export function tagCell(footer, disagreement, testid) {
  if (!disagreement) return footer;
  return h(
    "span",
    { class: "tag-conflict", "data-testid": testid, title: "the footer and the chunk's own header name different tags; a reader goes by the header" },
    h("span", { class: "nowrap" }, `footer: ${disagreement.footer}`),
    " ",
    h("span", { class: "nowrap bad-text" }, `header: ${disagreement.header}`),
  );
}

/** The error of a chunk that does not read, as text for a table row. */
export function failureLine(error, where = "") {
  return h(
    "div",
    { class: "chunk-error", "data-testid": "chunk-error", "data-kind": error.kind, role: "note" },
    h("span", { class: "kind-badge" }, `✗ ${error.kind}`),
    " ",
    where ? `${where}: ` : "",
    error.message || "",
  );
}

/** "row group 0", "row groups 0, 3 and 7" */
export function groupList(gs) {
  const names = gs.map((g) => fmtInt(g));
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return `${gs.length === 1 ? "row group" : "row groups"} ${list}`;
}
