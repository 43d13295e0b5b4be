// The Data tab's filter conditions (www/js/filter.js), in Node without a
// browser: "contains (any case)" over strings beyond ASCII; "any text
// column", a row kept when one of the string columns passes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseValue, applyCondition, applyAnyText, opsOf, textColumns, excludedByStats, rowGroupExcluded, opsFor, ANY_TEXT } from "../../www/js/filter.js";
import { equalsText } from "../../www/js/format.js";
import { formatTime } from "../../www/js/timefmt.js";
import { offsetsAndData } from "../js/check.mjs";

/** A decoded string column as the worker holds it: offsets and UTF-8 data. */
function stringColumn(type, values) {
  return { type, length: values.length, validity: null, values: offsetsAndData(values) };
}

function kept(col, op, text) {
  const { value, error } = parseValue(col.type, text);
  assert.equal(error, undefined);
  const keep = new Uint8Array(col.length).fill(1);
  applyCondition({ op, value }, col, keep);
  return [...keep.keys()].filter((i) => keep[i]);
}

test("a date typed for a column shown as dates: years below 100 as written, and a day, month or time that does not exist refused", () => {
  const at = (text) => parseValue("int64", text, "s");
  // Seconds as Date.parse reads the ISO text (0050-06-15T00:00:00Z ...): Date.UTC alone reads year 50 as 1950.
  assert.deepEqual(at("0050-06-15"), { value: -60575040000n });
  assert.deepEqual(at("0000-01-01"), { value: -62167219200n });
  assert.deepEqual(at("1950-06-15"), { value: -616896000n });
  assert.deepEqual(at("2024-02-29 12:30:05"), { value: 1709209805n });
  for (const text of ["2001-02-30", "2001-13-45", "2023-02-29", "2001-00-10", "2001-01-01 24:00", "2001-01-01 12:60", "2001-01-01 12:00:61"]) {
    assert.match(at(text).error ?? "", /a date and time such as/, text);
  }
});

/** The rows of an integer column (values as the worker holds them) that `op text` keeps, `unit` for a column shown as dates. */
function keptInts(type, values, op, text, unit = null) {
  const { value, error } = parseValue(type, text, unit);
  assert.equal(error, undefined, text);
  const col = { type, length: values.length, validity: null, values };
  const keep = new Uint8Array(values.length).fill(1);
  applyCondition({ op, value }, col, keep);
  return Array.from(values).filter((_, i) => keep[i]);
}

test("a date finer than its column's unit lies between two of its values: = matches none, and < > take the side it is on, before 1970 too", () => {
  // 2001-01-01 00:00:00 is 978307200 s; 1969-12-31 23:59:59 is -1 s.
  const secs = [-2n, -1n, 0n, 978307199n, 978307200n, 978307201n];
  const at = (op, text) => keptInts("int64", secs, op, text, "s");
  assert.deepEqual(at("=", "2001-01-01 00:00:00.5"), []);
  assert.deepEqual(at("!=", "2001-01-01 00:00:00.5"), secs);
  assert.deepEqual(at("<", "2001-01-01 00:00:00.5"), [-2n, -1n, 0n, 978307199n, 978307200n]);
  assert.deepEqual(at("<=", "2001-01-01 00:00:00.5"), [-2n, -1n, 0n, 978307199n, 978307200n]);
  assert.deepEqual(at(">", "2001-01-01 00:00:00.5"), [978307201n]);
  assert.deepEqual(at(">=", "2001-01-01 00:00:00.5"), [978307201n]);
  assert.deepEqual(at(">", "1969-12-31 23:59:59.5"), [0n, 978307199n, 978307200n, 978307201n]);
  assert.deepEqual(at("<=", "1969-12-31 23:59:59.5"), [-2n, -1n]);
  assert.deepEqual(at("=", "1969-12-31 23:59:59"), [-1n]);
  // A unit that holds it: exact, as before.
  assert.deepEqual(parseValue("int64", "2001-01-01 00:00:00.5", "ms"), { value: 978307200500n });
  // Between: the value's exact decimal in the unit, which reads back to it (what a link writes).
  const between = parseValue("int64", "1969-12-31 23:59:59.25", "s").value;
  assert.deepEqual(between, { floor: -1n, decimal: "-0.75" });
  assert.deepEqual(parseValue("int64", between.decimal, "s").value, between);
  assert.deepEqual(parseValue("int32", "2001-01-01 00:00:00.5", "s").value, { floor: 978307200n, decimal: "978307200.5" });
});

test("a number typed for an integer column with a point or an exponent is read exactly, not through a double", () => {
  const big = [9007199254740992n, 9007199254740993n, 9223372036854775806n, 9223372036854775807n];
  assert.deepEqual(keptInts("int64", big, "=", "9007199254740993.0"), [9007199254740993n]);
  assert.deepEqual(keptInts("int64", big, "=", "9.007199254740993e15"), [9007199254740993n]);
  assert.deepEqual(keptInts("int64", big, "<", "9.007199254740993e15"), [9007199254740992n]);
  assert.deepEqual(keptInts("int64", big, "=", "9223372036854775807.0"), [9223372036854775807n]);
  assert.deepEqual(keptInts("int64", big, ">", "9223372036854775806.5"), [9223372036854775807n]);
  assert.deepEqual(keptInts("uint64", [18446744073709551615n, 1n], "=", "1.8446744073709551615e19"), [18446744073709551615n]);
  const small = Int32Array.of(-3, -2, 2, 3);
  assert.deepEqual(keptInts("int32", small, "<", "-2.5"), [-3]);
  assert.deepEqual(keptInts("int32", small, ">=", "2.5"), [3]);
  assert.deepEqual(keptInts("int32", small, "=", "2.0000000000000001"), [], "not 2: a double would round it to 2");
  assert.deepEqual(keptInts("int32", small, "=", ".3e1"), [3]);
  assert.deepEqual(parseValue("int64", "-2.50").value, { floor: -3n, decimal: "-2.5" });
  assert.deepEqual(parseValue("int16", "1e2"), { value: 100 });
  assert.match(parseValue("int64", "1e1001").error, /exponent of at most 1000/);
  assert.match(parseValue("int64", "abc").error, /a whole number \(int64\)/);
});

test("is NaN and is not NaN: float columns only, no value, nulls match neither; = NaN matches nothing", () => {
  const schema = [{ type: "float64" }, { type: "float32" }, { type: "int32" }, { type: "string" }];
  for (const c of [0, 1]) assert.ok(["nan", "notnan"].every((op) => opsOf(schema, c).some((o) => o.op === op && o.noValue)), `column ${c}`);
  for (const c of [2, 3]) assert.ok(!opsOf(schema, c).some((o) => o.op === "nan" || o.op === "notnan"), `column ${c}`);
  const col = { type: "float64", length: 4, validity: Uint8Array.of(0b1011), values: Float64Array.of(NaN, 1, NaN, -0) };
  const rows = (op, value = null) => {
    const keep = new Uint8Array(4).fill(1);
    applyCondition({ op, value }, col, keep);
    return [...keep.keys()].filter((i) => keep[i]);
  };
  assert.deepEqual(rows("nan"), [0], "row 2 is null, whatever its bits");
  assert.deepEqual(rows("notnan"), [1, 3]);
  assert.deepEqual(rows("=", NaN), []);
});

test("a time past Date's range (a 64-bit count reaches them) shows as its date, as DuckDB gives the same count", () => {
  // epoch_us of DuckDB's own timestamps, from DuckDB-Wasm 1.32 (its text: 290309-12-22 (BC), 100001-02-29 (BC)).
  assert.equal(formatTime(9223372036854775806n, "us"), "294247-01-10 04:00:54.775806");
  assert.equal(formatTime(-9223372022400000000n, "us"), "-290308-12-22 00:00:00");
  assert.equal(formatTime(-3217857273944500000n, "us"), "-100000-02-29 13:14:15.5");
  assert.equal(formatTime(185542587014400000n, "ms"), "5881580-07-10 00:00:00");
  // Within it, as before.
  assert.equal(formatTime(1700000000n, "s"), "2023-11-14 22:13:20");
});

test("contains (any case) folds letters beyond ASCII in strings, and ASCII letters in any value", () => {
  const col = stringColumn("string", ["Éclair", "eclair", "CAFÉ", "abc", "ΣΟΦΙΑ", "straße"]);
  assert.deepEqual(kept(col, "icontains", "é"), [0, 2]);
  assert.deepEqual(kept(col, "icontains", "É"), [0, 2]);
  assert.deepEqual(kept(col, "icontains", "caf"), [2]);
  assert.deepEqual(kept(col, "icontains", "CLAIR"), [0, 1]);
  assert.deepEqual(kept(col, "icontains", "σοφ"), [4]);
  assert.deepEqual(kept(col, "icontains", "STRASSE"), [], "lower case, not full case folding: ß stays ß");
  assert.deepEqual(kept(col, "icontains", "STRAß"), [5]);
  // Plain contains stays exact.
  assert.deepEqual(kept(col, "contains", "é"), []);
  assert.deepEqual(kept(col, "contains", "É"), [0, 2]);
});

test("contains (any case) over bytes folds ASCII letters only (bytes are not text)", () => {
  const col = stringColumn("bytes", [[0x41, 0xc3, 0x89], [0x61, 0xff], [0xc3, 0xa9]]);
  assert.deepEqual(kept(col, "icontains", "61"), [0, 1]);
  assert.deepEqual(kept(col, "icontains", "c3a9"), [2]);
  assert.deepEqual(kept(col, "icontains", "ff"), [1]);
});

test("any text column: a row passes when one of the columns does; nulls and unreadable columns match nothing; other conditions still hold", () => {
  const a = stringColumn("string", ["red apple", "pear", "plum", "", "Grape"]);
  const b = stringColumn("string", ["kiwi", "apple pie", "fig", "apple", "lime"]);
  b.validity = Uint8Array.of(0b11101); // row 1 null in b
  const search = (op, text, cols, keep = new Uint8Array(5).fill(1)) => {
    applyAnyText({ op, value: parseValue("string", text).value }, cols, keep);
    return [...keep.keys()].filter((i) => keep[i]);
  };
  assert.deepEqual(search("contains", "apple", [a, b]), [0, 3], "row 1's apple is in b's null row");
  assert.deepEqual(search("icontains", "GRAPE", [a, b]), [4]);
  assert.deepEqual(search("=", "fig", [a, b]), [2]);
  assert.deepEqual(search("starts", "p", [a, b]), [1, 2]);
  assert.deepEqual(search("contains", "apple", [a, null]), [0], "a column that does not read matches nothing");
  assert.deepEqual(search("contains", "apple", [null, null]), []);
  // Rows an earlier condition dropped stay dropped.
  assert.deepEqual(search("contains", "p", [a, b], Uint8Array.of(1, 0, 1, 1, 0)), [0, 2, 3]);
  // What applies: search-like operators only, and the string columns only.
  assert.deepEqual(opsOf([{ type: "int32" }], ANY_TEXT).map((o) => o.op), ["=", "contains", "icontains", "starts"]);
  assert.deepEqual(opsOf([{ type: "int32" }], 0).map((o) => o.op).includes("contains"), false);
  assert.deepEqual(textColumns([{ type: "string" }, { type: "bytes" }, { type: "int8" }, { type: "string" }]), [0, 3]);
});

test("equalsText gives the text parseValue reads back to the same value, for every type; none for NaN, text that is not UTF-8, or one over the limit", () => {
  const f32 = (x) => Math.fround(x);
  const cases = [
    ["int8", -128], ["uint8", 255], ["int16", -32768], ["uint16", 65535], ["int32", -2147483648], ["uint32", 4294967295],
    ["int64", -9223372036854775808n], ["uint64", 18446744073709551615n], ["int64", 12345678901234567n],
    ["float32", f32(0.1)], ["float32", f32(3.4028234663852886e38)], ["float32", f32(-1e-45)], ["float32", Infinity],
    ["float64", 0.1 + 0.2], ["float64", -Infinity], ["float64", 5e-324], ["float64", -0],
    ["bool", true], ["bool", false],
  ];
  for (const [type, v] of cases) {
    const text = equalsText(type, v);
    assert.equal(typeof text, "string", `${type} ${v}`);
    assert.ok(Object.is(parseValue(type, text).value, v), `${type} ${v}: "${text}" reads back as ${parseValue(type, text).value}`);
  }
  const enc = new TextEncoder();
  for (const s of ["", "plain", "ü 😀 ﻿lead", " spaced "]) assert.deepEqual(parseValue("string", equalsText("string", enc.encode(s))).value, enc.encode(s), JSON.stringify(s));
  const raw = Uint8Array.of(0, 0xff, 0x10);
  assert.deepEqual(parseValue("bytes", equalsText("bytes", raw)).value, raw);
  assert.equal(equalsText("float64", NaN), null);
  assert.equal(equalsText("string", Uint8Array.of(0x61, 0xff)), null, "not UTF-8: no text types those bytes");
  assert.equal(equalsText("string", enc.encode("x".repeat(10_001))), null);
  assert.equal(equalsText("string", enc.encode("x".repeat(10_000))), "x".repeat(10_000));
  assert.equal(equalsText("bytes", new Uint8Array(5_001)), null, "10,002 hex digits");
  assert.equal(equalsText("bytes", new Uint8Array(5_000)).length, 10_000);
});

test("a row group ruled out by its statistics has no row the filter passes: floats with NaN and -0 (statistics as the writer keeps them), int64, strings; and some are ruled out", () => {
  // The writer's statistics: the first non-null value, replaced on a strict < or > only.
  const writerStats = (values) => {
    let min = null;
    let max = null;
    for (const v of values) {
      if (v === null) continue;
      if (min === null) [min, max] = [v, v];
      else if (v < min) min = v;
      else if (v > max) max = v;
    }
    return { min, max };
  };
  const te = new TextEncoder();
  let seed = 7;
  const rand = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const floats = [NaN, -0, 0, 1, -1, 2.5, Infinity, -Infinity];
  const texts = ["", "a", "ab", "abc", "b", "ba", "\u00e9", "z"];
  let pruned = 0;
  for (let round = 0; round < 400; round++) {
    const n = 1 + rand(5);
    for (const type of ["float64", "int64", "string"]) {
      const raw = Array.from({ length: n }, () => (rand(6) === 0 ? null : type === "float64" ? floats[rand(floats.length)] : type === "int64" ? BigInt(rand(7) - 3) : texts[rand(texts.length)]));
      const validity = new Uint8Array(1);
      raw.forEach((v, i) => v !== null && (validity[0] |= 1 << i));
      const nullCount = raw.filter((v) => v === null).length;
      let col;
      let cm;
      if (type === "string") {
        const present = raw.filter((v) => v !== null).map((v) => te.encode(v));
        const sorted = [...present].sort((a, b) => Buffer.compare(a, b));
        cm = { nullCount, minRaw: sorted[0] ?? new Uint8Array(0), maxRaw: sorted.at(-1) ?? new Uint8Array(0) };
        col = { type, length: n, validity, values: offsetsAndData(raw.map((v) => v ?? "")) };
      } else {
        cm = { nullCount, ...writerStats(raw) };
        col = { type, length: n, validity, values: type === "int64" ? BigInt64Array.from(raw, (v) => v ?? 0n) : Float64Array.from(raw, (v) => v ?? 0) };
      }
      const candidates = type === "string" ? texts.map((t) => te.encode(t)) : type === "int64" ? [-4n, -3n, 0n, 1n, 3n, 4n, { floor: 0n, decimal: "0.5" }, { floor: -1n, decimal: "-0.5" }] : floats;
      for (const op of opsFor(type).map((o) => o.op)) {
        for (const value of candidates) {
          const cond = { c: 0, op, value };
          const keep = new Uint8Array(n).fill(1);
          applyCondition(cond, col, keep);
          if (excludedByStats(cond, type, cm, n)) {
            pruned++;
            assert.equal(keep.reduce((a, b) => a + b, 0), 0, `${type} ${op} ${String(value?.decimal ?? value)} over ${raw.map(String)} (${String(cm.min ?? "")}..${String(cm.max ?? "")})`);
          }
        }
      }
    }
  }
  assert.ok(pruned > 1000, `${pruned} ruled out`);
});

test("any text column: a row group ruled out by its statistics (every string column's, = and starts with) has no row the search passes; contains never rules one out; some are ruled out", () => {
  const te = new TextEncoder();
  let seed = 11;
  const rand = (n) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const texts = ["", "a", "ab", "abc", "b", "ba", "\u00e9", "z", "zz"];
  // Two string columns searched, an int32 and a bytes column beside them (not searched).
  const schema = [{ type: "string" }, { type: "int32" }, { type: "string" }, { type: "bytes" }];
  let pruned = 0;
  let partly = 0; // row groups one searched column rules out, and another not
  for (let round = 0; round < 600; round++) {
    const n = 1 + rand(5);
    const chunks = [];
    const metas = [];
    for (const { type } of schema) {
      if (type !== "string") {
        chunks.push(null);
        // (statistics that would rule out anything: the columns not searched must not count)
        metas.push({ nullCount: 0, minRaw: te.encode("~"), maxRaw: te.encode("~"), min: 99, max: 99 });
        continue;
      }
      const raw = Array.from({ length: n }, () => (rand(6) === 0 ? null : texts[rand(texts.length)]));
      const validity = new Uint8Array(1);
      raw.forEach((v, i) => v !== null && (validity[0] |= 1 << i));
      const present = raw.filter((v) => v !== null).map((v) => te.encode(v));
      const sorted = [...present].sort((a, b) => Buffer.compare(a, b));
      // One chunk in eight has no statistics (nothing can be ruled out by it).
      const none = rand(8) === 0;
      metas.push({ nullCount: raw.length - present.length, minRaw: none ? undefined : (sorted[0] ?? new Uint8Array(0)), maxRaw: none ? undefined : (sorted.at(-1) ?? new Uint8Array(0)) });
      chunks.push({ type: "string", length: n, validity, values: offsetsAndData(raw.map((v) => v ?? "")) });
    }
    const rg = { numRows: n, columns: metas };
    for (const op of opsOf(schema, ANY_TEXT).map((o) => o.op)) {
      for (const t of texts) {
        const cond = { c: ANY_TEXT, op, value: te.encode(t) };
        const keep = new Uint8Array(n).fill(1);
        applyAnyText(cond, textColumns(schema).map((c) => chunks[c]), keep);
        const out = rowGroupExcluded(cond, schema, rg);
        if (op === "contains" || op === "icontains") assert.equal(out, false, `${op} ${t}`);
        if (out) {
          pruned++;
          assert.equal(keep.reduce((a, b) => a + b, 0), 0, `${op} ${JSON.stringify(t)} ruled out`);
        } else if (textColumns(schema).some((c) => excludedByStats({ ...cond, c }, "string", metas[c], n))) partly++;
      }
    }
  }
  assert.ok(pruned > 1000, `${pruned} ruled out`);
  assert.ok(partly > 500, `${partly} ruled out by one column only, read`);
  // A file without string columns: nothing to search, nothing ruled out by it.
  assert.equal(rowGroupExcluded({ c: ANY_TEXT, op: "=", value: te.encode("a") }, [{ type: "int32" }], { numRows: 1, columns: [{ nullCount: 0, min: 1, max: 1 }] }), false);
  // A named condition as excludedByStats rules: a string column's.
  assert.equal(rowGroupExcluded({ c: 0, op: "=", value: te.encode("b") }, schema, { numRows: 1, columns: [{ nullCount: 0, minRaw: te.encode("a"), maxRaw: te.encode("a") }] }), true);
});
