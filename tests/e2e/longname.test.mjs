// A column name of 200,000 characters: the Schema holds it whole, and every
// other place that names the column (headings, the chunk table, the grid's
// header, menus, notices) shows its first 200 characters and an ellipsis,
// as `brief` (www/js/labels.js) cuts it. Before, Column detail's headings
// filled screens with the name.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, waitState, tab, gridDrawn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const LONG = `start-${"n".repeat(200_000)}-end`;
const CUT = `${LONG.slice(0, 200)}…`;
const SCHEMA = [{ name: LONG, type: "int32", nullable: false }, { name: "x", type: "string", nullable: false }];
const bytes = materialize(buildFile(SCHEMA, [{ offset: 5, columns: [[1, 2], ["a", "b"]] }]));
let ins;

before(async () => {
  ins = await openInspector();
  await ins.page.setInputFiles("[data-testid=file-input]", [{ name: "longname.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(ins.page, "ready");
});

after(async () => {
  await ins?.close();
});

const colnames = (page, scope) => page.$$eval(`${scope} .colname`, (els) => els.map((e) => e.textContent));

test("brief keeps a name of at most 200 units, cuts a longer one after 200 with …, and never between the halves of a surrogate pair", async () => {
  const out = await ins.page.evaluate(async () => {
    const { brief } = await import(new URL("js/labels.js", location.href).href);
    const a199 = "a".repeat(199);
    return [brief("a".repeat(200)), brief("a".repeat(201)), brief(`${a199}😀b`), brief(`${a199}b😀`), brief("", 5), brief("abcdef", 3)];
  });
  const a = (n) => "a".repeat(n);
  assert.deepEqual(out, [a(200), `${a(200)}…`, `${a(199)}…`, `${a(199)}b…`, "", "abc…"]);
});

test("the Schema holds the whole name; the chunk table shows its first 200 characters", async () => {
  const { page } = ins;
  await tab(page, "schema");
  assert.ok((await colnames(page, "[data-testid=schema-table]")).includes(LONG), "the Schema's cell holds every character");
  await tab(page, "chunks");
  // (the chunk table puts its rows in, in a task after the one that shows it)
  await page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
  assert.deepEqual(await colnames(page, "[data-testid=chunk-table]"), [CUT, "x"]);
});

test("Column detail names the column by its first 200 characters: the menu, the chunk's heading and the profile's", async () => {
  const { page, log } = ins;
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "0");
  await page.waitForSelector("[data-testid=panel-detail] h3 .colname");
  const option = await page.$eval("[data-testid=detail-col] option[value='0']", (o) => o.textContent);
  assert.equal(option, `0: \u2068${CUT}\u2069 (int32)`);
  const heads = await page.$$eval("[data-testid=panel-detail] :is(h2, h3) .colname", (els) => els.map((e) => e.textContent));
  assert.ok(heads.length >= 2, `the chunk's heading and the profile's: ${heads.length}`);
  for (const t of heads) assert.equal(t, CUT);
  // Each heading keeps to a few lines.
  const tallest = await page.$$eval("[data-testid=panel-detail] :is(h2, h3)", (els) => Math.max(...els.map((e) => e.getBoundingClientRect().height)));
  assert.ok(tallest < 200, `the tallest heading: ${tallest} px`);
  assert.deepEqual(log.errors, []);
});

test("the Data tab's header and its Columns menu show the first 200 characters", async () => {
  const { page, log } = ins;
  await tab(page, "data");
  await gridDrawn(page);
  assert.deepEqual(await colnames(page, "[data-testid=data-grid] .grid-th"), [CUT, "x"]);
  await page.click("[data-testid=data-columns-toggle]");
  const picked = await page.$$eval("[data-testid=data-columns] .picker-name", (els) => els.map((e) => e.textContent));
  assert.deepEqual(picked, [CUT, "x"]);
  assert.deepEqual(log.errors, []);
});

test("the byte map's description of the chunk and the table of regions name it by its first 200 characters", async () => {
  const { page, log } = ins;
  await tab(page, "layout");
  await page.focus("[data-testid=layout-map]");
  await page.waitForFunction(() => /^Chunk: row group 0, column 0/.test(document.querySelector("[data-testid=layout-info]")?.textContent || ""));
  const info = await page.textContent("[data-testid=layout-info]");
  assert.ok(info.startsWith(`Chunk: row group 0, column 0 “${CUT}” (int32)`), info.slice(0, 300));
  assert.ok(info.length < 600, `${info.length} characters`);
  // And the table of regions below it (its rows put in, in a task after the one that drew the view).
  await page.waitForSelector("[data-testid=layout-table][data-complete='1']");
  const cells = await page.$$eval("[data-testid=layout-row][data-kind=chunk] [data-field=col]", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(cells, [CUT, "x"]);
  assert.deepEqual(log.errors, []);
});

test("Timing names the column by its first 200 characters: the results, the chart's label and tooltip, and the runs side by side", async () => {
  const { page, log } = ins;
  await tab(page, "timing");
  await page.fill("[data-testid=timing-runs]", "2");
  await page.fill("[data-testid=timing-warmups]", "0");
  for (let run = 1; run <= 2; run++) {
    await page.click("[data-testid=timing-run]");
    await page.waitForFunction((n) => document.querySelectorAll("[data-testid=timing-compare-row]").length > 0 || (n === 1 && document.querySelector("[data-testid=timing-result-row]")), run, { timeout: 60_000 });
  }
  await page.waitForSelector("[data-testid=timing-compare-row]");
  assert.equal(await page.textContent("[data-testid=timing-result-row][data-col='0'] .colname"), CUT);
  const label = await page.$eval("[data-testid=chart-row-label]", (t) => ({ title: t.querySelector("title").textContent, text: t.textContent }));
  assert.equal(label.title, CUT);
  assert.ok(label.text.length < 300, `the chart's label: ${label.text.length} characters`);
  const compared = await page.$$eval("[data-testid=timing-compare-row]", (trs) => trs.map((tr) => tr.cells[0].textContent));
  assert.deepEqual(compared, [CUT, "x"]);
  assert.deepEqual(log.errors, []);
});
