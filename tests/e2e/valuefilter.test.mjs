// The Data tab's side panel: "Rows with this value" adds the condition
// "column = the selected value" (or "is null") and applies it. Checked
// against the corpus JSON: the rows it leaves are exactly those holding
// that value, for a column of every type (all_types_small) and for columns
// whose values repeat (diamonds: 53,940 rows).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, dropFile, tab, gridDrawn, twoFrames, corpus } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

let ins;

before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } });
});

after(async () => {
  await ins?.close();
});

/** A corpus JSON value as a key equal for equal values (floats by their number: -0 is 0). */
function key(type, v) {
  if (v === null) return "null";
  if (type === "float32" || type === "float64") {
    const b = Buffer.from(v.slice(2), "hex");
    const x = type === "float32" ? b.readFloatBE(0) : b.readDoubleBE(0);
    return Number.isNaN(x) ? "NaN" : String(x === 0 ? 0 : x);
  }
  return JSON.stringify(v);
}

/** The file rows the Data grid draws. */
const drawnRows = (page) => page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.map((r) => Number(r.dataset.fileRow)));

/** Selects file row `row` of column `c` (the view unfiltered), asks for its rows, and returns the rows the grid then holds. */
async function rowsWithValue(page, row, c, name) {
  await page.fill("[data-testid=data-goto]", String(row));
  await page.press("[data-testid=data-goto]", "Enter");
  const cell = `[data-testid=data-grid] .grid-row[data-file-row='${row}'] .grid-cell[data-col='${c}']`;
  // Go selects the row once the view has found it (a later frame): the
  // click comes after, or Go's selection would replace it.
  await page.waitForSelector(`[data-testid=data-grid] .grid-cell.selected[data-row='${row}']`, { state: "attached" });
  await twoFrames(page);
  await page.$eval(cell, (e) => e.click());
  // The panel names the row and the column (the one before may have been this row's too).
  await page.waitForFunction(
    ([row, name]) => {
      const where = document.querySelector("[data-testid=cell-panel-where]");
      return where?.textContent === `Row ${row.toLocaleString("en-US")}` && where.parentElement.querySelector(".colname")?.textContent === name;
    },
    [row, name],
  );
  const before = await page.getAttribute("[data-testid=data-status]", "data-total");
  await page.click("[data-testid=filter-to-value]");
  await page.waitForFunction((before) => {
    const s = document.querySelector("[data-testid=data-status]");
    return s.dataset.total !== before && document.querySelector(".data-progress").hidden;
  }, before);
  await gridDrawn(page);
  const total = Number(await page.getAttribute("[data-testid=data-status]", "data-total"));
  const shown = await drawnRows(page);
  await page.click("[data-testid=filter-clear]");
  await page.waitForFunction((before) => document.querySelector("[data-testid=data-status]").dataset.total === before, before);
  return { total, shown };
}

/** Column c of the open file in Column detail, its profile done. */
async function profileOf(page, c) {
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", String(c));
  await page.waitForSelector(`[data-testid=profile][data-state=done][data-col='${c}']`, { timeout: 30_000 });
}

/** Waits for Data to show `n` rows (a filter computed), and returns the conditions' rows of the form as [column, op, text]. */
async function dataShows(page, n) {
  await page.waitForSelector("[data-testid=panel-data]:not([hidden])");
  await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n) && document.querySelector(".data-progress").hidden, n, { timeout: 30_000 });
  return page.$$eval("[data-testid=filter-row]", (rs) => rs.map((r) => [Number(r.querySelector("[data-testid=filter-col]").value), r.querySelector("[data-testid=filter-op]").value, r.querySelector("[data-testid=filter-value]").value]));
}

/** Opens corpus file `rel` and returns its corpus JSON. */
async function openCorpus(page, rel) {
  await dropFile(page, path.join(corpus, rel));
  return readJson(expectedPath(path.join(corpus, rel)));
}

/** Column `name` of a corpus JSON: its index, type and every row's value as a key(). */
function columnOf(want, name) {
  const c = want.schema.findIndex((s) => s.name === name);
  const type = want.schema[c].type;
  return { c, type, keys: want.row_groups.flatMap((rg) => rg.values[c]).map((v) => key(type, v)) };
}

test("Rows with this value, on a column of every type and on a null, leaves exactly the rows holding it", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/all_types_small.cols");
  await tab(page, "data");
  await gridDrawn(page);
  const values = (c) => want.row_groups.flatMap((rg) => rg.values[c]);
  for (const [c, s] of want.schema.entries()) {
    const vs = values(c);
    // A row holding a value, and for a nullable column its first null too.
    const rows = [vs.findIndex((v) => v !== null && key(s.type, v) !== "NaN")];
    if (s.nullable && vs.includes(null)) rows.push(vs.indexOf(null));
    for (const row of rows) {
      const k = key(s.type, vs[row]);
      const expected = vs.flatMap((v, i) => (key(s.type, v) === k ? [i] : []));
      const got = await rowsWithValue(page, row, c, s.name);
      assert.equal(got.total, expected.length, `${s.name} = ${k}: rows`);
      assert.deepEqual(got.shown, expected, `${s.name} = ${k}: which rows`);
    }
  }
  assert.deepEqual(log.errors, []);
});

test("Rows with this value counts every row of a large file holding it: a string, a float and an int column of diamonds", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "real/diamonds.optimized.cols");
  await tab(page, "data");
  await gridDrawn(page);
  for (const name of ["color", "carat", "price"]) {
    const { c, keys } = columnOf(want, name);
    const row = 1000;
    const got = await rowsWithValue(page, row, c, name);
    assert.equal(got.total, keys.filter((k) => k === keys[row]).length, `${name} = ${keys[row]}`);
    assert.ok(got.total > 1, `${name}: a value that repeats`);
    assert.ok(got.shown.length > 0 && got.shown.every((r) => keys[r] === keys[row]), `${name}: every row shown holds ${keys[row]}`);
  }
  assert.deepEqual(log.errors, []);
});

test("a most common value in Column detail's profile opens Data on the rows holding it, as many as the profile counts", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "real/diamonds.optimized.cols");
  for (const name of ["clarity", "carat"]) {
    const { c, keys } = columnOf(want, name);
    await profileOf(page, c);
    // The third most common value (the first may be the file's first row's).
    const top = page.locator("[data-testid=profile-top-row]").nth(2);
    if (!(await top.isVisible())) await page.click("[data-testid=profile] details > summary");
    const counted = Number(await top.locator("td.num").first().getAttribute("data-value"));
    await top.locator("[data-testid=profile-top-value]").click();
    assert.equal((await dataShows(page, counted)).length, 1, "one condition, the value's (the one before replaced)");
    await gridDrawn(page);
    const shown = await drawnRows(page);
    const value = keys[shown[0]];
    assert.equal(counted, keys.filter((k) => k === value).length, `${name}: the profile's count of ${value}`);
    assert.ok(shown.length > 1 && shown.every((r) => keys[r] === value), `${name}: every row shown holds ${value}`);
  }
  assert.deepEqual(log.errors, []);
});

test("a histogram bar in Column detail opens Data on the rows of its bin, as many as the bar counts; Nulls' Show in Data on the null rows", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "real/diamonds.optimized.cols");
  for (const name of ["price", "carat"]) {
    const { c, keys } = columnOf(want, name);
    const vs = keys.map(Number);
    await profileOf(page, c);
    const bar = page.locator("[data-testid=histogram-bar]").nth(3);
    const counted = Number(await bar.getAttribute("data-count"));
    assert.ok(counted > 0);
    await bar.click();
    const conds = await dataShows(page, counted);
    assert.deepEqual(conds.map(([col, op]) => [col, op]), [[c, ">="], [c, "<"]], `${name}: a bin is two conditions`);
    const [lo, hi] = conds.map((x) => Number(x[2]));
    assert.equal(vs.filter((v) => v >= lo && v < hi).length, counted, `${name}: the rows of [${lo}, ${hi}) in the corpus JSON`);
  }
  // all_types_small: n_int8 holds nulls.
  const small = await openCorpus(page, "valid/all_types_small.cols");
  const { c, keys } = columnOf(small, "n_int8");
  const nulls = keys.filter((k) => k === "null").length;
  assert.ok(nulls > 0);
  await profileOf(page, c);
  await page.click("[data-testid=profile-null-rows]");
  assert.deepEqual(await dataShows(page, nulls), [[c, "null", ""]]);
  assert.deepEqual(log.errors, []);
});

test("a float column with infinities (enc_plain_none's edge_float64, edge_float32): the histogram spans the finite values, its first and last bars open Data on the rows they count, the infinities are said beside it and open theirs, and its zeros show as -0", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/enc_plain_none.cols");
  for (const [name, end] of [["edge_float64", "1.798e+308"], ["edge_float32", "3.403e+38"]]) {
    const { c, keys } = columnOf(want, name);
    const finite = keys.filter((k) => k !== "NaN" && k !== "Infinity" && k !== "-Infinity").map(Number);
    await profileOf(page, c);
    const ticks = await page.$$eval("[data-testid=histogram-tick]", (ts) => ts.map((t) => t.textContent));
    assert.deepEqual([ticks[0], ticks.at(-1)], ["0", end], `${name}: the axis spans the finite values (${ticks})`);
    const counts = await page.$$eval("[data-testid=histogram-bar]", (bs) => bs.map((b) => Number(b.dataset.count)));
    assert.equal(counts.reduce((a, b) => a + b, 0), finite.length, `${name}: the bars hold the finite values`);
    const infs = ["-Infinity", "Infinity"].map((v) => keys.filter((k) => k === v).length);
    assert.equal(await page.textContent("[data-testid=histogram-infinities]"), `Not in the bins: ${infs[0]} rows of -Infinity, ${infs[1]} rows of Infinity`);
    // Every zero of these columns is -0.
    const top = await page.$$eval("[data-testid=profile-top-row]", (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].dataset.value)]));
    assert.deepEqual(top.find(([v]) => v === "-0" || v === "0"), ["-0", finite.filter((x) => x === 0).length], `${name}: zero in the most common values`);
    for (const k of [0, counts.length - 1]) {
      await page.locator("[data-testid=histogram-bar]").nth(k).click();
      const conds = await dataShows(page, counts[k]);
      const [lo, hi] = conds.map((x) => Number(x[2]));
      const f32 = name === "edge_float32" ? Math.fround : (x) => x;
      assert.equal(finite.filter((v) => v >= f32(lo) && (k ? v <= f32(hi) : v < f32(hi))).length, counts[k], `${name}: bar ${k}'s rows, ${JSON.stringify(conds)}, in the corpus JSON`);
      await profileOf(page, c);
    }
    await page.click("[data-testid=histogram-infinities] button >> nth=1");
    assert.deepEqual(await dataShows(page, infs[1]), [[c, "=", "Infinity"]]);
  }
  assert.deepEqual(log.errors, []);
});

test("an integer histogram's axis and title say exact whole numbers, and its axis ends at the greatest value (edge_int32, edge_int64)", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/enc_plain_none.cols");
  for (const [name, first, end] of [
    ["edge_int32", "-2,147,483,648", "2,147,483,647"],
    ["edge_int64", "-9,223,372,036,854,775,808", "9,223,372,036,854,775,807"],
  ]) {
    const { c } = columnOf(want, name);
    await profileOf(page, c);
    const ticks = await page.$$eval("[data-testid=histogram-tick]", (ts) => ts.map((t) => t.textContent));
    assert.deepEqual([ticks[0], ticks.at(-1)], [first, end], `${name}: ${ticks}`);
    const lastBar = await page.getAttribute("[data-testid=histogram-bar] >> nth=-1", "aria-label");
    assert.match(lastBar, new RegExp(`– ${end}: `), `${name}: the last bin ends at the greatest value`);
  }
  assert.deepEqual(log.errors, []);
});

test("the profile's footer comparison says why where the footer cannot tell (a float chunk's NaN statistic) or is known to be wrong (bytes), as Column detail's checks do", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/enc_plain_none.cols");
  const { c: f32 } = columnOf(want, "edge_float32");
  await profileOf(page, f32);
  for (const which of ["min", "max"]) {
    assert.equal(await page.$(`[data-testid=profile-${which}] .bad-badge`), null, `edge_float32 ${which}: not "differ"`);
    assert.match(await page.textContent(`[data-testid=profile-${which}]`), /not compared: a chunk's footer statistic is NaN/);
  }
  const { c: bytes } = columnOf(want, "edge_bytes");
  await profileOf(page, bytes);
  const differs = await page.$$eval("[data-testid=profile-min], [data-testid=profile-max]", (dds) => dds.filter((d) => d.querySelector(".bad-badge")).map((d) => d.textContent));
  assert.ok(differs.length > 0, "edge_bytes: the footer differs (the writer's bug)");
  for (const text of differs) assert.match(text, /known bug for bytes statistics/);
  assert.deepEqual(log.errors, []);
});

test("the most common values say NaN is counted apart, with its share; a chunk of no rows says so, not that every value is null; a block's sizes carry their exact bytes", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/enc_plain_none.cols");
  const { c, keys } = columnOf(want, "edge_float32");
  const nans = keys.filter((k) => k === "NaN").length;
  assert.ok(nans > 0);
  await profileOf(page, c);
  assert.match(await page.textContent("[data-testid=profile-top-nans]"), new RegExp(`NaN is not among them: its ${nans} rows are ${(100 * nans / keys.length).toFixed(1)}% of the non-null rows`));
  await openCorpus(page, "valid/zero_rows.cols");
  await profileOf(page, 0);
  const card = await page.textContent("[data-testid=profile]");
  assert.match(card, /No rows\./);
  assert.doesNotMatch(card, /Every value is null/);
  const blocks = await openCorpus(page, "valid/blocks_flate.cols");
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector("[data-testid=block-row]");
  const titles = await page.$$eval("[data-testid=block-row] >> nth=0", (rs) => [...rs[0].cells].slice(2, 4).map((td) => td.title));
  const first = blocks.row_groups[0].columns[1];
  assert.ok(titles.every((t) => /^[\d,]+ B$/.test(t)), `${titles}`);
  assert.ok(first.block_count >= 1);
  assert.deepEqual(log.errors, []);
});

test("the histogram is one tab stop: arrow keys move between the bins that hold rows, saying each, and Enter opens Data on the active bin's rows", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "real/diamonds.optimized.cols");
  const { c } = columnOf(want, "price");
  await profileOf(page, c);
  const counts = (await page.$$eval("[data-testid=histogram-bar]", (bs) => bs.map((b) => Number(b.dataset.count)))).filter((n) => n > 0);
  await page.focus("[data-testid=profile-histogram]");
  assert.match(await page.textContent("[data-testid=histogram-info]"), new RegExp(`: ${counts[0].toLocaleString("en-US")} rows · Enter`));
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  assert.match(await page.textContent("[data-testid=histogram-info]"), new RegExp(`: ${counts[3].toLocaleString("en-US")} rows · Enter`));
  const active = await page.$eval("[data-testid=profile-histogram]", (svg) => document.getElementById(svg.getAttribute("aria-activedescendant"))?.dataset.count);
  assert.equal(Number(active), counts[3], "the active bar is the one said");
  await page.keyboard.press("Enter");
  await dataShows(page, counts[3]);
  assert.deepEqual(log.errors, []);
});

test("the histogram's log scale: bar heights go by the log of their rows once pressed, stay so for the next column's histogram, and go back when pressed again", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "real/diamonds.optimized.cols");
  /** Each bar's rows and height, the tallest's height, and what the scale says. */
  const bars = async () => {
    const bs = await page.$$eval("[data-testid=histogram-bar]", (bs) => bs.map((b) => ({ c: Number(b.dataset.count), h: Number(b.getAttribute("height")) })));
    const max = Math.max(...bs.map((b) => b.c));
    return { bs, max, top: Math.max(...bs.map((b) => b.h)), pressed: await page.getAttribute("[data-testid=histogram-log]", "aria-pressed"), says: await page.textContent("[data-testid=histogram-scale]") };
  };
  const near = (a, b) => Math.abs(a - b) < 0.01;
  const check = ({ bs, max, top, pressed, says }, log, what) => {
    assert.equal(pressed, String(log), `${what}: the button's state`);
    assert.equal(says, `bar height: rows${log ? " (log scale)" : ""}, the tallest ${max.toLocaleString("en-US")}`, what);
    for (const { c, h } of bs) {
      const want = c === 0 ? 0 : Math.max(1, top * (log ? Math.log1p(c) / Math.log1p(max) : c / max));
      assert.ok(near(h, want), `${what}: a bin of ${c} rows is ${h} high, not ${want.toFixed(2)}`);
    }
  };
  const price = columnOf(want, "price").c;
  await profileOf(page, price);
  const linear = await bars();
  // price is skewed: some bin holds under a tenth of the tallest's rows.
  assert.ok(linear.bs.some((b) => b.c > 0 && b.c < linear.max / 10));
  check(linear, false, "price at first");
  await page.click("[data-testid=histogram-log]");
  check(await bars(), true, "price, log scale");
  await profileOf(page, columnOf(want, "carat").c);
  check(await bars(), true, "carat after price's log scale");
  await page.click("[data-testid=histogram-log]");
  check(await bars(), false, "carat, pressed again");
  assert.deepEqual(log.errors, []);
});

test("a value with a line break (enc_plain_none's edge_string) keeps it in its condition's box, and applied again selects the same rows", async () => {
  const { page, log } = ins;
  const want = await openCorpus(page, "valid/enc_plain_none.cols");
  await tab(page, "data");
  await gridDrawn(page);
  const { c, type, keys } = columnOf(want, "edge_string");
  const k = key(type, "tab\tnew\nline");
  const row = keys.indexOf(k);
  assert.ok(row >= 0, "the file holds the value");
  const expected = keys.flatMap((x, i) => (x === k ? [i] : []));
  const got = await rowsWithValue(page, row, c, "edge_string");
  assert.equal(got.total, expected.length);
  assert.deepEqual(got.shown, expected.slice(0, got.shown.length), "the rows drawn");
  // (rowsWithValue cleared it: the condition again, as the side panel writes it, once the row is drawn again)
  const cellSel = `[data-testid=data-grid] .grid-row[data-file-row='${row}'] .grid-cell[data-col='${c}']`;
  await page.fill("[data-testid=data-goto]", String(row));
  await page.press("[data-testid=data-goto]", "Enter");
  await page.waitForSelector(`[data-testid=data-grid] .grid-cell.selected[data-row='${row}']`, { state: "attached" });
  await page.waitForSelector(cellSel, { state: "attached" });
  await page.$eval(cellSel, (e) => e.click());
  await page.waitForSelector("[data-testid=filter-to-value]");
  await page.click("[data-testid=filter-to-value]");
  assert.equal(String((await dataShows(page, expected.length)).length), "1");
  const box = await page.$eval("[data-testid=filter-value]", (e) => ({ tag: e.tagName, value: e.value }));
  assert.deepEqual(box, { tag: "TEXTAREA", value: "tab\tnew\nline" });
  await page.click("[data-testid=filter-apply]");
  assert.deepEqual((await dataShows(page, expected.length))[0], [c, "=", "tab\tnew\nline"]);
  assert.deepEqual(log.errors, []);
});
