// The Timing tab's words (movielens.optimized, dropped): what a run's
// results say of its runs' order.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { dropFile, openInspector, corpus, tab } from "./harness.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
  await dropFile(page, path.join(corpus, "real/movielens.optimized.cols"));
  await tab(page, "timing");
});

after(async () => {
  await inspector?.close();
});

/** Runs one timing with these settings and waits until it is on show. */
async function runOnce({ runs = "3", warmups = "1", scope = "column", mode = "memory" } = {}) {
  await page.fill("[data-testid=timing-runs]", runs);
  await page.fill("[data-testid=timing-warmups]", warmups);
  await page.check(`[data-testid=timing-scope-${scope}]`);
  await page.check(`[data-testid=timing-mode-${mode}]`);
  if (scope === "pool") await page.fill("[data-testid=timing-pool-size]", "1");
  const before = (await page.$eval("[data-testid=timing-run-label]", (e) => e.textContent).catch(() => "")) || "";
  await page.click("[data-testid=timing-run]");
  await page.waitForFunction((b) => (document.querySelector("[data-testid=timing-run-label]")?.textContent || "") !== b, before, { timeout: 60_000 });
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
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
