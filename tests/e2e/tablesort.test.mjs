// The Schema and Chunks tables are drawn again when something about the
// file is learnt (chunk headers, decoded sizes, a failure, a tokenizer);
// the order the user clicked stays.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { corpus, dropFile, openInspector, tab } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let insp;
before(async () => {
  insp = await openInspector();
  await dropFile(insp.page, path.join(corpus, "valid/all_types_small.cols"));
});
after(() => insp?.close());

const firstStored = () => insp.page.$eval("[data-testid=chunk-row] [data-field=stored]", (td) => Number(td.dataset.value));
// The table draws its rows in tasks after the one that draws it: wait for all.
const drawn = () => insp.page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
const storedSort = () => insp.page.getAttribute("[data-testid=chunk-table] th[data-key=stored]", "aria-sort");

test("a sorted Chunks table keeps its order when the page draws it again (a tokenizer supplied)", async () => {
  const { page } = insp;
  await tab(page, "chunks");
  await page.click("[data-testid=chunk-table] th[data-key=stored] button");
  await drawn();
  const largest = await page.$$eval("[data-testid=chunk-row] [data-field=stored]", (tds) => Math.max(...tds.map((td) => Number(td.dataset.value))));
  assert.equal(await firstStored(), largest);
  assert.equal(await storedSort(), "descending");
  // Mark the table drawn now, supply a tokenizer, and wait for a new one.
  await page.$eval("[data-testid=chunk-table]", (t) => (t.dataset.before = "1"));
  await page.setInputFiles("[data-testid=file-input]", path.join(corpus, "tokenizers/small-tokenizer.json"));
  await page.waitForSelector("[data-testid=chunk-table]:not([data-before])");
  await drawn();
  assert.equal(await storedSort(), "descending");
  assert.equal(await firstStored(), largest);
});

test("the Chunks table sorts Min and Max of a number column as numbers (as text, -57 came after -53 and 100 before 5)", async () => {
  const { page } = insp;
  const mins = [-53, -1116, -57, 5, 40, 100];
  const schema = [{ name: "d", type: "int32", nullable: false }];
  await dropFile(page, { name: "mins.cols", bytes: materialize(buildFile(schema, mins.map((m) => ({ columns: [[m, m + 1]] })))) });
  await tab(page, "chunks");
  for (const [key, shift] of [["min", 0], ["max", 1]]) {
    await page.click(`[data-testid=chunk-table] th[data-key=${key}] button`);
    await drawn();
    const shown = async () => page.$$eval(`[data-testid=chunk-row] [data-field=${key}]`, (tds) => tds.map((td) => Number(td.textContent)));
    const want = mins.map((m) => m + shift).sort((a, b) => a - b);
    const first = await shown();
    // (the first click sorts one way, the second the other)
    assert.ok(JSON.stringify(first) === JSON.stringify(want) || JSON.stringify(first) === JSON.stringify([...want].reverse()), `${key}: ${first}`);
    await page.click(`[data-testid=chunk-table] th[data-key=${key}] button`);
    await drawn();
    const second = await shown();
    assert.deepEqual(second, [...first].reverse(), key);
  }
});
