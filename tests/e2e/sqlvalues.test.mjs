// SQL results whose types apache-arrow 17 does not hand over as values:
// DECIMAL (every literal with a point: 0.1 + 0.2) and HUGEINT came out as
// their unscaled integer in quotes ("\"3\""), DATE and TIMESTAMP as
// milliseconds since 1970, TIME as a count, INTERVAL misread ("0,1").
// Each shows now as DuckDB writes it, tagged with its SQL type.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { dropFile, openInspector, runSql, sqlColumn, sqlGridDrawn, sqlReady } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
  const file = buildFile([{ name: "id", type: "int32", nullable: false }], [{ offset: 5, columns: [[1, 2, 3]] }]);
  await dropFile(page, { name: "small.cols", bytes: materialize(file) });
  await sqlReady(page);
});

after(async () => {
  await inspector?.close();
});

async function run(sql) {
  const { state, text } = await runSql(page, sql);
  assert.equal(state, "done", text);
  await sqlGridDrawn(page);
}

/** Row r of the result: { column label: cell text }. */
const row = (r) =>
  page.evaluate((r) => {
    const labels = [...document.querySelectorAll("[data-testid=sql-grid-header]")].map((h) => h.querySelector(".colname").textContent);
    const cells = [...document.querySelectorAll(`[data-testid=sql-grid] .grid-row[data-row="${r}"] .grid-cell:not(.grid-rowno)`)];
    return Object.fromEntries(cells.map((c, k) => [labels[k], c.textContent]));
  }, r);

/** Row r of the result as its cells' text, left to right (for repeated names). */
const cells = (r) => page.$$eval(`[data-testid=sql-grid] .grid-row[data-row="${r}"] .grid-cell:not(.grid-rowno)`, (els) => els.map((c) => c.textContent));
const headers = () => page.$$eval("[data-testid=sql-grid-header] .colname", (els) => els.map((e) => e.textContent));
/** The type tags of the result's header, left to right. */
const tags = () => page.$$eval("[data-testid=sql-grid-header] .type-tag", (els) => els.map((e) => e.textContent));

test("SQL: decimals, huge integers, dates, timestamps, times and intervals show their values", async () => {
  await run(
    "SELECT 0.1 + 0.2 AS f, -12.5 AS neg, 3.14::DECIMAL(10,2) AS dec, 0.05::DECIMAL(4,3) AS small, 12345678901234567890::HUGEINT AS hi, " +
      "DATE '2001-01-01' AS d, TIMESTAMP '2001-01-01 12:00:00.123456' AS ts, TIMESTAMP_NS '2001-01-01 12:00:00.123456789' AS tsns, TIMESTAMPTZ '2001-01-01 12:00:00+00' AS tz, " +
      "TIME '12:34:56.5' AS tm, INTERVAL '1 month 3 days 4 hours' AS iv, INTERVAL 90 MINUTE AS iv2, NULL::DECIMAL(5,2) AS nd",
  );
  assert.deepEqual(await row(0), {
    f: "0.3",
    neg: "-12.5",
    dec: "3.14",
    small: "0.050",
    hi: "12345678901234567890",
    d: "2001-01-01",
    ts: "2001-01-01 12:00:00.123456",
    tsns: "2001-01-01 12:00:00.123456789",
    tz: "2001-01-01 12:00:00 UTC",
    tm: "12:34:56.5",
    iv: "1 month 3 days 04:00:00",
    iv2: "01:30:00",
    nd: "null",
  });
  assert.deepEqual(await tags(), ["decimal(3,1)", "decimal(3,1)", "decimal(10,2)", "decimal(4,3)", "hugeint", "date", "timestamp", "timestamp", "timestamptz", "time", "interval", "interval", "decimal(5,2)"]);
  // A DECIMAL of scale 0 is a decimal (DuckDB hands a HUGEINT over as a DECIMAL(38,0)); nested values are named for what they are.
  await run("SELECT 5::DECIMAL(10,0) AS d0, [1] AS l, {'a': 1} AS s, MAP {'k': 1} AS m, 'x'::ENUM('x', 'y') AS e");
  assert.deepEqual(await tags(), ["decimal(10,0)", "list", "struct", "map", "enum"]);
  // A sum over the file's column times a decimal: exact, with its point.
  await run("SELECT sum(id) * 1.5 AS x FROM t");
  assert.deepEqual(await row(0), { x: "9.0" });
  assert.deepEqual(log.errors, []);
});

test("SQL: intervals, decimals, dates, timestamps and times inside a LIST, STRUCT or MAP show their values", async () => {
  // Lists of other lengths row by row, so each row's elements are found by
  // its offsets (apache-arrow 17 slices an INTERVAL list's values at half
  // their width: the second row read the first row's bytes).
  await run(
    "SELECT * FROM (VALUES " +
      "(1, [INTERVAL 2 DAY], {'a': 1.5::DECIMAL(4,2), 'd': DATE '2001-02-03', 'i': INTERVAL 90 MINUTE}, MAP {'k': INTERVAL '1 month 3 hours'}, [[TIME '01:02:03']]), " +
      "(2, [INTERVAL 1 YEAR, NULL, INTERVAL '-1 day'], {'a': -0.25, 'd': NULL, 'i': INTERVAL 0 SECOND}, MAP {'x': INTERVAL 1 MONTH, 'y': NULL}, [[], [TIME '23:59:59.5']]), " +
      "(3, [], NULL, MAP {}, NULL)" +
      ") v(n, ivs, s, m, tt)",
  );
  const want = [
    { n: "1", ivs: '["2 days"]', s: '{"a":1.50,"d":"2001-02-03","i":"01:30:00"}', m: '{"k":"1 month 03:00:00"}', tt: '[["01:02:03"]]' },
    { n: "2", ivs: '["1 year",null,"-1 day"]', s: '{"a":-0.25,"d":null,"i":"00:00:00"}', m: '{"x":"1 month","y":null}', tt: '[[],["23:59:59.5"]]' },
    { n: "3", ivs: "[]", s: "null", m: "{}", tt: "null" },
  ];
  for (const [r, w] of want.entries()) assert.deepEqual(await row(r), w, `row ${r}`);
  // DuckDB's infinite dates and timestamps, as it says them (they showed as the numbers they are stored as).
  await run("SELECT 'infinity'::DATE AS d, '-infinity'::DATE AS nd, 'infinity'::TIMESTAMP AS ts, '-infinity'::TIMESTAMP AS nts, {'x': 'infinity'::DATE} AS s, DATE '2001-02-03' AS ok");
  assert.deepEqual(await row(0), { d: "infinity", nd: "-infinity", ts: "infinity", nts: "-infinity", s: '{"x":"infinity"}', ok: "2001-02-03" });
  // Numbers inside: NaN, infinities and -0 as themselves (JSON's text made them null and 0, a value shown
  // as no value), 64-bit integers and DECIMALs bare like the others, a REAL in its own shortest form, bytes in hex.
  await run("SELECT [1.5, 'nan'::DOUBLE, 'inf'::DOUBLE, -0.0::DOUBLE, '-inf'::DOUBLE, NULL] AS f, [[0.1::REAL]] AS r, {'b': 9007199254740993::BIGINT, 'd': 1.10::DECIMAL(4,2), 'i': 3} AS s, ['\\xAB'::BLOB] AS y");
  assert.deepEqual(await row(0), { f: "[1.5,NaN,Infinity,-0,-Infinity,null]", r: "[[0.1]]", s: '{"b":9007199254740993,"d":1.10,"i":3}', y: "[0xab]" });
  assert.deepEqual(log.errors, []);
});

test("SQL: UHUGEINT and BIGNUM (VARINT), which come as bytes, show as their numbers, alone and inside a LIST or STRUCT", async () => {
  await run(
    "SELECT 2::UHUGEINT AS u, 340282366920938463463374607431768211455::UHUGEINT AS umax, 123::VARINT AS v, (-123)::VARINT AS vn, 0::VARINT AS z, " +
      "'-1180591620717411303424'::VARINT AS big, [1::UHUGEINT, NULL] AS ul, {'b': (-300)::VARINT} AS sb, NULL::UHUGEINT AS nu, '\\x80\\x00\\x01\\x7b'::BLOB AS blob",
  );
  assert.deepEqual(await row(0), {
    u: "2",
    umax: "340282366920938463463374607431768211455",
    v: "123",
    vn: "-123",
    z: "0",
    big: "-1180591620717411303424",
    ul: "[1,null]",
    sb: '{"b":-300}',
    nu: "null",
    blob: "0x8000017b",
  });
  assert.deepEqual(await tags(), ["uhugeint", "uhugeint", "bignum", "bignum", "bignum", "bignum", "list", "struct", "uhugeint", "bytes"]);
  assert.deepEqual(log.errors, []);
});

test("SQL: a UNION shows its member's value as that type shows; a MAP or STRUCT keeps its entries in order, every key as its text; a date past JavaScript's range is a date", async () => {
  const u = (member, value, type) => `union_value(${member} := ${value})::UNION(${type})`;
  await run(
    `SELECT ${u("d", "DATE '2024-01-01'", "d DATE, i INTEGER")} AS ud, ${u("t", "TIMESTAMP '2024-01-01 12:00:00'", "t TIMESTAMP, i INTEGER")} AS ut, ` +
      `${u("b", "'ab'::BLOB", "b BLOB, i INTEGER")} AS ub, ${u("f", "0.1::FLOAT", "f FLOAT, i INTEGER")} AS uf, ${u("x", "1.5::DECIMAL(3,1)", "x DECIMAL(3,1), s VARCHAR")} AS udec, ` +
      `${u("iv", "INTERVAL 1 DAY", "iv INTERVAL, s VARCHAR")} AS uiv, ${u("h", "1::UHUGEINT", "h UHUGEINT, s VARCHAR")} AS uh, ${u("s", "'txt'", "x DECIMAL(3,1), s VARCHAR")} AS us, ` +
      `[${u("d", "DATE '2024-01-01'", "d DATE, i INTEGER")}] AS lu, NULL::UNION(d DATE, i INTEGER) AS nu`,
  );
  assert.deepEqual(await row(0), { ud: "2024-01-01", ut: "2024-01-01 12:00:00", ub: "0x6162", uf: "0.1", udec: "1.5", uiv: "1 day", uh: "1", us: "txt", lu: '["2024-01-01"]', nu: "null" });
  assert.deepEqual(await tags(), ["union", "union", "union", "union", "union", "union", "union", "union", "list", "union"]);
  await run(
    "SELECT MAP {1.5::DECIMAL(3,1): 'a', 2.5::DECIMAL(3,1): 'b'} AS mdec, MAP {'0.1'::FLOAT: 1, '0.2'::FLOAT: 2} AS mf, MAP {[1,2]: 'x', [1]: 'y'} AS ml, " +
      "MAP {'ab'::BLOB: 1} AS mblob, MAP {10: 'a', 2: 'b', 1: 'c'} AS mord, MAP {'__proto__': 1, 'x': 2} AS mproto, {'2': 'x', '1': 'y'} AS sord",
  );
  assert.deepEqual(await row(0), {
    mdec: '{"1.5":"a","2.5":"b"}',
    mf: '{"0.1":1,"0.2":2}',
    ml: '{"[1,2]":"x","[1]":"y"}',
    mblob: '{"0x6162":1}',
    mord: '{"10":"a","2":"b","1":"c"}',
    mproto: '{"__proto__":1,"x":2}',
    sord: '{"2":"x","1":"y"}',
  });
  // Past JavaScript's Date (±100,000,000 days): dates still, not milliseconds.
  await run("SELECT TIMESTAMP '294247-01-01 00:00:00' AS a, DATE '5881580-07-10' AS b, [DATE '5881580-07-10'] AS c");
  assert.deepEqual(await row(0), { a: "294247-01-01 00:00:00", b: "5881580-07-10", c: '["5881580-07-10"]' });
  assert.deepEqual(log.errors, []);
});

test("SQL: a result sorts by the column clicked, whatever the statement ends with or its columns are called", async () => {
  const sortBy = async (k) => {
    await page.evaluate(() => (document.querySelector("[data-testid=panel-sql]").dataset.sqlState = "sent"));
    await page.click(`[data-testid=sql-grid-header] >> nth=${k}`);
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout: 60_000 });
    assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "done", await page.textContent("[data-testid=sql-result]"));
    await sqlGridDrawn(page);
  };
  // A statement ending in a line comment: the sort's wrapping must not be commented out.
  await run("SELECT id FROM t ORDER BY id DESC -- newest first");
  await sortBy(0);
  assert.deepEqual(await row(0), { id: "1" });
  // Two columns of one name: the second one clicked sorts by the second.
  // ...and keeps the names the statement gave (the sort's subquery renames the second "a" to "a_1").
  await run("SELECT 1 AS a, 2 AS a UNION ALL SELECT 3, 0");
  assert.deepEqual(await headers(), ["a", "a"]);
  await sortBy(1);
  assert.deepEqual(await cells(0), ["3", "0"]);
  assert.deepEqual(await headers(), ["a", "a"]);
  assert.match(await page.textContent("[data-testid=sql-summary]"), /sorted by a ascending$/);
  await sortBy(1);
  assert.deepEqual(await cells(0), ["1", "2"]);
  assert.deepEqual(await headers(), ["a", "a"]);
  await sortBy(0);
  assert.deepEqual(await cells(0), ["1", "2"]);
  assert.deepEqual(await headers(), ["a", "a"]);
  assert.deepEqual(log.errors, []);
});

/** The result's column k, top to bottom, as its cells' text, once the grid has drawn the rows it shows. */
const column = (k) => sqlColumn(page, k);

test("SQL: a header sort orders the rows as DuckDB's ORDER BY does, for every type the result has", async () => {
  // rn: the row's place; every other column orders the rows its own way
  // (the interval's 1 month comes between 29 and 31 days, and 745 hours after
  // them; the ENUM by its declared order, not alphabetically; NaN after Infinity;
  // a UHUGEINT by its number, not its little-endian bytes).
  const e = (v) => `'${v}'::ENUM('sad', 'ok', 'happy')`;
  const statement =
    "SELECT * FROM (VALUES " +
    [
      `(0, 3, 'nan'::DOUBLE, 2.50::DECIMAL(9,2), 'b', DATE '2001-01-01', TIMESTAMP '2001-01-01 00:00:01', INTERVAL 1 MONTH, ${e("ok")}, [1, 2], {'a': 2, 'b': 'x'}, 'ffffffff-0000-0000-0000-000000000000'::UUID, 'x'::BLOB, 18446744073709551616::UHUGEINT, '1180591620717411303424'::VARINT)`,
      `(1, NULL, 'inf'::DOUBLE, -3.25, 'é', DATE '1969-12-31', NULL, INTERVAL 745 HOUR, ${e("happy")}, [1], {'a': 1, 'b': 'z'}, '00000000-0000-0000-0000-000000000001'::UUID, '\\xFF'::BLOB, 1::UHUGEINT, (-300)::VARINT)`,
      `(2, -5, 1.5, 0.01, '😀', NULL, TIMESTAMP '1900-01-01', INTERVAL 29 DAY, ${e("sad")}, NULL, {'a': 1, 'b': 'y'}, NULL, NULL, NULL, 0::VARINT)`,
      `(3, 7, NULL, NULL, 'B', DATE '0001-01-01', TIMESTAMP '2001-01-01', NULL, NULL, [0, 5], NULL, '7fffffff-0000-0000-0000-000000000000'::UUID, '\\x00\\x01'::BLOB, 340282366920938463463374607431768211455::UHUGEINT, 5::VARINT)`,
      `(4, 0, '-inf'::DOUBLE, 100, NULL, DATE '2024-02-29', TIMESTAMP '2030-06-01 12:00:00', INTERVAL 31 DAY, ${e("ok")}, [], {'a': 0, 'b': 'w'}, '80000000-0000-0000-0000-000000000000'::UUID, ''::BLOB, 256::UHUGEINT, (-5)::VARINT)`,
    ].join(", ") +
    ") v(rn, i, f, dec, s, d, ts, iv, en, l, st, u, b, uh, bn)";
  const columns = 15;
  const want = [];
  for (let k = 1; k < columns; k++) {
    for (const dir of ["ASC", "DESC"]) {
      await run(`SELECT * FROM (${statement}) ORDER BY ${k + 1} ${dir} NULLS LAST`);
      want.push(await column(0));
    }
  }
  await run(statement);
  assert.equal((await headers()).length, columns);
  const got = [];
  for (let k = 1; k < columns; k++) {
    for (const dir of ["ascending", "descending"]) {
      await page.evaluate(() => (document.querySelector("[data-testid=panel-sql]").dataset.sqlState = "sent"));
      await page.click(`[data-testid=sql-grid-header] >> nth=${k}`);
      await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout: 60_000 });
      assert.match(await page.textContent("[data-testid=sql-result]"), new RegExp(`sorted by \\S+ ${dir}`), `column ${k}`);
      got.push(await column(0));
    }
  }
  assert.deepEqual(got, want);
  // What this page cannot hand back to DuckDB is said, and the rows stay as they were.
  await run("SELECT * FROM (VALUES (1, [INTERVAL 2 DAY]), (2, [INTERVAL 1 DAY])) v(n, ivs)");
  await page.click("[data-testid=sql-grid-header] >> nth=1");
  await page.waitForSelector("[data-testid=sql-error]", { timeout: 60_000 });
  assert.match(await page.textContent("[data-testid=sql-error]"), /^Could not sort by ivs: .*intervals inside.*ORDER BY in the statement can/);
  assert.equal(await page.getAttribute("[data-testid=sql-grid-header] >> nth=1", "aria-sort"), "none");
  assert.deepEqual(await column(0), ["1", "2"]);
  assert.deepEqual(log.errors, []);
});

test("SQL: table t keeps a string's bytes where the column has invalid UTF-8 too (U+FFFD for the bad bytes only; a leading U+FEFF stays)", async () => {
  const values = [Uint8Array.of(0x61, 0xff), "\uFEFFx", "plain"];
  const file = buildFile([{ name: "s", type: "string", nullable: false }], [{ offset: 5, columns: [values] }]);
  await dropFile(page, { name: "bytes.cols", bytes: materialize(file) });
  await sqlReady(page);
  await run("SELECT hex(s) AS h FROM t");
  assert.deepEqual([await cells(0), await cells(1), await cells(2)], [["61EFBFBD"], ["EFBBBF78"], ["706C61696E"]]);
});
