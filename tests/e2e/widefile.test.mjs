// A file of many columns (1,200, in two row groups of three rows) in the
// Data tab: the grid draws the columns in sight, not every one, keeps every
// column's header, and shows the right value in the right place wherever it
// is scrolled to, by the scroll bar or by the keyboard.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, waitState, tab, gridDrawn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const C = 1200;
const SCHEMA = Array.from({ length: C }, (_, c) => ({ name: `col_${c}`, type: c % 2 ? "string" : "int32", nullable: c % 3 === 0 }));
// Column c of row group g: an int column g, c, then 7 (null where nullable);
// a string column "v<g>_<c>", "x", then "y" (null where nullable).
const columnsOf = (g) => SCHEMA.map((s, c) => (s.type === "string" ? [`v${g}_${c}`, "x", s.nullable ? null : "y"] : [g, c, s.nullable ? null : 7]));
const spaced = buildFile(SCHEMA, [0, 1].map((g) => ({ offset: 5 + g * C * 200, columns: columnsOf(g) })));
const second = 5 + spaced.chunks[0].at(-1).end - spaced.chunks[0][0].start;
const bytes = materialize(buildFile(SCHEMA, [0, 1].map((g) => ({ offset: g ? second : 5, columns: columnsOf(g) }))));
let ins;

before(async () => {
  ins = await openInspector();
  await ins.page.setInputFiles("[data-testid=file-input]", [{ name: "wide.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(ins.page, "ready");
  await tab(ins.page, "data");
  await gridDrawn(ins.page);
});

after(async () => {
  await ins?.close();
});

/** Row `row`'s drawn cells, as { col, text, left } (left: its x on screen), and its header's x for each. */
const drawn = (page, row) =>
  page.evaluate((row) => {
    const grid = document.querySelector("[data-testid=data-grid]");
    const heads = new Map([...grid.querySelectorAll("[data-testid=data-grid-header]")].map((th) => [th.dataset.col, th.getBoundingClientRect().left]));
    return [...grid.querySelectorAll(`.grid-row[data-row="${row}"] .grid-cell:not(.grid-rowno)`)].map((e) => ({ col: Number(e.dataset.col), text: e.textContent, left: e.getBoundingClientRect().left, head: heads.get(e.dataset.col) }));
  }, row);

const scroller = "[data-testid=data-grid] .grid-scroll";

/** The selector of row `row`'s first cell wholly in sight. (The grid draws
 *  columns a margin past each side of its box: a click on one of those
 *  scrolls the grid, which then draws other columns in its cells, at its
 *  next frame; a machine slow enough to draw before the click lands had the
 *  click find another cell there, again and again.) */
const inSight = (page, row) =>
  page.evaluate((row) => {
    const s = document.querySelector("[data-testid=data-grid] .grid-scroll");
    const box = s.getBoundingClientRect();
    const left = box.left + document.querySelector("[data-testid=data-grid] .grid-head .grid-rowno").offsetWidth;
    const cell = [...s.querySelectorAll(`.grid-row[data-row="${row}"] .grid-cell[data-col]:not(.grid-rowno)`)].find((c) => {
      const r = c.getBoundingClientRect();
      return r.left >= left && r.right <= box.right;
    });
    return `[data-testid=data-grid] .grid-row[data-row="${row}"] .grid-cell[data-col="${cell.dataset.col}"]`;
  }, row);

/** What column c shows in rows 0 and 1 (row group 0). */
const expected = (c) => (SCHEMA[c].type === "string" ? [`v0_${c}`, "x"] : ["0", String(c)]);

test("a grid of 1,200 columns draws those in sight, keeps every header, and each drawn cell holds its column's value under its header", async () => {
  const { page, log } = ins;
  assert.equal(await page.$$eval("[data-testid=data-grid-header]", (hs) => hs.length), C, "every column keeps its header");
  const row0 = await drawn(page, 0);
  assert.ok(row0.length > 3 && row0.length < 40, `a row draws the columns in sight, not all ${C}: ${row0.length}`);
  assert.deepEqual(row0.map((x) => x.col), [...row0.keys()], "from the first column on, in order");
  const row1 = await drawn(page, 1);
  for (const [i, x] of row0.entries()) {
    assert.deepEqual([x.text, row1[i].text], expected(x.col), `column ${x.col}`);
    assert.ok(Math.abs(x.left - x.head) < 1, `column ${x.col}'s cell lies under its header (${x.left} against ${x.head})`);
  }
  assert.deepEqual(log.errors, []);
});

test("scrolled far right, the grid draws the columns there, under their headers, with their values", async () => {
  const { page } = ins;
  const at = await page.$eval("[data-testid=data-grid-header][data-col='901']", (th) => th.offsetLeft);
  const rowNo = await page.$eval("[data-testid=data-grid] .grid-head .grid-rowno", (e) => e.offsetWidth);
  await page.$eval(scroller, (s, x) => (s.scrollLeft = x), at - rowNo);
  await gridDrawn(page);
  const row0 = await drawn(page, 0);
  const row1 = await drawn(page, 1);
  const cols = row0.map((x) => x.col);
  assert.ok(cols.includes(901), `column 901 is drawn: ${cols[0]}..${cols.at(-1)}`);
  assert.ok(!cols.includes(0) && cols.length < 40, `the first columns are not: ${cols[0]}..${cols.at(-1)}`);
  for (const [i, x] of row0.entries()) {
    assert.equal(x.col, cols[0] + i, "consecutive columns");
    assert.deepEqual([x.text, row1[i].text], expected(x.col), `column ${x.col}`);
    assert.ok(Math.abs(x.left - x.head) < 1, `column ${x.col}'s cell lies under its header (${x.left} against ${x.head})`);
  }
  const grid = await page.$eval(scroller, (s) => s.getBoundingClientRect());
  const c901 = row0.find((x) => x.col === 901);
  assert.ok(c901.left >= grid.left && c901.left < grid.right, "column 901 is in sight");
});

test("End and Home move the selection to the last and first column, drawn and in sight, and the side panel names it", async () => {
  const { page } = ins;
  await page.click(await inSight(page, 0));
  await page.keyboard.press("End");
  await gridDrawn(page);
  const active = () => page.$eval("#data-grid-active", (e) => ({ col: Number(e.dataset.col), row: Number(e.dataset.row), text: e.textContent }));
  assert.deepEqual(await active(), { col: C - 1, row: 0, text: `v0_${C - 1}` });
  assert.match(await page.textContent("[data-testid=cell-panel-where]"), /^Row 0$/);
  assert.match(await page.textContent(".side-panel .colname"), new RegExp(`^col_${C - 1}$`));
  await page.keyboard.press("Home");
  await gridDrawn(page);
  assert.deepEqual(await active(), { col: 0, row: 0, text: "0" });
  assert.equal(await page.$eval(scroller, (s) => s.scrollLeft), 0);
});

test("the side panel's whole row lists 200 of the 1,200 columns, finds the others by its filter (case aside, kept from cell to cell), and a field found selects its cell", async () => {
  const { page } = ins;
  const fields = () => page.$$eval("[data-testid=cell-panel] .record-field", (bs) => bs.map((b) => [b.querySelector(".record-name").textContent, b.querySelector(".record-value").textContent]));
  // Row 1 of row group 0: an int column c holds c, a string column "x".
  const row1 = (c) => [`col_${c}`, SCHEMA[c].type === "string" ? "x" : String(c)];
  await page.click(await inSight(page, 1));
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 1");
  assert.deepEqual(await fields(), [...Array(200).keys()].map(row1), "the first 200, in the grid's order");
  assert.match(await page.textContent("[data-testid=record-more]"), /^and 1,000 more columns; the filter finds them/);
  await page.fill("[data-testid=record-filter]", "COL_119");
  const found = [119, ...Array.from({ length: 10 }, (_, k) => 1190 + k)];
  assert.deepEqual(await fields(), found.map(row1));
  await page.click("[data-testid=cell-panel] .record-field[data-field='1195']");
  await page.waitForFunction(() => document.querySelector(".side-panel .colname")?.textContent === "col_1195");
  await gridDrawn(page);
  assert.deepEqual(await page.$eval("#data-grid-active", (e) => ({ col: Number(e.dataset.col), row: Number(e.dataset.row), text: e.textContent })), { col: 1195, row: 1, text: "x" });
  assert.equal(await page.inputValue("[data-testid=record-filter]"), "COL_119", "the filter stays");
  assert.deepEqual(await fields(), found.map(row1));
  // Down to 11 columns shown, the list offers no filter and lists them all
  // (the one typed for the wider row does not apply unseen).
  await page.fill("[data-testid=record-filter]", "COL_1195");
  assert.deepEqual(await fields(), [row1(1195)]);
  await page.click("[data-testid=data-columns-toggle]");
  await page.fill("[data-testid=data-columns] .picker-filter", "col_119");
  await page.click("[data-testid=data-columns-all]");
  await page.click("[data-testid=data-columns-toggle]");
  await page.waitForFunction(() => !document.querySelector("[data-testid=record-filter]"));
  assert.deepEqual(await fields(), found.map(row1));
  await page.click("[data-testid=data-columns-toggle]");
  await page.fill("[data-testid=data-columns] .picker-filter", "");
  await page.click("[data-testid=data-columns-all]");
  await page.click("[data-testid=data-columns-toggle]");
  await page.waitForFunction(() => document.querySelector("[data-testid=record-filter]")?.value === "COL_1195");
  await page.fill("[data-testid=record-filter]", "");
  assert.equal((await fields()).length, 200);
  // The last column selected (End): the list is the 200 around it, the selected field among them, marked.
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("End");
  await page.waitForFunction((c) => document.querySelector(".side-panel .colname")?.textContent === `col_${c}`, C - 1);
  assert.deepEqual(await fields(), Array.from({ length: 200 }, (_, k) => row1(C - 200 + k)));
  assert.equal(await page.textContent("[data-testid=cell-panel] .record-field[aria-current] .record-name"), `col_${C - 1}`);
  assert.match(await page.textContent("[data-testid=record-before]"), /^1,000 columns before these; the filter finds them/);
  assert.equal(await page.$("[data-testid=record-more]"), null);
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector(".side-panel .colname")?.textContent === "col_0");
  assert.deepEqual(await fields(), [...Array(200).keys()].map(row1));
});

test("the Columns menu of 1,200 columns shows 200 at once, finds the others by its filter (case aside), and the grid follows a choice", async () => {
  const { page, log } = ins;
  await page.click("[data-testid=data-columns-toggle]");
  const boxes = () => page.$$eval("[data-testid=data-columns-col]", (bs) => bs.map((b) => Number(b.value)));
  assert.deepEqual(await boxes(), [...Array(200).keys()], "the first 200, in file order");
  assert.match(await page.textContent("[data-testid=data-columns-more]"), /^and 1,000 more/);
  await page.fill("[data-testid=data-columns] .picker-filter", "COL_1199");
  assert.deepEqual(await boxes(), [1199]);
  await page.uncheck("[data-testid=data-columns-col][value='1199']");
  assert.equal(await page.textContent("[data-testid=data-columns-toggle]"), "Columns (1199 of 1200)");
  await gridDrawn(page);
  const heads = await page.$$eval("[data-testid=data-grid-header]", (hs) => hs.map((h) => Number(h.dataset.col)));
  assert.deepEqual(heads, [...Array(C - 1).keys()], "every column but 1199");
  await page.check("[data-testid=data-columns-col][value='1199']");
  await page.click("[data-testid=data-columns-toggle]");
  await gridDrawn(page);
  assert.equal(await page.$$eval("[data-testid=data-grid-header]", (hs) => hs.length), C);
  assert.deepEqual(log.errors, []);
});

test("the Schema of 1,200 columns shows 1,000 rows until asked for all, and its filter finds columns by name, the totals following", async () => {
  const { page, log } = ins;
  await tab(page, "schema");
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  const names = () => page.$$eval("[data-testid=schema-row] [data-field=name]", (tds) => tds.map((td) => td.textContent));
  assert.equal((await names()).length, 1000);
  assert.match(await page.textContent("[data-testid=panel-schema] .table-block > p"), /^Showing 1,000 of 1,200 rows/);
  await page.fill("[data-testid=schema-filter]", "COL_119");
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  assert.deepEqual(await names(), ["col_119", ...Array.from({ length: 10 }, (_, k) => `col_${1190 + k}`)]);
  const total = await page.$eval("[data-testid=schema-table] tfoot [data-field=name]", (td) => td.textContent);
  assert.equal(total, "11 matching columns");
  await page.fill("[data-testid=schema-filter]", "");
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  assert.equal((await names()).length, 1000);
  assert.equal(await page.$eval("[data-testid=schema-table] tfoot [data-field=name]", (td) => td.textContent), "All columns");
  await page.click("[data-testid=panel-schema] [data-testid=table-show-all]");
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  assert.deepEqual(await names(), SCHEMA.map((s) => s.name));
  assert.deepEqual(log.errors, []);
});

test("the Chunks tab's name filter finds chunks by name, case aside, within the row group chosen", async () => {
  const { page, log } = ins;
  await tab(page, "chunks");
  const chunks = () => page.$$eval("[data-testid=chunk-row]", (trs) => trs.map((tr) => `${tr.dataset.rg}:${tr.dataset.col}`));
  const want = (gs) => gs.flatMap((g) => [119, ...Array.from({ length: 10 }, (_, k) => 1190 + k)].map((c) => `${g}:${c}`));
  await page.fill("[data-testid=chunks-filter]", "COL_119");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=chunk-row]").length === 22);
  assert.deepEqual((await chunks()).sort(), want([0, 1]).sort());
  await page.selectOption("[data-testid=chunks-rg]", "1");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=chunk-row]").length === 11);
  assert.deepEqual((await chunks()).sort(), want([1]).sort());
  await page.fill("[data-testid=chunks-filter]", "");
  await page.selectOption("[data-testid=chunks-rg]", "all");
  assert.deepEqual(log.errors, []);
});
