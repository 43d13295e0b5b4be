// Turning values into text. Strings from a file are byte strings: they are
// decoded as UTF-8 with a fatal decoder, and whatever is not valid UTF-8 is
// shown byte by byte as \xNN, never silently replaced.

import { h } from "./dom.js";
import { brief } from "./labels.js";

// ignoreBOM: a value that starts with U+FEFF keeps it (the default drops it).
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const intFormat = new Intl.NumberFormat("en-US");
export const fmtInt = (n) => (n === null || n === undefined ? "—" : intFormat.format(n));

/** Bytes with a binary unit: 381.6 KiB. */
export function fmtBytes(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "—";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = Number(n);
  let u = 0;
  // A size that would round to 1024 of a unit (1023.6 KiB) is 1.00 of the next.
  while (Math.abs(v) >= (u === 0 ? 1024 : 1023.5) && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  // Decimals by the rounded size: 99.97 is "100", not "100.0".
  const a = Math.abs(v);
  return u === 0 ? `${v} B` : `${v.toFixed(a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2)} ${units[u]}`;
}

export function fmtMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "—";
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** A count and its noun: "1 row", "2 rows" ("1 row group", "3 statistics" with `many`). */
export const plural = (n, one, many = `${one}s`) => `${fmtInt(n)} ${Number(n) === 1 ? one : many}`;

/** A byte range, written one way on every view: start – end, the end
 *  exclusive (the first byte after the range), as the Regions table's
 *  End column and the chunk's offset + length. */
export const fmtRange = (start, end) => `${fmtInt(start)} – ${fmtInt(end)}`;
export const RANGE_TITLE = "start – end: the end is the first byte after the range (exclusive), so end − start is its length";

export const fmtRatio = (stored, raw) => (raw && stored ? `${(raw / stored).toFixed(2)}×` : "—");
export const fmtPct = (x) => (x > 0 && x < 0.0001 ? "<0.01%" : `${(x * 100).toFixed(x < 0.01 ? 2 : 1)}%`);

export function hex(bytes, max = Infinity) {
  let out = "";
  const n = Math.min(bytes.length, max);
  for (let i = 0; i < n; i++) out += bytes[i].toString(16).padStart(2, "0");
  return out;
}

/** Shortest decimal that reads back to the same float32. */
function fmtF32(v) {
  if (!Number.isFinite(v)) return String(v);
  if (Object.is(v, -0)) return "-0";
  for (let p = 1; p <= 9; p++) {
    const t = v.toPrecision(p);
    if (Math.fround(Number(t)) === v) return String(Number(t));
  }
  return String(v);
}

function fmtF64(v) {
  if (Object.is(v, -0)) return "-0";
  return String(v);
}

/** Length of the valid UTF-8 sequence starting at i, or 0 when invalid. */
function seqLen(b, i) {
  const b0 = b[i];
  const n = b.length;
  const cont = (j) => j < n && (b[j] & 0xc0) === 0x80;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const b1 = b[i + 1];
    if (i + 1 >= n) return 0;
    if (b0 === 0xe0 && (b1 < 0xa0 || b1 > 0xbf)) return 0;
    if (b0 === 0xed && (b1 < 0x80 || b1 > 0x9f)) return 0;
    return cont(i + 1) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const b1 = b[i + 1];
    if (i + 1 >= n) return 0;
    if (b0 === 0xf0 && (b1 < 0x90 || b1 > 0xbf)) return 0;
    if (b0 === 0xf4 && (b1 < 0x80 || b1 > 0x8f)) return 0;
    return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/** Splits bytes into [{text}] and [{bad: byte}] pieces. */
export function utf8Pieces(bytes) {
  try {
    return [{ text: fatal.decode(bytes) }];
  } catch {
    /* fall through: find the bad bytes */
  }
  const out = [];
  let i = 0;
  let start = 0;
  while (i < bytes.length) {
    const len = seqLen(bytes, i);
    if (len) {
      i += len;
      continue;
    }
    if (i > start) out.push({ text: fatal.decode(bytes.subarray(start, i)) });
    out.push({ bad: bytes[i] });
    i++;
    start = i;
  }
  if (start < bytes.length) out.push({ text: fatal.decode(bytes.subarray(start)) });
  return out;
}

export const isValidUtf8 = (bytes) => utf8Pieces(bytes).every((p) => p.text !== undefined);

const CTRL_NAMES = { 0: "\\0", 9: "\\t", 10: "\\n", 13: "\\r" };
// C0 controls and DEL; then C1 controls, bidirectional controls (marks,
// embeddings, overrides, isolates), and the invisible zero-width space,
// word joiner, byte order mark and line/paragraph separators. Not the
// zero-width (non-)joiners, which emoji and scripts need.
const SHOWN_AS_ESCAPE = /([\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff])/u;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Where to cut `bytes` to keep about its first `n`: `n`, or the start of
 *  the UTF-8 sequence that `n` falls inside (all of it when shorter), so
 *  that a valid value's prefix is valid too and decodes in one pass. */
function cutAt(bytes, n) {
  if (n >= bytes.length) return bytes.length;
  for (let k = n; k > n - 4 && k > 0; k--) if ((bytes[k] & 0xc0) !== 0x80) return k;
  return n;
}

/**
 * Renders a byte string as text: valid UTF-8 as itself, control characters
 * as escapes (class "ctl"), invalid bytes as \xNN (class "bad").
 * Truncates the visible text at maxChars characters.
 */
export function textNode(bytes, maxChars = Infinity) {
  const frag = document.createDocumentFragment();
  let left = maxChars;
  // Only what can be shown is decoded: a character takes at most 4 bytes
  // (an invalid byte shows as 4 characters), so maxChars of them lie in the
  // first 4 x maxChars bytes. A cell of a 20 MB value decoded it whole, and
  // spread it into code points, at every frame the grid drew.
  const cut = cutAt(bytes, 4 * maxChars + 4);
  let truncated = cut < bytes.length;
  for (const p of utf8Pieces(cut < bytes.length ? bytes.subarray(0, cut) : bytes)) {
    if (left <= 0) {
      truncated = true;
      break;
    }
    if (p.bad !== undefined) {
      frag.append(h("span", { class: "bad", title: `byte 0x${p.bad.toString(16).padStart(2, "0")} is not valid UTF-8` }, `\\x${p.bad.toString(16).padStart(2, "0")}`));
      left -= 4;
      continue;
    }
    let text = p.text;
    if (left !== Infinity) {
      const chars = [...text];
      if (chars.length > left) {
        text = chars.slice(0, left).join("");
        truncated = true;
      }
      left -= Math.min(chars.length, left);
    }
    // Control characters would vanish or break the layout, and invisible
    // ones would hide (a zero-width space, a byte order mark) or reorder the
    // text around them (a right-to-left override makes "\u202egnp.exe"
    // read "exe.png"): show escapes.
    const parts = text.split(SHOWN_AS_ESCAPE);
    for (const part of parts) {
      if (part === "") continue;
      if (part.length === 1 && SHOWN_AS_ESCAPE.test(part)) {
        const code = part.charCodeAt(0);
        const u = code.toString(16).padStart(4, "0");
        const title = code <= 0x9f ? `control character U+${u.toUpperCase()}` : BIDI.test(part) ? `direction control U+${u.toUpperCase()}, shown instead of obeyed` : `invisible character U+${u.toUpperCase()}`;
        frag.append(h("span", { class: "ctl", title }, CTRL_NAMES[code] ?? (code < 0x80 ? `\\x${u.slice(2)}` : `\\u${u}`)));
      } else frag.append(document.createTextNode(part));
    }
  }
  if (truncated) frag.append(h("span", { class: "more", title: "truncated; click the cell to see the whole value" }, "…"));
  return frag;
}

const utf8 = new TextEncoder();

/** Text from a file that is a string already (a condition's value, a
 *  name): shown as textNode shows a value, its control, invisible and
 *  direction characters as escapes, in a <bdi> so that right-to-left text
 *  in it does not reorder the page's words around it. */
export const fileText = (text, maxChars = Infinity) => h("bdi", { class: "file-text" }, textNode(utf8.encode(text), maxChars));

/** The same escapes as a plain string, where no element can go (the window title). */
export const fileTextString = (text) => textNode(utf8.encode(text)).textContent;

/** A column's name (its label) as the page shows it: as textNode shows a
 *  value (a NUL, line break, tab or direction control as its escape), cut
 *  as brief() cuts it, and an empty name as "" (a blank header said
 *  nothing). Put inside an element that isolates it (class colname). */
export function nameNode(label, max = 200) {
  if (label === "") return h("span", { class: "v-empty", title: "the column's name is empty" }, '""');
  return textNode(utf8.encode(brief(label, max)));
}

/** The same as a plain string, where no element can go (a menu's option, a title). */
export const nameString = (label, max = 200) => (label === "" ? '""' : fileTextString(brief(label, max)));

/** Text form of a byte string for exports (invalid bytes as \xNN). */
export function textString(bytes) {
  return utf8Pieces(bytes)
    .map((p) => (p.bad !== undefined ? `\\x${p.bad.toString(16).padStart(2, "0")}` : p.text))
    .join("");
}

/** Plain text of a scalar value (number, bigint, bool) of a column type. */
export function scalarText(type, v) {
  if (v === null || v === undefined) return "null";
  if (type === "bool") return v === true || v === 1 ? "true" : "false";
  if (type === "float32") return fmtF32(Number(v));
  if (type === "float64") return fmtF64(Number(v));
  return String(v);
}

/**
 * A profile's mean (or spread), a double, as text that does not pass for
 * more exact than it is. `digits`: significant digits (the Profiles
 * table's 6), or all the double's. Rounded to `digits`, a large one keeps
 * its exponent ("-1.09951e+12", not "-1099510000000", which reads as an
 * exact integer). Of a 64-bit integer column, one past 2^53 (where a
 * double no longer holds every integer) is "≈" and an exponent, not
 * digits ending in zeros ("≈ 1.152921504606847e+18", not
 * "1152921504606847000").
 */
export function fmtMean(type, x, digits = Infinity) {
  if (!Number.isFinite(x)) return String(x);
  const wide = (type === "int64" || type === "uint64") && Math.abs(x) >= 2 ** 53;
  if (digits !== Infinity) {
    const t = x.toPrecision(digits);
    return `${wide ? "≈ " : ""}${t.includes("e") ? t : String(Number(t))}`;
  }
  return wide ? `≈ ${x.toExponential()}` : scalarText("float64", x);
}

/**
 * A DOM node for one value: null / empty / text / hex / number, each with a
 * data-kind so it can be told apart (and styled) at a glance.
 */
export function valueNode(type, v, { maxChars = 120, tag = "span" } = {}) {
  if (v === null || v === undefined) return h(tag, { class: "v-null", "data-kind": "null" }, "null");
  if (type === "string") {
    if (v.length === 0) return h(tag, { class: "v-empty", "data-kind": "empty", title: "empty string (0 bytes)" }, '""');
    return h(tag, { class: "v-str", "data-kind": "str" }, textNode(v, maxChars));
  }
  if (type === "bytes") {
    if (v.length === 0) return h(tag, { class: "v-empty", "data-kind": "empty", title: "empty bytes (0 bytes)" }, "0x");
    // "0x" and the hex, as empty bytes are "0x" alone (and the footer's empty statistic).
    const shown = hex(v, Math.ceil(maxChars / 2));
    return h(tag, { class: "v-bytes", "data-kind": "bytes" }, h("span", { class: "hex-prefix" }, "0x"), shown, v.length * 2 > shown.length ? h("span", { class: "more" }, "…") : null);
  }
  if (type === "bool") return h(tag, { class: "v-bool", "data-kind": "bool" }, scalarText(type, v));
  return h(tag, { class: "v-num", "data-kind": "num" }, scalarText(type, v));
}

const FIXED_WIDTH = { bool: 1, int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, int64: 8, uint64: 8, float64: 8 };

/** Decodes a footer statistic from its raw Plain bytes. */
export function decodeStat(type, raw) {
  if (!raw || raw.length === 0) return null;
  if (type === "string" || type === "bytes") return raw;
  const w = FIXED_WIDTH[type];
  if (raw.length !== w) return undefined; // malformed
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  switch (type) {
    case "bool": return raw[0] !== 0;
    case "int8": return dv.getInt8(0);
    case "uint8": return dv.getUint8(0);
    case "int16": return dv.getInt16(0, true);
    case "uint16": return dv.getUint16(0, true);
    case "int32": return dv.getInt32(0, true);
    case "uint32": return dv.getUint32(0, true);
    case "int64": return dv.getBigInt64(0, true);
    case "uint64": return dv.getBigUint64(0, true);
    case "float32": return dv.getFloat32(0, true);
    case "float64": return dv.getFloat64(0, true);
  }
  return undefined;
}

/** A footer min/max cell: decoded by type from the raw statistic. */
export function statNode(type, raw, { maxChars = 40, allNull = false } = {}) {
  if (!raw || raw.length === 0) {
    if (allNull) return h("span", { class: "v-none", title: "no non-null value" }, "—");
    if (type === "string" || type === "bytes")
      return h("span", { class: "v-empty", title: "empty statistic: the empty value, or none recorded (gob does not send an empty []byte)" }, type === "string" ? '""' : "0x");
    return h("span", { class: "v-none", title: "not recorded" }, "—");
  }
  const v = decodeStat(type, raw);
  if (v === undefined) return h("span", { class: "bad", title: `unexpected ${raw.length}-byte statistic for ${type}` }, `0x${hex(raw, 16)}`);
  return valueNode(type, v, { maxChars });
}

/** Plain text of a footer statistic (for sorting and exports). */
export function statText(type, raw) {
  if (!raw || raw.length === 0) return "";
  const v = decodeStat(type, raw);
  if (v === undefined) return hex(raw);
  if (type === "string") return textString(v);
  if (type === "bytes") return hex(v);
  return scalarText(type, v);
}

/** CSV field, quoted when needed, with spreadsheet formula prefixes defused. */
export function csvField(v) {
  let t = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(t) && !/^-?\d/.test(t)) t = `'${t}`;
  return /[",\n\r]/.test(t) ? `"${t.replaceAll('"', '""')}"` : t;
}

/** The most characters a filter condition's value takes (a link's `where`,
 *  a value picked to filter by). */
export const MAX_CONDITION_TEXT = 10_000;

/** A condition's value for an equality: the text a filter's "= v" takes
 *  for a value of `type` (parseValue, filter.js, reads it back to v), or
 *  null where no "=" finds v: NaN, text that is not UTF-8, or longer than
 *  a condition's value may be. */
export function equalsText(type, v) {
  if (v === null || v === undefined || (typeof v === "number" && Number.isNaN(v))) return null;
  let text;
  if (type === "string") {
    const pieces = utf8Pieces(v);
    text = pieces.some((p) => p.bad !== undefined) ? null : pieces.map((p) => p.text).join("");
  } else if (type === "bytes") text = hex(v);
  else text = scalarText(type, v);
  return text !== null && text.length <= MAX_CONDITION_TEXT ? text : null;
}
