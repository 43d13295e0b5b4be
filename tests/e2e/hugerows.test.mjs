// Files of hundreds of millions and billions of rows in the Data tab,
// made tiny: one int8 column of one value, Dict encoded with a dictionary
// of one entry and 0-bit indices (synth.mjs constantDictFile), 1,000,000 rows
// a row group; the grid's row numbers tell the rows apart. The grid's
// scroll range is scaled there (hundreds of rows a pixel): Go to file row
// and the keyboard must still draw and select the very row asked for, and
// the scrollbar still reach the first and the last. A sort of such a file
// is refused before anything is read, naming what it would take, and a
// filter that keeps more rows than a view may hold stops when it does.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, waitState, tab, gridDrawn } from "./harness.mjs";
import { constantDictFile } from "../node/synth.mjs";

const RG_ROWS = 1_000_000;
let ins;

/** Opens `groups` row groups of RG_ROWS rows in the Data tab, its first rows drawn. */
async function openRows(groups, name) {
  const { page } = ins;
  await page.setInputFiles("[data-testid=file-input]", [{ name, mimeType: "application/octet-stream", buffer: Buffer.from(constantDictFile([{ name: "v", type: "int8", value: 7 }], Array(groups).fill(RG_ROWS))) }]);
  await waitState(page, "ready");
  await tab(page, "data");
  await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), groups * RG_ROWS);
  await gridDrawn(page);
}

/** Waits until file row `row` is drawn, its cell the selected one and
 *  wholly in sight (below the header, above the bottom), and the cell
 *  panel says so. */
async function selectedInSight(row) {
  const { page } = ins;
  await page.waitForFunction(
    (row) => {
      const cell = document.querySelector("[data-testid=data-grid] .grid-cell.selected");
      if (!cell || cell.closest(".grid-row").dataset.fileRow !== String(row) || cell.dataset.kind === "pending") return false;
      const box = document.querySelector("[data-testid=data-grid] .grid-scroll").getBoundingClientRect();
      const head = document.querySelector("[data-testid=data-grid] .grid-head").getBoundingClientRect();
      const r = cell.getBoundingClientRect();
      return r.top >= head.bottom - 1 && r.bottom <= box.bottom + 1 && document.querySelector("[data-testid=cell-panel-where]")?.textContent === `Row ${row.toLocaleString("en-US")}`;
    },
    row,
    { timeout: 30_000 },
  );
}

/** The file rows drawn, top to bottom. */
const drawn = () => ins.page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.map((r) => r.dataset.fileRow));

async function goTo(row) {
  const { page } = ins;
  await page.fill("[data-testid=data-goto]", String(row));
  await page.press("[data-testid=data-goto]", "Enter");
  await selectedInSight(row);
}

before(async () => {
  ins = await openInspector();
});

after(async () => {
  await ins?.close();
});

test("750,000,000 rows: Go to file row draws and selects the row asked for, the keys move one row at a time, and the scrollbar reaches both ends", async () => {
  const { page, log } = ins;
  await openRows(750, "rows750m.cols");
  for (const row of [100_000_000, 100_000_001, 374_999_999, 749_999_999, 123_456_789]) await goTo(row);
  // One row down at a time from the selected cell, past the bottom of the
  // window: each the row after, drawn (the scroll moves less than a pixel a
  // row); Page Up a window's rows at a time.
  const vis = await page.evaluate(() => Math.floor((document.querySelector("[data-testid=data-grid] .grid-scroll").clientHeight - 34) / 26));
  let at = 123_456_789;
  for (let k = 1; k <= vis + 2; k++) {
    await page.keyboard.press("ArrowDown");
    await selectedInSight(++at);
  }
  for (let k = 1; k <= 3; k++) {
    await page.keyboard.press("PageUp");
    await selectedInSight((at -= vis));
  }
  // The wheel moves by rows here too (by pixels, 260 px were 24,000 rows).
  const top0 = Number((await drawn())[0]);
  const box = await page.$eval("[data-testid=data-grid] .grid-scroll", (s) => { const r = s.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; });
  await page.mouse.move(box.x, box.y);
  await page.mouse.wheel(0, 260);
  await page.waitForFunction((want) => document.querySelector("[data-testid=data-grid] .grid-row:not([hidden])")?.dataset.fileRow === String(want), top0 + 10, { timeout: 30_000 });
  await page.mouse.wheel(0, -520);
  await page.waitForFunction((want) => document.querySelector("[data-testid=data-grid] .grid-row:not([hidden])")?.dataset.fileRow === String(want), top0 - 10, { timeout: 30_000 });
  await page.keyboard.press("Control+End");
  await selectedInSight(749_999_999);
  await page.keyboard.press("Control+Home");
  await selectedInSight(0);
  // The scrollbar: at the bottom the last row is drawn, at the top the first.
  const scrollTo = (where) => page.evaluate((where) => {
    const s = document.querySelector("[data-testid=data-grid] .grid-scroll");
    s.scrollTop = where === "end" ? s.scrollHeight : where === "top" ? 0 : s.scrollHeight / 2;
  }, where);
  const rowDrawn = (row) => page.waitForFunction((row) => [...document.querySelectorAll("[data-testid=data-grid] .grid-row:not([hidden])")].some((r) => r.dataset.fileRow === String(row)), row, { timeout: 30_000 });
  await scrollTo("end");
  await rowDrawn(749_999_999);
  await scrollTo("middle");
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll("[data-testid=data-grid] .grid-row:not([hidden])")].map((r) => Number(r.dataset.fileRow));
    return rows.length > 0 && rows[0] > 370_000_000 && rows[0] < 380_000_000;
  }, null, { timeout: 30_000 });
  await scrollTo("top");
  await rowDrawn(0);
  assert.deepEqual(log.errors, []);
});

test("2,160,000,000 rows (past 2^31): Go to file row 1,500,000,000 and the last row draw and select them", async () => {
  const { log } = ins;
  await openRows(2160, "rows2160m.cols");
  for (const row of [1_500_000_000, 2_147_483_648, 2_159_999_999, 1_000_000]) await goTo(row);
  assert.deepEqual(log.errors, []);
});

/** The reads "Read so far" counts (as of the worker's last answer). */
const reads = () => ins.page.getAttribute("[data-testid=io-counter]", "data-requests").then(Number);
const LIMIT = 1536 * 1024 * 1024; // (worker.js VIEW_LIMIT: as much as a file held whole)

/** Does `start`; waits (at most `timeout` ms) for the Data tab's error
 *  box and gives how long it took, its kind and its message. */
async function refused(start, timeout = 10_000) {
  const { page } = ins;
  const t0 = Date.now();
  await start();
  await page.waitForSelector("[data-testid=data-status] [data-testid=data-error]", { timeout });
  return { ms: Date.now() - t0, kind: await page.getAttribute("[data-testid=data-error]", "data-kind"), message: await page.textContent("[data-testid=data-error] [data-testid=error-message]") };
}

test("a sort of 100,000,000 and of 750,000,000 rows is refused at once, naming the rows, the memory it would take and the limit, with nothing read", async () => {
  const { page, log } = ins;
  for (const groups of [100, 750]) {
    await openRows(groups, `rows${groups}m.cols`);
    const rows = groups * RG_ROWS;
    const before = await reads();
    const { ms, kind, message } = await refused(() => page.click("[data-testid=data-grid-header][data-col='0'] button"));
    assert.equal(kind, "too_large");
    // int8 keys: 5 bytes a row, and three lists of 4.
    const gib = ((rows * 17) / 2 ** 30).toFixed(groups === 100 ? 2 : 1);
    const most = Math.floor(LIMIT / 17).toLocaleString("en-US");
    assert.equal(message, `sorting ${rows.toLocaleString("en-US")} rows by “v” would take ${gib} GiB of memory (17 bytes a row), more than the 1.50 GiB a view may take in this tab; nothing was read. Filter the rows first: a sort of up to ${most} rows fits.`);
    assert.ok(ms < 10_000, `refused after ${ms} ms`);
    assert.equal(await page.$("[data-testid=data-grid-header][aria-sort=ascending]"), null, "the grid is not marked sorted");
    // A row of row group 0 not drawn yet: the worker's answer brings the
    // count of reads, which the refusal did not add to.
    await goTo(500_000);
    assert.equal(await reads(), before, "no read for the refused sort");
  }
  assert.deepEqual(log.errors, []);
});

test("a filter that keeps more rows than a view may hold stops when it passes them, saying how many and what to do", async () => {
  const { page, log } = ins;
  await openRows(300, "rows300m.cols");
  const { kind, message } = await refused(async () => {
    await page.click("[data-testid=filter-add]");
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]", "0");
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", "=");
    await page.fill("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]", "7");
    await page.click("[data-testid=filter-apply]");
  }, 120_000);
  assert.equal(kind, "too_large");
  // 8 bytes a row kept: 201,326,592 within the limit; every row is 7, so
  // row group 201 passes it.
  assert.equal(message, `the filter keeps 202,000,000 rows of the first 202,000,000 (row groups 0 to 201 of 300), more than the ${Math.floor(LIMIT / 8).toLocaleString("en-US")} a view may hold in this tab (1.50 GiB, 8 bytes a row). Narrow the filter: another condition, or a value that fewer rows have.`);
  assert.deepEqual(log.errors, []);
});

test("Profile every column says how far it is within a column: row group so many of how many", async () => {
  const { page, log } = ins;
  await openRows(200, "rows200m.cols");
  await tab(page, "schema");
  await page.click("[data-testid=profiles-run]");
  // (1,000,000 values a row group: a column of 200 takes seconds, the
  // column's line alone did not move meanwhile)
  const seen = await page.waitForFunction(() => {
    const t = document.querySelector("[data-testid=profiles-within]")?.textContent || "";
    const m = /^· values of row group (\d+) of 200$/.exec(t);
    return m && Number(m[1]) >= 2 && t;
  }, null, { timeout: 60_000 });
  assert.match(await seen.jsonValue(), /^· values of row group \d+ of 200$/);
  assert.equal(await page.textContent("[data-testid=profiles-what]"), "column 1 of 1: v");
  await page.click("[data-testid=profiles-stop]");
  await page.waitForSelector("[data-testid=profiles-run]");
  assert.deepEqual(log.errors, []);
});

test("an export to download (no file chosen) that would take more than a download may is refused before anything is read, saying what it would take, the limit and what to do instead", async () => {
  const { page, log } = ins;
  const downloads = [];
  page.on("download", (d) => downloads.push(d.suggestedFilename()));
  await openRows(750, "rows750m.cols");
  const picker = await page.evaluate(() => typeof window.showSaveFilePicker === "function");
  const instead = picker
    ? "Tick “Choose where to save” to write it straight into a file, with no such limit, or export fewer rows (a filter) or columns."
    : "This browser cannot write straight into a file you choose (it has no save picker): export fewer rows (a filter) or columns.";
  await page.click("[data-testid=export-toggle]");
  // "7\r\n" a row in CSV; {"v":7} and ",\n" in JSON; a byte a row in Arrow (750 MB: it would fit).
  for (const [format, gib, name] of [["csv", "2.10", "CSV"], ["json", "6.29", "JSON"]]) {
    const before = await reads();
    const t0 = Date.now();
    await page.check(`[data-testid=export-format-${format}]`);
    await page.click("[data-testid=export-run]");
    await page.waitForFunction(() => /^Export failed/.test(document.querySelector("[data-testid=export-result]").textContent), null, { timeout: 10_000 });
    assert.ok(Date.now() - t0 < 10_000);
    assert.equal(await page.textContent("[data-testid=export-result]"), `Export failed: too_large: the ${name} of 750,000,000 rows × 1 column would take at least ${gib} GiB, more than the 1.50 GiB a download may take in this tab; nothing was read. ${instead}`);
    await page.waitForFunction(() => !/Exporting/.test(document.getElementById("status-text").textContent));
    await goTo(format === "csv" ? 600_000 : 700_000);
    assert.equal(await reads(), before, "no read for the refused export");
  }
  assert.deepEqual(downloads, []);
  await page.click("[data-testid=export-toggle]");
  assert.deepEqual(log.errors, []);
});

test("a sort of a filter's rows is checked as the filter counts them: past the rows a sort may take, the filter stops there, saying so, not after reading every row group", async () => {
  const { page, log } = ins;
  await openRows(80, "rows80m.cols");
  // Every row is 7: the filter keeps 80,000,000 rows, which a view may hold.
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]", "0");
  await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", "=");
  await page.fill("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]", "7");
  await page.click("[data-testid=filter-apply]");
  await page.waitForFunction(() => /computed in/.test(document.querySelector("[data-testid=data-status]")?.textContent), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute("[data-testid=data-status]", "data-total"), "80000000");
  // Sorted, the filter's rows take 21 bytes each (int8 keys, three lists and the filter's list).
  const { kind, message } = await refused(() => page.click("[data-testid=data-grid-header][data-col='0'] button"), 120_000);
  assert.equal(kind, "too_large");
  const most = Math.floor(LIMIT / 21);
  assert.equal(message, `the filter keeps 77,000,000 rows of the first 77,000,000 (row groups 0 to 76 of 80), more than the ${most.toLocaleString("en-US")} a sort by “v” may take in this tab (1.50 GiB, 21 bytes a row); it stopped there, the sort's column not read. Narrow the filter: another condition, or a value that fewer rows have.`);
  assert.deepEqual(log.errors, []);
});
