// The SQL tab while something runs in it: "Open as SQL" (and an example)
// asked for while a statement runs waits for it and then runs, the result
// on show always the editor's statement's; a download says how far it has
// got, is refused over the page's download limit before it is written, and
// Stop ends it alone (table t and the result stay); a sort says it sorts;
// the focus stays on a control (Stop while Run or a download is disabled,
// then back); the live region says the start and end of a load, not each
// row group; a load of a file no longer open touches nothing of the next.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, corpus, dropFile, sqlReady, runSql, sqlColumn, tab, waitState } from "./harness.mjs";
import path from "node:path";

let ins;
before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } }, { mounts: { "/corpus/": corpus } });
});
after(async () => {
  await ins?.close();
});

const DIAMONDS = path.join(corpus, "real/diamonds.optimized.cols");
const sqlState = (page) => page.getAttribute("[data-testid=panel-sql]", "data-sql-state");
const focused = (page) => page.evaluate(() => (document.activeElement === document.body ? "body" : document.activeElement?.dataset.testid || document.activeElement?.tagName));
const ended = (page, timeout = 120_000) => page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout });

/** Every text `testid` (in the SQL panel) takes from now on, kept in window.__texts[testid]. */
const record = (page, testid) =>
  page.evaluate((t) => {
    const el = document.querySelector(`[data-testid=${t}]`);
    (window.__texts ||= {})[t] = [el.textContent];
    new MutationObserver(() => window.__texts[t].push(el.textContent)).observe(el, { subtree: true, childList: true, characterData: true });
  }, testid);
const recorded = (page, testid) => page.evaluate((t) => window.__texts[t], testid);

// Some seconds of DuckDB's work on any machine (a few on this one).
const SLOW = "SELECT count(*) AS slow FROM range(600000000) r WHERE r.range % 7 = 3";

/** Diamonds open, SLOW running in the SQL tab, and "Open as SQL" pressed on the Data tab meanwhile. */
async function openAsSqlWhileSlow(page) {
  await dropFile(page, DIAMONDS);
  await sqlReady(page);
  await page.fill("[data-testid=sql-input]", SLOW);
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  await tab(page, "data");
  await page.click("[data-testid=view-sql]");
}

test("Open as SQL while a statement runs: the view's statement waits for it, then runs; the result shown is the editor's statement's, and Ctrl+Z gives back the text before", async () => {
  const { page } = ins;
  await openAsSqlWhileSlow(page);
  await page.waitForSelector("[data-testid=panel-sql]:not([hidden])");
  const view = await page.inputValue("[data-testid=sql-input]");
  assert.match(view, /FROM t/);
  assert.notEqual(view, SLOW);
  assert.equal(await sqlState(page), "running", "the slow statement still runs (else this test proves nothing)");
  const waits = await page.isVisible("[data-testid=sql-queued]");
  // The slow statement ends, then the view's runs and shows its rows.
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  assert.match(await page.textContent("[data-testid=sql-summary]"), /^53,940 rows × 10 columns/, "the view's result (every row of diamonds), not count(*)'s");
  assert.ok(waits, "a note said the view's statement waits for the one running");
  assert.ok(await page.isHidden("[data-testid=sql-queued]"), "and went once it ran");
  assert.equal(await page.inputValue("[data-testid=sql-input]"), view);
  // The text written over was the user's: Ctrl+Z takes the view's statement back out.
  await page.focus("[data-testid=sql-input]");
  await page.keyboard.press("Control+z");
  assert.equal(await page.inputValue("[data-testid=sql-input]"), SLOW);
});

test("a statement waiting (Open as SQL) that the person then edits in the editor runs no more: the note goes at once, and what ends is the statement that ran", async () => {
  const { page } = ins;
  await openAsSqlWhileSlow(page);
  await page.waitForSelector("[data-testid=sql-queued]:not([hidden])");
  await page.fill("[data-testid=sql-input]", "SELECT 42 AS answer");
  assert.ok(await page.isHidden("[data-testid=sql-queued]"), "the note went with the edit");
  assert.equal(await sqlState(page), "running", "the slow statement still ran at the edit (else this test proves nothing)");
  await ended(page);
  assert.match(await page.textContent("[data-testid=sql-summary]"), /^1 row × 1 column/, "the slow statement's count, not the view's 53,940 rows");
  assert.equal(await page.inputValue("[data-testid=sql-input]"), "SELECT 42 AS answer");
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  assert.equal(await sqlState(page), "done", "nothing else ran after it");
});

test("an example clicked while a statement runs waits too; Stop ends the running one and the example's statement then runs (DuckDB started again, t loaded again)", async () => {
  const { page } = ins;
  await dropFile(page, DIAMONDS);
  await sqlReady(page);
  await page.fill("[data-testid=sql-input]", "SELECT count(*) FROM range(20000000000)");
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  await page.click("[data-testid=panel-sql] .sql-examples button:has-text('Count rows')");
  assert.equal(await page.inputValue("[data-testid=sql-input]"), "SELECT count(*) AS rows FROM t");
  const waits = await page.isVisible("[data-testid=sql-queued]");
  await page.click("[data-testid=sql-stop]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  assert.match(await page.textContent("[data-testid=sql-summary]"), /^1 row × 1 column/);
  assert.deepEqual(await sqlColumn(page, 0), ["53940"]);
  assert.ok(waits, "a note said it waits");
  assert.ok(await page.isHidden("[data-testid=sql-queued]"));
});

test("a download of a result says how many rows it has written, and Stop ends the download alone: table t and the result stay", async () => {
  const { page } = ins;
  await dropFile(page, DIAMONDS);
  await sqlReady(page);
  assert.equal((await runSql(page, "SELECT range AS i, range * 2 AS j FROM range(3000000)")).state, "done");
  await record(page, "sql-state");
  const download = page.waitForEvent("download", { timeout: 120_000 });
  await page.click("[data-testid=sql-export-csv]");
  await download;
  await page.waitForSelector("[data-testid=sql-stop]", { state: "hidden" });
  const texts = await recorded(page, "sql-state");
  assert.ok(texts.some((t) => /^Writing the CSV: [\d,]+ of 3,000,000 rows…$/.test(t)), `progress in the status: ${texts.slice(0, 5).join(" | ")}`);
  assert.ok(texts.some((t) => /^Writing the CSV: 3,000,000 of 3,000,000 rows…$/.test(t)), "to the last row");

  // Stop while it writes a larger one: the download ends, nothing more.
  assert.equal((await runSql(page, "SELECT range AS i, range * 2 AS j FROM range(10000000)")).state, "done");
  const summary = await page.textContent("[data-testid=sql-summary]");
  await page.click("[data-testid=sql-export-json]");
  await page.waitForFunction(() => /^Writing the JSON: [\d,]+ of/.test(document.querySelector("[data-testid=sql-state]").textContent), null, { timeout: 60_000 });
  await page.click("[data-testid=sql-stop]");
  await page.waitForSelector("[data-testid=sql-stop]", { state: "hidden", timeout: 10_000 });
  assert.equal(await sqlState(page), "done", "not stopped: DuckDB goes on");
  assert.equal(await page.textContent("[data-testid=sql-summary]"), summary, "the result stays on show");
  assert.match(await page.textContent("[data-testid=sql-state]"), /^Table t: 53,940 rows/);
  assert.match(await page.textContent("#toasts"), /download was stopped/);
  // Table t is still loaded: the next statement runs with no load.
  await record(page, "sql-state");
  assert.equal((await runSql(page, "SELECT count(*) AS n FROM t")).state, "done");
  assert.ok(!(await recorded(page, "sql-state")).some((t) => /Loading table t/.test(t)), "t was not loaded again");
});

test("a download over the page's download limit is refused before it is written, saying what it would take", async () => {
  const { page } = ins;
  await dropFile(page, DIAMONDS);
  await sqlReady(page);
  // JSON repeats a column's name in every row: 100,000 characters × 20,000 rows, 2 GB of JSON from a tiny result.
  const name = "x".repeat(100_000);
  assert.equal((await runSql(page, `SELECT 1 AS "${name}" FROM range(20000)`)).state, "done");
  await page.evaluate(() => document.getElementById("toasts").replaceChildren());
  const t0 = Date.now();
  await page.click("[data-testid=sql-export-json]");
  await page.waitForFunction(() => /could not be written/.test(document.getElementById("toasts").textContent), null, { timeout: 60_000 });
  const toast = await page.textContent("#toasts");
  assert.match(toast, /the JSON of 20,000 rows × 1 column would take about 1\.\d+ GiB \(by 1,000 rows of it\), more than the 1\.50 GiB a download may take in this tab; nothing was written/);
  assert.ok(Date.now() - t0 < 10_000, "refused at once");
  assert.equal(await sqlState(page), "done", "the result stays");
});

test("a header click's sort of a large result says in the status that it sorts", async () => {
  const { page } = ins;
  assert.equal((await runSql(page, "SELECT range AS i, hash(range) AS h FROM range(3000000)")).state, "done");
  await record(page, "sql-state");
  await page.click("[data-testid=sql-grid-header] >> nth=1");
  await page.waitForFunction(() => /sorted by h ascending/.test(document.querySelector("[data-testid=sql-summary]")?.textContent), null, { timeout: 60_000 });
  const texts = await recorded(page, "sql-state");
  assert.ok(texts.includes("Sorting 3,000,000 rows by h ascending…"), texts.join(" | "));
  assert.match(await page.textContent("[data-testid=sql-state]"), /^Table t:/, "then the table's status again");
});

test("the focus stays on a control: Enter on Run or a download, and on Stop, never leave it on the page's body", async () => {
  const { page } = ins;
  await dropFile(page, DIAMONDS);
  await sqlReady(page);
  await page.fill("[data-testid=sql-input]", "SELECT * FROM t LIMIT 10");
  await page.focus("[data-testid=sql-run]");
  await page.keyboard.press("Enter");
  await ended(page);
  await page.waitForSelector("[data-testid=sql-stop]", { state: "hidden" });
  assert.equal(await focused(page), "sql-run", "after Enter on Run");

  await page.focus("[data-testid=sql-export-csv]");
  const download = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  await download;
  await page.waitForSelector("[data-testid=sql-stop]", { state: "hidden" });
  assert.equal(await focused(page), "sql-export-csv", "after Enter on Download CSV");

  // Enter on Run for a slow statement: Stop has the focus while it runs; Enter on it gives it back to Run.
  await page.fill("[data-testid=sql-input]", "SELECT count(*) FROM range(20000000000)");
  await page.focus("[data-testid=sql-run]");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  assert.equal(await focused(page), "sql-stop", "Stop takes the focus from the disabled Run");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=stopped]");
  assert.equal(await focused(page), "sql-run", "after Enter on Stop");
});

test("the SQL tab's live region says a load's start and end, not each row group; the status still counts them", async () => {
  const { page } = ins;
  // (opened on another tab: the SQL tab loads t when it shows)
  await dropFile(page, DIAMONDS);
  await tab(page, "data");
  await dropFile(page, path.join(corpus, "real/birdstrikes.optimized.cols"));
  assert.equal(await page.$eval("[data-testid=sql-state]", (e) => e.closest("[aria-live], [role=status], [role=alert]")), null, "the status is out of any live region");
  await page.evaluate(() => {
    window.__live = [];
    const panel = document.querySelector("[data-testid=panel-sql]");
    new MutationObserver((ms) => {
      for (const m of ms) {
        const n = m.target.nodeType === 3 ? m.target.parentElement : m.target;
        const r = n?.closest?.("[aria-live], [role=status], [role=log]");
        if (r && panel.contains(r)) window.__live.push(r.textContent);
      }
    }).observe(panel, { subtree: true, childList: true, characterData: true });
  });
  await record(page, "sql-state");
  await sqlReady(page);
  const live = (await page.evaluate(() => window.__live)).filter((t, i, a) => t !== a[i - 1]);
  assert.deepEqual(live.map((t) => t.replace(/^Table t: .*/, "Table t: …")), ["Loading table t…", "Table t: …"], live.join(" | "));
  assert.ok((await recorded(page, "sql-state")).some((t) => /row groups loaded into DuckDB \d+ of \d+/.test(t)), "the status still counts the row groups");
});

test("a load of table t for a file no longer open touches nothing of the next file's SQL tab (the page's reader answered late)", async () => {
  const { page } = ins;
  // The page's answer to the SQL tab's "heldBlob" (what it holds of a URL's file) held back until released.
  await page.evaluate(() => {
    const post = Worker.prototype.postMessage;
    window.__held = [];
    Worker.prototype.postMessage = function (m, t) {
      if (m?.op === "heldBlob" && window.__hold) return void window.__held.push(() => post.call(this, m, t));
      return post.call(this, m, t);
    };
    window.__hold = true;
  });
  try {
    await page.evaluate(() => (document.body.dataset.state = ""));
    await page.fill("[data-testid=url-input]", `${ins.server.origin}/corpus/real/diamonds.default.cols`);
    await page.click("[data-testid=url-open]");
    await waitState(page, "ready");
    await tab(page, "sql");
    await page.waitForFunction(() => window.__held.length > 0, null, { timeout: 60_000 });
    // Another file opens while the load waits; then the answer comes.
    await dropFile(page, path.join(corpus, "valid/all_types_small.cols"));
    await page.evaluate(() => {
      window.__hold = false;
      for (const go of window.__held.splice(0)) go();
    });
    await sqlReady(page);
    await page.waitForTimeout(500);
    assert.equal(await page.$("[data-testid=sql-error]"), null, "no error from the old load");
    assert.equal(await sqlState(page), "ready");
    assert.match(await page.textContent("[data-testid=sql-state]"), /^Table t: /);
    assert.equal((await runSql(page, "SELECT count(*) AS n FROM t")).state, "done");
  } finally {
    await page.evaluate(() => (window.__hold = false));
  }
});
