// Copying values and showing bytes: shared by the data grid and SQL results.

import { utf8Pieces, hex, scalarText, plural } from "../format.js";
import { formatTime } from "../timefmt.js";
import { jsonValue } from "../exporttext.js";

export function hexDump(bytes, limit = 4096) {
  const lines = [];
  const n = Math.min(bytes.length, limit);
  for (let i = 0; i < n; i += 16) {
    const chunk = bytes.subarray(i, Math.min(n, i + 16));
    const hx = [...chunk].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const asc = [...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${i.toString(16).padStart(8, "0")}  ${hx.padEnd(47)}  ${asc}`);
  }
  if (bytes.length > limit) lines.push(`… ${bytes.length - limit} more bytes`);
  return lines.join("\n");
}

/** A value as plain text (null as ""), the way the page shows it. */
export function plainText(column, v) {
  if (v === null || v === undefined) return "";
  if (column.type === "string") return utf8Pieces(v).map((p) => (p.bad !== undefined ? `\\x${p.bad.toString(16).padStart(2, "0")}` : p.text)).join("");
  if (column.type === "bytes") return hex(v);
  if (column.unit) return formatTime(v, column.unit);
  if (typeof v === "string") return v;
  return scalarText(column.type, v);
}

/** Texts as one tab-separated line: a tab or line break in a text becomes
 *  a space (`flat`, if given, counts the texts so changed, for the copy to say). */
export const tsvLine = (texts, flat = null) =>
  texts
    .map((t) => {
      if (!/[\t\n\r]/.test(t)) return t;
      if (flat) flat.n++;
      return t.replace(/[\t\n\r]/g, " ");
    })
    .join("\t");

/** A row's values as a JSON object by the columns' labels, each value as
 *  the JSON export writes it (numbers and booleans bare, every digit kept;
 *  null stays null). */
const rowJson = (columns, values) => `{${columns.map((c, i) => `${JSON.stringify(c.label)}:${jsonValue(c.type, values[i] === null ? null : plainText(c, values[i]), !!c.unit)}`).join(",")}}`;

/** A selected cell's whole row as tab-separated text or a JSON object. */
export function rowText(cell, format, columns = null, flat = null) {
  const cols = columns || cell.columns || [];
  const values = cell.rowValues;
  const list = cols.length ? cols : values.map((_, i) => ({ label: String(i), type: "string" }));
  if (format === "json") return rowJson(list, values);
  return tsvLine(values.map((v, i) => plainText(list[i], v)), flat);
}

/** A range's values (rows of `columns`' values) as tab-separated lines
 *  (`header`: the columns' names first) or a JSON array of objects, each
 *  row as a copied row is. */
export function rangeText(columns, rows, format, header = false, flat = null) {
  if (format === "json") return `[${rows.map((values) => rowJson(columns, values)).join(",")}]`;
  const lines = rows.map((values) => tsvLine(values.map((v, i) => plainText(columns[i], v)), flat));
  if (header) lines.unshift(tsvLine(columns.map((c) => c.label)));
  return lines.join("\n");
}

/** What a copy's toast adds when `count` of its cells do not read (their
 *  chunk fails): they are copied as empty, and said to be. */
export const unreadableNote = (count) => (count ? `; ${plural(count, "unreadable cell")} copied as empty` : "");

/** What a TSV copy's toast adds when `count` of its values held tabs or
 *  line breaks, which TSV cannot: copied with spaces instead, and said. */
export const flatNote = (count) => (count ? `; tabs and line breaks inside ${plural(count, "value")} became spaces (JSON keeps them)` : "");

/** A selected cell's value on the clipboard, as its text (an unreadable one, empty and said). */
export const copyValue = (cell, toast) => copyText(plainText(cell.column, cell.value), toast, unreadableNote(Number(cell.value === undefined)));

/** A selected cell's whole row on the clipboard, as rowText makes it (its unreadable cells, empty and said). */
export function copyRow(cell, format, toast) {
  const flat = { n: 0 };
  const text = rowText(cell, format, null, flat);
  return copyText(text, toast, unreadableNote(cell.rowValues.filter((v) => v === undefined).length) + flatNote(flat.n));
}

/** Puts text on the clipboard (the Clipboard API, or a hidden text area
 *  where that is not allowed), and a toast says what (and `note`). */
export async function copyText(text, toast, note = "") {
  document.body.dataset.copied = text.slice(0, 10000); // what was copied last (the tests read it)
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.append(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  toast?.(`Copied ${text.length > 60 ? `${text.slice(0, 60)}…` : text || "(empty)"}${note}`);
}
