// The SQL tab and files too large for table t. DuckDB-Wasm holds t whole in
// a memory this browser limits (3.1 GiB in Chromium): a file whose t would
// take more is refused from its footer alone, before any of it is read (a
// QA round's 5 GB file of 750,000,000 rows read 540 MiB in 40 s, then
// failed with DuckDB's JSON suggesting settings the page locks, and each
// example ran the same load again). A load that runs out of memory anyway
// says so plainly, gives the memory back, and says that Run tries again.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { dropFile, openInspector, runSql, sqlColumn, site, tab, shot } from "./harness.mjs";
import { constantDictFile } from "../node/synth.mjs";

let inspector, page;

before(async () => {
  inspector = await openInspector();
  ({ page } = inspector);
});

after(async () => {
  await inspector?.close();
});

const sqlState = () => page.getAttribute("[data-testid=panel-sql]", "data-sql-state");
const settled = (timeout = 120_000) => page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready], [data-testid=panel-sql][data-sql-state=error], [data-testid=panel-sql][data-sql-state=done]", { timeout });
const readSoFar = () => page.textContent("[data-testid=io-counter]");

// What QA opened: 750,000,000 rows of a date (int64), a delay and a
// distance (int16), an origin and a destination (3-byte strings), here in
// under a kilobyte. In DuckDB: 750,000,000 x (8 + 2 + 2 + 16 + 16 bytes, and
// a bit a column for nulls) = 31.2 GiB.
const flightsLike = (rows) =>
  constantDictFile(
    [
      { name: "date", type: "int64", value: 1_600_000_000_000_000n },
      { name: "delay", type: "int16", value: -3 },
      { name: "distance", type: "int16", value: 2475 },
      { name: "origin", type: "string", value: "JFK" },
      { name: "destination", type: "string", value: "LAX" },
    ],
    rows,
  );

test("a file whose table t would not fit in DuckDB-Wasm's memory is refused before any of it is read, saying what it would take, the limit and what works instead", async () => {
  await dropFile(page, { name: "huge.cols", bytes: flightsLike([250_000_000, 250_000_000, 250_000_000]) });
  const before = await readSoFar();
  await tab(page, "sql");
  await settled();
  assert.equal(await sqlState(), "error");
  const text = await page.textContent("[data-testid=sql-error]");
  assert.match(text, /^Table t would take about 31\.2 GiB of DuckDB's memory \(750,000,000 rows × 5 columns\), more than the (\d+(\.\d+)? GiB) this browser lets DuckDB-Wasm use: it was not loaded, and nothing of the file was read for it\./);
  assert.match(text, /Data tab reads the file a piece at a time/);
  assert.match(text, /"Open as SQL" loads the whole of table t as well/);
  assert.doesNotMatch(text, /exception_type|memory_limit|temp_directory/);
  assert.match(await page.textContent("[data-testid=sql-state]"), /not loaded: it would not fit/);
  // The help says the limit, as DuckDB set it.
  const limit = /more than the (\S+ GiB)/.exec(text)[1];
  assert.match(await page.textContent("[data-testid=sql-size-help]"), new RegExp(`cannot grow past its memory limit in this browser, ${limit.replace(".", "\\.")}, results`));
  assert.equal(await readSoFar(), before, "the SQL tab read nothing of the file");
  await shot(page, "sql-too-large");
  // An example (Count rows) says the same at once, reading nothing.
  await page.evaluate(() => (document.querySelector("[data-testid=panel-sql]").dataset.sqlState = "sent"));
  const t0 = Date.now();
  await page.click("[data-testid=panel-sql] .sql-examples button:has-text('Count rows')");
  await settled();
  assert.equal(await sqlState(), "error");
  assert.equal(await page.textContent("[data-testid=sql-error]"), text);
  assert.equal(await readSoFar(), before, "Count rows read nothing of the file");
  assert.ok(Date.now() - t0 < 20_000, `refused again in ${Date.now() - t0} ms`);
});

// Where a load runs out of memory all the same (the estimate short of what
// DuckDB takes, memory held by results or other tables), DuckDB-Wasm says
// it as JSON. That failure is made here: the SQL worker as served, with its
// second insert into t failing as QA's did.
const QA_ERROR = JSON.stringify({
  exception_type: "TransactionContext",
  exception_message:
    "Failed to insert into table 't': Failed to commit: could not allocate block of size 256.0 KiB (3.1 GiB/3.1 GiB used)\nDatabase is launched in in-memory mode and no temporary directory is specified.\nUnused blocks cannot be offloaded to disk.\n\nLaunch the database with a persistent storage back-end\nOr set SET temp_directory='/path/to/tmp.tmp'\n\nPossible solutions:\n* Reducing the number of threads (SET threads=X)\n* Disabling insertion-order preservation (SET preserve_insertion_order=false)\n* Increasing the memory limit (SET memory_limit='...GB')\n\nSee also https://duckdb.org/docs/stable/guides/performance/how_to_tune_workloads",
});
const INSERT = 'await conn.insertArrowFromIPCStream(writer.whole(...batches), { name: "t", create: !made });';

test("a load that runs out of memory says so plainly, frees what it loaded (DuckDB's worker stopped) and says that Run loads t again, which it does", async () => {
  // A page of its own: the last test's file of 250,000,000-row chunks has
  // the page's worker decode its first rows for the Data tab, half a minute
  // of one call that no new file can cut short (a CI machine once timed out
  // opening the next file behind it).
  await page.reload();
  const source = fs.readFileSync(path.join(site, "js/sql-worker.js"), "utf8");
  assert.ok(source.includes(INSERT), "the worker's insert into t, where the failure is put");
  let served = 0;
  await page.route("**/js/sql-worker.js", (route) => {
    served++;
    // The first SQL worker only: a second (after a restart) is the site's own.
    const body = served === 1 ? source.replace(INSERT, `if (made) throw new Error(${JSON.stringify(QA_ERROR)}); ${INSERT}`) : source;
    route.fulfill({ status: 200, contentType: "text/javascript", body });
  });
  const closed = [];
  page.on("worker", (w) => {
    if (w.url().endsWith("/js/sql-worker.js")) w.on("close", () => closed.push(w.url()));
  });
  // 3 row groups of 70,000 rows: three inserts (65,536 rows at most each).
  await dropFile(page, { name: "fits.cols", bytes: flightsLike([70_000, 70_000, 70_000]) });
  // The status line's every text, from here on (t loads once the tab shows).
  await page.evaluate(() => {
    window.__sqlStates = [];
    const el = document.querySelector("[data-testid=sql-state]");
    new MutationObserver(() => window.__sqlStates.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await tab(page, "sql");
  await settled();
  assert.equal(await sqlState(), "error");
  const text = await page.textContent("[data-testid=sql-error]");
  assert.match(text, /^Table t did not fit in the memory this browser lets DuckDB-Wasm use \(\d+(\.\d+)? GiB\): it ran out with 70,000 of 210,000 rows loaded \(TransactionContext Error: Failed to insert into table 't': Failed to commit: could not allocate block of size 256\.0 KiB \(3\.1 GiB\/3\.1 GiB used\)\)\./);
  assert.match(text, /What was loaded is freed: DuckDB-Wasm was stopped to give its memory back\. The next Run starts it again and loads table t again from the file/);
  assert.doesNotMatch(text, /exception_type|memory_limit|temp_directory|SET threads|\{/, "none of DuckDB's JSON or its advice to change locked settings");
  assert.match(await page.textContent("[data-testid=sql-state]"), /ran out of memory/);
  // (the close event comes over the DevTools protocol: waited for)
  for (let k = 0; k < 200 && closed.length === 0; k++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(closed.length, 1, "the SQL worker (and DuckDB's, inside it) was stopped");
  await shot(page, "sql-load-out-of-memory");
  // Run: DuckDB again, t loaded again (said so while it loads), the statement run.
  const r = await runSql(page, "SELECT count(*) AS n FROM t");
  assert.equal(r.state, "done", r.text);
  assert.deepEqual(await sqlColumn(page, 0), ["210000"]);
  const states = await page.evaluate(() => window.__sqlStates);
  assert.ok(states.some((s) => /^Loading table t again \(the last load ran out of memory\)/.test(s)), states.join(" | "));
  assert.match(await page.textContent("[data-testid=sql-state]"), /^Table t: 210,000 rows × 5 columns/);
  assert.equal(served, 2);
});
