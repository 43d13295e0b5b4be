// On a phone's width (375 px) the Data tab's Columns and Export… menus
// open inside the screen: anchored at their buttons' left they ran off its
// right edge (Export's to 493 px, Columns' to 409 px), and the page
// scrolled sideways.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, gridDrawn, openInspector, tab } from "./harness.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  ({ page, log } = inspector);
  await dropFile(page, path.join(corpus, "real/movielens.tokenized.cols"));
  await tab(page, "data");
  await gridDrawn(page);
});

after(async () => {
  await inspector?.close();
});

/** The open menu's box, and the page's width and scroll width. */
const box = (sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return { left: Math.round(r.left), right: Math.round(r.right), width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth };
  });

test("at 375 px the Columns and Export… menus fit the screen, and the page does not scroll sideways", async () => {
  await page.click("[data-testid=data-columns-toggle]");
  const cols = await box("[data-testid=data-columns]");
  assert.ok(cols.left >= 0 && cols.right <= cols.width, `Columns menu from ${cols.left} to ${cols.right} px, the screen ${cols.width}`);
  assert.equal(cols.scroll, cols.width);
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=export-toggle]");
  const exp = await box("[data-testid=export-menu] .menu-body");
  assert.ok(exp.left >= 0 && exp.right <= exp.width, `Export menu from ${exp.left} to ${exp.right} px, the screen ${exp.width}`);
  assert.equal(exp.scroll, exp.width);
  // Still usable: its Export button in sight and pressable.
  assert.ok(await page.isVisible("[data-testid=export-run]"));
  await page.click("[data-testid=export-toggle]");
  assert.deepEqual(log.errors, []);
});
