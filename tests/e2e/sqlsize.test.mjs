// The SQL tab and files too large for table t. DuckDB-Wasm holds t whole in
// a memory this browser limits (3.1 GiB in Chromium): a file whose t would
// take more is refused from its footer alone, before any of it is read (a
// QA round's 5 GB file of 750,000,000 rows read 540 MiB in 40 s, then
// failed with DuckDB's JSON suggesting settings the page locks, and each
// example ran the same load again).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { dropFile, openInspector, tab, shot } from "./harness.mjs";
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
