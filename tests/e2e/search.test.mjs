// The Data tab's filter column "any text column": a row is kept when one
// of the file's string columns passes the condition (a search of the row's
// text), with the other conditions still holding; a text column that does
// not read is left out of the search and named; a link carries it. Rows
// expected come from the corpus JSON.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, dropFile, tab, gridDrawn, corpus, waitState } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

let ins;
before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } }, { mounts: { "/corpus/": corpus } });
});
after(async () => {
  await ins?.close();
});

/** File rows of the corpus JSON (one row group) where `pass(values of row)` holds. */
function rowsWhere(want, pass) {
  const cols = want.row_groups.flatMap((g) => g.values); // (a single row group here)
  const out = [];
  for (let r = 0; r < cols[0].length; r++) if (pass(cols.map((v) => v[r]))) out.push(r);
  return out;
}

const drawnRows = async (page) => {
  await gridDrawn(page);
  return page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rs) => rs.map((r) => Number(r.dataset.fileRow)));
};

/** Waits for the view to hold `n` rows (or 30 s, then fails with what it holds). */
async function total(page, n) {
  await page.waitForFunction((n) => document.querySelector("[data-testid=data-status]")?.dataset.total === String(n), n, { timeout: 30_000 }).catch(() => {});
  return Number(await page.getAttribute("[data-testid=data-status]", "data-total"));
}

test("any text column contains (any case): the rows where one of the string columns holds the text, AND-ed with a condition on a number", async () => {
  const { page } = ins;
  const rel = "real/birdstrikes.optimized.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  const text = want.schema.flatMap((s, c) => (s.type === "string" ? [c] : []));
  const cost = want.schema.findIndex((s) => s.name === "Cost Total $");
  const found = (row) => text.some((c) => row[c] !== null && row[c].toLowerCase().includes("charleston"));
  const expected = rowsWhere(want, found);
  assert.ok(expected.length > 100 && expected.length < 10_000, "the search keeps some rows and drops others");
  await dropFile(page, path.join(corpus, rel));
  await tab(page, "data");
  await gridDrawn(page);

  // "+ Search text": the condition set up, its value field focused.
  await page.click("[data-testid=filter-search]");
  assert.equal(await page.inputValue("[data-testid=filter-col]"), "-1");
  assert.equal(await page.inputValue("[data-testid=filter-op]"), "icontains");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "filter-value");
  assert.deepEqual(await page.$$eval("[data-testid=filter-op] option", (os) => os.map((o) => o.value)), ["=", "contains", "icontains", "starts"]);
  await page.keyboard.type("CHARLESTON");
  await page.keyboard.press("Enter");
  assert.equal(await total(page, expected.length), expected.length);
  assert.match(await page.textContent("[data-testid=data-status]"), /where any text column contains \(any case\) CHARLESTON/);
  assert.deepEqual(await drawnRows(page), expected.slice(0, (await drawnRows(page)).length));
  assert.equal(await page.$("[data-testid=data-left-out]"), null, "every text column reads");
  // The cells the search found are marked, and no other: in the grid...
  const cells = await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col]:not(.grid-rowno)", (cs) => cs.map((c) => ({ id: Number(c.closest(".grid-row").dataset.fileRow), col: Number(c.dataset.col), match: c.classList.contains("match"), said: c.getAttribute("aria-description") })));
  assert.ok(cells.some((c) => c.match), "some drawn cell is marked");
  for (const c of cells) {
    const v = want.row_groups[0].values[c.col][c.id];
    assert.equal(c.match, text.includes(c.col) && v !== null && v.toLowerCase().includes("charleston"), `row ${c.id} column ${c.col}: ${v}`);
    assert.equal(c.said, c.match ? "found by the search" : null, "said to a screen reader too");
  }
  // ...and in the selected cell's row list.
  await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']");
  await page.waitForSelector("[data-testid=cell-panel] [data-testid=record-list]");
  const marked = await page.$$eval("[data-testid=cell-panel] .record-field", (bs) => bs.map((b) => b.classList.contains("match")));
  const first = expected[0];
  assert.deepEqual(marked, want.schema.map((s, c) => text.includes(c) && want.row_groups[0].values[c][first]?.toLowerCase().includes("charleston") === true));
  assert.ok(marked.some(Boolean));

  // N and Shift+N: the next and previous cell found, row by row, in the
  // grid's column order (every column shown, in file order): `hits` is
  // pushed in that order.
  const hits = [];
  expected.forEach((id, row) => text.forEach((c) => {
    const v = want.row_groups[0].values[c][id];
    if (v !== null && v.toLowerCase().includes("charleston")) hits.push(`${row}:${c}`);
  }));
  await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']");
  const at = () => page.$eval("#data-grid-active", (e) => `${e.dataset.row}:${e.dataset.col}`);
  const after = hits[0] === "0:0" ? 1 : 0; // (row-major order: every other cell comes after 0:0)
  for (let k = 0; k < 6; k++) {
    await page.keyboard.press("n");
    await page.waitForFunction((w) => { const e = document.querySelector("#data-grid-active"); return e && `${e.dataset.row}:${e.dataset.col}` === w; }, hits[after + k], { timeout: 10_000 }).catch(() => {});
    assert.equal(await at(), hits[after + k], `N, ${k + 1} times`);
  }
  await page.keyboard.press("Shift+N");
  await page.waitForFunction((w) => { const e = document.querySelector("#data-grid-active"); return e && `${e.dataset.row}:${e.dataset.col}` === w; }, hits[after + 4], { timeout: 10_000 }).catch(() => {});
  assert.equal(await at(), hits[after + 4], "Shift+N: back one");
  assert.ok(Number(hits[after + 5].split(":")[0]) >= 5, "the hits found span rows");
  const note = "[data-testid=data-grid-find-note]";
  assert.equal(await page.isHidden(note), true, "nothing said while N finds cells");
  // Past the last cell found (and before the first), N says that it found none, and the selection stays.
  const lastRow = expected.length - 1;
  await page.keyboard.press("Control+End");
  await page.waitForFunction((r) => document.querySelector("#data-grid-active")?.dataset.row === String(r), lastRow);
  const cornered = await at();
  await page.keyboard.press("n");
  await page.waitForSelector(`${note}:not([hidden])`, { timeout: 10_000 });
  assert.equal(await page.textContent(note), "No cell the search found after this one, in the columns shown.");
  assert.equal(await page.getAttribute(note, "role"), "status", "said to a screen reader too");
  assert.equal(await at(), cornered);
  await page.keyboard.press("Shift+N");
  await page.waitForFunction((w) => { const e = document.querySelector("#data-grid-active"); return e && `${e.dataset.row}:${e.dataset.col}` === w; }, hits.at(-1), { timeout: 10_000 }).catch(() => {});
  assert.equal(await at(), hits.at(-1), "Shift+N from the last cell: the last found");
  assert.equal(await page.isHidden(note), true, "a new selection takes the words away");
  await page.keyboard.press("Control+Home");
  await page.waitForFunction(() => document.querySelector("#data-grid-active")?.dataset.row === "0");
  await page.keyboard.press("Shift+N"); // (from the first cell: the cell itself is not before it)
  await page.waitForSelector(`${note}:not([hidden])`, { timeout: 10_000 });
  assert.equal(await page.textContent(note), "No cell the search found before this one, in the columns shown.");
  assert.equal(await at(), "0:0");

  // And a second condition, on a number column.
  const both = rowsWhere(want, (row) => found(row) && row[cost] !== null && row[cost] > 0);
  assert.ok(both.length > 0 && both.length < expected.length);
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-row] >> nth=1 >> [data-testid=filter-col]", String(cost));
  await page.selectOption("[data-testid=filter-row] >> nth=1 >> [data-testid=filter-op]", ">");
  await page.fill("[data-testid=filter-row] >> nth=1 >> [data-testid=filter-value]", "0");
  await page.click("[data-testid=filter-apply]");
  assert.equal(await total(page, both.length), both.length);
  assert.deepEqual(await drawnRows(page), both.slice(0, (await drawnRows(page)).length));

  // The link carries it, and opens to the same rows.
  const where = await page.evaluate(() => new URL(location.href).searchParams.get("where"));
  assert.deepEqual(JSON.parse(where), [[-1, "icontains", "CHARLESTON"], [cost, ">", "0"]]);
  await page.goto(`${ins.server.base}?url=${encodeURIComponent(`/corpus/${rel}`)}&tab=data&where=${encodeURIComponent(where)}`);
  assert.equal(await total(page, both.length), both.length);
  assert.equal(await page.inputValue("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]"), "-1");
  assert.equal(await page.inputValue("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]"), "CHARLESTON");
});

test("a text column that does not read is left out of the search and named; the rows are those of the others", async () => {
  const { page } = ins;
  const rel = "valid/tokenized_two_tokenizers.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  // Only the small tokenizer: text_gpt2 does not read (also_gpt2 is bytes, never searched).
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.setInputFiles("[data-testid=file-input]", [path.join(corpus, rel), path.join(corpus, "tokenizers/small-tokenizer.json")]);
  await waitState(page, "ready");
  await tab(page, "data");
  await gridDrawn(page);
  const col = (name) => want.schema.findIndex((s) => s.name === name);
  const [small, plain] = [col("text_small"), col("untokenized")];
  // (a value that is not plain text is { hex } in the JSON)
  const has = (v) => v !== null && (typeof v === "string" ? Buffer.from(v) : Buffer.from(v.hex, "hex")).includes("the ");
  const expected = rowsWhere(want, (row) => [small, plain].some((c) => has(row[c])));
  const everywhere = rowsWhere(want, (row) => want.schema.some((s, c) => s.type === "string" && has(row[c])));
  assert.ok(expected.length > 0 && expected.length < everywhere.length, "text_gpt2 would have found more rows");
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-col]", "-1");
  await page.selectOption("[data-testid=filter-op]", "contains");
  await page.fill("[data-testid=filter-value]", "the ");
  await page.click("[data-testid=filter-apply]");
  assert.equal(await total(page, expected.length), expected.length);
  assert.equal(await page.textContent("[data-testid=data-left-out]"), " · not searched, as they do not read: text_gpt2 (unknown_tokenizer)");
  assert.deepEqual(await drawnRows(page), expected.slice(0, (await drawnRows(page)).length));

  // A condition naming that column itself still fails the view, as before.
  await page.selectOption("[data-testid=filter-col]", String(col("text_gpt2")));
  await page.fill("[data-testid=filter-value]", "the ");
  await page.click("[data-testid=filter-apply]");
  await page.waitForSelector("[data-testid=data-error]");
  assert.match(await page.textContent("[data-testid=data-error]"), /unknown_tokenizer/);
});

test("N where the cells found are all in columns not shown: it looks 1,024 rows on, then says so", async () => {
  const { page } = ins;
  const rel = "real/birdstrikes.optimized.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  const text = want.schema.flatMap((s, c) => (s.type === "string" ? [c] : []));
  const expected = rowsWhere(want, (row) => text.some((c) => row[c] !== null && row[c].toLowerCase().includes("e")));
  assert.ok(expected.length > 2100, "a search that keeps more rows than N looks through twice");
  await page.evaluate(() => (document.body.dataset.state = ""));
  await dropFile(page, path.join(corpus, rel));
  await tab(page, "data");
  await gridDrawn(page);
  await page.click("[data-testid=filter-search]");
  await page.keyboard.type("e");
  await page.keyboard.press("Enter");
  assert.equal(await total(page, expected.length), expected.length);
  await page.click("[data-testid=data-columns-toggle]");
  for (const c of text) await page.uncheck(`[data-testid=data-columns-col][value='${c}']`);
  await page.click("[data-testid=data-columns-toggle]");
  await gridDrawn(page);
  const shown = await page.$$eval("[data-testid=data-grid-header]", (hs) => hs.map((h) => Number(h.dataset.col)));
  assert.ok(shown.length > 0 && shown.every((c) => !text.includes(c)), "only columns that are not text are shown");
  await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not(.grid-rowno)");
  await page.waitForFunction(() => document.querySelector("#data-grid-active")?.dataset.row === "0");
  await page.keyboard.press("n");
  const note = "[data-testid=data-grid-find-note]";
  await page.waitForSelector(`${note}:not([hidden])`, { timeout: 20_000 });
  assert.equal(await page.textContent(note), "No cell the search found in the columns shown, in the 1,024 rows after this one.");
  assert.equal(await page.$eval("#data-grid-active", (e) => e.dataset.row), "0", "the selection stays");
  // Other columns shown: the note spoke of the ones before, and goes (well before its 6 s).
  const shownAt = Date.now();
  await page.click("[data-testid=data-columns-toggle]");
  await page.check(`[data-testid=data-columns-col][value='${text[0]}']`);
  await page.click("[data-testid=data-columns-toggle]");
  await gridDrawn(page);
  assert.equal(await page.isHidden(note), true, "the note went with the columns it spoke of");
  assert.ok(Date.now() - shownAt < 5000, "(checked before the note's own time was up)");
});

test("no page errors", () => {
  assert.deepEqual(ins.log.errors, []);
});
