// Text of one decoded value for CSV and JSON exports (and for copying a
// cell). Exact wherever the format allows: integers with all their digits
// (int64 included), floats as the shortest text that reads back to the
// same value, strings as UTF-8 text. Bytes that are not valid UTF-8 are
// written as \xNN (the page shows them the same way), bytes columns as hex.

import { scalarText, textString, hex } from "./format.js";
import { formatTime } from "./timefmt.js";

// ignoreBOM: a value that starts with U+FEFF keeps it (the default drops it).
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The value of row i of a decoded column as text, or null. `unit`: write an int64 time column as a date. */
export function cellText(col, i, unit = null) {
  const valid = col.validity;
  if (valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0) return null;
  const v = col.values;
  switch (col.type) {
    case "string": {
      const b = v.data.subarray(v.offsets[i], v.offsets[i + 1]);
      try {
        return fatal.decode(b);
      } catch {
        return textString(b);
      }
    }
    case "bytes":
      return hex(v.data.subarray(v.offsets[i], v.offsets[i + 1]));
    case "bool":
      return v[i] === 1 ? "true" : "false";
    default:
      if (unit) return formatTime(v[i], unit);
      return scalarText(col.type, v[i]);
  }
}

/** A CSV field (RFC 4180 quoting). */
export function csvQuote(t) {
  if (t === null) return "";
  return /[",\n\r]/.test(t) || t === "" ? `"${t.replaceAll('"', '""')}"` : t;
}

const NUMERIC = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]);

/** A JSON value: numbers bare (all digits kept), NaN and infinities as strings, the rest as JSON strings. */
export function jsonValue(type, t, asTime) {
  if (t === null) return "null";
  if (type === "bool") return t;
  if (NUMERIC.has(type) && !asTime) return /^-?\d/.test(t) ? t : JSON.stringify(t);
  return JSON.stringify(t);
}

/** The header line and row writer of a format. `labels`: unique column names. */
export function textFormat(format, labels, types, units) {
  if (format === "csv") {
    return {
      mime: "text/csv",
      ext: "csv",
      head: `${labels.map(csvQuote).join(",")}\r\n`,
      row: (cells) => `${cells.map(csvQuote).join(",")}\r\n`,
      sep: "",
      tail: "",
    };
  }
  const keys = labels.map((l) => JSON.stringify(l));
  return {
    mime: "application/json",
    ext: "json",
    head: "[\n",
    row: (cells) => `{${cells.map((t, k) => `${keys[k]}:${jsonValue(types[k], t, !!units[k])}`).join(",")}}`,
    sep: ",\n",
    tail: "\n]\n",
  };
}
