// Row filters over the whole file, evaluated in the worker one row group at
// a time. A condition is { c, op, value }: value already parsed for the
// column's type by parseValue (on the page, so a typo is caught before any
// work). Conditions combine with AND. As in SQL, a null matches only
// "is null" (and "is not null" fails); NaN compares unequal to everything,
// and "is NaN" finds it.

import { parseTime } from "./timefmt.js";

export const OPS = [
  { op: "=", label: "=", types: "all" },
  { op: "!=", label: "≠", types: "all" },
  { op: "<", label: "<", types: "ordered" },
  { op: "<=", label: "≤", types: "ordered" },
  { op: ">", label: ">", types: "ordered" },
  { op: ">=", label: "≥", types: "ordered" },
  { op: "contains", label: "contains", types: "text" },
  { op: "icontains", label: "contains (any case)", types: "text" },
  { op: "starts", label: "starts with", types: "text" },
  { op: "null", label: "is null", types: "all", noValue: true },
  { op: "notnull", label: "is not null", types: "all", noValue: true },
  { op: "nan", label: "is NaN", types: "float", noValue: true },
  { op: "notnan", label: "is not NaN", types: "float", noValue: true },
];

const TEXT = new Set(["string", "bytes"]);

/** The operators that apply to a column type. */
export function opsFor(type) {
  const float = type === "float32" || type === "float64";
  return OPS.filter((o) => o.types === "all" || (o.types === "text" && TEXT.has(type)) || (o.types === "ordered" && type !== "bool") || (o.types === "float" && float));
}

/**
 * The condition's column ANY_TEXT is every string column at once: a row
 * passes when one of them does (a search of the row's text). Only the
 * operators that read as a search apply: "any text column ≠ x" or "< x"
 * would pass nearly every row.
 */
export const ANY_TEXT = -1;
const ANY_OPS = new Set(["=", "contains", "icontains", "starts"]);

/** The string columns ANY_TEXT searches. */
export const textColumns = (schema) => schema.flatMap((s, c) => (s.type === "string" ? [c] : []));

/** The operators of condition column `c` (ANY_TEXT too) of `schema`. */
export function opsOf(schema, c) {
  return c === ANY_TEXT ? OPS.filter((o) => ANY_OPS.has(o.op)) : opsFor(schema[c].type);
}

const enc = new TextEncoder();

/**
 * Parses what a person typed for a column type: { value } or { error }.
 * `unit` ("s", "ms", "us", "ns") for integer columns shown as times: a date
 * such as 2001-03-01 or 2001-03-01 12:30 (UTC) is accepted too.
 * An integer column's value is exact (a BigInt for 64-bit columns, else a
 * number), or, when what was typed lies between two integers (2.5, a date
 * finer than the column's unit), { floor, decimal }: the integer below it
 * and its exact decimal text, which compare as that value does.
 */
export function parseValue(type, text, unit = null) {
  const t = text.trim();
  if (TEXT.has(type)) {
    if (type === "string") return { value: enc.encode(text) };
    const hex = t.replace(/^0x/i, "").replace(/\s+/g, "");
    if (!/^([0-9a-f]{2})*$/i.test(hex)) return { error: "bytes are written in hex, two digits per byte (e.g. 0x00ff)" };
    return { value: Uint8Array.from(hex.match(/../g) || [], (x) => parseInt(x, 16)) };
  }
  if (type === "bool") {
    if (/^(true|1|yes)$/i.test(t)) return { value: true };
    if (/^(false|0|no)$/i.test(t)) return { value: false };
    return { error: "true or false" };
  }
  if (t === "") return { error: "a value is needed" };
  const decimal = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(t);
  if (unit) {
    const ns = parseTime(t);
    if (ns !== null) return { value: integerValue(type, ns, UNIT_DIGITS[unit]) };
    if (!decimal) return { error: "a number, or a date and time such as 2001-03-01 or 2001-03-01 12:30:00 (UTC)" };
  }
  if (type === "float32" || type === "float64") {
    if (/^nan$/i.test(t)) return { value: NaN };
    const x = Number(t.replace(/^\+?inf(inity)?$/i, "Infinity").replace(/^-inf(inity)?$/i, "-Infinity"));
    if (Number.isNaN(x)) return { error: "a number" };
    // A float32 column shows the shortest text that reads back to its value:
    // what was typed means that float32 (3.4028235e38 is the largest), unless
    // it is beyond float32's range, where rounding would make it infinite.
    const f = type === "float32" ? Math.fround(x) : x;
    return { value: Number.isFinite(f) || !Number.isFinite(x) ? f : x };
  }
  // A decimal read exactly (a double would move 9007199254740993.0 to
  // ...992); other forms Number() reads (0x10, Infinity) as before.
  if (decimal && (decimal[2] || decimal[3])) {
    const [, sign, whole = "", fraction = "", e = "0"] = decimal;
    const exp = Number(e) - fraction.length;
    if (Math.abs(exp) > 1000) return { error: `a whole number (${type}) with an exponent of at most 1000` };
    const digits = BigInt(sign + (whole || "0") + fraction);
    return { value: exp >= 0 ? integerValue(type, digits * 10n ** BigInt(exp), 0) : integerValue(type, digits, -exp) };
  }
  const x = Number(t);
  if (Number.isNaN(x)) return { error: `a whole number (${type})` };
  return { value: x };
}

/** Decimal digits below the unit of each time unit, from nanoseconds. */
const UNIT_DIGITS = { s: 9, ms: 6, us: 3, ns: 0 };

/** `n` / 10^`digits` as an integer column's value (see parseValue). */
function integerValue(type, n, digits) {
  const scale = 10n ** BigInt(digits);
  let floor = n / scale; // (toward zero, then down for negatives)
  if (floor * scale > n) floor -= 1n;
  if (floor * scale === n) return type === "int64" || type === "uint64" ? floor : Number(floor);
  const abs = n < 0n ? -n : n;
  const decimal = `${n < 0n ? "-" : ""}${abs / scale}.${(abs % scale).toString().padStart(digits, "0").replace(/0+$/, "")}`;
  return { floor, decimal };
}

function bytesEqual(data, a, b, needle) {
  if (b - a !== needle.length) return false;
  for (let j = 0; j < needle.length; j++) if (data[a + j] !== needle[j]) return false;
  return true;
}

function bytesCompare(data, a, b, needle) {
  const n = Math.min(b - a, needle.length);
  for (let j = 0; j < n; j++) {
    const d = data[a + j] - needle[j];
    if (d) return d;
  }
  return b - a - needle.length;
}

const lower = (x) => (x >= 65 && x <= 90 ? x + 32 : x);

function bytesContains(data, a, b, needle, fold) {
  const m = needle.length;
  if (m === 0) return true;
  const first = needle[0];
  for (let i = a; i + m <= b; i++) {
    if ((fold ? lower(data[i]) : data[i]) !== first) continue;
    let j = 1;
    if (fold) while (j < m && lower(data[i + j]) === needle[j]) j++;
    else while (j < m && data[i + j] === needle[j]) j++;
    if (j === m) return true;
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true }); // a leading U+FEFF is part of the value

/** "contains (any case)": bytes compared with ASCII letters folded; a value
 *  with other bytes (or a needle with them) compared again as lower-case
 *  text, so "É" finds "é" (no other value is decoded). */
function anyCase(data, needle, raw) {
  const wide = (a, b) => {
    for (let i = a; i < b; i++) if (data[i] >= 0x80) return true;
    return false;
  };
  const text = utf8.decode(Uint8Array.from(raw)).toLowerCase();
  const plain = raw.every((c) => c < 0x80);
  return (a, b) =>
    bytesContains(data, a, b, needle, true) ||
    ((!plain || wide(a, b)) && utf8.decode(data.subarray(a, b)).toLowerCase().includes(text));
}

/**
 * Clears keep[i] for the rows of one decoded column that fail `cond`.
 * keep is a Uint8Array of the row group's length (1 = still kept).
 */
export function applyCondition(cond, col, keep) {
  const n = col.length;
  const valid = col.validity;
  const isNull = (i) => valid !== null && ((valid[i >> 3] >> (i & 7)) & 1) === 0;
  const { op } = cond;
  if (op === "null" || op === "notnull") {
    const want = op === "null";
    for (let i = 0; i < n; i++) if (keep[i] && isNull(i) !== want) keep[i] = 0;
    return;
  }
  const v = col.values;
  if (op === "nan" || op === "notnan") {
    const want = op === "nan";
    for (let i = 0; i < n; i++) if (keep[i] && (isNull(i) || Number.isNaN(v[i]) !== want)) keep[i] = 0;
    return;
  }
  const x = cond.value;
  if (col.type === "string" || col.type === "bytes") {
    const { offsets, data } = v;
    const needle = op === "icontains" ? x.map(lower) : x;
    let test;
    switch (op) {
      case "=": test = (a, b) => bytesEqual(data, a, b, needle); break;
      case "!=": test = (a, b) => !bytesEqual(data, a, b, needle); break;
      case "<": test = (a, b) => bytesCompare(data, a, b, needle) < 0; break;
      case "<=": test = (a, b) => bytesCompare(data, a, b, needle) <= 0; break;
      case ">": test = (a, b) => bytesCompare(data, a, b, needle) > 0; break;
      case ">=": test = (a, b) => bytesCompare(data, a, b, needle) >= 0; break;
      case "contains": test = (a, b) => bytesContains(data, a, b, needle, false); break;
      // Bytes are not text: only their ASCII letters fold.
      case "icontains": test = col.type === "string" ? anyCase(data, needle, x) : (a, b) => bytesContains(data, a, b, needle, true); break;
      case "starts": test = (a, b) => b - a >= needle.length && bytesCompare(data, a, a + needle.length, needle) === 0; break;
      default: throw new Error(`unknown operator ${op}`);
    }
    for (let i = 0; i < n; i++) if (keep[i] && (isNull(i) || !test(offsets[i], offsets[i + 1]))) keep[i] = 0;
    return;
  }
  const get = col.type === "bool" ? (i) => v[i] === 1 : (i) => v[i];
  const test = x?.floor !== undefined ? betweenTest(op, x.floor) : numberTest(op, x, col.type);
  for (let i = 0; i < n; i++) if (keep[i] && (isNull(i) || !test(get(i)))) keep[i] = 0;
}

/** A comparison with number `x` (a BigInt against a 64-bit column). */
function numberTest(op, x, type) {
  switch (op) {
    case "=": return (y) => y == x; // eslint-disable-line eqeqeq -- bigint against number
    case "!=": return (y) => y != x; // eslint-disable-line eqeqeq
    case "<": return (y) => y < x;
    case "<=": return (y) => y <= x;
    case ">": return (y) => y > x;
    case ">=": return (y) => y >= x;
    default: throw new Error(`operator ${op} does not apply to ${type}`);
  }
}

/** A comparison with a value strictly between `floor` and `floor` + 1
 *  (parseValue): no integer equals it, and one is below it when <= floor. */
function betweenTest(op, floor) {
  if (op === "=") return () => false;
  if (op === "!=") return () => true;
  return op === "<" || op === "<=" ? (y) => y <= floor : (y) => y > floor;
}

/**
 * ANY_TEXT's condition over one row group: keep[i] cleared for the rows
 * where no column of `cols` (decoded string columns; null for one whose
 * chunk does not read, which then matches nothing) passes `cond`.
 */
export function applyAnyText(cond, cols, keep) {
  const any = new Uint8Array(keep.length);
  for (const col of cols) {
    if (!col) continue;
    // (rows another column already matched are not tested again)
    const one = new Uint8Array(keep.length);
    for (let i = 0; i < one.length; i++) one[i] = keep[i] & (any[i] ^ 1);
    applyCondition(cond, col, one);
    for (let i = 0; i < one.length; i++) any[i] |= one[i];
  }
  for (let i = 0; i < keep.length; i++) keep[i] &= any[i];
}

/** Whether one string value (its UTF-8 bytes) passes `cond`: the grid
 *  marks the cells an "any text column" search found by it. */
export function textMatches(cond, bytes) {
  const keep = Uint8Array.of(1);
  applyCondition(cond, { type: "string", length: 1, validity: null, values: { offsets: [0, bytes.length], data: bytes } }, keep);
  return keep[0] === 1;
}

/** A short text of a condition for the status line. */
export function describeCondition(cond, name, shown) {
  const o = OPS.find((x) => x.op === cond.op);
  return o.noValue ? [name, ` ${o.label}`] : [name, ` ${o.label} `, shown];
}

/** Bytes compared as the filter compares strings: bytewise, a prefix first. */
function compareRaw(x, y) {
  const n = Math.min(x.length, y.length);
  for (let j = 0; j < n; j++) if (x[j] !== y[j]) return x[j] - y[j];
  return x.length - y.length;
}

const compareNumbers = (x, y) => (x < y ? -1 : x > y ? 1 : 0); // (bigint against number exact; -0 as 0)

/** A footer statistic usable as a numeric bound, or null (absent, NaN, or not a number). */
function numericBound(v) {
  if (typeof v === "boolean") return Number(v);
  if (typeof v === "bigint") return v;
  return typeof v === "number" && !Number.isNaN(v) ? v : null;
}

/**
 * Whether the footer statistics of chunk `cm` (a ChunkMeta of column type
 * `type`, in a row group of `rows` rows) show that no row of it passes
 * `cond`: its row group is then not read, its rows not passing. Only
 * where that is certain, else false (the chunk is read):
 * - "is null" when the chunk counts no null; "is not null" when every row is;
 * - =, <, ≤, >, ≥ on numbers and bools against the smallest and largest
 *   value, neither NaN (a float chunk whose first value is NaN records NaN
 *   for both: nothing is known); compared as the filter compares (-0 as 0,
 *   a BigInt exactly), a NaN value never pruning;
 * - =, <, ≤, >, ≥ and "starts with" on strings, bytewise against the raw
 *   statistics (FORMAT.md: the values themselves, not cut short); an empty
 *   smallest one is the empty string or none (either way a lower bound),
 *   an empty largest one says nothing. Not bytes columns: the reference
 *   writer's statistics of those are wrong after an empty value.
 * ≠, contains and the NaN tests never prune; "any text column" is
 * rowGroupExcluded's (false here).
 */
export function excludedByStats(cond, type, cm, rows) {
  if (!cm || cond.c === ANY_TEXT) return false;
  const { op } = cond;
  if (op === "null") return cm.nullCount === 0;
  if (op === "notnull") return rows > 0 && cm.nullCount === rows;
  let x = cond.value;
  let lo;
  let hi;
  let cmp;
  if (type === "string") {
    if (!(x instanceof Uint8Array) || !(cm.minRaw instanceof Uint8Array) || !(cm.maxRaw instanceof Uint8Array)) return false;
    lo = cm.minRaw;
    hi = cm.maxRaw.length ? cm.maxRaw : null;
    cmp = compareRaw;
    if (op === "starts") {
      // The values starting with x lie between x and x followed by 0xff bytes.
      return (hi !== null && compareRaw(hi, x) < 0) || compareRaw(lo.subarray(0, x.length), x) > 0;
    }
  } else {
    if (type === "bytes") return false;
    lo = numericBound(cm.min);
    hi = numericBound(cm.max);
    cmp = compareNumbers;
  }
  let o = op;
  if (x?.floor !== undefined) {
    // Strictly between two integers (see betweenTest): "=" left alone.
    if (op !== "<" && op !== "<=" && op !== ">" && op !== ">=") return false;
    o = op === "<" || op === "<=" ? "<=" : ">";
    x = x.floor;
  } else if (typeof x === "boolean") x = Number(x);
  if (typeof x === "number" && Number.isNaN(x)) return false;
  if (typeof x !== "number" && typeof x !== "bigint" && !(x instanceof Uint8Array)) return false;
  switch (o) {
    case "=": return (lo !== null && cmp(x, lo) < 0) || (hi !== null && cmp(x, hi) > 0);
    case "<": return lo !== null && cmp(lo, x) >= 0;
    case "<=": return lo !== null && cmp(lo, x) > 0;
    case ">": return hi !== null && cmp(hi, x) <= 0;
    case ">=": return hi !== null && cmp(hi, x) < 0;
    default: return false;
  }
}

/**
 * Whether the footer statistics of row group `rg` (the footer's, of a file
 * of `schema`) show that no row of it passes `cond` (see excludedByStats).
 * "Any text column" (ANY_TEXT) passes a row where one string column does:
 * ruled out only where every string column it searches is, by its own
 * chunk's statistics ("=" and "starts with"; contains never), and never
 * in a file with none.
 */
export function rowGroupExcluded(cond, schema, rg) {
  if (cond.c !== ANY_TEXT) return excludedByStats(cond, schema[cond.c].type, rg.columns[cond.c], rg.numRows);
  const cols = textColumns(schema);
  return cols.length > 0 && cols.every((c) => excludedByStats({ ...cond, c }, "string", rg.columns[c], rg.numRows));
}
