// The Data tab's view (its columns, conditions and order) as one DuckDB
// statement over table t, which selects the same rows in the same order:
//   viewSql({ schema, labels, cols, filters, sort, inTable, units }) -> { sql } | { error }
// Each rule of filter.js and sort.js has its SQL here:
// - nulls match only "is null", in SQL as on the page;
// - NaN: the page's comparisons never hold for it (≠ always does), where
//   DuckDB counts NaN equal to itself and above every number: "NOT isnan";
// - text compares by bytes, as DuckDB's default collation does; "contains
//   (any case)" becomes lower() on both sides (DuckDB's lower folds a few
//   letters otherwise than JavaScript's toLowerCase, which the page uses
//   for text that is not ASCII);
// - the sort puts NaN after the numbers and nulls last in both directions
//   (DuckDB puts NaN above every number), and keeps file order among equal
//   values, -0 and 0 among them (t's rowid is the file row: it is loaded in
//   file order); a float sorts by x + 0, as DuckDB shows a column sorted
//   on itself as rebuilt from its sort key, where -0 has become 0.
// Text that is not UTF-8 is in t with U+FFFD in its place: conditions on
// it can keep other rows than the page's.
// A search inside bytes (DuckDB has none for a BLOB) runs over the value's
// hex digits, two a byte: a match must start at an even digit, or 0x23
// would be found in 0x1234; "any case" folds ASCII letters only, as the page
// does for bytes.
// A column the page shows as dates is selected as a TIMESTAMP of its unit,
// which the SQL grid writes as the page does; its conditions and order
// stay on the integers (t."c": a bare name in ORDER BY would be the
// TIMESTAMP). A value past JavaScript's dates (±275,760 years), which the
// page shows as its number, shows as DuckDB's microseconds; one DuckDB's
// timestamps cannot hold shows as null (try()): past its range, the
// largest int64 and the smallest but one (its ±infinity), a uint64 past
// 2^63 - 1; in nanoseconds these are dates of 1677, 2262 and up to 2554,
// which the page shows.

import { ANY_TEXT } from "./filter.js";
import { quoteName } from "./labels.js";

const FLOATS = new Set(["float32", "float64"]);
const COMPARE = { "=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };

// The integer x of a time unit as a TIMESTAMP (uint64 and int32 as BIGINT first).
const TIMESTAMP = {
  s: (x) => `make_timestamp(${x}::BIGINT * 1000000)`,
  ms: (x) => `epoch_ms(${x}::BIGINT)`,
  us: (x) => `make_timestamp(${x}::BIGINT)`,
  ns: (x) => `make_timestamp_ns(${x}::BIGINT)`,
};

const quoteText = (text) => `'${text.replaceAll("'", "''")}'`;
const hex = (b) => b.toString(16).padStart(2, "0");
const HEX = (b) => hex(b).toUpperCase(); // as DuckDB's hex() writes them

/** A search inside a bytes column as a condition on its hex digits. */
function bytesSearch(name, op, needle) {
  const digits = Array.from(needle, HEX).join("");
  if (op === "starts") return `starts_with(hex(${name}), '${digits}')`;
  const letter = (b) => (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a;
  const byte = (b) => (op === "icontains" && letter(b) ? `(?:${HEX(b & ~0x20)}|${HEX(b | 0x20)})` : HEX(b));
  return `regexp_matches(hex(${name}), '^(?:..)*?${Array.from(needle, byte).join("")}')`;
}

/** A value parsed by filter.js's parseValue for `type`, as an SQL literal. */
function literal(type, value, text) {
  if (type === "string") return quoteText(text);
  if (type === "bytes") return `'${Array.from(value, (b) => `\\x${hex(b)}`).join("")}'::BLOB`;
  if (type === "bool") return value ? "true" : "false";
  // (a float's shortest text reads back to the same double; a float32
  // column compares as DOUBLE, exactly)
  if (FLOATS.has(type)) return `CAST('${String(value)}' AS DOUBLE)`;
  // Integers: a BigInt, or a number (Infinity, 0x10: what Number() reads).
  if (typeof value === "bigint") return value.toString();
  return Number.isInteger(value) ? BigInt(value).toString() : `CAST('${String(value)}' AS DOUBLE)`;
}

/** One condition on column `c` of type `type` (name already quoted), or { error }. */
function predicate(name, type, { op, value, text }, label) {
  if (op === "null") return `${name} IS NULL`;
  if (op === "notnull") return `${name} IS NOT NULL`;
  if (op === "nan") return `isnan(${name})`;
  if (op === "notnan") return `NOT isnan(${name})`;
  if (type === "bytes" && !COMPARE[op]) return bytesSearch(name, op, value);
  if (type === "string" && text.includes("\0")) return { error: `the condition on ${label} holds a NUL character, which an SQL string cannot` };
  if (op === "contains") return `contains(${name}, ${quoteText(text)})`;
  if (op === "icontains") return `contains(lower(${name}), lower(${quoteText(text)}))`;
  if (op === "starts") return `starts_with(${name}, ${quoteText(text)})`;
  const cmp = COMPARE[op];
  if (value?.floor !== undefined) {
    // Between two integers (filter.js: parseValue), compared as applyCondition does.
    if (op === "=") return "false";
    if (op === "!=") return `${name} IS NOT NULL`;
    return `${name} ${op === "<" || op === "<=" ? "<=" : ">"} ${value.floor}`;
  }
  if (FLOATS.has(type)) {
    if (Number.isNaN(value)) return op === "!=" ? `${name} IS NOT NULL` : "false";
    return op === "!=" ? `${name} <> ${literal(type, value)}` : `(${name} ${cmp} ${literal(type, value)} AND NOT isnan(${name}))`;
  }
  return `${name} ${cmp} ${literal(type, value, text)}`;
}

/**
 * `cols`: the columns shown, in order; `filters`: [{ c, op, value, text }]
 * as applied (c may be ANY_TEXT); `sort`: { c, desc } or null; `inTable`:
 * the columns table t holds (a column that does not read is not in it);
 * `units`: column -> "s" | "ms" | "us" | "ns" for those shown as dates.
 */
export function viewSql({ schema, labels, cols, filters, sort, inTable, units = {} }) {
  // (a column selected as a TIMESTAMP is t's column elsewhere)
  const name = (c) => (units[c] ? "t." : "") + quoteName(labels[c]);
  const item = (c) => (units[c] ? `try(${TIMESTAMP[units[c]](name(c))}) AS ${quoteName(labels[c])}` : name(c));
  if (cols.length === 0) return { error: "no column is shown (the Columns menu chooses them)" };
  const shown = cols.filter((c) => inTable.has(c));
  if (shown.length === 0) return { error: "none of the columns shown is in table t (their chunks do not read)" };
  const conds = [];
  for (const f of filters) {
    if (f.c === ANY_TEXT) {
      const text = schema.flatMap((s, c) => (s.type === "string" && inTable.has(c) ? [c] : []));
      const parts = [];
      for (const c of text) {
        const p = predicate(name(c), "string", f, labels[c]);
        if (p.error) return p;
        parts.push(p);
      }
      conds.push(parts.length === 0 ? "false" : parts.length === 1 ? parts[0] : `(${parts.join("\n    OR ")})`);
      continue;
    }
    const p = predicate(name(f.c), schema[f.c].type, f, labels[f.c]);
    if (p.error) return p;
    conds.push(p);
  }
  const all = [...inTable].sort((a, b) => a - b);
  const every = shown.length === all.length && shown.every((c, k) => c === all[k]);
  const times = all.filter((c) => units[c]);
  // A column of t named rowid hides DuckDB's: the file row is then numbered
  // in a subquery (t is loaded in file order, and DuckDB keeps it).
  const lower = new Set(all.map((c) => labels[c].toLowerCase()));
  let order = "rowid";
  if (lower.has("rowid")) {
    order = "file row";
    while (lower.has(order)) order += "_";
    order = quoteName(order);
  }
  const star = `*${order === "rowid" ? "" : ` EXCLUDE (${order})`}${times.length ? ` REPLACE (${times.map(item).join(", ")})` : ""}`;
  const lines = [`SELECT ${every ? star : shown.map(item).join(", ")}`, order === "rowid" ? "FROM t" : `FROM (SELECT *, row_number() OVER () AS ${order} FROM t) AS t`];
  if (conds.length) lines.push(`WHERE ${conds.join("\n  AND ")}`);
  if (sort) {
    const n = name(sort.c);
    const dir = sort.desc ? "DESC" : "ASC";
    lines.push(
      FLOATS.has(schema[sort.c].type)
        ? `ORDER BY isnan(${n}) NULLS LAST, ${n} + 0 ${dir}, ${order}`
        : `ORDER BY ${n} ${dir} NULLS LAST, ${order}`,
    );
  } else lines.push(`ORDER BY ${order}`);
  return { sql: lines.join("\n") };
}
