// "Read so far" counts what the page read from the file: the SQL tab's load
// of table t (its own reader, in its own worker, reads every chunk) and
// Timing's load of the whole file for runs from memory count too, and the
// figure says which part was the SQL tab's.
// Timing re-reading a dropped file counts its reads too.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, tab, waitState } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let server, browser, file;

before(async () => {
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "name", type: "string", nullable: true },
  ];
  const n = 3000;
  const cols = [Array.from({ length: n }, (_, k) => k), Array.from({ length: n }, (_, k) => (k % 7 ? `name number ${k}` : null))];
  file = buildFile(schema, [
    { offset: 5, columns: cols.map((c) => c.slice(0, 1500)) },
    { offset: 1 << 16, columns: cols.map((c) => c.slice(1500)) },
  ]);
  const dir = path.join(os.tmpdir(), "columns-e2e-readsofar");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "reads.cols"), materialize(file));
  server = await serve({ mounts: { "/made/": dir } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const counter = (page) => page.$eval("[data-testid=io-counter]", (e) => ({ bytes: Number(e.dataset.bytes), requests: Number(e.dataset.requests), text: e.textContent, title: e.closest("[title]")?.title || "" }));

test("Read so far counts the SQL tab's load of table t and Timing's whole-file load, and says so", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/reads.cols`)}`);
    await waitState(page, "ready");
    const opened = await counter(page);
    assert.ok(opened.bytes > 0 && opened.requests > 0);
    const chunkBytes = file.chunks.flat().reduce((a, c) => a + c.end - c.start, 0);
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
    await page.waitForFunction((b) => Number(document.querySelector("[data-testid=io-counter]").dataset.bytes) > b, opened.bytes, { timeout: 10_000 }).catch(() => {});
    const sql = await counter(page);
    // Table t is every chunk of the file, read by the SQL worker's own reader.
    assert.ok(sql.bytes - opened.bytes >= chunkBytes, `the SQL load added ${sql.bytes - opened.bytes} bytes; its chunks alone are ${chunkBytes}`);
    assert.ok(sql.requests > opened.requests);
    assert.match(sql.text, /SQL tab/, `the figure names the SQL tab's part: ${sql.text}`);
    assert.match(sql.title, /SQL tab/);

    // Timing from memory loads the whole file once first.
    await tab(page, "timing");
    await page.fill("[data-testid=timing-runs]", "1");
    await page.fill("[data-testid=timing-warmups]", "0");
    await page.check("[data-testid=timing-mode-memory]");
    await page.click("[data-testid=timing-run]");
    await page.waitForSelector("[data-testid=timing-chart]", { timeout: 60_000 });
    const timed = await counter(page);
    assert.ok(timed.bytes - sql.bytes >= file.size, `the whole-file load added ${timed.bytes - sql.bytes} bytes of ${file.size}`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("Timing re-reading a dropped file counts its reads in Read so far: each chunk once a run and once before, and the file's ends opened again", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(server.base);
    await page.setInputFiles("[data-testid=file-input]", [{ name: "reads.cols", mimeType: "application/octet-stream", buffer: Buffer.from(materialize(file)) }]);
    await waitState(page, "ready");
    await tab(page, "timing");
    await page.fill("[data-testid=timing-runs]", "1");
    await page.fill("[data-testid=timing-warmups]", "0");
    await page.check("[data-testid=timing-mode-file]");
    const before = await counter(page);
    await page.click("[data-testid=timing-run]");
    await page.waitForSelector("[data-testid=timing-chart]", { timeout: 60_000 });
    const after = await counter(page);
    // Every chunk (the run's columns and row groups are all of them by
    // default): read untimed once, then by the run.
    const chunkBytes = file.chunks.flat().reduce((a, c) => a + c.end - c.start, 0);
    const ends = 9 + file.footerLength + 8;
    const added = after.bytes - before.bytes;
    assert.ok(added >= 2 * chunkBytes && added <= 2 * chunkBytes + ends, `Timing added ${added} bytes; its chunks twice are ${2 * chunkBytes}, the file's ends ${ends}`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});
