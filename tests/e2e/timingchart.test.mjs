// The Timing tab's chart for a file of many columns (300, one row group):
// it draws the slowest 60, says how many are left out, and stays short.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, waitState, tab } from "./harness.mjs";
import { timingSettings } from "./timingrun.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const C = 300;
const SCHEMA = Array.from({ length: C }, (_, c) => ({ name: `col_${c}`, type: "int32", nullable: false }));
const bytes = materialize(buildFile(SCHEMA, [{ offset: 5, columns: SCHEMA.map((_, c) => [c, c + 1, c + 2]) }]));
let ins;

before(async () => {
  ins = await openInspector();
  await ins.page.setInputFiles("[data-testid=file-input]", [{ name: "wide.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(ins.page, "ready");
  await tab(ins.page, "timing");
});

after(async () => {
  await ins?.close();
});

test("a run over 300 columns charts the 60 slowest and says 240 are left out; the table keeps all 300", async () => {
  const { page, log } = ins;
  await timingSettings(page, { runs: "1", warmups: "0", scope: "column", mode: "memory" });
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=timing-chart]", { timeout: 60_000 });
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
  assert.equal(await page.$$eval("[data-testid=timing-result-row]", (els) => els.length), C);
  assert.equal(await page.$$eval("[data-testid=chart-row-label]", (els) => els.length), 60);
  assert.match(await page.textContent("[data-testid=timing-chart-left-out]"), /the 60 slowest columns by median.*240 faster ones left out/);
  const height = await page.$eval("[data-testid=timing-chart]", (e) => e.getBoundingClientRect().height);
  assert.ok(height < 2500, `chart ${height} px tall`);
  assert.deepEqual(log.errors, []);
});
