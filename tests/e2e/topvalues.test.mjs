// The profile's most common values: 20 at first, then more on request, a
// bounded number in all, and the page says how many distinct values there
// are beyond those it shows. Expected values and counts come from the
// file's values counted here, never from the page.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, waitState, shot } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let server, browser;
const name = (k) => `v${String(k).padStart(4, "0")}`;

/** many.cols: `wide` has 1,500 distinct values (250 with counts 260 down to 11, the rest once), `narrow` 130 (k + 1 times each). */
function makeFile() {
  const wide = [];
  for (let k = 0; k < 1500; k++) for (let n = k < 250 ? 260 - k : 1; n > 0; n--) wide.push(name(k));
  const narrow = [];
  for (let k = 0; k < 130; k++) for (let n = 0; n <= k; n++) narrow.push(name(k));
  while (narrow.length < wide.length) narrow.push(name(129));
  const half = wide.length >> 1;
  const schema = [
    { name: "wide", type: "string", nullable: false },
    { name: "narrow", type: "string", nullable: false },
  ];
  const file = buildFile(schema, [
    { offset: 5, columns: [wide.slice(0, half), narrow.slice(0, half)] },
    { offset: 1 << 20, columns: [wide.slice(half), narrow.slice(half)] },
  ]);
  const dir = path.join(os.tmpdir(), "columns-e2e-topvalues");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "many.cols"), materialize(file));
  return { dir, wide, narrow };
}

/** [value, count] most common first, ties in byte order. */
function ranked(values) {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

let made;
before(async () => {
  made = makeFile();
  server = await serve({ mounts: { "/made/": made.dir } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const rows = (page) => page.$$eval("[data-testid=profile-top-row]", (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].dataset.value)]));

test("the most common values: 20 at first, more on request up to a bound, and how many lie beyond", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 900 } });
  try {
    const want = ranked(made.wide);
    assert.equal(want.length, 1500);
    await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}/made/many.cols`)}&tab=detail&col=0`);
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=profile][data-state=done][data-col='0']", { timeout: 60_000 });
    assert.deepEqual(await rows(page), want.slice(0, 20));
    const more = () => page.textContent("[data-testid=profile-top-more]");
    assert.match(await more(), /20 most common of 1,500 distinct values/);
    await page.click("[data-testid=profile-top-next]");
    assert.deepEqual(await rows(page), want.slice(0, 120));
    assert.match(await more(), /120 most common of 1,500/);
    // All it keeps: the first 1,000, and a word on the 500 it does not list.
    assert.match(await page.textContent("[data-testid=profile-top-all]"), /^Show the first 1,000$/);
    await page.click("[data-testid=profile-top-all]");
    assert.deepEqual(await rows(page), want.slice(0, 1000));
    assert.match(await more(), /1,000 most common of 1,500 distinct values/);
    assert.match(await more(), /other 500 are not listed/);
    assert.equal(await page.$("[data-testid=profile-top-next]"), null);
    assert.equal(await page.$("[data-testid=profile-top-all]"), null);
    await shot(page, "80-profile-top-more");

    // 130 distinct values: every one of them can be shown.
    const narrow = ranked(made.narrow);
    await page.selectOption("[data-testid=detail-col]", "1");
    await page.waitForSelector("[data-testid=profile][data-state=done][data-col='1']", { timeout: 60_000 });
    assert.deepEqual(await rows(page), narrow.slice(0, 20));
    assert.match(await page.textContent("[data-testid=profile-top-all]"), /^Show all 130$/);
    await page.click("[data-testid=profile-top-all]");
    assert.deepEqual(await rows(page), narrow);
    assert.match(await more(), /all 130 distinct values/);
    assert.equal(await page.$("[data-testid=profile-top-all]"), null);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});
