// The page's status line and what a screen reader hears of it. The line
// (#status-text) shows each step of long work, its numbers as the page
// writes them (3,000,000); the live region says a task's start and its end,
// not each step: the whole status line was one, and a 3M-row export of
// flights-3m (46 blocks of 65,536 rows) read out "Exporting CSV: rows
// written 65536 of 3000000 Cancel" 48 times, the Cancel button's text with
// it. The Cancel button is in no live region.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { dropFile, openInspector, tab } from "./harness.mjs";
import { flights3m } from "./flights3m.mjs";
import { timingSettings, runTiming } from "./timingrun.mjs";

let insp, page, log;
before(async () => {
  const data = flights3m();
  insp = await openInspector();
  ({ page, log } = insp);
  await dropFile(page, data.file);
  await tab(page, "data");
});
after(() => insp?.close());

const LIVE = "[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]";

test("a 3M-row CSV export: the live region says its start and its end, once each; the status line shows the rows written as 1,234,567", async () => {
  // Every text change in a live region in sight, and every text of the status line.
  await page.evaluate((live) => {
    window.__said = [];
    window.__shown = [];
    const line = document.getElementById("status-text");
    window.__liveObserver = new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target.nodeType === 3 ? m.target.parentElement : m.target;
        const region = el?.closest(live);
        if (region && !region.closest("[hidden]")) window.__said.push(`${region.dataset.testid || region.id}: ${region.textContent.trim()}`);
        if (line.contains(el)) window.__shown.push(line.textContent);
      }
    });
    window.__liveObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, LIVE);
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-csv]");
  await Promise.all([page.waitForEvent("download", { timeout: 300_000 }), page.click("[data-testid=export-run]")]);
  await page.waitForFunction(() => document.getElementById("status-text").textContent === "");
  const said = await page.evaluate(() => window.__said.filter((x, i, a) => x !== a[i - 1]));
  const shown = await page.evaluate(() => window.__shown);
  assert.deepEqual(said, ["status-said: Exporting CSV…", "status-said: Exporting CSV: done."], `said: ${said.slice(0, 6).join(" | ")}`);
  const steps = shown.filter((t) => /^Exporting CSV: rows written [\d,]+ of 3,000,000$/.test(t));
  assert.ok(steps.length >= 2, `status line: ${[...new Set(shown)].slice(0, 6).join(" | ")}`);
  assert.ok(steps.some((t) => /written \d{1,3}(,\d{3})+ of/.test(t)), steps.slice(0, 3).join(" | "));
  assert.equal(await page.$eval("[data-testid=cancel-button]", (b, live) => b.closest(live)?.outerHTML.slice(0, 80) ?? null, LIVE), null, "the Cancel button is inside a live region");
  assert.deepEqual(log.errors, []);
});

test("a Timing run: nothing said outside the Timing tab (it says its end itself); the status line still shows its steps", async () => {
  await tab(page, "timing");
  await timingSettings(page, { runs: "25", warmups: "0", scope: "whole", mode: "memory" });
  await page.evaluate((live) => {
    window.__liveObserver.disconnect(); // (the test before's)
    window.__said = [];
    window.__shown = [];
    const line = document.getElementById("status-text");
    const timing = document.querySelector("[data-testid=panel-timing]");
    window.__liveObserver = new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target.nodeType === 3 ? m.target.parentElement : m.target;
        const region = el?.closest(live);
        if (region && !timing.contains(region) && !region.closest("[hidden]")) window.__said.push(`${region.dataset.testid || region.id}: ${region.textContent.trim()}`);
        if (line.contains(el)) window.__shown.push(line.textContent);
      }
    });
    window.__liveObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, LIVE);
  const t0 = Date.now();
  await runTiming(page);
  const ms = Date.now() - t0;
  const said = await page.evaluate(() => window.__said);
  const shown = await page.evaluate(() => window.__shown);
  assert.deepEqual(said, [], `said outside the Timing tab: ${said.slice(0, 6).join(" | ")}`);
  assert.ok(shown.some((t) => /^Timing: run \d+ of 25$/.test(t)), `status line: ${[...new Set(shown)].slice(0, 6).join(" | ")}`);
  // (long enough that a task said after 1 s would have been)
  assert.ok(ms > 1500, `the run took ${ms} ms`);
  assert.match(await page.textContent("[data-testid=timing-announce]"), /^Timing done/);
  assert.deepEqual(log.errors, []);
});

test("'Profile every column' of flights-3m (a column a pass, its rows are many): said once at its start and once at its end, not a pass at a time", async () => {
  await tab(page, "schema");
  await page.evaluate((live) => {
    window.__liveObserver.disconnect(); // (the test before's)
    window.__said = [];
    window.__liveObserver = new MutationObserver((ms) => {
      for (const m of ms) {
        const el = m.target.nodeType === 3 ? m.target.parentElement : m.target;
        const region = el?.closest(live);
        if (region && !region.closest("[hidden]")) window.__said.push(`${region.dataset.testid || region.id}: ${region.textContent.trim()}`);
      }
    });
    window.__liveObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, LIVE);
  await page.click("[data-testid=profiles-run]");
  await page.waitForSelector("[data-testid=profiles-done]", { timeout: 300_000 });
  const said = await page.evaluate(() => window.__said.filter((x, i, a) => x !== a[i - 1]));
  assert.deepEqual(said, ["status-said: Profiling 5 columns…", "status-said: Profiling 5 columns: done."], `said: ${said.slice(0, 8).join(" | ")}`);
  assert.deepEqual(log.errors, []);
});

test("'Profile every column' ended by the status line's Cancel: its end is said as stopped, not done", async () => {
  await dropFile(page, flights3m().file); // (none of its columns profiled yet)
  await tab(page, "schema");
  // Cancel clicked in the page as soon as it can be, the run's Stop still there (no race with Playwright).
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        document.querySelector("[data-testid=profiles-run]").click();
        const t = setInterval(() => {
          const cancel = document.querySelector("[data-testid=cancel-button]");
          if (cancel && !cancel.disabled && document.querySelector("[data-testid=profiles-stop]")) {
            clearInterval(t);
            cancel.click();
            resolve();
          }
        }, 1);
      }),
  );
  await page.waitForSelector("[data-testid=profiles-stop]", { state: "detached", timeout: 60_000 });
  assert.match(await page.textContent("[data-testid=status-said]"), /^Profiling \d+ columns?: stopped, \d+ of \d+ counted\.$/);
  assert.deepEqual(log.errors, []);
});

// (After the Cancel above, the worker is still being restored when this
// export starts: it waits for that, and this Cancel stops it too. Before
// engine.js said so, it went to the newer worker, which held no file yet:
// "Export failed: bad_argument: no file is open".)
test("Cancel by keyboard: the work stops and the focus goes to the tab shown, not the page's body", async () => {
  await tab(page, "data");
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-csv]");
  await page.click("[data-testid=export-run]");
  await page.waitForSelector("[data-testid=cancel-button]:not([disabled])");
  await page.focus("[data-testid=cancel-button]");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("status-text").textContent === "");
  assert.equal(await page.textContent("[data-testid=export-result]"), "Export stopped.");
  assert.equal(await page.evaluate(() => (document.activeElement === document.body ? "BODY" : document.activeElement.dataset.testid)), "tab-data");
  assert.deepEqual(log.errors, []);
});
