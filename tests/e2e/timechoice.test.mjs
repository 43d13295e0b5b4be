// Integer columns that hold Unix times: the format has no time type (FORMAT.md),
// so the page never guesses an int32 one; the person chooses, per column,
// "dates, epoch seconds" (or milliseconds, ... for 64-bit columns) in Column
// detail or beside a selected cell in Data, and the choice holds in every
// view while the file is open. A column the page guessed (int64, by name and
// range) says so and can be turned back into numbers.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, tab, waitState, shot, gridDrawn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let server, browser;
const N = 48;
const created = (k) => 1700000000 + k * 3600; // 2023-11-14 22:13:20 UTC, then hourly
const seen = (k) => 1700000000123 + k * 1000; // milliseconds
const iso = (ms) => new Date(ms).toISOString().replace("T", " ").replace(/\.000Z$/, "").replace(/Z$/, "");

before(async () => {
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "created", type: "int32", nullable: false },
    { name: "seen", type: "int64", nullable: false },
    { name: "event_time", type: "int64", nullable: false },
  ];
  const cols = [
    Array.from({ length: N }, (_, k) => k),
    Array.from({ length: N }, (_, k) => created(k)),
    Array.from({ length: N }, (_, k) => BigInt(seen(k))),
    Array.from({ length: N }, (_, k) => BigInt(created(k)) * 1000000n), // microseconds: the page guesses this one
  ];
  const dir = path.join(os.tmpdir(), "columns-e2e-timechoice");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "times.cols"), materialize(buildFile(schema, [{ offset: 5, columns: cols }])));
  server = await serve({ mounts: { "/made/": dir } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const cell = (page, row, col) => page.textContent(`[data-testid=data-grid] .grid-row[data-file-row='${row}'] .grid-cell[data-col='${col}']`);
// The grid's rows drawn, none pending. Not just "no cell pending": a grid
// whose tab was hidden keeps the rows it drew before (hidden, none pending,
// row 0 still data-file-row 0) until the frame after its tab shows, so a
// column shown another way meanwhile read its old text there.
const settled = (page) => gridDrawn(page);

test("an int32 of epoch seconds shows as numbers until the person chooses dates; the choice holds in Data, filters and the profile", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/times.cols`)}&tab=data`);
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=data-grid] .grid-row[data-file-row='0']");
    await settled(page);
    // No guess for an int32, nor for an int64 whose name says nothing of time.
    assert.equal(await cell(page, 0, 1), String(created(0)));
    assert.equal(await cell(page, 0, 2), String(seen(0)));
    // The int64 named like a time is guessed, and says so.
    assert.equal(await cell(page, 0, 3), iso(created(0) * 1000));

    // Column detail of `created`: choose dates, epoch seconds.
    await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/times.cols`)}&tab=detail&col=1`);
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=profile][data-state=done][data-col='1']");
    assert.equal(await page.inputValue("[data-testid=detail-time-unit]"), "");
    const units = await page.$$eval("[data-testid=detail-time-unit] option", (o) => o.map((x) => x.value));
    assert.deepEqual(units, ["", "s"], "an int32 offers epoch seconds only");
    await page.selectOption("[data-testid=detail-time-unit]", "s");
    await page.waitForFunction(() => /^2023-11-14 22:13:20/.test(document.querySelector("[data-testid=profile-min]")?.textContent || ""));
    assert.match(await page.textContent("[data-testid=profile-shown-as]"), /seconds since 1970-01-01 UTC, as chosen/);

    // Data shows it as dates, the number in the title; a filter takes a date.
    await tab(page, "data");
    await settled(page);
    assert.equal(await cell(page, 0, 1), iso(created(0) * 1000));
    assert.equal(await cell(page, 5, 1), iso(created(5) * 1000));
    assert.match(await page.getAttribute("[data-testid=data-grid] .grid-row[data-file-row='5'] .grid-cell[data-col='1'] [data-kind=time]", "title"), new RegExp(`^${created(5)} `));
    await page.click("[data-testid=filter-add]");
    await page.selectOption("[data-testid=filter-col]", "1");
    await page.selectOption("[data-testid=filter-op]", ">=");
    await page.fill("[data-testid=filter-value]", "2023-11-15 12:00");
    await page.click("[data-testid=filter-apply]");
    const want = Array.from({ length: N }, (_, k) => created(k)).filter((t) => t >= Date.UTC(2023, 10, 15, 12) / 1000).length;
    await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), want);
    // The choice of dates is not in the link (it lasts while the file is
    // open): the link keeps the condition's number, which reads back alike.
    const linked = new URL(page.url());
    assert.equal(linked.searchParams.get("where"), JSON.stringify([[1, ">=", String(Date.UTC(2023, 10, 15, 12) / 1000)]]));
    const again = await page.context().newPage();
    await again.goto(linked.href);
    await again.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), want, { timeout: 30_000 });
    assert.doesNotMatch((await again.textContent("#toasts")) || "", /left out/);
    await again.close();
    // A date finer than the column's seconds: the rows after it, and the link
    // keeps its exact number of seconds, a decimal that reads back alike.
    await page.fill("[data-testid=filter-value]", "2023-11-15 12:00:00.5");
    // (the same rows as the filter before: its view, not its count, says it was applied)
    const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
    await page.click("[data-testid=filter-apply]");
    await page.waitForFunction((b) => document.querySelector("[data-testid=panel-data]").getAttribute("data-view") !== b, before);
    const noon = Date.UTC(2023, 10, 15, 12) / 1000;
    const after = Array.from({ length: N }, (_, k) => created(k)).filter((t) => t > noon).length;
    await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), after);
    assert.equal(new URL(page.url()).searchParams.get("where"), JSON.stringify([[1, ">=", `${noon}.5`]]));
    await page.click("[data-testid=filter-clear]");
    await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), N);
    await settled(page);

    // Beside a selected cell of `seen`: dates, epoch milliseconds.
    await page.click("[data-testid=data-grid] .grid-row[data-file-row='2'] .grid-cell[data-col='2']");
    await page.waitForSelector("[data-testid=cell-time-unit]");
    await page.selectOption("[data-testid=cell-time-unit]", "ms");
    await page.waitForFunction(() => /^\d{4}-/.test(document.querySelector("[data-testid=data-grid] .grid-row[data-file-row='2'] .grid-cell[data-col='2']")?.textContent || ""));
    assert.equal(await cell(page, 2, 2), iso(seen(2)));
    assert.equal(await page.textContent("[data-testid=cell-panel-value]"), `${iso(seen(2))} UTC`);
    assert.equal(await page.inputValue("[data-testid=cell-time-unit]"), "ms");
    await shot(page, "81-time-choice-data");

    // The guessed column says it was guessed, and goes back to numbers on request.
    await tab(page, "detail");
    await page.selectOption("[data-testid=detail-col]", "3");
    await page.waitForSelector("[data-testid=profile][data-state=done][data-col='3']");
    assert.equal(await page.inputValue("[data-testid=detail-time-unit]"), "us");
    assert.match(await page.textContent("[data-testid=profile-shown-as]"), /guessed from the name and range/);
    await page.selectOption("[data-testid=detail-time-unit]", "");
    await page.waitForFunction(() => !document.querySelector("[data-testid=profile-shown-as]"));
    await tab(page, "data");
    await settled(page);
    assert.equal(await cell(page, 0, 3), String(BigInt(created(0)) * 1000000n));
    // And the choices made before still hold.
    assert.equal(await cell(page, 0, 1), iso(created(0) * 1000));
    assert.equal(await cell(page, 0, 2), iso(seen(0)));
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("a link's date condition on a guessed column, the column turned back into numbers before Data shows: said and left out of the address, not kept there unapplied", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1400, height: 900 } });
  try {
    const where = encodeURIComponent(JSON.stringify([[3, ">=", iso(created(24) * 1000)]]));
    await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/times.cols`)}&tab=detail&col=3&where=${where}`);
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=detail-time-unit]");
    assert.equal(new URL(page.url()).searchParams.get("where"), decodeURIComponent(where), "the link's filter fits the file as it opens");
    await page.selectOption("[data-testid=detail-time-unit]", "");
    await tab(page, "data");
    await page.waitForFunction(() => /filter was left out: a value does not parse as its column is now shown/.test(document.querySelector("#toasts")?.textContent || ""), null, { timeout: 10_000 });
    assert.equal(new URL(page.url()).searchParams.get("where"), null, "not in the address: a copy of the link would filter what the page does not");
    await settled(page);
    assert.equal(await page.getAttribute("[data-testid=data-status]", "data-total"), String(N), "every row");
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});
