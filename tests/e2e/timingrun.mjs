// Shared by the Timing tab's page tests: its settings, and one run to its end.

import path from "node:path";
import { dropFile, openInspector, corpus, tab } from "./harness.mjs";

/** Fills Runs and Warm-ups and picks the scope and the source of the bytes. */
export async function timingSettings(page, { runs = "1", warmups = "0", scope = "column", mode = "memory" } = {}) {
  await page.fill("[data-testid=timing-runs]", runs);
  await page.fill("[data-testid=timing-warmups]", warmups);
  await page.check(`[data-testid=timing-scope-${scope}]`);
  await page.check(`[data-testid=timing-mode-${mode}]`);
}

/** Clicks Run timing (or presses `key` where the focus is) and waits until
 *  a new run is on show and the button is back. */
export async function runTiming(page, key) {
  const before = (await page.$eval("[data-testid=timing-run-label]", (e) => e.textContent).catch(() => "")) || "";
  if (key) await page.keyboard.press(key);
  else await page.click("[data-testid=timing-run]");
  await page.waitForFunction((b) => (document.querySelector("[data-testid=timing-run-label]")?.textContent || "") !== b, before, { timeout: 60_000 });
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
}

/** A page with movielens.optimized (7 columns, 2 row groups) dropped and
 *  the Timing tab shown: the usual start of a Timing test file. */
export async function openOnTiming() {
  const inspector = await openInspector();
  await dropFile(inspector.page, path.join(corpus, "real/movielens.optimized.cols"));
  await tab(inspector.page, "timing");
  return inspector;
}
