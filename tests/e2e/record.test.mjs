// The selected cell's whole row, listed at the foot of the side panel
// ("Whole row"): every column's name and value as the corpus JSON says,
// nulls as null and cells whose chunk does not read as unreadable; a field
// picked selects its cell in the grid (the focus staying on the list from
// the keyboard, going to the grid from a pointer); the same list under a
// SQL result's cell.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, dropFile, tab, gridDrawn, twoFrames, corpus, waitState, sqlReady, runSql, sqlGridDrawn } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

let ins;
before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } });
});
after(async () => {
  await ins?.close();
});

const cell = (row, c, grid = "data-grid") => `[data-testid=${grid}] .grid-row[data-row='${row}'] .grid-cell[data-col='${c}']`;

/** The list's fields as [name, value text], once it shows row `row` (the panel's heading). */
async function fields(page, panel = "cell-panel") {
  await page.waitForSelector(`[data-testid=${panel}] [data-testid=record-list]`);
  return page.$$eval(`[data-testid=${panel}] .record-field`, (bs) => bs.map((b) => [b.querySelector(".record-name").textContent, b.querySelector(".record-value").textContent]));
}

/** The text the list must show for a corpus JSON value of `type`. */
function expectedText(type, v) {
  if (v === null) return "null";
  if (type === "bytes") return `0x${v}`;
  return String(v);
}

/** A float's value from the corpus JSON's bits ("0x…", big-endian). */
function floatOf(type, bits) {
  const b = Buffer.from(bits.slice(2), "hex");
  return type === "float32" ? b.readFloatBE(0) : b.readDoubleBE(0);
}

test("a selected cell's whole row lists every column's name and value as the corpus JSON says, nulls as null", async () => {
  const { page } = ins;
  const rel = "valid/all_types_small.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  await dropFile(page, path.join(corpus, rel));
  await tab(page, "data");
  await gridDrawn(page);
  // Rows 1 (every value) and 3 (the nullable columns null), each from a
  // different column's cell.
  for (const [row, col] of [[1, 0], [3, 7]]) {
    await page.click(cell(row, col));
    await page.waitForFunction((r) => document.querySelector("[data-testid=cell-panel-where]")?.textContent === `Row ${r}`, row);
    const got = await fields(page);
    assert.equal(got.length, want.schema.length, "one field a column");
    want.schema.forEach((s, c) => {
      const v = want.row_groups[0].values[c][row];
      assert.equal(got[c][0], s.name, `field ${c}'s name`);
      if ((s.type === "float32" || s.type === "float64") && v !== null) assert.equal(Number(got[c][1]), floatOf(s.type, v), `${s.name} at row ${row}: ${got[c][1]}`);
      else assert.equal(got[c][1], expectedText(s.type, v), `${s.name} at row ${row}`);
    });
    assert.equal(await page.getAttribute(`[data-testid=cell-panel] .record-field[data-field='${col}']`, "aria-current"), "true", "the selected cell's field is marked");
    assert.equal(await page.$$eval("[data-testid=cell-panel] .record-field[aria-current]", (bs) => bs.length), 1);
  }
});

test("a field picked selects its cell: by pointer the grid takes the focus, from the keyboard the field keeps it and the list keeps its scroll", async () => {
  const { page } = ins;
  // (all_types_small from the test before, row 3 selected)
  await page.click("[data-testid=cell-panel] .record-field[data-field='24']");
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel] .value-head .colname")?.textContent === "c_string");
  assert.equal(await page.textContent("[data-testid=cell-panel-where]"), "Row 3");
  // The panel follows the pick at once, the grid draws its selection in its next frame.
  await twoFrames(page);
  assert.match(await page.getAttribute(cell(3, 24), "class"), /\bselected\b/, "the grid's selection moved to the cell picked");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "data-grid", "a pointer's pick gives the grid the focus");
  // Arrow keys go on from there, in the grid.
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel] .value-head .colname")?.textContent === "n_string");

  // From the keyboard: the list scrolled down, a field far down chosen with Enter.
  await page.$eval("[data-testid=cell-panel] [data-testid=record-list]", (l) => {
    l.style.maxHeight = "120px"; // a list taller than its box, whatever the window
    l.scrollTop = l.scrollHeight;
  });
  const scrolled = await page.$eval("[data-testid=cell-panel] [data-testid=record-list]", (l) => l.scrollTop);
  assert.ok(scrolled > 0, "the list scrolls");
  await page.focus("[data-testid=cell-panel] .record-field[data-field='20']");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel] .value-head .colname")?.textContent === "c_float64");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.field), "20", "the field picked keeps the focus");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-current")), "true");
  // The list was drawn anew (max-height back to the style sheet's), its scroll kept as far as it goes.
  const after = await page.$eval("[data-testid=cell-panel] [data-testid=record-list]", (l) => ({ top: l.scrollTop, max: l.scrollHeight - l.clientHeight }));
  assert.ok(after.top > 0 && after.top === Math.min(scrolled, after.max), `scroll kept: ${JSON.stringify(after)} after ${scrolled}`);
  // Closed, it stays closed for the next cell, and opens again.
  await page.click("[data-testid=cell-panel] [data-testid=record] > summary");
  await page.click(cell(4, 1));
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 4");
  assert.equal(await page.$eval("[data-testid=cell-panel] [data-testid=record]", (d) => d.open), false);
  await page.click("[data-testid=cell-panel] [data-testid=record] > summary");
  await page.click(cell(2, 1));
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 2");
  assert.equal(await page.$eval("[data-testid=cell-panel] [data-testid=record]", (d) => d.open), true);
});

test("the columns shown change: the panel keeps its cell where it now is, its list of the columns shown (a field picked selects the right cell); the cell's column hidden, the panel forgets it", async () => {
  const { page } = ins;
  // (all_types_small from the tests before)
  await page.click(cell(2, 24));
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel] .value-head .colname")?.textContent === "c_string" && document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 2");
  await page.click("[data-testid=data-columns-toggle]");
  await page.uncheck("[data-testid=data-columns-col][value='0']");
  await page.uncheck("[data-testid=data-columns-col][value='1']");
  await page.click("[data-testid=data-columns-toggle]");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=cell-panel] .record-field").length === 24);
  const names = await page.$$eval("[data-testid=cell-panel] .record-name", (ns) => ns.map((n) => n.textContent));
  assert.equal(names[0], "c_int8", "the list begins with the first column shown");
  assert.equal(await page.textContent("[data-testid=cell-panel] .value-head .colname"), "c_string");
  assert.equal(await page.textContent("[data-testid=cell-panel] .record-field[aria-current] .record-name"), "c_string");
  await page.click("[data-testid=cell-panel] .record-field[data-field='0']");
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel] .value-head .colname")?.textContent === "c_int8");
  await twoFrames(page); // (the grid draws the selection in its next frame)
  assert.match(await page.getAttribute(cell(2, 2), "class"), /\bselected\b/, "the cell of c_int8 (file column 2)");
  // Its column hidden, the cell selected is gone from the grid, and from the panel.
  await page.click("[data-testid=data-columns-toggle]");
  await page.uncheck("[data-testid=data-columns-col][value='2']");
  await page.click("[data-testid=data-columns-toggle]");
  await page.waitForFunction(() => !document.querySelector("[data-testid=cell-panel] [data-testid=record]"));
  assert.equal(await page.$("[data-testid=cell-panel-where]"), null);
  await page.click("[data-testid=data-columns-toggle]");
  for (const c of ["0", "1", "2"]) await page.check(`[data-testid=data-columns-col][value='${c}']`);
  await page.click("[data-testid=data-columns-toggle]");
  // A filter typed in the list (forgotten when another file opens: the last test).
  await page.click(cell(1, 1));
  await page.fill("[data-testid=record-filter]", "n_");
  assert.equal((await fields(page)).length, 13);
});

test("in the row's list, a cell whose chunk does not read shows unreadable, not a value or a null; long texts are cut", async () => {
  const { page } = ins;
  const rel = "valid/tokenized_two_tokenizers.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  // Only the small tokenizer: text_gpt2 and also_gpt2 do not read.
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.setInputFiles("[data-testid=file-input]", [
    path.join(corpus, rel),
    path.join(corpus, "tokenizers/small-tokenizer.json"),
  ]);
  await waitState(page, "ready");
  await tab(page, "data");
  await gridDrawn(page);
  await page.click(cell(0, 1));
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 0");
  const got = await fields(page);
  assert.deepEqual(got.map(([name]) => name), want.schema.map((s) => s.name));
  const values = want.row_groups[0].values;
  const cut = (s) => ([...s].length > 80 ? `${[...s].slice(0, 80).join("")}…` : s);
  assert.equal(got[0][1], "✗ unreadable", "text_gpt2 (its tokenizer missing)");
  assert.equal(got[1][1], cut(values[1][0]), "text_small");
  assert.equal(got[2][1], "✗ unreadable", "also_gpt2");
  assert.equal(got[3][1], cut(values[3][0]), "untokenized");
  assert.ok(got[3][1].endsWith("…") && [...values[3][0]].length > 80, "a long value is cut");
});

test("a SQL result's selected cell lists its row too, and a field picked selects its cell", async () => {
  const { page } = ins;
  const rel = "valid/all_types_small.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  const c = want.schema.findIndex((s) => s.name === "c_int16");
  const least = Math.min(...want.row_groups.flatMap((g) => g.values[c]));
  await dropFile(page, path.join(corpus, rel));
  // The list's filter typed for this file before another opened is gone.
  await tab(page, "data");
  await gridDrawn(page);
  await page.click(cell(1, 1));
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=cell-panel] .record-field").length === 26);
  assert.equal(await page.inputValue("[data-testid=record-filter]"), "");
  await sqlReady(page);
  const r = await runSql(page, "SELECT 7 AS seven, NULL AS nothing, 'text' AS words, c_int16 FROM t ORDER BY c_int16 LIMIT 1");
  assert.equal(r.state, "done", r.text);
  await sqlGridDrawn(page);
  await page.click(cell(0, 0, "sql-grid"));
  const got = await fields(page, "sql-cell-panel");
  assert.deepEqual(got, [["seven", "7"], ["nothing", "null"], ["words", "text"], ["c_int16", String(least)]]);
  await page.click("[data-testid=sql-cell-panel] .record-field[data-field='2']");
  await page.waitForFunction(() => document.querySelector("[data-testid=sql-cell-value]")?.textContent === "text");
  // (the grid draws the selection in its next frame: waited for, once in a full run read before it)
  await page.waitForFunction((sel) => /\bselected\b/.test(document.querySelector(sel)?.className || ""), cell(0, 2, "sql-grid"));
  // Another statement's result: the panel forgets the cell of the one before.
  assert.equal((await runSql(page, "SELECT 'other' AS x")).state, "done");
  await sqlGridDrawn(page);
  assert.ok(await page.$("[data-testid=sql-cell-panel] [data-testid=sql-cell-hint]"), "the panel is back to its hint");
  assert.equal(await page.$("[data-testid=sql-cell-panel] [data-testid=record]"), null);
  assert.equal(await page.$("[data-testid=sql-cell-value]"), null);
});

test("no page errors", () => {
  assert.deepEqual(ins.log.errors, []);
});
