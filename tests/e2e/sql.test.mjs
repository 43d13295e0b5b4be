// The SQL tab on a small file made here: nothing is fetched from outside
// the site whatever the statement asks for (DuckDB would install and load
// an extension from its own server, or read a URL), the user is told why
// such a statement cannot run, and DuckDB's messages read once.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, recordOutside, runSql, tab, shot, waitState } from "./harness.mjs";
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
  await page.setInputFiles("[data-testid=file-input]", { name: "small.cols", mimeType: "application/octet-stream", buffer: smallFile() });
  await waitState(page, "ready");
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
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

test("a syntax error shows DuckDB's LINE block once", async () => {
  const r = await run("SELEC * FROM t");
  assert.equal(r.state, "error");
  assert.match(r.text, /syntax error at or near "SELEC"/);
  assert.equal(r.text.match(/LINE 1:/g)?.length, 1, r.text);
  assert.match(r.text, /LINE 1: SELEC \* FROM t\n\s*\^/);
  await shot(page, "61-sql-syntax-error");
});

test("no console errors and nothing fetched from outside", () => {
  assert.deepEqual(offsite(), []);
  assert.deepEqual(log.errors, []);
});
