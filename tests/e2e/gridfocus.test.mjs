// The grid is one tab stop: Tab from it leaves it. Chromium makes a
// scrolling box a tab stop of its own, so the grid's inner scroller was a
// second, nameless stop where the arrow keys scrolled instead of moving the
// selected cell.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { gridDrawn, openInspector, tab, waitState } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector({ viewport: { width: 390, height: 800 } });
  ({ page, log } = inspector);
  const n = 300;
  const schema = Array.from({ length: 8 }, (_, k) => ({ name: `column_${k}`, type: "int32", nullable: false }));
  const file = buildFile(schema, [{ offset: 5, columns: schema.map((_, k) => Array.from({ length: n }, (_, i) => i * 10 + k)) }]);
  await page.setInputFiles("[data-testid=file-input]", { name: "wide.cols", mimeType: "application/octet-stream", buffer: Buffer.from(materialize(file)) });
  await waitState(page, "ready");
  await tab(page, "data");
  // Row 0's values drawn (no pending cell alone is true before the grid has any).
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not([data-kind=pending])");
  await gridDrawn(page);
});

after(async () => {
  await inspector?.close();
});

test("Data grid: one tab stop; Tab leaves it, Shift+Tab comes back to it", async () => {
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  const after = await page.evaluate(() => {
    const a = document.activeElement;
    return { inGrid: !!a.closest("[data-testid=data-grid]"), tag: a.tagName, cls: a.className };
  });
  assert.equal(after.inGrid, false, `Tab from the grid stayed in it: ${after.tag}.${after.cls}`);
  await page.keyboard.press("Shift+Tab");
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), "data-grid");
  // The arrow keys still move the selection, not the scroll box.
  // The grid draws the selection in its next animation frame: wait for a
  // frame (so a key that did not move it fails here, not by a timeout).
  await page.keyboard.press("ArrowDown");
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  assert.equal(await page.getAttribute("[data-testid=data-grid] .grid-cell.selected", "data-row"), "2");
  assert.deepEqual(log.errors, []);
});

test("Data grid with no column shown: every key and a press on a row do nothing (no error), and the grid works once columns are back", async () => {
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=data-columns-none]");
  await page.keyboard.press("Escape");
  await page.waitForSelector("[data-testid=data-grid] .grid-row:not([hidden]) .grid-rowno");
  assert.equal(await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col]", (els) => els.length), 0);
  // A press and a drag on a row (only its number is there), then every key the grid takes.
  const row = await page.$("[data-testid=data-grid] .grid-row[data-row='2']");
  const box = await row.boundingBox();
  await page.mouse.move(box.x + 30, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 30, box.y + 300);
  await page.mouse.up();
  await page.focus("[data-testid=data-grid]");
  const keys = ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft", "PageDown", "PageUp", "Home", "End", "Control+Home", "Control+End", "Shift+ArrowDown", "Shift+ArrowRight", "Control+a", "Shift+Space", "Control+Space", "Control+c", "s", "n", "Shift+N", "<", ">"];
  for (const k of keys) {
    await page.keyboard.press(k);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.deepEqual(log.errors, [], `after ${k}`);
  }
  // Columns shown again: the arrow keys select cells as before.
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=data-columns-all]");
  await page.keyboard.press("Escape");
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not([data-kind=pending])");
  await gridDrawn(page);
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("Control+Home");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const cell = await page.$eval("[data-testid=data-grid] .grid-cell.selected", (e) => ({ row: e.dataset.row, col: e.dataset.col }));
  assert.deepEqual(cell, { row: "1", col: "1" });
  assert.deepEqual(log.errors, []);
});

test("a cell of a column wider than the grid's room, selected (arrow key, click), starts right of the row numbers, not under them", async () => {
  await page.click("[data-testid=data-grid] .grid-cell[data-row='0'][data-col='3']");
  for (let i = 0; i < 25; i++) await page.keyboard.press(">");
  await gridDrawn(page);
  const geo = (r) =>
    page.$eval(`[data-testid=data-grid] .grid-cell[data-row='${r}'][data-col='3']`, (cell) => {
      const g = cell.closest("[data-testid=data-grid]");
      const no = g.querySelector(".grid-row:not([hidden]) .grid-rowno").getBoundingClientRect();
      const c = cell.getBoundingClientRect();
      return { cellLeft: Math.round(c.left), cellWidth: Math.round(c.width), rownoRight: Math.round(no.right), gridWidth: Math.round(g.getBoundingClientRect().width) };
    });
  const wide = await geo(0);
  assert.ok(wide.cellWidth > wide.gridWidth, JSON.stringify(wide));
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowRight");
  await gridDrawn(page);
  const byKey = await geo(0);
  assert.ok(byKey.cellLeft >= byKey.rownoRight - 1, `by key: ${JSON.stringify(byKey)}`);
  await page.keyboard.press("ArrowLeft");
  await gridDrawn(page);
  const cell = await page.$("[data-testid=data-grid] .grid-cell[data-row='1'][data-col='3']");
  const box = await cell.boundingBox();
  await page.mouse.click(Math.min(box.x + box.width, 380) - 20, box.y + box.height / 2);
  await gridDrawn(page);
  const byClick = await geo(1);
  assert.ok(byClick.cellLeft >= byClick.rownoRight - 1, `by click: ${JSON.stringify(byClick)}`);
  assert.deepEqual(log.errors, []);
});

test("Columns → None: the grid says no column is shown and where to choose some, and Go to file row says why it does not go", async () => {
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=data-columns-none]");
  await page.keyboard.press("Escape");
  await page.waitForSelector("[data-testid=data-grid-empty]:not([hidden])", { timeout: 5000 });
  assert.equal(await page.textContent("[data-testid=data-grid-empty]"), "No columns shown: choose some in Columns.");
  await page.fill("[data-testid=data-goto]", "50");
  await page.press("[data-testid=data-goto]", "Enter");
  await page.waitForSelector("[data-testid=data-goto-error]:not([hidden])", { timeout: 5000 });
  assert.match(await page.textContent("[data-testid=data-goto-error]"), /^No columns shown: choose some in Columns/);
  // Columns back: the message goes.
  await page.click("[data-testid=data-columns-toggle]");
  await page.click("[data-testid=data-columns-all]");
  await page.keyboard.press("Escape");
  await page.waitForSelector("[data-testid=data-grid-empty][hidden]", { state: "attached" });
  assert.deepEqual(log.errors, []);
});
