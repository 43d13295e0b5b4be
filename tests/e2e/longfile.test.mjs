// A file of many row groups (3,000 x 2 small chunks, end to end as the
// writer lays them out) in the page: lists that name every row group show a
// bounded number at once and find the rest by their filter; the byte map
// marks where every row group starts; the SQL load, an export, a filter and
// a sort read the chunks in a few requests, not one each, with every value
// right.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { openInspector, waitState, tab, sqlReady, runSql, sqlColumn, gridDrawn } from "./harness.mjs";
import { loadApi } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const G = 3000;
const SCHEMA = [{ name: "n", type: "int32", nullable: false }, { name: "word", type: "string", nullable: false }];
const columnsOf = (g) => [[2 * g, 2 * g + 1], [`w${g % 10}`, `v${g % 7}`]];
// Row groups one after the other, as the writer lays them out: built once
// spaced out to learn each one's length, then again end to end.
const lengths = buildFile(SCHEMA, Array.from({ length: G }, (_, g) => ({ offset: 5 + g * 1000, columns: columnsOf(g) }))).chunks.map((r) => r.at(-1).end - r[0].start);
const offsets = lengths.map((_, g) => 5 + lengths.slice(0, g).reduce((a, n) => a + n, 0));
const bytes = materialize(buildFile(SCHEMA, Array.from({ length: G }, (_, g) => ({ offset: offsets[g], columns: columnsOf(g) }))));
let ins;

before(async () => {
  ins = await openInspector();
  await ins.page.setInputFiles("[data-testid=file-input]", [{ name: "long.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(ins.page, "ready");
});

after(async () => {
  await ins?.close();
});

test("Timing's row-group picker shows 200 of 3,000 at once, says how many more, finds one by its filter, and All takes every one", async () => {
  const { page, log } = ins;
  await tab(page, "timing");
  const picker = "[data-testid=timing-rowgroups]";
  await page.waitForSelector(picker);
  const boxes = () => page.$$eval(`${picker} [data-testid=timing-rowgroups-col]`, (bs) => bs.map((b) => ({ value: Number(b.value), checked: b.checked })));
  let shown = await boxes();
  assert.equal(shown.length, 200);
  assert.deepEqual(shown.map((b) => b.value), [...Array(200).keys()], "the first 200, in file order");
  assert.match(await page.textContent(`${picker} [data-testid=timing-rowgroups-more]`), /^and 2,800 more/);
  const summary = () => page.textContent(`${picker} .picker-summary`);
  assert.equal(await summary(), "3,000 of 3,000 selected", "Timing starts with every row group");

  await page.click(`${picker} [data-testid=timing-rowgroups-none]`);
  assert.equal(await summary(), "0 of 3,000 selected");
  await page.fill(`${picker} .picker-filter`, "row group 2999");
  shown = await boxes();
  assert.deepEqual(shown, [{ value: 2999, checked: false }]);
  assert.equal(await page.$(`${picker} [data-testid=timing-rowgroups-more]`), null, "nothing beyond the one that matches");
  await page.check(`${picker} [data-testid=timing-rowgroups-col][value='2999']`);
  assert.equal(await summary(), "1 of 3,000 selected");

  // "row group 1" matches 1, 10-19, 100-199 and 1000-1999: 1,111, of which 200 are shown; All takes all 1,111.
  await page.fill(`${picker} .picker-filter`, "row group 1");
  assert.equal((await boxes()).length, 200);
  assert.match(await page.textContent(`${picker} [data-testid=timing-rowgroups-more]`), /^and 911 more/);
  await page.click(`${picker} [data-testid=timing-rowgroups-all]`);
  assert.equal(await summary(), "1,111 of 3,000 selected", "All takes what the filter matches, shown or not (and only that)");
  await page.fill(`${picker} .picker-filter`, "");
  shown = await boxes();
  assert.deepEqual(shown.filter((b) => b.checked).map((b) => b.value), [1, ...Array.from({ length: 10 }, (_, i) => 10 + i), ...Array.from({ length: 100 }, (_, i) => 100 + i)], "the boxes shown say what is chosen");
  assert.deepEqual(log.errors, []);
});

/** On tab `name`, the row-group field `testid`, checked to be a number
 *  box (not a select of 3,000); gives its selector and a way to type into
 *  it as a person does (the number, then Enter). */
async function rowGroupBox(name, testid) {
  const { page } = ins;
  await tab(page, name);
  const box = `[data-testid=${testid}]`;
  await page.waitForSelector(box);
  assert.equal(await page.$eval(box, (e) => e.tagName), "INPUT");
  const type = async (text) => {
    await page.fill(box, text);
    await page.press(box, "Enter");
  };
  return { box, type };
}

test("Chunk detail of 3,000 row groups picks one by its number: a box, not a select of 3,000, and a number out of range goes back", async () => {
  const { page, log } = ins;
  const { box, type } = await rowGroupBox("detail", "detail-rg");
  assert.match(await page.$eval(box, (e) => e.closest("label").textContent), /of 3,000$/);
  await type("2999");
  await page.waitForFunction(() => / row group 2999 · 2 rows$/.test(document.querySelector("[data-testid=panel-detail] .detail-title")?.textContent || ""));
  for (const bad of ["3000", "-1", "1.5"]) {
    await type(bad);
    assert.equal(await page.inputValue(box), "2999", `${bad} is not a row group here`);
  }
  assert.match(await page.textContent("[data-testid=panel-detail] .detail-title"), / row group 2999 · 2 rows$/);
  assert.deepEqual(log.errors, []);
});

test("the Chunks tab's row-group filter of 3,000 row groups is a number box: one row group's chunks, then all again when emptied", async () => {
  const { page, log } = ins;
  const { box, type } = await rowGroupBox("chunks", "chunks-rg");
  const rows = async () => {
    await page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
    return page.$$eval("[data-testid=chunk-row]", (rs) => rs.map((tr) => `${tr.dataset.rg}:${tr.dataset.col}`));
  };
  const all = (await rows()).length;
  assert.ok(all > 2, `${all} chunk rows drawn before filtering`);
  await type("1234");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=chunk-row]").length === 2);
  assert.deepEqual(await rows(), ["1234:0", "1234:1"]);
  await type("3000");
  assert.equal(await page.inputValue(box), "1234", "3000 is not a row group here: the choice stays");
  assert.deepEqual(await rows(), ["1234:0", "1234:1"]);
  await type("");
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=chunk-row]").length === n, all);
  assert.deepEqual(log.errors, []);
});

test("the byte map of 3,000 row groups draws a bounded number of marks, and pointing at one names the row group under the pointer", async () => {
  const { page, log } = ins;
  const { ColumnsFile } = loadApi();
  const f = ColumnsFile.fromBytes(bytes);
  const spans = f.rowGroups.map((rg) => ({ start: Math.min(...rg.columns.map((cm) => cm.byteOffset)), end: Math.max(...rg.columns.map((cm) => cm.byteOffset + cm.byteLength)) }));
  const size = f.byteLength;
  f.free();
  await tab(page, "layout");
  await page.waitForSelector("[data-testid=layout-map]");
  // A group and a titled tick per row group took 33,120 row groups 1.4 s to draw.
  const elements = await page.$$eval("[data-testid=layout-map] *", (xs) => xs.length);
  assert.ok(elements <= 2000, `${elements} SVG elements for ${G} row groups`);
  assert.match(await page.textContent("[data-testid=layout-marks]"), /3,000 row groups: the map shows marks of up to 8 row groups each/);
  // The map: 16 lines of ceil(size / 16) bytes; the middle of row group g is
  // at a place found from its bytes, and hovering there names g.
  const lines = 16;
  const bpl = Math.ceil(size / lines);
  for (const g of [0, 1, 7, 8, 1234, 2999]) {
    const mid = (spans[g].start + spans[g].end) / 2;
    const line = Math.floor(mid / bpl);
    const at = await page.$eval("[data-testid=layout-map]", (svg, [line, frac, lines]) => {
      const b = svg.getBoundingClientRect();
      return { x: b.left + frac * b.width, y: b.top + ((line + 0.5) / lines) * b.height - 2 };
    }, [line, (mid - line * bpl) / bpl, lines]);
    await page.mouse.move(at.x, at.y);
    await page.waitForFunction((g) => document.querySelector("[data-testid=layout-info]").textContent.startsWith(`Row group ${g}:`), g, { timeout: 5000 }).catch(async () => {
      assert.fail(`hovering row group ${g} said: ${await page.textContent("[data-testid=layout-info]")}`);
    });
    assert.match(await page.textContent("[data-testid=layout-info]"), new RegExp(`bytes ${spans[g].start.toLocaleString("en-US")} – ${spans[g].end.toLocaleString("en-US")}`));
  }
  // A click there (row group 2999, the last hovered) selects that row group.
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForFunction(() => new URLSearchParams(location.search).get("rg") === "2999");
  assert.deepEqual(log.errors, []);
});

test("SQL: table t of 3,000 row groups loads in a few reads, every row in file order", async () => {
  const { page, log } = ins;
  await sqlReady(page);
  const io = await page.textContent("[data-testid=io-counter]");
  const sqlReads = Number(/table t: [^,]+, ([\d,]+) reads?/.exec(io)?.[1].replace(/,/g, ""));
  assert.ok(sqlReads >= 1 && sqlReads <= 10, `table t read in ${sqlReads} reads (${io})`);
  const ok = await runSql(page, "SELECT count(*) AS rows, sum(n) AS total, count(DISTINCT word) AS words, min(n) AS lo, max(n) AS hi FROM t");
  assert.equal(ok.state, "done", ok.text);
  const cells = [];
  for (let k = 0; k < 5; k++) cells.push((await sqlColumn(page, k))[0]);
  // n runs 0 .. 5,999; the words are w0-w9 and v0-v6.
  assert.deepEqual(cells, [String(2 * G), String(((2 * G - 1) * 2 * G) / 2), "17", "0", String(2 * G - 1)]);
  // File order: row i holds n = i.
  const order = await runSql(page, "SELECT count(*) AS misplaced FROM (SELECT n, row_number() OVER () - 1 AS i FROM t) WHERE n <> i");
  assert.equal(order.state, "done", order.text);
  assert.deepEqual(await sqlColumn(page, 0), ["0"]);
  assert.deepEqual(log.errors, []);
});

/** The reads "Read so far" counts. */
const reads = async () => Number(await ins.page.getAttribute("[data-testid=io-counter]", "data-requests"));

/** Shows the Data tab, its rows drawn; gives the reads so far. */
async function dataShown() {
  await tab(ins.page, "data");
  await gridDrawn(ins.page);
  return reads();
}

test("the Data tab's rows in the middle of 3,000 row groups are read in a few requests, not one a row group, and shown right", async () => {
  const { page, log } = ins;
  const r0 = await dataShown();
  // Row 3,000 (row group 1,500) at the top: a screenful of rows, 2 a row group.
  await page.evaluate(() => {
    const s = document.querySelector("[data-testid=data-grid] .grid-scroll");
    s.scrollTop = (s.scrollHeight * 3000) / 6000;
  });
  await page.waitForSelector("[data-testid=data-grid] .grid-row:not([hidden])[data-file-row='3001']", { timeout: 30_000 });
  await gridDrawn(page);
  const rows = await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.map((r) => ({ n: Number(r.dataset.fileRow), cells: [...r.querySelectorAll(".grid-cell[data-col]")].map((c) => c.textContent) })));
  const groups = new Set(rows.map((r) => Math.floor(r.n / 2)));
  assert.ok(groups.size >= 8, `${groups.size} row groups in sight`);
  for (const { n, cells } of rows) {
    const g = Math.floor(n / 2);
    assert.deepEqual(cells, [String(n), n % 2 ? `v${g % 7}` : `w${g % 10}`], `row ${n}`);
  }
  const r1 = await reads();
  assert.ok(r1 - r0 <= 3, `the window read ${r1 - r0} times (${groups.size} row groups)`);
  assert.deepEqual(log.errors, []);
});

test("a CSV export of 3,000 row groups reads them in a few stretches, not a request per chunk, and writes every row", async () => {
  const { page, log } = ins;
  const r0 = await dataShown();
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-csv]");
  const before = await page.textContent("[data-testid=export-result]");
  const [dl] = await Promise.all([page.waitForEvent("download", { timeout: 120_000 }), page.click("[data-testid=export-run]")]);
  const text = fs.readFileSync(await dl.path(), "utf8");
  await page.waitForFunction((b) => document.querySelector("[data-testid=export-result]").textContent !== b, before);
  await page.click("[data-testid=export-toggle]");
  const r1 = await reads();
  assert.ok(r1 - r0 <= 20, `the export read ${r1 - r0} times (${2 * G} chunks)`);
  const lines = text.split("\r\n");
  assert.equal(lines.length, 2 * G + 2, "header, rows, and the final line break");
  assert.equal(lines[0], "n,word");
  for (const n of [0, 1, 2999, 5998, 5999]) {
    const g = Math.floor(n / 2);
    assert.equal(lines[n + 1], `${n},${n % 2 ? `v${g % 7}` : `w${g % 10}`}`);
  }
  assert.deepEqual(log.errors, []);
});

test("a filter and a sort over 3,000 row groups read their column in a few stretches, not a request per row group, and give the right rows", async () => {
  const { page, log } = ins;
  const r0 = await dataShown();
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]", "0");
  await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", ">");
  await page.fill("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]", String(2 * G - 10));
  await page.click("[data-testid=filter-apply]");
  // n > 5,990: the last 9 values of n, one a row.
  await page.waitForFunction(() => document.querySelector("[data-testid=data-status]")?.dataset.total === "9", null, { timeout: 60_000 });
  const r1 = await reads();
  assert.ok(r1 - r0 <= 20, `the filter read ${r1 - r0} times (column n of ${G} row groups)`);
  // Sorted by word (one click: ascending).
  await page.click("[data-testid=data-grid-header][data-col='1'] button");
  await page.waitForFunction(() => /sorted by/.test(document.querySelector("[data-testid=data-status]").textContent), null, { timeout: 60_000 });
  await gridDrawn(page);
  const r2 = await reads();
  assert.ok(r2 - r1 <= 20, `the sort read ${r2 - r1} times (column word of ${G} row groups)`);
  const rows = await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.map((r) => [...r.querySelectorAll(".grid-cell[data-col]")].map((c) => c.textContent)));
  // The 9 rows n = 5,991 .. 5,999: row group g = n / 2 gives an even n w(g % 10), an odd one v(g % 7).
  const want = [];
  for (let n = 2 * G - 9; n < 2 * G; n++) {
    const g = Math.floor(n / 2);
    want.push([String(n), n % 2 ? `v${g % 7}` : `w${g % 10}`]);
  }
  want.sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  assert.deepEqual(rows.map((r) => r[1]), want.map((w) => w[1]), "the words, sorted");
  assert.deepEqual(log.errors, []);
});
