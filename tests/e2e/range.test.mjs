// A range of cells in the Data grid (Shift with a click or an arrow key):
// drawn as selected, copied as TSV (with or without the names) and JSON,
// and summed, each checked against the corpus JSON, over rows the grid has
// at hand and over the whole file (read in pieces).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, dropFile, tab, gridDrawn, corpus } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let ins;
let want;

before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } });
  const rel = "real/diamonds.optimized.cols";
  want = readJson(expectedPath(path.join(corpus, rel)));
  await dropFile(ins.page, path.join(corpus, rel));
  await tab(ins.page, "data");
  await gridDrawn(ins.page);
});

after(async () => {
  await ins?.close();
});

/** Column `name` of the corpus JSON: its index and every row's value as a number (floats from their bits) or a string. */
function column(name) {
  const c = want.schema.findIndex((s) => s.name === name);
  const type = want.schema[c].type;
  const values = want.row_groups.flatMap((rg) => rg.values[c]).map((v) => {
    if (type === "float64") return Buffer.from(v.slice(2), "hex").readDoubleBE(0);
    return v;
  });
  return { c, type, values };
}

const cell = (row, c) => `[data-testid=data-grid] .grid-row[data-row='${row}'] .grid-cell[data-col='${c}']`;
const copied = (page) => page.evaluate(() => document.body.dataset.copied);

/** Copies with `action` and returns what went to the clipboard. */
async function copy(page, action) {
  await page.evaluate(() => delete document.body.dataset.copied);
  await action();
  await page.waitForFunction(() => document.body.dataset.copied !== undefined, null, { timeout: 30_000 });
  return copied(page);
}

/** What the range's panel says of its size, once it says `text` (it follows
 *  the selection when the rows are at hand) or after 30 s. */
async function rangeSize(page, text) {
  await page.waitForFunction((t) => document.querySelector("[data-testid=range-size]")?.textContent === t, text, { timeout: 30_000 }).catch(() => {});
  return page.textContent("[data-testid=range-size]");
}

/** What the panel must say of the sums of `cols` (corpus JSON columns,
 *  one a float) over rows `rows`: added row by row, then across the
 *  columns, as the range is read, in doubles. */
function expectedSums(cols, rows) {
  let sum = 0;
  let count = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const r of rows) {
    for (const x of cols) {
      const v = Number(x.values[r]);
      sum += v;
      count++;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
  }
  return `${count.toLocaleString("en-US")} numbers: sum ${sum}, min ${min}, max ${max}, mean ${sum / count}`;
}
const upTo = (n) => Array.from({ length: n }, (_, r) => r);

/** The range's sums once worked out. */
async function sums(page) {
  await page.waitForFunction(() => {
    const t = document.querySelector("[data-testid=range-sums]")?.textContent;
    return t && !t.startsWith("Summing");
  }, null, { timeout: 60_000 });
  return page.textContent("[data-testid=range-sums]");
}

test("Shift+click and Shift+arrow select a range: drawn selected, copied as TSV, with names and as JSON as the corpus JSON says, summed; an arrow alone selects one cell again", async () => {
  const { page, log } = ins;
  const names = ["carat", "cut", "color", "clarity"];
  const cols = names.map(column);
  assert.deepEqual(cols.map((x) => x.c), [0, 1, 2, 3]);
  await page.click(cell(2, 0));
  await page.click(cell(6, 3), { modifiers: ["Shift"] });
  await page.keyboard.press("Shift+ArrowDown");
  await gridDrawn(page);
  const marked = await page.$$eval("[data-testid=data-grid] .grid-cell.in-range", (es) => es.map((e) => `${e.dataset.row}:${e.dataset.col}:${e.getAttribute("aria-selected")}`).sort());
  const expected = [];
  for (let r = 2; r <= 7; r++) for (let c = 0; c <= 3; c++) expected.push(`${r}:${c}:true`);
  assert.deepEqual(marked, expected.sort(), "rows 2 to 7 of the first four columns drawn as the range");
  assert.equal(await rangeSize(page, "6 rows × 4 columns"), "6 rows × 4 columns");

  const rows = [2, 3, 4, 5, 6, 7].map((r) => cols.map((x) => String(x.values[r])));
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), rows.map((r) => r.join("\t")).join("\n"), "Ctrl+C: TSV");
  assert.equal(await copy(page, () => page.click("[data-testid=copy-range-header]")), [names, ...rows].map((r) => r.join("\t")).join("\n"), "with the names first");
  const json = JSON.parse(await copy(page, () => page.click("[data-testid=copy-range-json]")));
  // (carat a number, as the JSON export writes it; the rest text)
  assert.deepEqual(json, [2, 3, 4, 5, 6, 7].map((r) => Object.fromEntries(cols.map((x, k) => [names[k], x.values[r]]))), "JSON");
  // carat is the range's one number column.
  assert.equal(await sums(page), expectedSums([cols[0]], [2, 3, 4, 5, 6, 7]));

  // An arrow key without Shift (in the grid: the buttons took the focus): one cell, the cell panel back.
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("ArrowDown");
  await gridDrawn(page);
  assert.equal(await page.$$eval("[data-testid=data-grid] .grid-cell.in-range", (es) => es.length), 0);
  await page.waitForSelector("[data-testid=cell-panel-where]");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), "VS2", "row 8's clarity");
  assert.deepEqual(log.errors, []);
});

test("a range down to the file's last row and column (Ctrl+Shift+End) is read in pieces: its sums are every row's, exact for the integers", async () => {
  const { page, log } = ins;
  const names = ["price", "x", "y", "z"];
  const cols = names.map(column);
  assert.deepEqual(cols.map((x) => x.c), [6, 7, 8, 9], "the last four columns");
  const n = cols[0].values.length;
  await page.click(cell(0, 6));
  await page.keyboard.press("Control+Shift+End");
  const size = `${n.toLocaleString("en-US")} rows × 4 columns`;
  assert.equal(await rangeSize(page, size), size);
  assert.equal(await sums(page), expectedSums(cols, upTo(n)));
  // The first lines of its TSV (the page keeps the first 10,000 characters of a copy for tests).
  const text = await copy(page, () => page.keyboard.press("Control+c"));
  const lines = text.split("\n").slice(0, 100);
  assert.deepEqual(lines, Array.from({ length: 100 }, (_, r) => cols.map((x) => String(x.values[r])).join("\t")));

  // A price range alone: integers, summed exactly.
  await page.keyboard.press("Control+Home");
  await gridDrawn(page);
  await page.click(cell(0, 6));
  await page.click(cell(9, 6), { modifiers: ["Shift"] });
  const prices = cols[0].values.slice(0, 10).map(BigInt);
  const total = prices.reduce((a, b) => a + b, 0n);
  assert.equal(await sums(page), `10 numbers: sum ${total}, min ${prices.reduce((a, b) => (b < a ? b : a))}, max ${prices.reduce((a, b) => (b > a ? b : a))}, mean ${Number(total) / 10}`);
  assert.deepEqual(log.errors, []);
});

test("Ctrl+A selects every cell of the view: its size, and the sums of its every number column", async () => {
  const { page, log } = ins;
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("Control+a");
  const n = want.row_groups.reduce((a, rg) => a + rg.num_rows, 0);
  const size = `${n.toLocaleString("en-US")} rows × 10 columns`;
  assert.equal(await rangeSize(page, size), size);
  // The seven number columns (the three text ones left out), row by row.
  const nums = want.schema.filter((s) => s.type !== "string").map((s) => column(s.name));
  assert.equal(nums.length, 7);
  assert.equal(await sums(page), expectedSums(nums, upTo(n)));
  assert.deepEqual(log.errors, []);
});

test("Shift+Space selects the selected cell's row, Ctrl+Space its column (every row): their size, copy and sums as the corpus JSON says", async () => {
  const { page, log } = ins;
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("Control+Home");
  await gridDrawn(page);
  await page.click(cell(5, 6));
  await page.keyboard.press("Shift+Space");
  assert.equal(await rangeSize(page, "1 row × 10 columns"), "1 row × 10 columns");
  const all = want.schema.map((s) => column(s.name));
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), all.map((x) => String(x.values[5])).join("\t"));
  assert.equal(await sums(page), expectedSums(all.filter((x) => x.type !== "string"), [5]));

  // One cell again, below the range's moving end (the row's last cell: z), and its column.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Control+Space");
  const z = column("z");
  const n = z.values.length;
  const size = `${n.toLocaleString("en-US")} rows × 1 column`;
  assert.equal(await rangeSize(page, size), size);
  assert.equal(await sums(page), expectedSums([z], upTo(n)));
  assert.deepEqual(log.errors, []);
});

test("a drag from one cell to another selects the range between them; a click without the mouse's press (a screen reader's) selects one cell", async () => {
  const { page, log } = ins;
  await page.keyboard.press("Control+Home");
  await gridDrawn(page);
  const centre = async (row, c) => {
    const b = await page.locator(cell(row, c)).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  await page.mouse.move(...(await centre(1, 1)));
  await page.mouse.down();
  await page.mouse.move(...(await centre(3, 2)), { steps: 4 });
  await page.mouse.move(...(await centre(5, 3)), { steps: 4 });
  await page.mouse.up();
  assert.equal(await rangeSize(page, "5 rows × 3 columns"), "5 rows × 3 columns");
  await gridDrawn(page);
  assert.equal(await page.$$eval("[data-testid=data-grid] .grid-cell.in-range", (es) => es.length), 15);
  const names = ["cut", "color", "clarity"].map(column);
  const rows = [1, 2, 3, 4, 5].map((r) => names.map((x) => x.values[r]).join("\t"));
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), rows.join("\n"));
  // A click event alone (no press before it): the cell, the range gone.
  await page.$eval(cell(2, 0), (e) => e.click());
  await page.waitForSelector("[data-testid=cell-panel-where]");
  // (the panel follows at once; the grid draws the range gone in its next frame)
  await gridDrawn(page);
  assert.equal(await page.$$eval("[data-testid=data-grid] .grid-cell.in-range", (es) => es.length), 0);
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), String(column("carat").values[2]));
  assert.deepEqual(log.errors, []);
});

test("a drag past the grid's bottom edge scrolls it and stretches the range to the rows scrolled to; back inside, it stops", async () => {
  const { page, log } = ins;
  await page.keyboard.press("Control+Home");
  await gridDrawn(page);
  const b = await page.locator(cell(1, 1)).boundingBox();
  const grid = await page.locator("[data-testid=data-grid] .grid-scroll").boundingBox();
  const shown = await page.$$eval("[data-testid=data-grid] .grid-row[data-row]", (rs) => rs.filter((r) => !r.hidden).length);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, grid.y + grid.height + 80, { steps: 4 });
  // Rows well past the window's first: the grid scrolled on its own.
  await page.waitForFunction((n) => Number(/^([\d,]+) rows/.exec(document.querySelector("[data-testid=range-size]")?.textContent ?? "")?.[1].replace(/,/g, "") ?? 0) > 3 * n, shown, { timeout: 30_000 });
  // Back inside, on the second row shown: the scrolling stops there.
  const inside = await page.locator("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='2']").nth(1).boundingBox();
  await page.mouse.move(inside.x + inside.width / 2, inside.y + inside.height / 2, { steps: 2 });
  await page.mouse.up();
  const top = await page.$eval("[data-testid=data-grid] .grid-scroll", (e) => e.scrollTop);
  await page.waitForTimeout(300);
  assert.equal(await page.$eval("[data-testid=data-grid] .grid-scroll", (e) => e.scrollTop), top, "no scrolling once the pointer is back and released");
  assert.ok(top > 0);
  const size = await page.textContent("[data-testid=range-size]");
  const [, rows] = /^([\d,]+) rows × 2 columns$/.exec(size) ?? [];
  assert.ok(rows, size);
  const n = Number(rows.replace(/,/g, ""));
  assert.ok(n > shown, `${n} rows: more than the ${shown} rows of the first window`);
  // The range is rows 1 to n of columns 1-2, as the corpus JSON has them.
  const names = ["cut", "color"].map(column);
  const want = Array.from({ length: n }, (_, i) => names.map((x) => x.values[1 + i]).join("\t")).join("\n");
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), want);
  assert.deepEqual(log.errors, []);
});

test("a drag past the grid's right edge scrolls it sideways and stretches the range to the columns scrolled to", async () => {
  const { page, log } = ins;
  const k = 60;
  const schema = Array.from({ length: k }, (_, c) => ({ name: `c${c}`, type: "int32", nullable: false }));
  const columns = schema.map((_, c) => Array.from({ length: 20 }, (_, i) => i * 100 + c));
  await dropFile(page, { name: "sixty.cols", bytes: materialize(buildFile(schema, [{ offset: 5, columns }])) });
  await tab(page, "data");
  await gridDrawn(page);
  const b = await page.locator(cell(2, 1)).boundingBox();
  const grid = await page.locator("[data-testid=data-grid] .grid-scroll").boundingBox();
  // The columns wholly in sight at first (the grid draws more, out of sight).
  const inSight = await page.$$eval("[data-testid=data-grid] .grid-row[data-row='2'] .grid-cell[data-col]", (cs, right) => cs.filter((c) => c.getBoundingClientRect().right <= right).length, grid.x + grid.width);
  assert.ok(inSight < 20, `${inSight} columns in sight`);
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(grid.x + grid.width + 150, b.y + b.height / 2, { steps: 4 });
  // Scrolled to the last column: the range is columns 1 to 59.
  await page.waitForFunction(() => document.querySelector("[data-testid=range-size]")?.textContent === "1 row × 59 columns", null, { timeout: 30_000 });
  await page.mouse.up();
  const scroll = await page.$eval("[data-testid=data-grid] .grid-scroll", (e) => [e.scrollLeft, e.scrollWidth - e.clientWidth]);
  assert.ok(scroll[0] > 0.9 * scroll[1], `scrolled sideways near the end: ${scroll}`);
  const cols = 59;
  // Row 2 of columns 1 onwards: 201, 202, …
  const want = Array.from({ length: cols }, (_, j) => String(200 + 1 + j)).join("\t");
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), want);
  assert.deepEqual(log.errors, []);
});

test("a range over cells whose chunk does not read: its sums leave them out and say how many, its copy says they are empty", async () => {
  const { page, log } = ins;
  // Two int32 columns, two row groups of 10 rows; row group 0's chunk of b
  // names an encoding no reader knows, so its 10 cells do not read.
  const schema = [
    { name: "a", type: "int32", nullable: false },
    { name: "b", type: "int32", nullable: false },
  ];
  const rows = (g) => Array.from({ length: 10 }, (_, i) => 10 * g + i);
  const file = buildFile(schema, [
    { offset: 5, columns: [rows(0), rows(0).map((x) => 100 + x)] },
    { offset: 200, columns: [rows(1), rows(1).map((x) => 100 + x)] },
  ]);
  const bytes = materialize(file);
  bytes[file.chunks[0][1].start] = 14; // (the chunk's own encoding tag)
  await dropFile(page, { name: "half.cols", bytes });
  await tab(page, "data");
  await gridDrawn(page);
  // Rows 5 to 14 of both columns: b's rows 5-9 do not read.
  await page.click(cell(5, 0));
  await page.click(cell(14, 1), { modifiers: ["Shift"] });
  assert.equal(await rangeSize(page, "10 rows × 2 columns"), "10 rows × 2 columns");
  await page.waitForFunction(() => !/^Summing/.test(document.querySelector("[data-testid=range-sums]").textContent));
  // a: 5..14 (sum 95); b: 110..114 (sum 560).
  assert.equal(await page.textContent("[data-testid=range-sums]"), "15 numbers (5 unreadable cells left out): sum 655, min 5, max 114, mean 43.666666666666664");
  const text = await copy(page, () => page.click("[data-testid=copy-range]"));
  assert.equal(text, [5, 6, 7, 8, 9].map((x) => `${x}\t`).concat([10, 11, 12, 13, 14].map((x) => `${x}\t${100 + x}`)).join("\n"));
  await page.waitForFunction(() => document.querySelector("[data-testid=toasts]").textContent.includes("5 unreadable cells copied as empty"));
  // One row (b unreadable) and the unreadable value alone say so too; a readable row does not.
  await page.click(cell(6, 1));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-row]")), "6\t");
  await page.waitForFunction(() => document.querySelector("[data-testid=toasts]").textContent.includes("Copied 6\t; 1 unreadable cell copied as empty"));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-cell]")), "");
  await page.waitForFunction(() => document.querySelector("[data-testid=toasts]").textContent.includes("Copied (empty); 1 unreadable cell copied as empty"));
  await page.click(cell(12, 1));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-row]")), "12\t112");
  await page.waitForFunction(() => /Copied 12\s112(?!;)/.test(document.querySelector("[data-testid=toasts]").textContent));
  assert.deepEqual(log.errors, []);
});

test("Copy row (JSON) and a range as JSON write each value as the JSON export does: integers with every digit, -0 and NaN, text quoted, null", async () => {
  const { page, log } = ins;
  const schema = [
    { name: "n", type: "int64", nullable: false },
    { name: "f", type: "float64", nullable: false },
    { name: "s", type: "string", nullable: true },
  ];
  await dropFile(page, { name: "json.cols", bytes: materialize(buildFile(schema, [{ columns: [["9007199254740993", "-5", "7"], [-0, NaN, 1.5], ['say "hi"', null, "tab\there\nline"]] }])) });
  await tab(page, "data");
  await gridDrawn(page);
  await page.click(cell(0, 0));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-row-json]")), '{"n":9007199254740993,"f":-0,"s":"say \\"hi\\""}');
  await page.click(cell(1, 2), { modifiers: ["Shift"] });
  assert.equal(await copy(page, () => page.click("[data-testid=copy-range-json]")), '[{"n":9007199254740993,"f":-0,"s":"say \\"hi\\""},{"n":-5,"f":"NaN","s":null}]');
  // TSV has no room for a tab or a line break inside a value: spaces, and the toast says so; JSON keeps them.
  await page.click(cell(2, 0));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-row]")), "7\t1.5\ttab here line");
  await page.waitForFunction(() => document.querySelector("[data-testid=toasts]").textContent.includes("tabs and line breaks inside 1 value became spaces (JSON keeps them)"));
  assert.equal(await copy(page, () => page.click("[data-testid=copy-row-json]")), '{"n":7,"f":1.5,"s":"tab\\there\\nline"}');
  assert.deepEqual(log.errors, []);
});

test("on a touch screen a finger held on a cell selects the range to it (by the page's own timing, or the browser's context menu event); a tap, a scroll and a mouse's right click do not", async () => {
  const { page, log } = ins;
  await dropFile(page, path.join(corpus, "real/diamonds.optimized.cols"));
  await tab(page, "data");
  await gridDrawn(page);
  const inRange = () => page.$$eval("[data-testid=data-grid] .grid-cell.in-range", (es) => es.length);
  // Events on cell (row, c) as a browser sends them: [type, init] each, `wait` ms before the next.
  const send = (row, c, events) =>
    page.$eval(
      cell(row, c),
      async (el, events) => {
        const out = [];
        for (const [type, init, wait] of events) {
          const Event = type.startsWith("pointer") ? PointerEvent : MouseEvent;
          out.push(el.dispatchEvent(new Event(type, { bubbles: true, cancelable: true, isPrimary: true, pointerId: 7, ...init })));
          if (wait) await new Promise((r) => setTimeout(r, wait));
        }
        return out;
      },
      events,
    );
  const touch = { pointerType: "touch" };
  await page.click(cell(1, 1));
  // A right click: its menu kept, no range.
  assert.deepEqual(await send(4, 3, [["pointerdown", { pointerType: "mouse", button: 2 }], ["contextmenu", { button: 2 }]]), [true, true]);
  assert.equal(await inRange(), 0);
  // A tap, and a finger that moves (a scroll) before its time: no range.
  await send(4, 3, [["pointerdown", touch, 100], ["pointerup", touch]]);
  await send(4, 3, [["pointerdown", touch, 50], ["pointermove", { ...touch, clientX: 0, clientY: 400 }, 700], ["pointercancel", touch]]);
  assert.equal(await inRange(), 0);
  // Held 700 ms: the range from the selected cell, kept through the mouse events the release brings.
  await send(4, 3, [["pointerdown", touch, 700], ["pointerup", touch], ["mousedown", {}], ["mouseup", {}], ["click", {}]]);
  assert.equal(await rangeSize(page, "4 rows × 3 columns"), "4 rows × 3 columns");
  const names = ["cut", "color", "clarity"].map(column);
  assert.equal(await copy(page, () => page.keyboard.press("Control+c")), [1, 2, 3, 4].map((r) => names.map((x) => x.values[r]).join("\t")).join("\n"));
  // Where the browser sends its context menu event first (Android): the range at once, no menu.
  await page.click(cell(2, 0));
  const [, menu] = await send(6, 2, [["pointerdown", touch], ["contextmenu", {}], ["pointerup", touch]]);
  assert.equal(menu, false, "the menu is not shown");
  assert.equal(await rangeSize(page, "5 rows × 3 columns"), "5 rows × 3 columns");
  assert.deepEqual(log.errors, []);
});
