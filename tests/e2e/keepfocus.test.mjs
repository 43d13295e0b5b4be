// Keyboard focus never drops to the page's <body> when the control that had
// it goes away or is disabled: the Data tab's Export (disabled while it
// runs), "+ Condition" and the other controls of the filter form (drawn
// anew), the Schema tab's "Profile every column" (replaced by the progress
// and Stop). A keyboard user was left at the top of the page, and Escape
// could no longer close the Export menu.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, openInspector, tab } from "./harness.mjs";

let insp, page, log;
before(async () => {
  insp = await openInspector();
  ({ page, log } = insp);
  await dropFile(page, path.join(corpus, "valid/all_types_small.cols"));
});
after(() => insp?.close());

/** The focused element, as its data-testid (or "BODY"). */
const focused = () => page.evaluate(() => (document.activeElement === document.body ? "BODY" : document.activeElement.dataset.testid || `${document.activeElement.tagName} ${document.activeElement.textContent.trim().slice(0, 20)}`));
/** Records every element that takes the focus from now on (their data-testid). */
const recordFocus = () =>
  page.evaluate(() => {
    window.__focusLog = [];
    document.removeEventListener("focusin", window.__onFocus);
    window.__onFocus = (ev) => window.__focusLog.push(ev.target.dataset?.testid || ev.target.tagName);
    document.addEventListener("focusin", window.__onFocus);
  });
const focusLog = () => page.evaluate(() => window.__focusLog);

test("Data tab, Export menu by keyboard: Stop has the focus while it runs, Export after it; Escape then closes the menu onto its button", async () => {
  await tab(page, "data");
  await page.focus("[data-testid=export-toggle]");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=export-run]");
  await page.focus("[data-testid=export-run]");
  await recordFocus();
  await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  await page.waitForFunction(() => document.querySelector("[data-testid=export-result]").textContent !== "");
  assert.ok((await focusLog()).includes("export-stop"), `focus went to: ${await focusLog()}`);
  assert.equal(await focused(), "export-run");
  await page.keyboard.press("Escape");
  assert.equal(await focused(), "export-toggle");
  assert.equal(await page.$eval("[data-testid=export-menu]", (d) => d.open), false, "the menu closed");
  assert.deepEqual(log.errors, []);
});

test("Data tab, '+ Condition' by Enter or Space: the new condition's column has the focus; changing it or removing the condition keeps the focus in the form", async () => {
  await tab(page, "data");
  const rows = () => page.$$eval("[data-testid=filter-row]", (e) => e.length);
  const lastCol = () => page.evaluate(() => document.activeElement === [...document.querySelectorAll("[data-testid=filter-col]")].at(-1));
  const before = await rows();
  await page.focus("[data-testid=filter-add]");
  await page.keyboard.press("Enter");
  assert.equal(await rows(), before + 1);
  assert.equal(await focused(), "filter-col");
  assert.ok(await lastCol(), "the new condition's column, not another's");
  await page.focus("[data-testid=filter-add]");
  await page.keyboard.press("Space");
  assert.equal(await rows(), before + 2);
  assert.ok(await lastCol(), `after Space: ${await focused()}`);
  // Another column chosen by keyboard draws the form anew: its column box keeps the focus.
  const colOf = () => page.locator("[data-testid=filter-col]").last().inputValue();
  const was = await colOf();
  await page.keyboard.press("ArrowDown");
  assert.notEqual(await colOf(), was, "another column chosen");
  assert.equal(await focused(), "filter-col");
  // The condition removed: the focus goes on, to the next "×" or the form's "+ Condition".
  await page.locator("[data-testid=filter-remove]").last().focus();
  await page.keyboard.press("Enter");
  assert.equal(await rows(), before + 1);
  assert.match(await focused(), /^filter-(remove|add)$/);
  await page.locator("[data-testid=filter-remove]").last().focus();
  await page.keyboard.press("Enter");
  assert.equal(await rows(), before);
  assert.match(await focused(), /^filter-(remove|add)$/);
  assert.deepEqual(log.errors, []);
});

test("Schema tab, 'Profile every column' by keyboard: Stop has the focus while it runs, the next control after it (not the page's body)", async () => {
  await tab(page, "schema");
  await page.focus("[data-testid=profiles-run]");
  await recordFocus();
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=profiles-done]", { timeout: 60_000 });
  assert.ok((await focusLog()).includes("profiles-stop"), `focus went to: ${await focusLog()}`);
  assert.equal(await focused(), "profiles-copy");
  assert.deepEqual(log.errors, []);
});
