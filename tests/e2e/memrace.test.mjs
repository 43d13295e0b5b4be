// Timing "From memory" loads the whole file; another file opened while that
// load is under way must not take its bytes. The load (a Blob's
// arrayBuffer() in the page's worker) is held until the second file is
// open, so the order is certain.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, corpus, dropFile, tab, runSql, sqlReady, sqlColumn } from "./harness.mjs";
import { timingSettings, runTiming } from "./timingrun.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

const A = path.join(corpus, "real/movielens.optimized.cols");
const B = path.join(corpus, "valid/all_types_small.cols");
let insp;

before(async () => {
  insp = await openInspector();
});

after(async () => {
  await insp?.close();
});

/** The page's own worker (worker.js), where files are read. */
function readerWorker(page) {
  const w = page.workers().find((w) => /\/worker\.js(\?|$)/.test(w.url()));
  assert.ok(w, `the reading worker among ${page.workers().map((w) => w.url())}`);
  return w;
}

test("a file opened while Timing loads another whole (From memory): its runs and its SQL table t are its own, not the other's bytes", async () => {
  const { page, log } = insp;
  await dropFile(page, A);
  const worker = readerWorker(page);
  // A Blob's arrayBuffer() in the worker waits until let go.
  await worker.evaluate(() => {
    const own = Blob.prototype.arrayBuffer;
    // (the next call only: the second file's open may read a Blob too)
    Blob.prototype.arrayBuffer = function () {
      Blob.prototype.arrayBuffer = own;
      return new Promise((r) => (self.__letGo = r)).then(() => own.call(this));
    };
  });
  await tab(page, "timing");
  await timingSettings(page, { mode: "memory", runs: "1" });
  await page.click("[data-testid=timing-run]");
  await page.waitForFunction(() => true); // (a turn for the click's message)
  for (let i = 0; !(await worker.evaluate(() => typeof self.__letGo === "function")); i++) {
    assert.ok(i < 300, "Timing started loading the file whole");
    await new Promise((r) => setTimeout(r, 50));
  }
  await dropFile(page, B);
  await worker.evaluate(() => self.__letGo());
  // (the old load's end, come and gone)
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));

  const want = readJson(expectedPath(B));
  const rows = want.row_groups.reduce((a, rg) => a + rg.num_rows, 0);
  await tab(page, "timing");
  await timingSettings(page, { mode: "memory", runs: "1", scope: "whole" });
  await runTiming(page);
  assert.equal(await page.$("[data-testid=timing-skipped]"), null, "no column of the file skipped as missing");
  assert.equal(await page.$("[data-testid=timing-error]"), null);

  await sqlReady(page);
  const { state, text } = await runSql(page, "SELECT count(*) AS n FROM t");
  assert.equal(state, "done", text);
  assert.deepEqual(await sqlColumn(page, 0), [String(rows)], "t's rows");
  assert.match(await page.textContent("[data-testid=panel-sql]"), new RegExp(`Table t: ${rows} rows × ${want.schema.length} columns`));
  assert.deepEqual(log.errors, []);
});
