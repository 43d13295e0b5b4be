// "Open as SQL": the Data tab's view (columns, conditions, order) as a
// statement run by DuckDB in the SQL tab, which must keep the same rows in
// the same order as the page's own filter and sort (tested against the
// corpus elsewhere). Two engines that share no code: where they disagree,
// one of the rules in www/js/viewsql.js is wrong. The cases are the ones
// where SQL and the page differ by default: NaN (never equal, never
// ordered, on the page; after the numbers in a sort), -0 equal to 0,
// nulls last both ways, text in byte
// order and in any case, quotes, 64-bit integers past 2^53, a fraction
// against integers, bytes (compared, searched, sorted), float32, and file
// order among equal values across row groups.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openInspector, corpus, waitState, gridDrawn, runSql, tab } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "viewsql-"));
const SCHEMA = [
  { name: "id", type: "int32", nullable: false },
  { name: "f", type: "float64", nullable: true },
  { name: "s", type: "string", nullable: true },
  { name: "g", type: "int64", nullable: true },
  { name: "y", type: "bytes", nullable: true },
];
// Two row groups of six rows; id is the file row. y's bytes: 0x23 lies in
// 0x1234's hex digits, but not on a byte.
const B = (...b) => Uint8Array.from(b);
const ROWS = [
  [1.5, "b", "9007199254740993", B(0x12, 0x34)],
  [NaN, "A", -5, B(0x41, 0x62, 0x43)],
  [-0, "é", 0, B(0x61, 0x62, 0x63)],
  [0, "É", null, null],
  [null, null, "9007199254740992", B()],
  [-Infinity, "", 7, B(0x00, 0x41)],
  [Infinity, "ab", 1, B(0x78, 0x61, 0x42, 0x63, 0x78)],
  [NaN, "Ba", 2, B(0x23)],
  [2, "b", 3, B(0xff, 0x41, 0x42)],
  [-0, "zz", 4, B(0x61, 0x62)],
  [null, "it's", 5, B(0x01, 0x23, 0x45)],
  [1.5, "ÉCOLE", "9007199254740993", null],
];
function synthFile() {
  const group = (rows, base) => ({ columns: [rows.map((_, k) => base + k), ...[0, 1, 2, 3].map((j) => rows.map((r) => r[j]))] });
  const a = group(ROWS.slice(0, 6), 0);
  const b = group(ROWS.slice(6), 6);
  return materialize(buildFile(SCHEMA, [a, b]));
}

// Integers shown as dates, one per unit: `created` (int32) and `seen` are
// chosen on the page, event_time (us) and logged_at (ns) guessed by it.
const TIMES = [
  { name: "id", type: "int32", nullable: false },
  { name: "created", type: "int32", nullable: true },
  { name: "seen", type: "int64", nullable: true },
  { name: "event_time", type: "int64", nullable: true },
  { name: "logged_at", type: "int64", nullable: true },
];
const TIME_ROWS = [
  [1700000000, 1700000000123n, 1700000000123456n, 1700000000123456789n],
  [-1, -1n, -1n, -1n],
  [0, 0n, 0n, 0n],
  [null, null, null, null],
  [1700003600, 1700000000124n, 1700000000000001n, 1700000000000000001n],
];
function timesFile() {
  const columns = [TIME_ROWS.map((_, k) => k), ...[0, 1, 2, 3].map((j) => TIME_ROWS.map((r) => r[j]))];
  return materialize(buildFile(TIMES, [{ offset: 5, columns }]));
}

let ins;
before(async () => {
  fs.writeFileSync(path.join(dir, "cases.cols"), synthFile());
  fs.writeFileSync(path.join(dir, "times.cols"), timesFile());
  const rowid = [{ name: "RowID", type: "int32", nullable: false }, { name: "k", type: "int32", nullable: false }];
  fs.writeFileSync(path.join(dir, "rowid.cols"), materialize(buildFile(rowid, [{ columns: [[5, 4, 3], [1, 0, 1]] }, { columns: [[2, 1, 0], [0, 1, 0]] }])));
  ins = await openInspector({ viewport: { width: 1400, height: 1000 } }, { mounts: { "/corpus/": corpus, "/cases/": dir } });
});
after(async () => {
  await ins?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The view a link asks for, on the Data tab: its row count and its file rows in order (those drawn). */
async function dataView(page, file, where, sort = null, desc = false) {
  const q = `url=${encodeURIComponent(file)}&tab=data&where=${encodeURIComponent(JSON.stringify(where))}${sort === null ? "" : `&sort=${sort}${desc ? "&desc=1" : ""}`}`;
  await page.goto(`${ins.server.base}?${q}`);
  await waitState(page, "ready");
  await page.waitForFunction(() => {
    const s = document.querySelector("[data-testid=data-status]");
    return s?.dataset.total !== undefined && /where|sorted/.test(s.textContent);
  });
  await gridDrawn(page);
  const total = Number(await page.getAttribute("[data-testid=data-status]", "data-total"));
  const rows = await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.sort((a, b) => a.dataset.row - b.dataset.row).map((r) => Number(r.dataset.fileRow)));
  return { total, rows };
}

/** "Open as SQL", then the result: its row count and its first column as drawn. */
async function asSql(page) {
  await page.evaluate(() => (document.querySelector("[data-testid=panel-sql]").dataset.sqlState = "sent"));
  await page.click("[data-testid=view-sql]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout: 120_000 });
  if ((await page.getAttribute("[data-testid=panel-sql]", "data-sql-state")) === "error") throw new Error(`${await page.inputValue("[data-testid=sql-input]")}\n${await page.textContent("[data-testid=sql-error]")}`);
  await gridDrawn(page, "sql-grid");
  const total = Number(await page.getAttribute("[data-testid=sql-state]", "data-rows"));
  const first = await page.$$eval("[data-testid=sql-grid] .grid-row:not([hidden]) .grid-cell[data-col='0']", (cs) => cs.sort((a, b) => a.closest(".grid-row").dataset.row - b.closest(".grid-row").dataset.row).map((c) => c.textContent));
  return { total, first, sql: await page.inputValue("[data-testid=sql-input]") };
}

const CASES = [
  // [where, sort, desc, rows the page keeps, in order (from ROWS by hand)]
  [[[1, ">", "0"]], null, false, [0, 6, 8, 11]],
  [[[1, "!=", "1.5"]], null, false, [1, 2, 3, 5, 6, 7, 8, 9]],
  [[[1, "=", "nan"]], null, false, []],
  [[[1, "!=", "nan"]], null, false, [0, 1, 2, 3, 5, 6, 7, 8, 9, 11]],
  [[[1, "<=", "0"]], null, false, [2, 3, 5, 9]],
  [[[2, "icontains", "é"]], null, false, [2, 3, 11]],
  [[[2, "<", "b"]], null, false, [1, 5, 6, 7]],
  [[[2, "contains", "'"]], null, false, [10]],
  [[[2, "starts", "b"]], null, false, [0, 8]],
  [[[3, "=", "9007199254740993"]], null, false, [0, 11]],
  [[[3, ">", "2.5"]], null, false, [0, 4, 5, 8, 9, 10, 11]],
  [[[-1, "icontains", "B"]], null, false, [0, 6, 7, 8]],
  [[[2, "null", ""]], 1, false, [4]],
  [[[0, ">=", "0"]], 1, false, [5, 2, 3, 9, 0, 11, 8, 6, 1, 7, 4, 10]],
  [[[0, ">=", "0"]], 1, true, [6, 8, 0, 11, 2, 3, 9, 5, 1, 7, 4, 10]],
  [[[0, ">=", "0"]], 2, false, [5, 1, 7, 6, 0, 8, 10, 9, 3, 11, 2, 4]],
  [[[0, ">=", "0"]], 2, true, [2, 11, 3, 9, 10, 0, 8, 6, 7, 1, 5, 4]],
  [[[1, "notnull", ""]], 3, true, [0, 11, 5, 9, 8, 7, 6, 2, 1, 3]],
  [[[4, "contains", "0x23"]], null, false, [7, 10]],
  [[[4, "contains", "0x"]], null, false, [0, 1, 2, 4, 5, 6, 7, 8, 9, 10]],
  [[[4, "icontains", "0x4263"]], null, false, [1, 2, 6]],
  [[[4, "icontains", "0x00"]], null, false, [5]],
  [[[4, "starts", "0x41"]], null, false, [1]],
  [[[0, ">=", "0"]], 4, false, [4, 5, 10, 0, 7, 1, 9, 2, 6, 8, 3, 11]],
  [[[0, ">=", "0"]], 4, true, [8, 6, 2, 9, 1, 7, 0, 10, 5, 4, 3, 11]],
];

test("the page's filter and sort and DuckDB's statement keep the same rows in the same order: NaN, -0, nulls, text, quotes, 64-bit integers", async () => {
  const { page } = ins;
  for (const [where, sort, desc, want] of CASES) {
    const what = JSON.stringify([where, sort, desc]);
    const data = await dataView(page, "/cases/cases.cols", where, sort, desc);
    assert.deepEqual(data.rows, want, `the page's view ${what}`);
    assert.equal(data.total, want.length, what);
    const sql = await asSql(page);
    assert.equal(sql.total, want.length, `${what}\n${sql.sql}`);
    assert.deepEqual(sql.first, want.map(String), `${what}\n${sql.sql}`);
  }
});

test("every type: bytes compared and searched by their bytes, float32 as typed, bool, uint64; the columns shown are the columns selected", async () => {
  const { page } = ins;
  const file = "/corpus/valid/all_types_small.cols";
  for (const [where, n] of [
    [[[22, "=", "0x626c6f622d303030327c32"]], 3],
    [[[23, "<", "0x626c6f622d303030327c32"]], 4],
    [[[0, "=", "true"]], 9],
    [[[19, "=", "-9.75"]], 2],
    [[[18, ">", "-9.5"]], 6],
    [[[17, ">", "18000000000034"]], 4],
    [[[9, "<", "-1099509627770"]], 4],
    [[[22, "contains", "0x7c33"]], 3],
    [[[22, "icontains", "0x424c4f42"]], 15],
    [[[22, "starts", "0x626c6f622d30303033"]], 3],
  ]) {
    const data = await dataView(page, file, where);
    assert.equal(data.total, n, JSON.stringify(where));
    const sql = await asSql(page);
    assert.equal(sql.total, n, `${JSON.stringify(where)}\n${sql.sql}`);
  }
});

test("a condition that has no SQL here (a NUL in text) is refused by name, and the Data tab stays", async () => {
  const { page } = ins;
  await dataView(page, "/corpus/valid/all_types_small.cols", [[24, "contains", "a\u0000"]]);
  await page.click("[data-testid=view-sql]");
  const toast = await page.waitForSelector(".toast.error", { timeout: 30_000 });
  assert.match(await toast.textContent(), /cannot be written in SQL: the condition on c_string holds a NUL character/);
  assert.equal(await page.isVisible("[data-testid=panel-data]"), true);
  assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "idle", "DuckDB not started for it");
});

test("columns shown as dates are selected as TIMESTAMPs of their unit, shown as the page shows them; their conditions and order stay on the integers", async () => {
  const { page } = ins;
  // event_time >= 1970-01-01 (typed as a date: 0), sorted by logged_at, descending.
  const data = await dataView(page, "/cases/times.cols", [[3, ">=", "1970-01-01"]], 4, true);
  assert.deepEqual(data.rows, [0, 4, 2]);
  for (const [c, unit] of [[1, "s"], [2, "ms"]]) {
    await page.click(`[data-testid=data-grid] .grid-row[data-file-row='0'] .grid-cell[data-col='${c}']`);
    await page.waitForSelector("[data-testid=cell-time-unit]");
    await page.selectOption("[data-testid=cell-time-unit]", unit);
    await page.waitForFunction((k) => /^\d{4}-/.test(document.querySelector(`[data-testid=data-grid] .grid-row[data-file-row='0'] .grid-cell[data-col='${k}']`)?.textContent || ""), c);
  }
  await gridDrawn(page);
  // By hand, rows 0, 4, 2; columns created (s), seen (ms), event_time (us), logged_at (ns).
  const want = [
    ["0", "2023-11-14 22:13:20", "2023-11-14 22:13:20.123", "2023-11-14 22:13:20.123456", "2023-11-14 22:13:20.123456789"],
    ["4", "2023-11-14 23:13:20", "2023-11-14 22:13:20.124", "2023-11-14 22:13:20.000001", "2023-11-14 22:13:20.000000001"],
    ["2", "1970-01-01 00:00:00", "1970-01-01 00:00:00", "1970-01-01 00:00:00", "1970-01-01 00:00:00"],
  ];
  const cells = (grid) =>
    page.$$eval(`[data-testid=${grid}] .grid-row:not([hidden])`, (rs) =>
      rs.sort((a, b) => a.dataset.row - b.dataset.row).map((r) => [...r.querySelectorAll(".grid-cell:not(.grid-rowno)")].sort((a, b) => a.dataset.col - b.dataset.col).map((c) => c.textContent)),
    );
  assert.deepEqual(await cells("data-grid"), want, "the page");
  const sql = await asSql(page);
  assert.match(sql.sql, /^SELECT \* REPLACE \(/, sql.sql);
  assert.equal(sql.total, 3, sql.sql);
  await gridDrawn(page, "sql-grid");
  assert.deepEqual(await cells("sql-grid"), want, sql.sql);
  // Before 1970, and a null, in SQL: the page's own view of them is its tests'.
  const r = await runSql(page, sql.sql.replace(/WHERE[^\n]*\n/, "WHERE id IN (1, 3)\n"));
  assert.equal(r.state, "done", r.text);
  await gridDrawn(page, "sql-grid");
  assert.deepEqual(await cells("sql-grid"), [
    ["1", "1969-12-31 23:59:59", "1969-12-31 23:59:59.999", "1969-12-31 23:59:59.999999", "1969-12-31 23:59:59.999999999"],
    ["3", "null", "null", "null", "null"],
  ]);
});

test("a column named rowid (any case) hides DuckDB's: ties still keep file order", async () => {
  const { page } = ins;
  // RowID runs against the file's order; k ties every other row.
  const data = await dataView(page, "/cases/rowid.cols", [], 1, false);
  assert.deepEqual(data.rows, [1, 3, 5, 0, 2, 4]);
  const sql = await asSql(page);
  assert.deepEqual(sql.first, ["4", "2", "0", "5", "3", "1"], sql.sql);
  const plain = await dataView(page, "/cases/rowid.cols", [[1, ">=", "0"]]);
  assert.deepEqual(plain.rows, [0, 1, 2, 3, 4, 5]);
  assert.deepEqual((await asSql(page)).first, ["5", "4", "3", "2", "1", "0"]);
});

test("sorted by a float column, SQL shows its values as the page does: -0 stays -0", async () => {
  const { page } = ins;
  const cellsOf = (grid, col) =>
    page.$$eval(`[data-testid=${grid}] .grid-row:not([hidden]) .grid-cell[data-col='${col}']`, (cs) => cs.sort((a, b) => a.closest(".grid-row").dataset.row - b.closest(".grid-row").dataset.row).map((c) => c.textContent));
  for (const desc of [false, true]) {
    const data = await dataView(page, "/cases/cases.cols", [[0, ">=", "0"]], 1, desc);
    const shown = await cellsOf("data-grid", 1);
    // By hand from ROWS: -0 twice, in file order among the zeros.
    assert.deepEqual(shown, desc ? ["Infinity", "2", "1.5", "1.5", "-0", "0", "-0", "-Infinity", "NaN", "NaN", "null", "null"] : ["-Infinity", "-0", "0", "-0", "1.5", "1.5", "2", "Infinity", "NaN", "NaN", "null", "null"]);
    assert.equal(data.total, 12);
    const sql = await asSql(page);
    assert.deepEqual(await cellsOf("sql-grid", 1), shown, sql.sql);
  }
});

test("no page errors", () => {
  assert.deepEqual(ins.log.errors, []);
});

test("statements that change table t (DELETE, UPDATE, DROP, a view named t): Open as SQL loads t from the file again, and shows the file's rows", async () => {
  const { page } = ins;
  const where = [[0, ">=", "0"]];
  const want = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(String);
  await dataView(page, "/cases/cases.cols", where);
  assert.deepEqual((await asSql(page)).first, want, "the file's rows");
  for (const change of ["DELETE FROM t WHERE id < 6", "UPDATE t SET id = id + 100", "DROP TABLE t", "DROP TABLE t; CREATE VIEW t AS SELECT 1 AS id", "/* rows */ delete\nfrom \"t\" where id > 2"]) {
    const ran = await runSql(page, change);
    assert.equal(ran.state, "done", `${change}: ${ran.text}`);
    assert.equal(await page.isVisible("[data-testid=sql-changed]"), true, `${change}: said t may have changed`);
    await tab(page, "data");
    const sql = await asSql(page);
    assert.deepEqual(sql.first, want, `${change}, then Open as SQL`);
    assert.equal(await page.isVisible("[data-testid=sql-changed]"), false, "t is the file's again");
  }
  // A statement that only reads t leaves it loaded: no note, no second load.
  const ran = await runSql(page, "SELECT 'DELETE' AS \"update\", count(*) FROM t -- drop");
  assert.equal(ran.state, "done", ran.text);
  assert.equal(await page.isVisible("[data-testid=sql-changed]"), false);
});

test("the statements to try name only columns table t holds (none before it is loaded; a tokenized column without its tokenizer is left out)", async () => {
  const { page } = ins;
  await page.goto(`${ins.server.base}?url=${encodeURIComponent("/corpus/valid/tokenized_two_tokenizers.cols")}&tab=sql`);
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
  const tries = await page.$$eval(".sql-examples button", (bs) => bs.map((b) => b.textContent));
  assert.ok(tries.includes("Top untokenized"), tries.join(" | "));
  assert.ok(!tries.some((t) => /gpt2|text_small/.test(t)), tries.join(" | "));
  await page.click(".sql-examples button:text-is('Top untokenized')");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout: 60_000 });
  assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "done");
});
