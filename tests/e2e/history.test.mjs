// The browser's Back and Forward step between the files opened on the
// page, each shown where it was left (tab, chunk, row); the samples are a
// step too. Moving between tabs, chunks and rows adds no step. A local
// file's step holds the File, so Back reopens it, until a reload lets it go.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, dropFile, waitState, tab, corpus } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

let ins;

before(async () => {
  ins = await openInspector();
  await ins.page.waitForSelector("body[data-ready='1']");
});

after(async () => {
  await ins?.close();
});

const clear = (page) => page.evaluate(() => (document.body.dataset.state = ""));

async function openUrl(page, url, state = "ready") {
  await clear(page);
  await page.fill("[data-testid=url-input]", url);
  await page.click("[data-testid=url-open]");
  await waitState(page, state);
}

/** Back (or Forward) one step, then what shows once the page has settled. */
async function step(page, way, state = "ready") {
  await clear(page);
  await (way === "back" ? page.goBack() : page.goForward());
  if (state) await waitState(page, state);
  else await page.waitForSelector("[data-testid=welcome]:not([hidden])");
  return shown(page);
}

const shown = (page) =>
  page.evaluate(() => ({
    file: document.querySelector("#file-view:not([hidden]) [data-testid=file-name]")?.textContent ?? null,
    tab: document.querySelector("[role=tab][aria-selected=true]")?.id.replace("tab-", "") ?? null,
    search: location.search,
    welcome: !document.querySelector("[data-testid=welcome]").hidden,
    field: document.querySelector("[data-testid=url-input]").value,
  }));

test("Back and Forward step between URL files and a local one, each on the tab it was left on; tabs add no step", async () => {
  const { page, log } = ins;
  const start = await page.evaluate(() => history.length);
  await openUrl(page, "samples/all_types_small.cols");
  await tab(page, "chunks");
  await openUrl(page, "samples/optimized.cols");
  await tab(page, "data");
  await tab(page, "layout");
  await dropFile(page, path.join(corpus, "valid/nulls.cols"));
  assert.equal(await page.evaluate(() => history.length), start + 3, "three files, three steps; the tabs none");
  assert.deepEqual(await shown(page), { file: "nulls.cols", tab: "layout", search: "?tab=layout", welcome: false, field: "" });

  assert.deepEqual(await step(page, "back"), { file: "optimized.cols", tab: "layout", search: "?url=samples%2Foptimized.cols&tab=layout", welcome: false, field: "samples/optimized.cols" });
  assert.deepEqual(await step(page, "back"), { file: "all_types_small.cols", tab: "chunks", search: "?url=samples%2Fall_types_small.cols&tab=chunks", welcome: false, field: "samples/all_types_small.cols" });
  const first = await step(page, "back", null);
  assert.equal(first.welcome, true, "before the first file: the samples");
  assert.equal(first.file, null);
  assert.equal(first.search, "");
  assert.equal(first.field, "");

  await step(page, "forward");
  await step(page, "forward");
  const local = await step(page, "forward");
  assert.deepEqual(local, { file: "nulls.cols", tab: "layout", search: "?tab=layout", welcome: false, field: "" }, "the local file reopened from the File its step holds");
  const want = readJson(expectedPath(path.join(corpus, "valid/nulls.cols")));
  assert.equal((await page.textContent("[data-testid=fact-rows]")).trim(), want.row_groups.reduce((a, g) => a + g.num_rows, 0).toLocaleString("en-US"));
  assert.deepEqual(log.errors, []);
});

test("the samples after a file that does not open are a step: Back shows its error again", async () => {
  const { page, log } = ins;
  await openUrl(page, "samples/footer_garbage.cols", "error");
  assert.match(await page.textContent("[data-testid=open-error]"), /footer_garbage\.cols/);
  await page.click("[data-testid=error-panel] button");
  await page.waitForSelector("[data-testid=welcome]:not([hidden])");
  assert.equal(await page.evaluate(() => location.search), "", "the address no longer names the file");
  const back = await step(page, "back", "error");
  assert.equal(new URLSearchParams(back.search).get("url"), "samples/footer_garbage.cols");
  assert.match(await page.textContent("[data-testid=open-error]"), /footer_garbage\.cols/);
  assert.equal(await page.isVisible("[data-testid=welcome]"), false);
  assert.deepEqual(log.errors, []);
});

test("after a reload, Back to a local file's step shows the samples and says to open the file again (not a file opened since)", async () => {
  const { page, log } = ins;
  // Each load counts its steps from the same start: the local file after
  // the reload makes as many steps as nulls.cols had made before it.
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  await dropFile(page, path.join(corpus, "valid/nulls.cols"));
  await openUrl(page, "samples/optimized.cols");
  await clear(page);
  await page.reload();
  await waitState(page, "ready");
  await dropFile(page, path.join(corpus, "valid/all_types_small.cols"));
  assert.equal((await step(page, "back")).file, "optimized.cols");
  const back = await step(page, "back", null);
  assert.equal(back.welcome, true);
  assert.equal(back.file, null);
  assert.match(await page.textContent("#toasts"), /nulls\.cols was a local file: open it again to see it/);
  assert.deepEqual(log.errors, []);
});

test("Back to a file whose open is then cancelled steps the history back: the address and the field name the file still shown, and Back still reaches the one before", async () => {
  const { page, log } = ins;
  await openUrl(page, "samples/all_types_small.cols");
  await openUrl(page, "samples/optimized.cols");
  // all_types_small.cols answers slowly now: its open is under way long enough to cancel.
  const slow = async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.continue().catch(() => {});
  };
  await page.route("**/samples/all_types_small.cols", slow);
  await clear(page);
  await page.goBack();
  await page.waitForSelector("body[data-state='opening']");
  await page.waitForSelector("[data-testid=cancel-button]:not([disabled])");
  await page.click("[data-testid=cancel-button]");
  await page.waitForFunction(() => new URLSearchParams(location.search).get("url") === "samples/optimized.cols");
  await page.unroute("**/samples/all_types_small.cols", slow);
  await page.waitForFunction(() => document.body.dataset.state !== "opening");
  const still = await shown(page);
  assert.equal(still.file, "optimized.cols");
  assert.equal(still.field, "samples/optimized.cols");
  assert.equal((await step(page, "back")).file, "all_types_small.cols", "Back after the cancel: the file before");
  assert.deepEqual(log.errors, []);
});

test("Back to a file left filtered in Data shows it filtered again (the filter is in its entry's address)", async () => {
  const { page, log } = ins;
  await openUrl(page, "samples/diamonds.optimized.cols");
  await tab(page, "data");
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='2'] .grid-cell[data-col='1']:not([data-kind=pending])");
  await page.click("[data-testid=data-grid] .grid-row[data-row='2'] .grid-cell[data-col='1']");
  await page.click("[data-testid=filter-to-value]");
  await page.waitForFunction(() => /of 53,940 rows, where cut = /.test(document.querySelector("[data-testid=data-status]")?.textContent || ""));
  const filtered = await page.textContent("[data-testid=data-status]");
  await openUrl(page, "samples/optimized.cols");
  await step(page, "back");
  await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === n, filtered.match(/^([\d,]+) of/)[1].replaceAll(",", ""));
  assert.equal((await page.textContent("[data-testid=data-status]")).split(" · ")[0], filtered.split(" · ")[0]);
  assert.deepEqual(log.errors, []);
});

test("a link's numbers with no place in the file (rg past the last, a column or a sort past the last, a word for a row) are said and taken out of the address", async () => {
  const { page, server } = ins;
  await clear(page);
  await page.goto(`${server.base}?url=samples/all_types_small.cols&tab=detail&rg=99&col=abc&sort=26&desc=1&row=-5`);
  await waitState(page, "ready");
  await page.waitForFunction(() => /left out/.test(document.querySelector("#toasts")?.textContent || ""));
  assert.match(await page.textContent("#toasts"), /The link's rg=99 \(the file has 3 row groups\), col=abc \(not a column number\), sort=26 \(the file has 26 columns\), row=-5 \(not a row number\) were left out\./);
  const left = new URL(page.url()).searchParams;
  assert.deepEqual([...left.keys()].sort(), ["tab", "url"], page.url());
  // Numbers that fit stay, and nothing is said of them.
  await clear(page);
  await page.evaluate(() => document.querySelector("#toasts")?.replaceChildren());
  await page.goto(`${server.base}?url=samples/all_types_small.cols&tab=detail&rg=2&col=25`);
  await waitState(page, "ready");
  const kept = new URL(page.url()).searchParams;
  assert.equal(kept.get("rg"), "2");
  assert.equal(kept.get("col"), "25");
  assert.doesNotMatch((await page.textContent("#toasts")) || "", /left out/);
});

test("a link's filter that does not fit is said as the link opens on another tab, not first in the Data tab; its sort that fits applies there", async () => {
  const { page, server, log } = ins;
  await clear(page);
  await page.evaluate(() => document.querySelector("#toasts")?.replaceChildren());
  const where = encodeURIComponent('[[99,"=","x"]]');
  await page.goto(`${server.base}?url=samples/all_types_small.cols&tab=chunks&sort=1&desc=1&where=${where}`);
  await waitState(page, "ready");
  // Said on the tab the link opens, the Data tab never shown.
  await page.waitForFunction(() => /filter was left out: a condition names column 99, and the file has 26/.test(document.querySelector("#toasts")?.textContent || ""), null, { timeout: 5_000 });
  assert.equal(await page.getAttribute("[role=tab][aria-selected=true]", "id"), "tab-chunks");
  assert.equal(await page.isHidden("[data-testid=panel-data]"), true);
  const left = new URL(page.url()).searchParams;
  assert.equal(left.get("where"), null, "left out of the address at once");
  assert.equal(left.get("sort"), "1", "the sort waits in the address");
  // The Data tab, shown: the link's sort applies, and no filter.
  await tab(page, "data");
  await page.waitForFunction(() => /sorted by .* descending/.test(document.querySelector("[data-testid=data-status]")?.textContent || ""), null, { timeout: 30_000 });
  assert.equal(await page.getAttribute("[data-testid=data-grid-header][data-col='1']", "aria-sort"), "descending");
  assert.doesNotMatch(await page.textContent("[data-testid=data-status]"), /where/);
  assert.equal(await page.$$eval("[data-testid=filter-row]", (x) => x.length), 0);
  assert.deepEqual(log.errors, []);
});

test("a link's filter refused says what is wrong with it: a column that is not a number, a value too long; is null needs no value; an empty where leaves the address", async () => {
  const { page, server, log } = ins;
  const open = async (where, extra = "") => {
    await clear(page);
    await page.evaluate(() => document.querySelector("#toasts")?.replaceChildren());
    await page.goto(`${server.base}?url=samples/all_types_small.cols&tab=chunks${extra}&where=${encodeURIComponent(where)}`);
    await waitState(page, "ready");
  };
  const said = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector("#toasts")?.textContent || ""), re.source, { timeout: 5_000 });
  await open('[["1","=","x"]]');
  await said(/filter was left out: a condition's column \(its first item\) is not a column's number\./);
  await open("[[]]");
  await said(/filter was left out: a condition's column \(its first item\) is not a column's number\./);
  await open(JSON.stringify([[0, "=", "x".repeat(10_001)]]));
  await said(/filter was left out: a condition's value is longer than 10,000 characters\./);
  // A value that does not parse, the Data tab not shown: the toast says where its conditions are.
  await open('[[2,">","abc"]]');
  await said(/filter was left out: a value does not parse \(see the conditions on the Data tab\)\./);
  // "is null" with no value: kept, as the page's own link writes it with "".
  await open('[[3,"null"]]');
  await tab(page, "data");
  await page.waitForFunction(() => /where .* is null/.test(document.querySelector("[data-testid=data-status]")?.textContent || ""), null, { timeout: 30_000 });
  assert.doesNotMatch((await page.textContent("#toasts")) || "", /left out/);
  // where= (empty): no filter, and gone from the address as where=[] is.
  await clear(page);
  await page.goto(`${server.base}?url=samples/all_types_small.cols&tab=chunks&where=`);
  await waitState(page, "ready");
  await page.waitForFunction(() => !new URL(location.href).searchParams.has("where"), null, { timeout: 5_000 });
  assert.deepEqual(log.errors, []);
});
