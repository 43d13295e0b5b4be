// The pop-up menus (Samples in the top bar, Columns and Export on the Data
// tab) close as menus do: Escape closes the one in use and gives the focus
// back to its button, a click outside closes it, and opening one closes
// the others (they would stack over the grid).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, openInspector, tab } from "./harness.mjs";

let insp;
before(async () => {
  insp = await openInspector();
  await dropFile(insp.page, path.join(corpus, "valid/all_types_small.cols"));
  await tab(insp.page, "data");
});
after(() => insp?.close());

const openMenus = () => insp.page.$$eval("details[open]", (ds) => ds.map((d) => d.querySelector("summary").textContent.trim()));

test("Escape closes the Columns menu opened from the keyboard, and the focus goes back to its button", async () => {
  const { page } = insp;
  await page.focus("[data-testid=data-columns-toggle]");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab"); // into the menu
  assert.equal((await openMenus()).length, 1);
  await page.keyboard.press("Escape");
  assert.deepEqual(await openMenus(), []);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "data-columns-toggle");
});

test("a click outside closes a menu; opening another closes the first", async () => {
  const { page } = insp;
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=export-toggle]");
  assert.deepEqual(await openMenus(), ["Export…"]);
  await page.click("#samples-menu summary");
  assert.deepEqual(await openMenus(), ["Samples"]);
  await page.click("[data-testid=file-name]");
  assert.deepEqual(await openMenus(), []);
});
