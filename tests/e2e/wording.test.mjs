// How counts and byte ranges read, on a file made here with one row group
// of one row: "1 row", never "1 rows" (nor "1 row groups", "1 chunks", ...)
// on any view; a byte range is written one way everywhere (start – end, the
// end exclusive) and agrees between the byte map, its Regions table and the
// Column detail; the byte map's note says nothing about a tick colour
// (the ticks are light in the dark theme).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, tab, waitState, gridDrawn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let server, browser, page, log, file;

function makeFile() {
  const dir = path.join(os.tmpdir(), "columns-e2e-wording");
  fs.mkdirSync(dir, { recursive: true });
  const schema = [
    { name: "n", type: "int32", nullable: false },
    { name: "s", type: "string", nullable: true },
  ];
  file = buildFile(schema, [{ offset: 5, columns: [[7], ["x"]] }]);
  fs.writeFileSync(path.join(dir, "one-row.cols"), materialize(file));
  return dir;
}

before(async () => {
  server = await serve({ mounts: { "/made/": makeFile() } });
  browser = await launch();
  ({ page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 } }));
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** Counts of exactly one with a plural noun, in the visible text, option texts and tooltips. */
async function pluralOnes() {
  return page.evaluate(() => {
    const texts = [document.body.innerText];
    for (const el of document.querySelectorAll("option, [title], [aria-label], title")) {
      if (el.closest("[hidden]")) continue;
      texts.push(el.tagName === "OPTION" || el.tagName === "title" ? el.textContent : el.getAttribute("title") || "", el.getAttribute?.("aria-label") || "");
    }
    const re = /(?<![\d.,])1 (rows|row groups|columns|chunks|chunk headers|blocks|bytes|reads|bins|runs|warm-ups|workers|lines|statistics|small requests)\b/g;
    return [...new Set(texts.flatMap((t) => [...t.matchAll(re)].map((m) => t.slice(Math.max(0, m.index - 30), m.index + m[0].length + 10).replace(/\s+/g, " "))))];
  });
}

test("a count of one is singular on every view", async () => {
  await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/one-row.cols`)}&tab=detail&rg=0&col=0`);
  await waitState(page, "ready");
  await page.waitForSelector("[data-testid=profile][data-state=done]");
  await page.waitForSelector("[data-testid=detail-chunk]");
  const found = {};
  const option = await page.$eval("[data-testid=detail-rg] option", (o) => o.textContent);
  assert.equal(option, "0 (1 row)");
  assert.match(await page.textContent("[data-testid=panel-detail] .detail-title"), /row group 0 · 1 row$/);
  assert.doesNotMatch(await page.textContent("[data-testid=profile] h3"), /over all 1 row groups/);
  found.detail = await pluralOnes();
  for (const t of ["schema", "chunks", "layout", "data"]) {
    await tab(page, t);
    // (the grid, first shown now, draws its rows in the frame after: "no cell pending" held before it had any)
    if (t === "data") await gridDrawn(page);
    found[t] = await pluralOnes();
  }
  await tab(page, "timing");
  await page.fill("[data-testid=timing-runs]", "1");
  await page.fill("[data-testid=timing-warmups]", "1");
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=timing-chart]", { timeout: 60_000 });
  found.timing = await pluralOnes();
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
  assert.match(await page.textContent("[data-testid=sql-state]"), /Table t: 1 row × 2 columns/);
  await page.fill("[data-testid=sql-input]", "SELECT n FROM t");
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]");
  found.sql = await pluralOnes();
  for (const k of Object.keys(found)) if (!found[k].length) delete found[k];
  assert.deepEqual(found, {});
});

test("byte ranges: one convention (start – end, end exclusive) on the byte map, its table and the Column detail", async () => {
  const { start, end } = file.chunks[0][1]; // row group 0, column 1
  const len = end - start;
  const fmt = (n) => n.toLocaleString("en-US");
  await tab(page, "layout");
  assert.doesNotMatch(await page.textContent("[data-testid=panel-layout]"), /Black ticks/);
  await page.locator('[data-testid=layout-region][data-kind=chunk][data-rg="0"][data-col="1"]').hover();
  await page.waitForSelector("[data-testid=layout-tooltip]:not([hidden])");
  const tip = await page.textContent("[data-testid=layout-tooltip]");
  assert.ok(tip.includes(`bytes ${fmt(start)} – ${fmt(end)} (${len} B,`), `${tip} should hold bytes ${start} – ${end} (${len} B`);
  const row = await page.$$eval("[data-testid=layout-row][data-kind=chunk]", (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  assert.ok(row.some((cells) => cells[0] === fmt(start) && cells[1] === fmt(end)), `a Regions row ${start}, ${end}: ${JSON.stringify(row)}`);
  await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/one-row.cols`)}&tab=detail&rg=0&col=1`);
  await waitState(page, "ready");
  await page.waitForSelector("[data-testid=detail-chunk]");
  assert.equal(await page.textContent("[data-testid=detail-range]"), `${fmt(start)} – ${fmt(end)}`);
  assert.deepEqual(log.errors, []);
});
