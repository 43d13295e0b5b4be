// The SQL tab on a small file made here: nothing is fetched from outside
// the site whatever the statement asks for (DuckDB would install and load
// an extension from its own server, or read a URL), the user is told why
// such a statement cannot run, and DuckDB's messages read once.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { corpus, dropFile, openInspector, recordOutside, runSql, shot, sqlColumn, sqlGridDrawn, sqlReady, tab } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let inspector, recorder, page, log;

function smallFile() {
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "name", type: "string", nullable: true },
  ];
  const n = 12;
  const cols = [Array.from({ length: n }, (_, k) => k), Array.from({ length: n }, (_, k) => (k % 4 ? `n${k}` : null))];
  return Buffer.from(materialize(buildFile(schema, [{ offset: 5, columns: cols }])));
}

before(async () => {
  recorder = await recordOutside();
  inspector = await openInspector({ proxy: recorder.proxy });
  ({ page, log } = inspector);
  await dropFile(page, { name: "small.cols", bytes: smallFile() });
  await sqlReady(page);
});

after(async () => {
  await inspector?.close();
  recorder?.stop();
});

const run = (sql) => runSql(page, sql);

const offsite = () => [...log.foreign, ...recorder.outside];

test("statements that would need an extension or a URL fetch nothing from outside and say why they cannot run", async () => {
  assert.equal((await run("SELECT count(*) AS n FROM t")).state, "done");
  const json = await run(`SELECT json_extract('{"a":1}', '$.a') AS j`);
  assert.deepEqual(offsite(), [], "json_extract fetched nothing from outside");
  assert.equal(json.state, "error");
  assert.match(json.text, /json extension is not bundled with this page/);
  assert.match(json.text, /never fetches anything from outside the site/);
  assert.doesNotMatch(json.text, /INSTALL json|autoinstall|signature mismatch/, "no advice that cannot work here");
  await shot(page, "60-sql-no-extension");
  const parquet = await run("SELECT * FROM read_parquet('https://example.com/x.parquet')");
  assert.equal(parquet.state, "error");
  assert.match(parquet.text, /parquet extension is not bundled/);
  const csv = await run("SELECT * FROM read_csv('https://example.com/x.csv')");
  assert.equal(csv.state, "error");
  assert.match(csv.text, /example\.com.*disabled[\s\S]*never fetches anything from outside the site/);
  // Neither can a statement turn fetching back on.
  for (const sql of ["SET autoload_known_extensions = true", "SET autoinstall_known_extensions = true", "SET enable_external_access = true"]) {
    const r = await run(sql);
    assert.equal(r.state, "error", sql);
    assert.match(r.text, /locked/, sql);
  }
  assert.equal((await run(`SELECT json_extract('{"a":1}', '$.a') AS j`)).state, "error");
  // Table t is still there and queryable.
  const again = await run("SELECT count(*) AS n FROM t");
  assert.equal(again.state, "done");
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']")?.textContent === "12", null, { timeout: 30_000 });
  assert.deepEqual(offsite(), [], "every request stayed on the local server");
});

test("INSTALL, in every form, is refused with the message LOAD gives: no extension is bundled and none is fetched", async () => {
  for (const sql of ["INSTALL httpfs", "FORCE INSTALL parquet", "INSTALL spatial FROM community", "-- first\n/* then */ install json"]) {
    const r = await run(sql);
    assert.equal(r.state, "error", sql);
    assert.match(r.text, /^INSTALL is refused here: extensions are not bundled with this page\.\n\n.*never fetches anything from outside the site/, sql);
  }
  const load = await run("LOAD httpfs");
  assert.equal(load.state, "error");
  assert.match(load.text, /never fetches anything from outside the site/);
  const script = await run("SELECT 1; INSTALL httpfs");
  assert.match(script.text, /^statement 2 of 2 .*: INSTALL is refused here/);
  assert.deepEqual(offsite(), []);
});

test("a SET is refused with why settings are locked, not a paragraph about fetching", async () => {
  for (const sql of ["SET threads = 4", "SET TimeZone = 'UTC'", "SET enable_external_access = true"]) {
    const r = await run(sql);
    assert.equal(r.state, "error", sql);
    assert.match(r.text, /the configuration has been locked\n\nSettings are locked on this page: .*so that the page stays offline/, sql);
    assert.doesNotMatch(r.text, /never fetches/, sql);
  }
});

test("a result too big for DuckDB-Wasm's memory says so and how to narrow it; DuckDB still answers after", async () => {
  // 2,000,000 rows of 1,100 bytes: 2.2 GB of text, over what one allocation may take.
  const r = await run("SELECT repeat('x', 1100) AS big FROM range(2000000)");
  assert.equal(r.state, "error");
  assert.match(r.text, /malloc of size \d+ failed|Out of Memory/);
  assert.match(r.text, /larger than the memory this browser lets DuckDB-Wasm use\. Narrow it: fewer columns or rows \(WHERE, LIMIT\)/);
  assert.equal((await run("SELECT 1 AS one")).state, "done");
});

test("a syntax error shows DuckDB's LINE block once", async () => {
  const r = await run("SELEC * FROM t");
  assert.equal(r.state, "error");
  assert.match(r.text, /syntax error at or near "SELEC"/);
  assert.equal(r.text.match(/LINE 1:/g)?.length, 1, r.text);
  assert.match(r.text, /LINE 1: SELEC \* FROM t\n\s*\^/);
  await shot(page, "61-sql-syntax-error");
});

/**
 * Holds every "query" the page posts to a worker until release() (so a
 * statement stays running as long as the test needs, whatever the
 * machine's speed) and counts them: what reached, or would reach, DuckDB.
 * Counts the "sort"s posted too (by column, not held).
 */
async function holdQueries() {
  await page.evaluate(() => {
    if (!window.__queries) {
      const send = Worker.prototype.postMessage;
      window.__queries = { sent: [], sorts: [], held: [], hold: false };
      Worker.prototype.postMessage = function (msg, ...rest) {
        const q = window.__queries;
        if (msg?.op === "sort") {
          q.sorts.push(msg.args.key);
          if (q.holdSorts) return q.held.push(() => send.call(this, msg, ...rest));
        }
        if (msg?.op !== "query") return send.call(this, msg, ...rest);
        q.sent.push(msg.args.sql);
        if (q.hold) q.held.push(() => send.call(this, msg, ...rest));
        else send.call(this, msg, ...rest);
      };
    }
    Object.assign(window.__queries, { sent: [], sorts: [], held: [], hold: true, holdSorts: false });
  });
  return {
    sent: () => page.evaluate(() => window.__queries.sent),
    sorts: () => page.evaluate(() => window.__queries.sorts),
    /** Sorts sent from now on are held too, until release. */
    holdSorts: () => page.evaluate(() => (window.__queries.holdSorts = true)),
    release: () =>
      page.evaluate(() => {
        const q = window.__queries;
        q.hold = false;
        q.holdSorts = false;
        for (const go of q.held.splice(0)) go();
      }),
  };
}

const sqlState = () => page.getAttribute("[data-testid=panel-sql]", "data-sql-state");

test("Ctrl+Enter (and Cmd+Enter) or a sort while a statement runs starts no second one, as the disabled Run button does not", async () => {
  assert.equal((await run("SELECT 'zero' AS which")).state, "done"); // a result whose header can be clicked
  const q = await holdQueries();
  await page.fill("[data-testid=sql-input]", "SELECT 'first' AS which");
  await page.press("[data-testid=sql-input]", "Control+Enter");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  assert.deepEqual(await q.sent(), ["SELECT 'first' AS which"]);
  assert.equal(await page.isDisabled("[data-testid=sql-run]"), true, "Run is disabled while the statement runs");
  await page.fill("[data-testid=sql-input]", "SELECT 'second' AS which");
  await page.press("[data-testid=sql-input]", "Control+Enter");
  await page.press("[data-testid=sql-input]", "Meta+Enter");
  // The last result stays on show while the statement runs; a click on its header sorts nothing.
  await page.click("[data-testid=sql-grid-header] >> nth=0");
  // Whatever the keys started would have posted its query by now: a
  // round trip through the page's event loop and the worker's.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  assert.deepEqual(await q.sent(), ["SELECT 'first' AS which"], "no second statement reached DuckDB");
  assert.deepEqual(await q.sorts(), [], "nor a sort");
  assert.equal(await sqlState(), "running");
  assert.equal(await page.getAttribute("[data-testid=sql-grid-header] >> nth=0", "aria-sort"), "none", "no sort marked that did not run");
  await q.release();
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']")?.textContent === "first", null, { timeout: 30_000 });
  assert.deepEqual(await q.sent(), ["SELECT 'first' AS which"]);
  // Once it is done, the shortcut runs the editor's statement again, once.
  await page.press("[data-testid=sql-input]", "Control+Enter");
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']")?.textContent === "second", null, { timeout: 60_000 });
  assert.deepEqual(await q.sent(), ["SELECT 'first' AS which", "SELECT 'second' AS which"]);
});

test("while a statement runs the status says so, with its seconds, and the result before is marked as the previous statement's until the new one comes", async () => {
  assert.equal((await run("SELECT 'before' AS which")).state, "done");
  const loaded = await page.textContent("[data-testid=sql-state]");
  assert.match(loaded, /^Table t: 12 rows/);
  const q = await holdQueries();
  await page.fill("[data-testid=sql-input]", "SELECT 'after' AS which");
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  assert.equal(await page.textContent("[data-testid=sql-state]"), "Running the statement…");
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-elapsed]")?.textContent === "1 s", null, { timeout: 5_000 });
  assert.match(await page.textContent("[data-testid=sql-previous]"), /previous statement's result/);
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("[data-testid=sql-summary]")).opacity), "0.5", "the old result is dimmed");
  await q.release();
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  assert.equal(await page.textContent("[data-testid=sql-state]"), loaded, "table t's status again");
  assert.equal(await page.textContent("[data-testid=sql-elapsed]"), "");
  assert.equal(await page.$("[data-testid=sql-previous]"), null);
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector("[data-testid=sql-summary]")).opacity), "1");
  assert.deepEqual(await column(0), ["after"]);
});

test("the downloads are disabled, saying why, while a statement runs, and work once it is done", async () => {
  assert.equal((await run("SELECT 'before' AS which")).state, "done");
  const q = await holdQueries();
  await page.fill("[data-testid=sql-input]", "SELECT 'after' AS which");
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  for (const format of ["csv", "json"]) {
    assert.equal(await page.isDisabled(`[data-testid=sql-export-${format}]`), true, `${format} disabled`);
    assert.match(await page.getAttribute(`[data-testid=sql-export-${format}]`, "title"), /Not while a statement, a sort or a download runs/);
  }
  await q.release();
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  assert.equal(await page.isDisabled("[data-testid=sql-export-csv]"), false);
  assert.equal(await page.getAttribute("[data-testid=sql-export-csv]", "title"), null);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=sql-export-csv]")]);
  assert.equal(fs.readFileSync(await download.path(), "utf8"), "which\r\nafter\r\n");
});

test("after another file opens, one Ctrl+Enter runs one statement", async () => {
  await dropFile(page, { name: "small2.cols", bytes: smallFile() });
  await sqlReady(page);
  const q = await holdQueries();
  await q.release(); // counted, not held
  await page.fill("[data-testid=sql-input]", "SELECT count(*) AS n FROM t");
  await page.press("[data-testid=sql-input]", "Control+Enter");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  assert.deepEqual(await q.sent(), ["SELECT count(*) AS n FROM t"]);
});

/** The result's column k, top to bottom, as its cells' text, once the grid has drawn the rows it shows. */
const column = (k) => sqlColumn(page, k);

/** Clicks header k and waits for the sort to be shown (done) or refused (error); resolves that state. */
async function clickSort(k, summary) {
  await page.click(`[data-testid=sql-grid-header] >> nth=${k}`);
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("[data-testid=sql-summary]")?.textContent || "") || document.querySelector("[data-testid=sql-error]"), summary.source, { timeout: 60_000 });
  return sqlState();
}

test("sorting a result never runs its statement again: an INSERT ... RETURNING sorted inserts its rows once", async () => {
  const q = await holdQueries();
  await q.release(); // counted, not held
  assert.equal((await run("CREATE TABLE u (a INTEGER)")).state, "done");
  assert.equal((await run("INSERT INTO u VALUES (2), (1), (3) RETURNING a")).state, "done");
  assert.deepEqual(await column(0), ["2", "1", "3"]);
  const before = (await q.sent()).length;
  assert.equal(await clickSort(0, /sorted by a ascending$/), "done", await page.textContent("[data-testid=sql-result]"));
  assert.deepEqual(await column(0), ["1", "2", "3"]);
  assert.equal(await clickSort(0, /sorted by a descending$/), "done");
  assert.deepEqual(await column(0), ["3", "2", "1"]);
  // A third click: the statement's own order, again without running it.
  await page.click("[data-testid=sql-grid-header] >> nth=0");
  await page.waitForFunction(() => !/sorted by/.test(document.querySelector("[data-testid=sql-summary]")?.textContent || "x"), null, { timeout: 60_000 });
  assert.deepEqual(await column(0), ["2", "1", "3"]);
  assert.equal((await q.sent()).length, before, "no statement reached DuckDB for the sorts");
  assert.deepEqual(await q.sorts(), [0, 0, null]);
  const count = await run("SELECT count(*) AS n FROM u");
  assert.equal(count.state, "done");
  assert.deepEqual(await column(0), ["3"], "the rows were inserted once");
});

test("header clicks while a sort runs are done after it, as the header's next states: a double click sorts descending", async () => {
  const q = await holdQueries();
  await q.release(); // counted, not held
  assert.equal((await run("SELECT * FROM (VALUES (2, 'b'), (1, 'c'), (3, 'a')) v(a, b)")).state, "done");
  await q.holdSorts();
  await page.dblclick("[data-testid=sql-grid-header] >> nth=0");
  assert.deepEqual(await q.sorts(), [0], "one sort runs; the second click waits for it");
  await q.release();
  await page.waitForFunction(() => /sorted by a descending$/.test(document.querySelector("[data-testid=sql-summary]")?.textContent || ""), null, { timeout: 60_000 });
  assert.deepEqual(await column(0), ["3", "2", "1"]);
  assert.deepEqual(await q.sorts(), [0, 0]);
  assert.equal(await page.getAttribute("[data-testid=sql-grid-header] >> nth=0", "aria-sort"), "descending");
  // Three clicks, from descending: none (the statement's order), ascending, descending; only the
  // last of those waiting is done.
  await q.holdSorts();
  for (let k = 0; k < 3; k++) await page.click("[data-testid=sql-grid-header] >> nth=0");
  await q.release();
  await page.waitForFunction(() => /sorted by a descending$/.test(document.querySelector("[data-testid=sql-summary]")?.textContent || "") && document.querySelector("[data-testid=panel-sql]")?.dataset.sqlState === "done", null, { timeout: 60_000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.deepEqual(await q.sorts(), [0, 0, null, 0]);
  assert.deepEqual(await column(0), ["3", "2", "1"]);
  // A click on another column while a sort runs: that column, ascending.
  await q.holdSorts();
  await page.click("[data-testid=sql-grid-header] >> nth=0");
  await page.click("[data-testid=sql-grid-header] >> nth=1");
  await q.release();
  await page.waitForFunction(() => /sorted by b ascending$/.test(document.querySelector("[data-testid=sql-summary]")?.textContent || ""), null, { timeout: 60_000 });
  assert.deepEqual(await column(0), ["3", "2", "1"], "b's order: a, b, c");
  assert.deepEqual(await q.sorts(), [0, 0, null, 0, null, 1]);
});

test("a sort orders the rows in hand: nextval() and random() keep their values, a script ending in a SELECT sorts", async () => {
  assert.equal((await run("CREATE SEQUENCE s")).state, "done");
  assert.equal((await run("SELECT nextval('s') AS v FROM range(3)")).state, "done");
  assert.deepEqual(await column(0), ["1", "2", "3"]);
  assert.equal(await clickSort(0, /sorted by v ascending$/), "done");
  assert.equal(await clickSort(0, /sorted by v descending$/), "done");
  assert.deepEqual(await column(0), ["3", "2", "1"], "the values drawn, not new ones");
  assert.equal((await run("SELECT nextval('s') AS v")).state, "done");
  assert.deepEqual(await column(0), ["4"], "the sequence moved on only for the statement");
  assert.equal((await run("SELECT random() AS r FROM range(5)")).state, "done");
  const drawn = await column(0);
  assert.equal(await clickSort(0, /sorted by r ascending$/), "done");
  assert.deepEqual(await column(0), [...drawn].sort((a, b) => Number(a) - Number(b)));
  // A script: the wrapping subquery could not hold it, nor may it run again (CREATE TABLE w would fail).
  assert.equal((await run("CREATE TABLE w AS SELECT * FROM (VALUES (2, 'b'), (NULL, 'n'), (1, 'a')) v(x, y);\nSELECT x, y FROM w")).state, "done");
  assert.equal(await clickSort(0, /sorted by x ascending$/), "done", await page.textContent("[data-testid=sql-result]"));
  assert.deepEqual(await column(1), ["a", "b", "n"], "NULL last");
  assert.equal(await clickSort(0, /sorted by x descending$/), "done");
  assert.deepEqual(await column(1), ["b", "a", "n"], "NULL last either way");
});

test("a script's statements run one by one and the last one's result shows, said in the summary; one that fails is named by its place", async () => {
  // (DuckDB-Wasm, given the script whole, showed the first SELECT's result: a = 1)
  let r = await run("SELECT 1 AS a; SELECT 2 AS b;\nSELECT 'x;y' AS c -- the last; really");
  assert.equal(r.state, "done", r.text);
  assert.match(r.text, /^1 row × 1 column in .* · the last of 3 statements, run one by one$/);
  assert.deepEqual(await column(0), ["x;y"]);
  r = await run("CREATE TABLE multi AS SELECT 5 AS v; SELECT v + 1 AS w FROM multi");
  assert.equal(r.state, "done", r.text);
  assert.deepEqual(await column(0), ["6"]);
  r = await run("SELECT 1 AS a; SELECT * FROM nowhere; SELECT 3");
  assert.equal(r.state, "error");
  assert.match(r.text, /^statement 2 of 3 \(from line 1 of the editor; the one before it ran\): Catalog Error: Table with name nowhere does not exist/);
  // DuckDB's LINE counts within the statement; the editor's line is said too (blank lines before the script counted).
  r = await run("SELECT 1;\nSELECT 2;\n\nSELEC 3");
  assert.match(r.text, /^statement 3 of 3 \(from line 4 of the editor; the 2 before it ran\): Parser Error: syntax error at or near "SELEC"[\s\S]*LINE 1: SELEC 3/);
  r = await run("\n\nSELECT 1; SELECT 2;\n  SELECT * FROM\n nowhere");
  assert.match(r.text, /^statement 3 of 3 \(from line 4 of the editor; the 2 before it ran\): Catalog Error/);
  // One statement: as DuckDB says it, and no word of scripts.
  r = await run("SELECT 7 AS n;");
  assert.doesNotMatch(r.text, /statements/);
});

test("S in the result grid sorts by the selected cell's column and leaves the grid with the focus, on that column", async () => {
  assert.equal((await run("SELECT * FROM (VALUES (2, 'b'), (1, 'c'), (3, 'a')) v(n, s)")).state, "done");
  await sqlGridDrawn(page);
  await page.click("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='1']");
  await page.keyboard.press("s");
  await page.waitForFunction(() => /sorted by s ascending$/.test(document.querySelector("[data-testid=sql-summary]")?.textContent || ""), null, { timeout: 60_000 });
  assert.deepEqual(await column(1), ["a", "b", "c"]);
  assert.equal(await page.evaluate(() => !!document.activeElement?.closest("[data-testid=sql-grid]")), true, "the grid keeps the focus");
  await page.keyboard.press("ArrowDown");
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-grid] .grid-cell.selected")?.dataset.row === "1");
  assert.equal(await page.getAttribute("[data-testid=sql-grid] .grid-cell.selected", "data-col"), "1", "on the column sorted by");
});

test("a SELECT on t sorts as before: numbers, text with NULLs last", async () => {
  assert.equal((await run("SELECT id, name FROM t WHERE id < 6")).state, "done");
  assert.equal(await clickSort(1, /sorted by name ascending$/), "done");
  assert.deepEqual(await column(1), ["n1", "n2", "n3", "n5", "null", "null"]);
  assert.deepEqual(await column(0), ["1", "2", "3", "5", "0", "4"]);
  assert.equal(await clickSort(0, /sorted by id ascending$/), "done");
  assert.equal(await clickSort(0, /sorted by id descending$/), "done");
  assert.deepEqual(await column(0), ["5", "4", "3", "2", "1", "0"]);
});

test("a range of a result's cells (Shift+click) copies as TSV and JSON and sums its numbers: an integer, a double and a NULL", async () => {
  assert.equal((await run("SELECT id, name, id / 4 AS q FROM t WHERE id BETWEEN 3 AND 6 ORDER BY id")).state, "done");
  await sqlGridDrawn(page);
  const cell = (row, c) => `[data-testid=sql-grid] .grid-row[data-row='${row}'] .grid-cell[data-col='${c}']`;
  await page.click(cell(0, 0));
  await page.click(cell(3, 2), { modifiers: ["Shift"] });
  await page.waitForFunction(() => document.querySelector("[data-testid=range-size]")?.textContent === "4 rows × 3 columns");
  const copy = async (action) => {
    await page.evaluate(() => delete document.body.dataset.copied);
    await action();
    await page.waitForFunction(() => document.body.dataset.copied !== undefined);
    return page.evaluate(() => document.body.dataset.copied);
  };
  // id 4's name is NULL (every fourth): an empty field in TSV, null in JSON.
  assert.equal(await copy(() => page.keyboard.press("Control+c")), "3\tn3\t0.75\n4\t\t1\n5\tn5\t1.25\n6\tn6\t1.5");
  assert.deepEqual(JSON.parse(await copy(() => page.click("[data-testid=copy-range-json]"))), [
    { id: 3, name: "n3", q: 0.75 },
    { id: 4, name: null, q: 1 },
    { id: 5, name: "n5", q: 1.25 },
    { id: 6, name: "n6", q: 1.5 },
  ]);
  // The numbers of id and q (a double): 3 + 4 + 5 + 6 + 0.75 + 1 + 1.25 + 1.5, row by row.
  await page.waitForFunction(() => !document.querySelector("[data-testid=range-sums]").textContent.startsWith("Summing"));
  assert.equal(await page.textContent("[data-testid=range-sums]"), "8 numbers: sum 22.5, min 0.75, max 6, mean 2.8125");
  // One cell selected again: Ctrl+C copies its value, as in the Data tab.
  await page.click(cell(2, 1));
  await page.waitForSelector("[data-testid=sql-cell-value]");
  assert.equal(await copy(() => page.keyboard.press("Control+c")), "n5");
});

test("a file whose every column needs a tokenizer not supplied: the SQL tab says why table t is empty of columns, then loads it once they are dropped", async () => {
  await dropFile(page, path.join(corpus, "valid/tokenized_special_tokens.cols"));
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql]:is([data-sql-state=ready], [data-sql-state=error])", { timeout: 180_000 });
  assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "error");
  const text = await page.textContent("[data-testid=sql-error]");
  assert.match(text, /^unknown_tokenizer: /, text);
  assert.match(text, /no column .*table t/i, text);
  assert.match(text, /text, small/, "names the columns left out");
  assert.doesNotMatch(text, /exception_type|at least one column/, "not DuckDB's raw answer to an empty table");
  assert.doesNotMatch(await page.textContent("[data-testid=sql-state]"), /reading the file/, "no load said to be under way");
  // Both tokenizers dropped: table t loads with its columns.
  await page.setInputFiles("[data-testid=file-input]", [path.join(corpus, "tokenizers/gpt2-tokenizer.json"), path.join(corpus, "tokenizers/small-tokenizer.json")]);
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
  assert.match(await page.textContent("[data-testid=sql-state]"), /^Table t: 7 rows × 2 columns/);
});

/**
 * Three row groups of four rows (id, name, n = 10 * id), with the chunks of
 * `name` in `bad` row groups damaged: their own header names codec 9, which
 * no reader knows (unsupported_codec). `only`: the file holds `name` alone.
 */
function damagedFile(bad, { only = false } = {}) {
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "name", type: "string", nullable: true },
    { name: "n", type: "int64", nullable: false },
  ];
  const ids = (g) => Array.from({ length: 4 }, (_, k) => 4 * g + k);
  const cols = (g) => [ids(g), ids(g).map((i) => `s${i}`), ids(g).map((i) => 10 * i)];
  const pick = (list) => (only ? [list[1]] : list);
  const file = buildFile(pick(schema), [0, 1, 2].map((g) => ({ offset: 5 + 400 * g, columns: pick(cols(g)) })));
  const bytes = materialize(file);
  for (const g of bad) {
    const at = file.chunks[g][only ? 0 : 1].start + 1; // the chunk header's codec byte
    assert.equal(bytes[at], 0, "codec None before");
    bytes[at] = 9;
  }
  return bytes;
}

const sqlSettled = () => page.waitForSelector("[data-testid=panel-sql]:is([data-sql-state=ready], [data-sql-state=error])", { timeout: 180_000 });

test("a damaged chunk leaves its column out of table t, said with its error kind and row group; the other columns load with their values", async () => {
  // Damaged in the first row group (before table t is made) or a later one (t holds rows already).
  for (const g of [0, 1]) {
    await dropFile(page, { name: `damaged-${g}.cols`, bytes: damagedFile([g]) });
    await tab(page, "sql");
    await sqlSettled();
    const state = await page.textContent("[data-testid=sql-state]");
    assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "ready", `row group ${g}: ${state} ${await page.textContent("[data-testid=sql-result]")}`);
    assert.match(state, /^Table t: 12 rows × 2 columns/, state);
    assert.match(state, new RegExp(`left out: name \\(row group ${g} does not read: unsupported_codec\\)`), state);
    assert.equal((await run("SELECT * FROM t ORDER BY id")).state, "done");
    assert.deepEqual(await page.$$eval("[data-testid=sql-grid-header] .colname", (hs) => hs.map((x) => x.textContent)), ["id", "n"]);
    assert.deepEqual(await column(0), Array.from({ length: 12 }, (_, i) => String(i)));
    assert.deepEqual(await column(1), Array.from({ length: 12 }, (_, i) => String(10 * i)));
  }
  // Every column unreadable: still a failure, that names the column and says why.
  await dropFile(page, { name: "damaged-only.cols", bytes: damagedFile([1], { only: true }) });
  await tab(page, "sql");
  await sqlSettled();
  assert.equal(await page.getAttribute("[data-testid=panel-sql]", "data-sql-state"), "error");
  assert.equal(await page.textContent("[data-testid=sql-state]"), "Table t could not be loaded.");
  const text = await page.textContent("[data-testid=sql-error]");
  assert.match(text, /^unsupported_codec: /, text);
  assert.match(text, /row group 1/, text);
});

test("batches read ahead of a damaged chunk: those asked for with its column are read again without it", async () => {
  // Three row groups of 65,536 rows (a batch each; the next ones read
  // while one is inserted), `name` damaged in row group 1: row group 2 was
  // asked for with `name` before row group 1 took it out of t.
  const R = 65_536;
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "name", type: "string", nullable: true },
    { name: "n", type: "int64", nullable: false },
  ];
  const groups = [0, 1, 2].map((g) => {
    const ids = Array.from({ length: R }, (_, k) => g * R + k);
    return { columns: [ids, ids.map((i) => `s${i}`), ids.map((i) => 10 * i)] };
  });
  const file = buildFile(schema, groups);
  const bytes = materialize(file);
  bytes[file.chunks[1][1].start + 1] = 9; // its codec byte: unsupported_codec
  await dropFile(page, { name: "damaged-batches.cols", bytes });
  await tab(page, "sql");
  await sqlSettled();
  const state = await page.textContent("[data-testid=sql-state]");
  assert.match(state, /^Table t: 196,608 rows × 2 columns/, state);
  assert.match(state, /left out: name \(row group 1 does not read: unsupported_codec\)/, state);
  assert.equal((await run("SELECT count(*)::VARCHAR, sum(id)::VARCHAR, sum(n)::VARCHAR, count(DISTINCT id)::VARCHAR FROM t")).state, "done");
  const N = 3 * R;
  const want = [String(N), String((N * (N - 1)) / 2), String((10 * N * (N - 1)) / 2), String(N)];
  assert.deepEqual(await Promise.all([0, 1, 2, 3].map(column)), want.map((x) => [x]));
});

test("a result downloads as CSV and JSON in the order shown, every value as shown, repeated names made unique", async () => {
  // small.cols: id 0..11, name "n<k>" or null when k % 4 == 0; id * 1.5 is a DECIMAL(…,1).
  await dropFile(page, { name: "small.cols", bytes: smallFile() });
  await sqlReady(page);
  const r = await run("SELECT name, id, id * 1.5 AS x, 12345678901234567::BIGINT AS big, name AS name, DATE '2024-02-29' AS d FROM t WHERE id < 6");
  assert.equal(r.state, "done");
  // Sorted by id descending, by its header (a click each way, the second
  // once the first has sorted: a click while a sort runs starts none): the
  // files follow.
  assert.equal(await clickSort(1, /sorted by id ascending$/), "done");
  assert.equal(await clickSort(1, /sorted by id descending$/), "done");
  const save = async (format) => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(`[data-testid=sql-export-${format}]`)]);
    assert.equal(download.suggestedFilename(), `small-query.${format}`);
    return fs.readFileSync(await download.path(), "utf8");
  };
  const ids = [5, 4, 3, 2, 1, 0];
  const name = (k) => (k % 4 ? `n${k}` : null);
  const csv = await save("csv");
  assert.equal(
    csv,
    ["name #0,id,x,big,name #4,d", ...ids.map((k) => `${name(k) ?? ""},${k},${(k * 1.5).toFixed(1)},12345678901234567,${name(k) ?? ""},2024-02-29`)].map((l) => `${l}\r\n`).join(""),
  );
  const json = await save("json");
  assert.deepEqual(
    JSON.parse(json),
    ids.map((k) => ({ "name #0": name(k), id: k, x: k * 1.5, big: 12345678901234567, "name #4": name(k), d: "2024-02-29" })),
  );
  assert.match(json, /"big":12345678901234567[,}]/, "a BIGINT with all its digits");
  assert.match(json, /"x":6\.0[,}]/, "a DECIMAL as DuckDB writes it, a bare number");
  assert.deepEqual(log.errors, []);
});

test("names that differ only in case are one name to DuckDB: table t's columns are the page's labels, each its own column", async () => {
  const schema = ["x", "X", "É", "é"].map((name) => ({ name, type: "int32", nullable: false }));
  const cols = schema.map((_, c) => Array.from({ length: 3 }, (_, k) => 100 * c + k));
  await dropFile(page, { name: "case.cols", bytes: Buffer.from(materialize(buildFile(schema, [{ offset: 5, columns: cols }]))) });
  await sqlReady(page);
  const labels = ["x #0", "X #1", "É", "é"]; // (ASCII letters only: DuckDB folds no others)
  assert.deepEqual(await page.$$eval("[data-testid=sql-column]", (bs) => bs.map((b) => b.title)), labels.map((l) => `write "${l}" into the statement`), "the list under the editor");
  assert.equal((await runSql(page, "SELECT * FROM t")).state, "done");
  assert.deepEqual(await page.$$eval("[data-testid=sql-grid-header] .colname", (hs) => hs.map((h) => h.textContent)), labels);
  for (let c = 0; c < 4; c++) assert.deepEqual(await column(c), ["0", "1", "2"].map((k) => String(100 * c + Number(k))), labels[c]);
  for (const [c, name] of labels.entries()) {
    assert.equal((await runSql(page, `SELECT "${name}" AS v FROM t`)).state, "done", name);
    assert.deepEqual(await column(0), ["0", "1", "2"].map((k) => String(100 * c + Number(k))), `"${name}" is column ${c}`);
  }
});

test("no console errors and nothing fetched from outside", () => {
  assert.deepEqual(offsite(), []);
  assert.deepEqual(log.errors, []);
});
