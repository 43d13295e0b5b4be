// www/js/viewsql.js without a browser: the statement's text for what
// viewsql.test.mjs cannot reach through the page's form (names and
// values with quotes, every column or some, a column not in table t,
// refusals). Its rows against the page's are viewsql.test.mjs's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { viewSql } from "../../www/js/viewsql.js";
import { ANY_TEXT, parseValue } from "../../www/js/filter.js";

const schema = [
  { name: 'say "hi"', type: "string" },
  { name: "n", type: "int64" },
  { name: "x", type: "float32" },
  { name: "b", type: "bytes" },
  { name: "t", type: "string" },
];
const labels = schema.map((s) => s.name);
const all = new Set(schema.keys());
const cond = (c, op, text) => ({ c, op, text, value: op === "null" || op === "notnull" ? null : parseValue(c === ANY_TEXT ? "string" : schema[c].type, text).value });
const make = (over) => viewSql({ schema, labels, cols: [0, 1, 2, 3, 4], filters: [], sort: null, inTable: all, ...over });

test("every column in order is *; some, or in another order, are named, quotes doubled; one not in t is left out", () => {
  assert.equal(make({}).sql, "SELECT *\nFROM t\nORDER BY rowid");
  assert.equal(make({ cols: [1, 0] }).sql.split("\n")[0], 'SELECT "n", "say ""hi"""');
  assert.equal(make({ cols: [0, 1, 2, 3, 4], inTable: new Set([0, 1, 2, 4]) }).sql.split("\n")[0], "SELECT *", "the columns t holds, all of them");
  assert.equal(make({ cols: [3, 4], inTable: new Set([0, 1, 2, 4]) }).sql.split("\n")[0], 'SELECT "t"');
});

test("values: text with quotes, a 64-bit integer past 2^53 and a value between two integers, a float32 as the double it is, bytes in hex", () => {
  const where = (f) => make({ filters: [f] }).sql.split("\n").slice(2, -1).join("\n");
  assert.equal(where(cond(0, "=", "it's")), `WHERE "say ""hi""" = 'it''s'`);
  assert.equal(where(cond(1, ">", "9007199254740993")), `WHERE "n" > 9007199254740993`);
  // A value between two integers: the side it is on, as the Data tab's filter compares it.
  assert.equal(where(cond(1, "<", "2.5")), `WHERE "n" <= 2`);
  assert.equal(where(cond(1, ">=", "-2.5")), `WHERE "n" > -3`);
  assert.equal(where(cond(1, "=", "2.5")), "WHERE false");
  assert.equal(where(cond(1, "!=", "2.5")), `WHERE "n" IS NOT NULL`);
  assert.equal(where(cond(1, "=", "9007199254740993.0")), `WHERE "n" = 9007199254740993`);
  // 0.1 as a float32 is 0.10000000149011612: the column compares as DOUBLE, exactly.
  assert.equal(where(cond(2, "=", "0.1")), `WHERE ("x" = CAST('0.10000000149011612' AS DOUBLE) AND NOT isnan("x"))`);
  assert.equal(where(cond(2, "!=", "nan")), `WHERE "x" IS NOT NULL`);
  assert.equal(where(cond(2, "<", "nan")), "WHERE false");
  assert.equal(where(cond(2, "nan", "")), `WHERE isnan("x")`);
  assert.equal(where(cond(2, "notnan", "")), `WHERE NOT isnan("x")`);
  assert.equal(where(cond(3, ">=", "0x00ff")), `WHERE "b" >= '\\x00\\xff'::BLOB`);
  assert.equal(where(cond(4, "null", "")), `WHERE "t" IS NULL`);
  assert.equal(where(cond(ANY_TEXT, "starts", "a")), `WHERE (starts_with("say ""hi""", 'a')\n    OR starts_with("t", 'a'))`);
  assert.equal(make({ filters: [cond(ANY_TEXT, "=", "a")], inTable: new Set([1]) }).sql.split("\n")[2], "WHERE false", "no text column in t: no row");
});

test("a search inside bytes: over the hex digits from an even one; any case folds ASCII letters only", () => {
  const where = (f) => make({ filters: [f] }).sql.split("\n")[2];
  assert.equal(where(cond(3, "starts", "0x00aF")), `WHERE starts_with(hex("b"), '00AF')`);
  assert.equal(where(cond(3, "contains", "0x23")), `WHERE regexp_matches(hex("b"), '^(?:..)*?23')`);
  assert.equal(where(cond(3, "contains", "0x")), `WHERE regexp_matches(hex("b"), '^(?:..)*?')`);
  // "aZ@[" : a and Z either case; @ (0x40) and [ (0x5b) are not letters.
  assert.equal(where(cond(3, "icontains", "0x615a405b")), `WHERE regexp_matches(hex("b"), '^(?:..)*?(?:41|61)(?:5A|7A)405B')`);
});

test("a column shown as dates: selected as a TIMESTAMP of its unit (try: null past DuckDB's range), t's integer column in conditions and the order", () => {
  assert.equal(make({ units: { 1: "us" } }).sql.split("\n")[0], `SELECT * REPLACE (try(make_timestamp(t."n"::BIGINT)) AS "n")`);
  assert.equal(make({ cols: [1, 0], units: { 1: "ms" } }).sql.split("\n")[0], `SELECT try(epoch_ms(t."n"::BIGINT)) AS "n", "say ""hi"""`);
  assert.equal(make({ cols: [1], units: { 1: "s" } }).sql.split("\n")[0], `SELECT try(make_timestamp(t."n"::BIGINT * 1000000)) AS "n"`);
  assert.equal(make({ cols: [1], units: { 1: "ns" } }).sql.split("\n")[0], `SELECT try(make_timestamp_ns(t."n"::BIGINT)) AS "n"`);
  const sql = make({ cols: [0], units: { 1: "ns" }, filters: [cond(1, ">", "5")], sort: { c: 1, desc: true } }).sql.split("\n");
  assert.deepEqual(sql, [`SELECT "say ""hi"""`, "FROM t", `WHERE t."n" > 5`, `ORDER BY t."n" DESC NULLS LAST, rowid`]);
});

test("a column of t named rowid (any case): the file row numbered in a subquery, under a name no column has", () => {
  const s = [{ name: "ROWID", type: "int64" }, { name: "file row", type: "string" }];
  const sql = viewSql({ schema: s, labels: s.map((x) => x.name), cols: [0, 1], filters: [], sort: { c: 0, desc: false }, inTable: new Set([0, 1]) }).sql.split("\n");
  assert.deepEqual(sql, [`SELECT * EXCLUDE ("file row_")`, `FROM (SELECT *, row_number() OVER () AS "file row_" FROM t) AS t`, `ORDER BY "ROWID" ASC NULLS LAST, "file row_"`]);
  // not in t: DuckDB's rowid is there
  const other = viewSql({ schema: s, labels: s.map((x) => x.name), cols: [1], filters: [], sort: null, inTable: new Set([1]) }).sql;
  assert.equal(other, `SELECT *\nFROM t\nORDER BY rowid`);
});

test("refused by name: a NUL in text, no column shown", () => {
  assert.match(make({ cols: [] }).error, /no column is shown/);
  assert.match(make({ cols: [3], inTable: new Set([0, 1]) }).error, /none of the columns shown is in table t/);
  assert.match(make({ filters: [cond(4, "=", "a\0b")] }).error, /on t holds a NUL character/);
  assert.match(make({ filters: [cond(ANY_TEXT, "contains", "\0")] }).error, /NUL/);
});

test("the order: NaN after the numbers and nulls last for a float; file order among ties", () => {
  assert.equal(make({ sort: { c: 2, desc: true } }).sql.split("\n").at(-1), `ORDER BY isnan("x") NULLS LAST, "x" + 0 DESC, rowid`);
  assert.equal(make({ sort: { c: 1, desc: false } }).sql.split("\n").at(-1), `ORDER BY "n" ASC NULLS LAST, rowid`);
});
