// Column names from the file are shown as the grid shows a value: a NUL,
// a line break or a tab as its escape (\0, \n, \t), a direction control
// as its escape (not obeyed), an empty name as "" (not a blank header);
// and a repeated name as the same "dup #0", "dup #1" in Schema, Data and
// the Column detail menu.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { dropFile, gridDrawn, openInspector, tab } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";
import { timingSettings, runTiming } from "./timingrun.mjs";

const NAMES = ["dup", "dup", "", "line1\nline2", "nul\u0000x", "tab\there", "<b>x</b>", "\u202Egnp.exe"];
const SHOWN = ["dup #0", "dup #1", '""', "line1\\nline2", "nul\\0x", "tab\\there", "<b>x</b>", "\\u202egnp.exe"];
let insp, page, log;

before(async () => {
  const schema = NAMES.map((name) => ({ name, type: "int32", nullable: false }));
  const file = buildFile(schema, [{ offset: 5, columns: NAMES.map((_, i) => [i, i + 10, i + 20]) }]);
  insp = await openInspector({ viewport: { width: 1400, height: 900 } });
  ({ page, log } = insp);
  await dropFile(page, { name: "names.cols", bytes: materialize(file) });
});
after(() => insp?.close());

test("Schema, Data's headers, Column detail's menu and title: each name as the grid shows a value, the same labels for repeated names", async () => {
  await tab(page, "schema");
  const schema = await page.$$eval("[data-testid=schema-table] tbody tr .colname", (els) => els.map((e) => e.textContent));
  assert.deepEqual(schema, SHOWN);
  await tab(page, "data");
  await gridDrawn(page);
  const heads = await page.$$eval("[data-testid=data-grid-header] .colname", (els) => els.map((e) => e.textContent));
  assert.deepEqual(heads, SHOWN);
  assert.ok(await page.$("[data-testid=data-grid-header][data-col='7'] .colname .ctl"), "the override marked as the grid marks one");
  await tab(page, "detail");
  const menu = await page.$$eval("[data-testid=detail-col] option", (os) => os.map((o) => o.textContent));
  assert.deepEqual(menu, SHOWN.map((s, c) => `${c}: \u2068${s}\u2069 (int32)`));
  await page.selectOption("[data-testid=detail-col]", "3");
  await page.waitForSelector("[data-testid=detail-title] .colname");
  assert.equal(await page.textContent("[data-testid=detail-title] .colname"), "line1\\nline2");
  assert.deepEqual(log.errors, []);
});

test("Profiles, the row list, Byte layout's legend, the Chunks table and Timing's rows: the same names, escaped the same way", async () => {
  await tab(page, "schema");
  const run = await page.waitForSelector("[data-testid=profiles-run]");
  await run.click();
  await page.waitForSelector("[data-testid=profiles-table][data-complete='1']", { timeout: 60_000 });
  assert.deepEqual(await page.$$eval("[data-testid=profiles-row] .colname", (els) => els.map((e) => e.textContent)), SHOWN);

  await tab(page, "data");
  await gridDrawn(page);
  await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']");
  await page.waitForSelector("[data-testid=cell-panel] [data-testid=record-list]");
  assert.deepEqual(await page.$$eval("[data-testid=cell-panel] .record-field .record-name", (els) => els.map((e) => e.textContent)), SHOWN);

  await tab(page, "layout");
  assert.deepEqual(await page.$$eval(".legend-item .colname", (els) => els.map((e) => e.textContent)), SHOWN);

  await tab(page, "chunks");
  await page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
  assert.deepEqual(await page.$$eval("[data-testid=chunk-table] tbody .colname", (els) => els.map((e) => e.textContent)), SHOWN);

  await tab(page, "timing");
  await timingSettings(page, { runs: "1", warmups: "0", scope: "column", mode: "memory" });
  await runTiming(page);
  assert.deepEqual((await page.$$eval("[data-testid=timing-result-row] .colname", (els) => els.map((e) => e.textContent))).sort(), [...SHOWN].sort());
  for (const label of await page.$$eval("[data-testid=chart-row-label]", (els) => els.map((e) => e.textContent))) assert.doesNotMatch(label, /[\u0000\n\u202e]/);
  assert.deepEqual(log.errors, []);
});
