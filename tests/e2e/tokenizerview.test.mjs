// A tokenizer that comes after the Data tab's view was asked for: a sort
// by the column it reads, refused for want of it, runs once it comes; a
// search that left that column out is searched again with it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, gridDrawn, openInspector, tab } from "./harness.mjs";

let inspector, page, log;
const movielens = path.join(corpus, "real/movielens.tokenized.cols");
const gpt2 = path.join(corpus, "tokenizers/gpt2-tokenizer.json");

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
});

after(async () => {
  await inspector?.close();
});

const status = () => page.$eval("[data-testid=data-status]", (e) => e.textContent.replace(/\s+/g, " ").trim());
const titles = () => page.$$eval("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='1']", (els) => els.sort((a, b) => a.dataset.row - b.dataset.row).slice(0, 3).map((e) => e.textContent));

async function openMovielens() {
  await page.reload();
  await dropFile(page, movielens);
  await tab(page, "data");
  await gridDrawn(page);
}

test("a sort refused for want of a tokenizer runs once the tokenizer comes (dropped, or through the error's Choose tokenizer…)", async () => {
  for (const how of ["drop", "button"]) {
    await openMovielens();
    await page.click("[data-testid=data-grid-header][data-col='1'] button");
    await page.waitForSelector("[data-testid=data-error]");
    assert.match(await page.textContent("[data-testid=data-error]"), /unknown_tokenizer/);
    const view = await page.getAttribute("[data-testid=panel-data]", "data-view");
    if (how === "drop") await page.setInputFiles("[data-testid=file-input]", gpt2);
    else {
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-testid=data-error] [data-testid=choose-tokenizer]")]);
      await chooser.setFiles(gpt2);
    }
    await page.waitForFunction((v) => (document.querySelector("[data-testid=panel-data]").dataset.view ?? null) !== v, view, { timeout: 60_000 });
    await gridDrawn(page);
    assert.equal(await page.$("[data-testid=data-error]"), null, how);
    assert.match(await status(), /^100,004 rows, sorted by title ascending \(nulls last\)/, how);
    assert.equal(await page.getAttribute("[data-testid=data-grid-header][data-col='1']", "aria-sort"), "ascending", how);
    const first = await titles();
    assert.deepEqual([...first].sort(), first, `${how}: ${JSON.stringify(first)}`);
  }
  assert.deepEqual(log.errors, []);
});

test("a search that left an unreadable text column out is searched again once its tokenizer comes", async () => {
  await openMovielens();
  await page.click("[data-testid=filter-search]");
  await page.fill("[data-testid=filter-value]", "drama");
  await page.click("[data-testid=filter-apply]");
  await page.waitForSelector("[data-testid=data-left-out]");
  assert.match(await status(), /^44,752 of 100,004 rows, where any text column contains \(any case\) drama/);
  const view = await page.getAttribute("[data-testid=panel-data]", "data-view");
  await page.setInputFiles("[data-testid=file-input]", gpt2);
  await page.waitForFunction((v) => (document.querySelector("[data-testid=panel-data]").dataset.view ?? null) !== v, view, { timeout: 60_000 });
  assert.match(await status(), /^44,755 of 100,004 rows, where any text column contains \(any case\) drama/);
  assert.equal(await page.$("[data-testid=data-left-out]"), null);
  assert.deepEqual(log.errors, []);
});

test("an export that meets a column whose tokenizer is not supplied names the column and offers its tokenizer", async () => {
  await openMovielens();
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-csv]");
  await page.click("[data-testid=export-run]");
  await page.waitForSelector("[data-testid=export-result] [data-testid=export-error]", { timeout: 60_000 });
  const said = await page.textContent("[data-testid=export-error]");
  assert.match(said, /column “title” needs its tokenizer/, said);
  assert.match(said, /hide it \(Columns\)/, said);
  assert.ok(await page.$("[data-testid=export-error] [data-testid=choose-tokenizer]"));
  // Through its button, the tokenizer comes and the export form is fresh.
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-testid=export-error] [data-testid=choose-tokenizer]")]);
  await chooser.setFiles(gpt2);
  await page.waitForFunction(() => !document.querySelector("[data-testid=export-error]"), null, { timeout: 60_000 });
  assert.deepEqual(log.errors, []);
});
