// The Timing tab's words (movielens.optimized, dropped): what a run's
// results say of its runs' order.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { timingSettings, runTiming, openOnTiming } from "./timingrun.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openOnTiming();
  ({ page, log } = inspector);
});

after(async () => {
  await inspector?.close();
});

/** Runs one timing with these settings and waits until it is on show. */
async function runOnce({ runs = "3", warmups = "1", scope = "column", mode = "memory" } = {}) {
  await timingSettings(page, { runs, warmups, scope, mode });
  if (scope === "pool") await page.fill("[data-testid=timing-pool-size]", "1");
  await runTiming(page);
}

const runsText = () => page.textContent(".timing-results p.muted.small");

test("a whole read's runs are said to be consecutive, per column runs randomized", async () => {
  await runOnce({ scope: "whole" });
  assert.match(await runsText(), /^3 consecutive runs after 1 warm-up \(excluded\)/);
  await runOnce({ scope: "pool" });
  assert.match(await runsText(), /^3 consecutive runs after 1 warm-up \(excluded\)/);
  await runOnce({ scope: "column" });
  assert.match(await runsText(), /^3 runs per column in randomized order after 1 warm-up \(excluded\)/);
  assert.deepEqual(log.errors, []);
});

test("a11y: the progress bar has a name, a finished run is announced politely, the estimate is no live region", async () => {
  const name = await page.$eval("[data-testid=timing-progress]", (e) => (e.getAttribute("aria-label") || "").trim() || (e.getAttribute("aria-labelledby") ? document.getElementById(e.getAttribute("aria-labelledby"))?.textContent.trim() : "") || [...e.labels].map((l) => l.textContent.trim()).join(" "));
  assert.ok(name, "the <progress> has no accessible name");
  // The estimate changes with every key typed in Runs: not read out each time.
  const live = await page.$eval("[data-testid=timing-estimate]", (e) => {
    for (let n = e; n; n = n.parentElement) {
      const role = n.getAttribute("role");
      const al = n.getAttribute("aria-live");
      if (["status", "alert", "log"].includes(role) || (al && al !== "off")) return `${n.tagName} role=${role} aria-live=${al}`;
    }
    return null;
  });
  assert.equal(live, null, "the estimate is inside a live region");
  await runOnce({ scope: "whole" });
  const said = await page.$$eval("[data-testid=panel-timing] [role=status], [data-testid=panel-timing] [aria-live=polite]", (els) => els.map((e) => e.textContent));
  assert.ok(said.some((t) => /^Timing done.*median \d/.test(t)), `live regions: ${JSON.stringify(said)}`);
  await runOnce({ scope: "column" });
  const said2 = await page.$$eval("[data-testid=panel-timing] [role=status]", (els) => els.map((e) => e.textContent));
  assert.ok(said2.some((t) => /^Timing done.*7 columns, medians \S+ ms to \S+ ms/.test(t)), `live regions: ${JSON.stringify(said2)}`);
  assert.deepEqual(log.errors, []);
});
