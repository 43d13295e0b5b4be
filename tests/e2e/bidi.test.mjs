// Text from a file that reorders or hides itself: a value "\u202Egnp.exe"
// (a right-to-left override, then "gnp.exe") must not read as "exe.png",
// and a column name holding an override must not reverse the page's own
// words after it ("Profile of NAME over its one row group").

import { test, before, after } from "node:test";
import fs from "node:fs";
import assert from "node:assert/strict";
import { dropFile, openInspector, tab } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const RLO = "\u202E";
const VALUES = [`${RLO}gnp.exe`, "zero\u200Bwidth", "\u0085next line", "plain", "\uFEFFstarts with a byte order mark"];
let insp;

before(async () => {
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: `evil${RLO}name`, type: "string", nullable: false },
  ];
  const file = buildFile(schema, [{ offset: 5, columns: [VALUES.map((_, k) => k), VALUES] }]);
  insp = await openInspector();
  await dropFile(insp.page, { name: "bidi.cols", bytes: materialize(file) });
});
after(() => insp?.close());

test("invisible and direction-changing characters in values are shown as marks, not obeyed", async () => {
  const { page } = insp;
  await tab(page, "data");
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=data-grid] .grid-cell[data-col='1'][data-kind=str]").length === 5);
  const cells = await page.$$eval("[data-testid=data-grid] .grid-cell[data-col='1'][data-kind=str]", (cs) => cs.map((c) => ({ text: c.textContent, marks: [...c.querySelectorAll(".ctl")].map((m) => m.title) })));
  assert.deepEqual(
    cells.map((c) => c.text),
    ["\\u202egnp.exe", "zero\\u200bwidth", "\\u0085next line", "plain", "\\ufeffstarts with a byte order mark"],
  );
  assert.match(cells[0].marks[0], /U\+202E/);
  // The side panel shows the same marks.
  await page.click("[data-testid=data-grid] .grid-cell[data-col='1'][data-kind=str]");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), "\\u202egnp.exe");
});

test("a column name holding a right-to-left override does not reorder the words after it", async () => {
  const { page } = insp;
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector(".detail-title .colname");
  // What follows the name (its type tag) must be drawn to the right of it.
  const { nameRight, nextLeft, after } = await page.$eval(".detail-title .colname", (span) => {
    const next = span.nextElementSibling;
    return { nameRight: span.getBoundingClientRect().right, nextLeft: next.getBoundingClientRect().left, after: next.textContent };
  });
  assert.ok(nextLeft >= nameRight - 1, `“${after}” starts at x=${nextLeft}, left of the name's end at x=${nameRight}`);
});

test("a value's leading byte order mark is kept: in the CSV export and the copied value", async () => {
  const { page } = insp;
  await tab(page, "data");
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-csv]");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-run]")]);
  await page.click("[data-testid=export-toggle]");
  const lines = fs.readFileSync(await dl.path(), "utf8").split("\r\n");
  assert.equal(lines[5], `4,${VALUES[4]}`);
  await page.click("[data-testid=data-grid] .grid-cell[data-col='1'][data-row='4']");
  await page.click("[data-testid=copy-cell]");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), VALUES[4]);
});

test("menus naming a column hold its name apart, an override in it shown as its escape (as the grid shows one), not obeyed", async () => {
  const { page } = insp;
  await tab(page, "detail");
  const detail = await page.$$eval("[data-testid=detail-col] option", (os) => os.map((o) => o.textContent));
  assert.equal(detail[1], "1: \u2068evil\\u202ename\u2069 (string)");
  await tab(page, "data");
  await page.click("[data-testid=filter-add]");
  const filter = await page.$$eval("[data-testid=filter-col] option", (os) => os.map((o) => o.textContent));
  // (first, "any text column": the file has a string column)
  assert.deepEqual(filter.slice(0, 2), ["any text column", "\u2068id\u2069"]);
  assert.equal(filter[2], "\u2068evil\\u202ename\u2069");
});

test("the status line shows a condition's value as the grid shows it: a direction or control character as its escape, not obeyed", async () => {
  const { page } = insp;
  await tab(page, "data");
  await page.click("[data-testid=filter-clear]"); // (the condition the test before added)
  for (const [row, shown] of [[0, "\\u202egnp.exe"], [2, "\\u0085next line"]]) {
    await page.click(`[data-testid=data-grid] .grid-cell[data-col='1'][data-row='${row}']`);
    await page.click("[data-testid=filter-to-value]");
    await page.waitForFunction(() => /^1 of 5 rows/.test(document.querySelector("[data-testid=data-status]").textContent));
    const { text, marks } = await page.$eval("[data-testid=data-status]", (s) => ({ text: s.textContent, marks: [...s.querySelectorAll(".ctl")].map((m) => m.title) }));
    assert.ok(text.includes(` = ${shown}, in file order`), text);
    assert.doesNotMatch(text, /[\u202e\u0085]gnp|[\u0085]next/);
    assert.ok(marks.some((m) => /U\+(202E|0085)/.test(m)), JSON.stringify(marks));
    await page.click("[data-testid=filter-clear]");
    await page.waitForFunction(() => /^5 rows/.test(document.querySelector("[data-testid=data-status]").textContent));
  }
});
