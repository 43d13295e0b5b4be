// After a sort the grid's highlight and the side panel agree: the sort
// forgets the selected cell (S in the grid or a header click), and no
// cell is left highlighted while the panel says to select one. Before,
// the new first row's cell looked selected while the panel said "Select
// a cell…" and Ctrl+C copied nothing.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, gridDrawn, openInspector, tab } from "./harness.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
  await dropFile(page, path.join(corpus, "real/diamonds.default.cols"));
  await tab(page, "data");
  await gridDrawn(page);
});

after(async () => {
  await inspector?.close();
});

/** Waits for the view after `act` (a sort) to be drawn. */
async function sorted(act) {
  const view = await page.getAttribute("[data-testid=panel-data]", "data-view");
  await act();
  await page.waitForFunction((v) => (document.querySelector("[data-testid=panel-data]").dataset.view ?? null) !== v, view, { timeout: 60_000 });
  await gridDrawn(page);
}

const highlighted = () => page.$$eval("[data-testid=data-grid] .grid-cell.selected", (els) => els.map((e) => ({ row: e.dataset.row, col: e.dataset.col, text: e.textContent })));

test("S on a selected cell: the sort forgets the cell (a place in the old view), and no cell is left highlighted; an arrow key selects one for real", async () => {
  await page.click("[data-testid=data-grid] .grid-cell[data-row='3'][data-col='2']");
  await sorted(() => page.keyboard.press("s"));
  assert.deepEqual(await highlighted(), []);
  assert.match(await page.textContent("[data-testid=cell-panel]"), /^Select a cell/);
  await page.evaluate(() => navigator.clipboard.writeText("SENTINEL"));
  await page.keyboard.press("Control+c");
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "SENTINEL");
  await page.keyboard.press("ArrowDown");
  await gridDrawn(page);
  const hl = await highlighted();
  assert.equal(hl.length, 1);
  assert.equal(hl[0].col, "2");
  await page.waitForSelector("[data-testid=cell-panel-value]");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), hl[0].text);
});

test("a header click: no cell is left highlighted, the panel asks for one, Ctrl+C copies nothing", async () => {
  await page.click("[data-testid=data-grid] .grid-cell[data-row='2'][data-col='3']");
  await sorted(() => page.click("[data-testid=data-grid-header][data-col='3'] button"));
  assert.deepEqual(await highlighted(), []);
  assert.match(await page.textContent("[data-testid=cell-panel]"), /^Select a cell/);
  await page.evaluate(() => navigator.clipboard.writeText("SENTINEL"));
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("Control+c");
  await page.waitForTimeout(200);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "SENTINEL");
  // An arrow key selects from there, for real.
  await page.keyboard.press("ArrowDown");
  await gridDrawn(page);
  assert.equal((await highlighted()).length, 1);
  assert.ok(await page.$("[data-testid=cell-panel-value]"));
  assert.deepEqual(log.errors, []);
});
