// End-to-end test of the inspector page in headless Chromium, against the
// built site (scripts/build-site -> site/) served from a sub-path by a plain
// static server without cross-origin isolation, as any static host would.
//
//   tests/e2e/run.sh          (builds pkg/ and site/ when missing)
//
// Opens corpus files through the file input, synthetic drop events and
// URLs, and checks what the page shows against the corpus JSON (never
// against the page's own code). Screenshots go to tests/e2e/screenshots/
// (git-ignored; a person can look at them after a run).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { corpus, serve, launch, newPage, shot as takeShot, SUBPATH, twoFrames } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";
import os from "node:os";
import { createRequire } from "node:module";

let server;
let base;
let browser;
let page;
let log;
const rangeRequests = [];
let made = null; // a folder of files made for the tests, served as /made/

// ------------------------------------------------------------ helpers

const read = (rel) => fs.readFileSync(path.join(corpus, rel));
const expected = (rel) => {
  const json = expectedPath(path.join(corpus, rel));
  if (!json) throw new Error(`no expected JSON for corpus/${rel}`);
  return readJson(json);
};
const sha256 = (buf) => createHash("sha256").update(buf).digest("hex");

function ieee(hex, width) {
  const b = Buffer.from(hex.slice(2), "hex");
  return width === 4 ? b.readFloatBE(0) : b.readDoubleBE(0);
}

/** What the page should show for a corpus JSON value of a type, or a checker. */
function matches(type, want, cell) {
  if (want === null) return cell.kind === "null";
  switch (type) {
    case "bool":
      return cell.text === String(want);
    case "float32":
    case "float64": {
      const v = ieee(want, type === "float32" ? 4 : 8);
      if (Number.isNaN(v)) return cell.text === "NaN";
      const shown = Number(cell.text);
      return type === "float32" ? Math.fround(shown) === v && Object.is(Math.fround(shown), v) : Object.is(shown, v);
    }
    case "bytes": {
      // Shown as 0x and the hex; empty bytes as 0x alone.
      if (want === "") return cell.kind === "empty" && cell.text === "0x";
      if (!cell.text.startsWith("0x")) return false;
      const shown = cell.text.slice(2);
      return cell.truncated ? shown.endsWith("…") && want.startsWith(shown.slice(0, -1)) : shown === want;
    }
    case "string": {
      if (typeof want === "object") return cell.kind === "str"; // invalid UTF-8, checked separately
      if (want === "") return cell.kind === "empty";
      // The page shows control characters as escapes.
      const shown = want.replace(/[\u0000-\u001f\u007f]/g, (ch) => ({ "\0": "\\0", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch] ?? `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
      return cell.truncated ? cell.text.endsWith("…") && shown.startsWith(cell.text.slice(0, -1)) : cell.text === shown;
    }
    default:
      return cell.text === String(want);
  }
}

async function resetState() {
  await page.evaluate(() => {
    document.body.dataset.state = "";
  });
}

async function waitState(state, timeout = 20_000) {
  await page.waitForSelector(`body[data-state="${state}"]`, { timeout });
}

/** Opens a corpus file through the (hidden) file input. */
async function openByInput(rel, { state = "ready", name } = {}) {
  await resetState();
  await page.setInputFiles("[data-testid=file-input]", { name: name || path.basename(rel), mimeType: "application/octet-stream", buffer: read(rel) });
  if (state) await waitState(state);
}

/** Opens files by dispatching a synthetic drop event holding Files made in the page. */
async function dropFiles(files, { state = "ready" } = {}) {
  await resetState();
  const payload = files.map((f) => ({ name: f.name, b64: f.bytes.toString("base64"), type: f.type || "" }));
  await page.evaluate((items) => {
    const dt = new DataTransfer();
    for (const it of items) {
      const bin = atob(it.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], it.name, { type: it.type }));
    }
    for (const type of ["dragenter", "dragover", "drop"]) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
  if (state) await waitState(state);
}

async function shot(name) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await takeShot(page, name);
}

async function tab(name) {
  await page.click(`[data-testid=tab-${name}]`);
  await page.waitForSelector(`[data-testid=panel-${name}]:not([hidden])`);
}

const fact = (id) => page.textContent(`[data-testid=fact-${id}]`);

/** The chunk grid as { "g:c": { field: text, value } }. */
async function chunkGrid() {
  // The table draws its rows in tasks after the one that draws it.
  await page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
  return page.$$eval("[data-testid=chunk-row]", (rows) =>
    Object.fromEntries(
      rows.map((tr) => [
        `${tr.dataset.rg}:${tr.dataset.col}`,
        Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.field, { text: td.textContent.trim(), value: td.dataset.value }])),
      ]),
    ),
  );
}

/** Chooses exactly these column indices in a column picker. */
async function pickColumns(testid, cols) {
  const dropdown = testid === "data-columns";
  if (dropdown) await page.click("[data-testid=data-columns-toggle]");
  await page.click(`[data-testid=${testid}-none]`);
  for (const c of cols) await page.check(`[data-testid=${testid}-col][value="${c}"]`);
  if (dropdown) await page.click("[data-testid=data-columns-toggle]");
}

/**
 * Scrolls the data grid to file row `from` and returns the cells in sight
 * once none is pending: [{ row, col, kind, truncated, text, bad }].
 */
async function gridCells({ from = 0, cols = null } = {}) {
  if (from > 0) {
    await page.fill("[data-testid=data-goto]", String(from));
    await page.press("[data-testid=data-goto]", "Enter");
  }
  // The grid draws new columns or rows in a frame; until then it shows the
  // rows from before, none pending, under the new header.
  await twoFrames(page);
  await page.waitForFunction(
    ({ from, cols }) => {
      const g = document.querySelector("[data-testid=data-grid]");
      if (!g) return false;
      const shown = [...g.querySelectorAll("[data-testid=data-grid-header]")].map((th) => Number(th.dataset.col));
      if (cols && (shown.length !== cols.length || shown.some((c, i) => c !== cols[i]))) return false;
      const rows = [...g.querySelectorAll(".grid-row:not([hidden])")];
      if (!rows.some((r) => Number(r.dataset.row) === from)) return false;
      return !g.querySelector(".grid-row:not([hidden]) .grid-cell[data-kind=pending]");
    },
    { from, cols },
    { timeout: 20_000 },
  );
  return page.$$eval("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col]", (tds) =>
    tds.map((td) => ({
      row: Number(td.dataset.row),
      col: Number(td.dataset.col),
      kind: td.dataset.kind,
      truncated: !!td.querySelector(".more"),
      text: td.textContent,
      title: td.title,
      bad: [...td.querySelectorAll(".bad")].map((b) => b.textContent),
    })),
  );
}

/** want: the column's values over the whole file (row groups concatenated); `first` the row the rows start at. */
function checkColumnValues(cells, col, type, want, first = null) {
  const mine = cells.filter((x) => x.col === col && x.row < want.length);
  assert.ok(mine.length > 0, `no cells for column ${col}`);
  for (const cell of mine) {
    const w = want[cell.row];
    // An int64 column shown as a time keeps its number in the title.
    const c = cell.kind === "time" ? { ...cell, text: cell.title.split(" ")[0] } : cell;
    assert.ok(matches(type, w, c), `column ${col} row ${cell.row} (${type}): page shows ${JSON.stringify(cell)} but the corpus says ${JSON.stringify(w)}`);
  }
  if (first !== null) assert.ok(mine.some((x) => x.row === first), `row ${first} is in sight`);
}

/** A column's values over every row group of a corpus JSON. */
const fileValues = (want, c) => want.row_groups.flatMap((rg) => rg.values[c]);

/** The bytes that start no valid UTF-8 sequence (as \\xNN), and the whole value as the page should show it. */
function splitUtf8(bytes) {
  const dec = new TextDecoder("utf-8", { fatal: true });
  const invalid = [];
  let shown = "";
  for (let i = 0; i < bytes.length; ) {
    let n = 0;
    for (let len = 1; len <= 4 && i + len <= bytes.length && !n; len++) {
      try {
        const t = dec.decode(bytes.subarray(i, i + len));
        if ([...t].length === 1) n = len;
      } catch {
        /* not a sequence of this length */
      }
    }
    if (n) {
      shown += dec.decode(bytes.subarray(i, i + n));
      i += n;
    } else {
      invalid.push(`\\x${bytes[i].toString(16).padStart(2, "0")}`);
      shown += invalid.at(-1);
      i++;
    }
  }
  return { invalid, shown };
}

// ------------------------------------------------------------ setup

before(async () => {
  // 40 row groups of one small chunk, 9,000 bytes apart: farther than the
  // package merges (8 KiB), so its 40 chunk headers are 40 requests.
  made = fs.mkdtempSync(path.join(os.tmpdir(), "columns-e2e-page-"));
  fs.writeFileSync(path.join(made, "spaced.cols"), materialize(buildFile([{ name: "n", type: "int32", nullable: false }], Array.from({ length: 40 }, (_, g) => ({ offset: 5 + g * 9000, columns: [[g, g + 1]] })))));
  server = await serve({ mounts: { "/corpus/": corpus, "/made/": made } });
  base = server.base;
  browser = await launch();
  ({ page, log } = await newPage(browser, server.origin));
  page.on("request", (r) => {
    if (r.headers().range) rangeRequests.push({ url: r.url(), range: r.headers().range });
  });
  await page.goto(base);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  server?.stop();
  if (made) fs.rmSync(made, { recursive: true, force: true });
});

// ------------------------------------------------------------ tests

test("the start page offers samples, served from a sub-path", async () => {
  assert.ok(page.url().endsWith(SUBPATH), page.url());
  const cards = await page.$$("[data-testid^=sample-]");
  assert.ok(cards.length >= 5, `expected sample cards, got ${cards.length}`);
  await shot("01-welcome");
});

test("a plain file through the file input: facts, schema, chunks, data, detail", async () => {
  const rel = "valid/optimized.cols";
  const want = expected(rel);
  await openByInput(rel);
  assert.equal(await page.textContent("[data-testid=file-name]"), "optimized.cols");
  assert.equal((await fact("rows")).trim(), want.row_groups.reduce((a, g) => a + g.num_rows, 0).toLocaleString("en-US"));
  assert.equal((await fact("version")).trim(), String(want.version));
  assert.equal((await fact("rowgroups")).trim(), String(want.row_groups.length));
  assert.equal((await fact("footer-length")).trim(), `${want.footer_length.toLocaleString("en-US")} B`);
  assert.equal(await page.getAttribute("[data-testid=fact-size] span", "title"), `${want.size.toLocaleString("en-US")} bytes`);

  const names = await page.$$eval("[data-testid=schema-row] [data-field=name]", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(names, want.schema.map((s) => s.name));
  const types = await page.$$eval("[data-testid=schema-row] [data-field=type]", (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(types, want.schema.map((s) => s.type));
  await shot("02-schema");

  // Tabs follow the ARIA pattern: arrow keys move between them.
  await page.focus("[data-testid=tab-schema]");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("[data-testid=panel-chunks]:not([hidden])");
  assert.equal(await page.getAttribute("[data-testid=tab-chunks]", "aria-selected"), "true");
  const grid = await chunkGrid();
  want.row_groups.forEach((rg, g) =>
    rg.columns.forEach((cm, c) => {
      const row = grid[`${g}:${c}`];
      assert.ok(row, `chunk ${g}:${c} missing`);
      assert.equal(row.encoding.text, cm.encoding, `encoding of ${g}:${c}`);
      assert.equal(row.codec.text, cm.codec, `codec of ${g}:${c}`);
      assert.equal(row.stored.value, String(cm.byte_length));
      assert.equal(row.raw.value, String(cm.raw_length), `raw length of ${g}:${c} (chunk headers loaded)`);
      assert.equal(row.blocks.value, String(cm.block_count));
      assert.equal(row.nulls.value, String(cm.null_count));
      assert.equal(row.rows.value, String(rg.num_rows));
    }),
  );
  // Sorting by stored size puts the largest chunk first.
  // The table draws its rows in a task after the click: wait for them.
  await page.click("[data-testid=chunk-table] th[data-key=stored] button");
  await page.waitForSelector("[data-testid=chunk-table]:has(th[data-key=stored][aria-sort=descending])[data-complete='1']");
  const firstStored = await page.$eval("[data-testid=chunk-row] [data-field=stored]", (td) => Number(td.dataset.value));
  assert.equal(firstStored, Math.max(...want.row_groups[0].columns.map((c) => c.byte_length)));
  await shot("03-chunks");

  await tab("layout");
  const regions = await page.$$eval("[data-testid=layout-region]", (gs) => gs.map((g) => g.dataset.kind));
  assert.equal(regions.filter((k) => k === "chunk").length, want.schema.length * want.row_groups.length);
  assert.deepEqual([regions[0], regions.at(-2), regions.at(-1)], ["header", "footer", "tail"]);
  await shot("04-layout");

  // The grid was filled while its tab was hidden (no size): from the moment
  // the tab shows, it shows either no rows yet or as many as fit, never the
  // few a zero height asks for (which also made the wait below pass early).
  const sightings = await page.evaluate(async () => {
    const shown = () => document.querySelectorAll("[data-testid=data-grid] .grid-row:not([hidden])").length;
    document.querySelector("[data-testid=tab-data]").click();
    const seen = [shown()];
    for (let i = 0; i < 3; i++) {
      await new Promise(requestAnimationFrame);
      seen.push(shown());
    }
    return seen;
  });
  assert.ok(sightings.every((n) => n === 0 || n >= 20), `rows in sight at the click and the next three frames: ${sightings}`);
  await tab("data");
  const cols = want.schema.map((_, i) => i);
  const cells = await gridCells({ cols });
  want.schema.forEach((s, c) => checkColumnValues(cells, c, s.type, fileValues(want, c), 0));
  assert.ok(cells.filter((x) => x.col === 0).length >= 20, "a screenful of rows");
  await shot("05-data");
  // Further down the file.
  const cells2 = await gridCells({ from: 1000, cols });
  want.schema.forEach((s, c) => checkColumnValues(cells2, c, s.type, fileValues(want, c), 1000));

  // Column detail of the dictionary and affix columns.
  await tab("detail");
  const dictCol = want.schema.findIndex((s) => s.name === "dict_str");
  await page.selectOption("[data-testid=detail-col] ", String(dictCol));
  await page.waitForSelector("[data-testid=enc-dict-size]");
  assert.equal(await page.textContent("[data-testid=detail-encoding-name]"), want.row_groups[0].columns[dictCol].encoding);
  assert.equal(await page.textContent("[data-testid=detail-codec]"), want.row_groups[0].columns[dictCol].codec);
  const distinct = new Set(want.row_groups[0].values[dictCol]).size;
  assert.equal(await page.textContent("[data-testid=enc-dict-size]"), String(distinct));
  const checks = await page.$$eval("[data-testid=check-row]", (trs) => trs.map((tr) => [tr.dataset.field, tr.dataset.agrees]));
  assert.deepEqual(checks.map((c) => c[0]), ["nullCount", "min", "max", "minLen", "maxLen"]);
  assert.ok(checks.every((c) => c[1] === "true"));
  await shot("06-detail-dict");
  const affixCol = want.schema.findIndex((s) => s.name === "affix_url");
  await page.selectOption("[data-testid=detail-col]", String(affixCol));
  await page.waitForSelector("[data-testid=enc-prefix]");
  const vals = want.row_groups[0].values[affixCol];
  let prefix = vals[0];
  for (const v of vals) while (!v.startsWith(prefix)) prefix = prefix.slice(0, -1);
  assert.ok((await page.textContent("[data-testid=enc-prefix]")).includes(prefix), "affix prefix is the values' common prefix");
  await shot("07-detail-affix");
});

test("a multi-row-group file through a synthetic drop: row groups and nulls", async () => {
  const rel = "valid/nulls.cols";
  const want = expected(rel);
  await dropFiles([{ name: "nulls.cols", bytes: read(rel) }]);
  assert.equal(await page.textContent("[data-testid=file-name]"), "nulls.cols");
  assert.equal((await fact("rowgroups")).trim(), String(want.row_groups.length));
  assert.equal((await fact("rows")).trim(), want.row_groups.reduce((a, g) => a + g.num_rows, 0).toLocaleString("en-US"));

  await tab("chunks");
  const grid = await chunkGrid();
  assert.equal(Object.keys(grid).length, want.row_groups.length * want.schema.length);
  want.row_groups.forEach((rg, g) => rg.columns.forEach((cm, c) => assert.equal(grid[`${g}:${c}`].nulls.value, String(cm.null_count))));
  // A few row groups: the filter is a select, "all" first.
  assert.deepEqual(await page.$$eval("[data-testid=chunks-rg] option", (os) => os.map((o) => o.value)), ["all", ...want.row_groups.map((_, g) => String(g))]);
  await page.selectOption("[data-testid=chunks-rg]", "2");
  await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=chunk-row]")].every((tr) => tr.dataset.rg === "2"));
  assert.deepEqual(Object.keys(await chunkGrid()), want.schema.map((_, c) => `2:${c}`));
  await page.selectOption("[data-testid=chunks-rg]", "all");

  await tab("data");
  const cols = want.schema.map((_, i) => i);
  // File-wide row numbers: row group g starts after the rows of those before it.
  for (const g of [3, 1]) {
    const first = want.row_groups.slice(0, g).reduce((a, rg) => a + rg.num_rows, 0);
    const cells = await gridCells({ from: first, cols });
    want.schema.forEach((s, c) => checkColumnValues(cells, c, s.type, fileValues(want, c), first));
    const all = fileValues(want, 0).length;
    const seen = [...new Set(cells.map((x) => x.row))].filter((r) => r < all);
    const nulls = cells.filter((x) => x.kind === "null").length;
    const wantNulls = seen.reduce((a, r) => a + cols.filter((c) => fileValues(want, c)[r] === null).length, 0);
    assert.equal(nulls, wantNulls, `null cells around row group ${g}`);
  }
  await shot("08-data-nulls");

  // Byte map: hovering explains a region; clicking a chunk selects it.
  await tab("layout");
  const region = page.locator('[data-testid=layout-region][data-kind=chunk][data-rg="2"][data-col="3"]');
  await region.hover();
  await page.waitForSelector("[data-testid=layout-tooltip]:not([hidden])");
  const tip = await page.textContent("[data-testid=layout-tooltip]");
  assert.match(tip, /row group 2, column 3/);
  assert.ok(tip.includes(want.schema[3].name));
  await shot("09-layout-hover");
  await region.click();
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=detail-encoding]");
  assert.equal(await page.inputValue("[data-testid=detail-rg]"), "2");
  assert.equal(await page.inputValue("[data-testid=detail-col]"), "3");
  assert.equal(await page.textContent("[data-testid=detail-encoding-name]"), want.row_groups[2].columns[3].encoding);
});

test("a real table (diamonds) through a drop: first and last page", async () => {
  const rel = "real/diamonds.optimized.cols";
  const want = expected(rel);
  await dropFiles([{ name: "diamonds.optimized.cols", bytes: read(rel) }]);
  assert.equal((await fact("rows")).trim(), "53,940");
  await tab("data");
  await pickColumns("data-columns", [0, 1, 6]);
  let cells = await gridCells({ cols: [0, 1, 6] });
  for (const c of [0, 1, 6]) checkColumnValues(cells, c, want.schema[c].type, fileValues(want, c), 0);
  cells = await gridCells({ from: 53939, cols: [0, 1, 6] });
  for (const c of [0, 1, 6]) checkColumnValues(cells, c, want.schema[c].type, fileValues(want, c), 53939);
  assert.equal(Math.max(...cells.map((x) => x.row)), 53939);
});

test("a tokenized file: missing tokenizer named by digest, then supplied by drop", async () => {
  const rel = "valid/tokenized_two_tokenizers.cols";
  const want = expected(rel);
  const small = read("tokenizers/small-tokenizer.json");
  const smallDigest = sha256(small);
  assert.ok(want.tokenizers.includes(smallDigest), "corpus: the small tokenizer is one of the file's");
  await openByInput(rel);

  const rows = await page.$$eval("[data-testid=tokenizer-row]", (trs) => trs.map((tr) => [tr.dataset.digest, tr.dataset.status]));
  assert.deepEqual(rows, want.tokenizers.map((d) => [d, "missing"]));
  const msgs = await page.$$eval("[data-testid=tokenizer-missing-msg]", (els) => els.map((e) => e.textContent));
  want.tokenizers.forEach((d, i) => assert.ok(msgs[i].includes(d), `missing message ${i} names ${d}`));
  assert.match(msgs[0], /tokenizer\.json/);

  const smallCol = want.row_groups[0].columns.findIndex((c) => c.tokenizer === want.tokenizers.indexOf(smallDigest) + 1);
  const plainCol = want.row_groups[0].columns.findIndex((c) => c.tokenizer === 0);
  const gptCol = want.row_groups[0].columns.findIndex((c) => c.tokenizer && c.tokenizer !== want.tokenizers.indexOf(smallDigest) + 1);
  // Every missing digest has its own "Choose tokenizer…" button.
  assert.equal(await page.$$eval("[data-testid=tokenizer-missing] [data-testid=choose-tokenizer]", (b) => b.length), want.tokenizers.length);
  await tab("data");
  const cols = [gptCol, smallCol, plainCol].sort((a, b) => a - b);
  await pickColumns("data-columns", cols);
  let cells = await gridCells({ cols });
  checkColumnValues(cells, plainCol, want.schema[plainCol].type, fileValues(want, plainCol), 0);
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=column-error]").length === 2);
  let errors = await page.$$eval("[data-testid=column-error]", (els) => els.map((e) => ({ kind: e.dataset.kind, text: e.textContent })));
  assert.equal(errors.length, 2);
  assert.ok(errors.every((e) => e.kind === "unknown_tokenizer"));
  assert.ok(errors.some((e) => e.text.includes(smallDigest)), "the error names the small tokenizer's digest");
  await shot("10-tokenized-missing");

  // Supply the tokenizer with the "Choose tokenizer…" button: the column now reads.
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.click("[data-testid=column-error] [data-testid=choose-tokenizer]")]);
  await chooser.setFiles({ name: "small-tokenizer.json", mimeType: "application/json", buffer: small });
  await page.waitForSelector(`[data-testid=registered-tokenizer][data-digest="${smallDigest}"]`);
  assert.ok((await page.textContent(`[data-testid=registered-tokenizer][data-digest="${smallDigest}"]`)).includes(smallDigest));
  await page.waitForSelector(`[data-testid=tokenizer-row][data-digest="${smallDigest}"][data-status=resolved]`);
  await pickColumns("data-columns", cols);
  cells = await gridCells({ cols });
  checkColumnValues(cells, smallCol, want.schema[smallCol].type, fileValues(want, smallCol), 0);
  // The selected cell's whole value is in the side panel.
  await page.click(`[data-testid=data-grid] .grid-cell[data-row="0"][data-col="${smallCol}"]`);
  await page.waitForSelector("[data-testid=cell-panel-value]");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), want.row_groups[0].values[smallCol][0]);
  await page.waitForFunction(() => document.querySelectorAll("[data-testid=column-error]").length === 1);
  errors = await page.$$eval("[data-testid=column-error]", (els) => els.map((e) => e.textContent));
  assert.equal(errors.length, 1, "only the GPT-2 column is still missing its tokenizer");
  assert.ok(errors[0].includes(want.tokenizers.find((d) => d !== smallDigest)));
  await shot("11-tokenized-resolved");

  await tab("detail");
  await page.selectOption("[data-testid=detail-col]", String(smallCol));
  await page.waitForSelector("[data-testid=enc-tokens]");
  assert.equal(await page.textContent("[data-testid=enc-representation]"), "Remap");
  // Its footer's minimum is the empty string, which gob stores as an empty
  // []byte: the profile's minimum agrees with it.
  await page.waitForSelector("[data-testid=profile][data-state=done]", { timeout: 60_000 });
  assert.match(await page.textContent("[data-testid=profile-min]"), /^""/);
  assert.equal(await page.$$eval("[data-testid=profile-min] .ok-badge, [data-testid=profile-max] .ok-badge", (x) => x.length), 2, "the profile's min and max agree with the footer");
  await shot("12-detail-tokenized");
});

test("invalid files show their error kind, and the page then opens a good file", async () => {
  const dir = path.join(corpus, "invalid");
  const cases = fs.readdirSync(dir).filter((n) => n.endsWith(".cols")).sort().map((n) => readJson(expectedPath(path.join(dir, n))));
  let shotTaken = false;
  for (const c of cases.filter((x) => x.at !== "read")) {
    await openByInput(`invalid/${c.file}`, { state: "error" });
    assert.equal(await page.textContent("[data-testid=open-error] [data-testid=error-kind]"), c.error, c.file);
    assert.ok((await page.textContent("[data-testid=open-error]")).includes(c.file), "the error names the file");
    if (!shotTaken) {
      await shot("13-open-error");
      shotTaken = true;
    }
  }
  for (const c of cases.filter((x) => x.at === "read")) {
    await openByInput(`invalid/${c.file}`);
    await tab("data");
    await page.waitForSelector("[data-testid=column-error]", { timeout: 20_000 });
    const kinds = await page.$$eval("[data-testid=column-error]", (els) => els.map((e) => e.dataset.kind));
    assert.ok(kinds.includes(c.error), `${c.file}: expected ${c.error} among ${JSON.stringify(kinds)}`);
    if (c.file === "codec_zstd.cols") await shot("14-read-error");
  }
  await openByInput("valid/all_types_small.cols");
  assert.equal((await fact("rows")).trim(), "15");
  assert.equal(await page.isVisible("[data-testid=error-panel]"), false);
});

test("the window title names the file on show: not the last good one after a failed open, nor after going back to the samples", async () => {
  await openByInput("valid/nulls.cols");
  assert.equal(await page.title(), "nulls.cols — columns inspector");
  await openByInput("invalid/version_3.cols", { state: "error" });
  const title = await page.title();
  assert.doesNotMatch(title, /nulls\.cols/, "the file no longer shown");
  assert.match(title, /version_3\.cols/);
  await page.click("[data-testid=error-panel] button");
  await page.waitForSelector("[data-testid=welcome]:not([hidden])");
  assert.equal(await page.title(), "columns inspector");
});

test("files without rows open cleanly", async () => {
  for (const rel of ["valid/no_row_groups.cols", "valid/zero_rows.cols"]) {
    const want = expected(rel);
    await openByInput(rel);
    assert.equal((await fact("rows")).trim(), "0");
    assert.equal((await fact("rowgroups")).trim(), String((want.row_groups || []).length));
    await tab("schema");
    const names = await page.$$eval("[data-testid=schema-row] [data-field=name]", (tds) => tds.map((td) => td.textContent));
    assert.deepEqual(names, want.schema.map((s) => s.name));
    for (const t of ["chunks", "layout", "detail", "data", "timing"]) await tab(t);
  }
});

test("a URL is read with HTTP range requests, footer first", async () => {
  const rel = "real/diamonds.default.cols";
  const size = fs.statSync(path.join(corpus, rel)).size;
  rangeRequests.length = 0;
  await resetState();
  await page.fill("[data-testid=url-input]", `/corpus/${rel}`);
  await page.click("[data-testid=url-open]");
  await waitState("ready");
  assert.equal((await fact("rows")).trim(), "53,940");
  assert.ok(rangeRequests.some((r) => r.url.endsWith(rel)), "range requests were made");
  const bytes = Number(await page.getAttribute("[data-open-bytes]", "data-open-bytes"));
  assert.ok(bytes > 0 && bytes < 4096, `opening read ${bytes} of ${size} bytes`);
  await shot("15-url");
  await tab("data");
  await pickColumns("data-columns", [6]);
  const want = expected(rel);
  const cells = await gridCells({ cols: [6] });
  checkColumnValues(cells, 6, want.schema[6].type, fileValues(want, 6), 0);
});

test("a URL file of many chunks far apart opens with its footer alone, and reads its chunk headers when asked; a small file's come at once", async () => {
  // 40 row groups of one chunk, 9,000 bytes apart: 40 chunk headers would be 40 requests.
  const rel = "spaced.cols";
  // A file opens in the tab that was showing; the Data tab would rightly read rows.
  if (await page.isVisible("[data-testid=tab-schema]")) await tab("schema");
  rangeRequests.length = 0;
  await resetState();
  await page.fill("[data-testid=url-input]", `/made/${rel}`);
  await page.click("[data-testid=url-open]");
  await waitState("ready");
  // Two frames and a moment: a hidden Data tab would have asked for its rows by now.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))));
  const mine = rangeRequests.filter((r) => r.url.endsWith(rel)).map((r) => r.range.match(/bytes=(\d+)-(\d+)/).slice(1).map(Number));
  assert.ok(mine.length >= 1 && mine.length <= 4, `opening made ${mine.length} range requests: ${JSON.stringify(mine)}`);
  for (const [s] of mine) assert.ok(s < 64 || s >= 5 + 39 * 9000, `a range inside the chunks (${s}) was read to open: ${JSON.stringify(mine)}`);
  await tab("schema");
  assert.match(await page.textContent("[data-testid=headers-deferred]"), /40 small requests/);
  // The table draws its rows 25 at a time, the rest in later tasks: wait for all.
  const encoded = async () => {
    await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
    return page.$$eval("[data-testid=schema-row] [data-field=raw]", (tds) => tds.map((td) => td.textContent.trim()));
  };
  assert.ok((await encoded()).every((t) => t === "…"), "encoded sizes wait for the headers");
  // From the keyboard: the button goes with the notice, and the focus to the tab (not the page's body).
  await page.focus("[data-testid=load-headers]");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=headers-deferred]", { state: "detached" });
  let sizes = await encoded();
  assert.equal(sizes.length, 1);
  assert.ok(sizes.every((t) => /^\d[\d.,]* (B|KiB|KB)$/.test(t)), `encoded sizes after reading the headers: ${sizes}`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "tab-schema");
  // A table drawn anew (a tokenizer come) keeps the focus on the row it was on.
  await page.focus("[data-testid=schema-row][data-col='0']");
  const drawn = await page.$("[data-testid=schema-table]");
  await page.setInputFiles("[data-testid=file-input]", path.join(corpus, "tokenizers/small-tokenizer.json"));
  await page.waitForFunction((t) => !t.isConnected, drawn); // (the table drawn anew)
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.equal(await page.evaluate(() => `${document.activeElement?.dataset.testid} ${document.activeElement?.dataset.col}`), "schema-row 0");

  // all_types_small (7,336 bytes): opened in one read of all of it, its 78
  // headers (3 row groups x 26 columns) in one more: read when it opens.
  const small = "valid/all_types_small.cols";
  rangeRequests.length = 0;
  await resetState();
  await page.fill("[data-testid=url-input]", `/corpus/${small}`);
  await page.click("[data-testid=url-open]");
  await waitState("ready");
  await tab("schema");
  sizes = await encoded();
  assert.equal(await page.$("[data-testid=headers-deferred]"), null);
  assert.equal(sizes.length, 26);
  assert.ok(sizes.every((t) => /^\d[\d.,]* (B|KiB|KB)$/.test(t)), `encoded sizes at once: ${sizes}`);
  const reads = rangeRequests.filter((r) => r.url.endsWith(small));
  assert.ok(reads.length <= 3, `${reads.length} range requests: ${reads.map((r) => r.range)}`);
});

test("a float32 filter matches the values as shown; a filter that matches nothing says so", async () => {
  const rel = "valid/enc_plain_none.cols";
  const want = expected(rel);
  const c = want.schema.findIndex((s) => s.name === "edge_float32");
  const values = fileValues(want, c);
  const count = (pred) => values.filter(pred).length;
  await openByInput(rel);
  await tab("data");
  await page.click("[data-testid=filter-add]");
  const filterBy = async (op, text) => {
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]", String(c));
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", op);
    await page.fill("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]", text);
    const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
    await page.click("[data-testid=filter-apply]");
    // getAttribute as above: before the first view, null (dataset gives undefined, which is !== null at once).
    await page.waitForFunction((b) => document.querySelector("[data-testid=panel-data]").getAttribute("data-view") !== b, before, { timeout: 20_000 });
    return Number(await page.getAttribute("[data-testid=data-status]", "data-total"));
  };
  // 0x7f7fffff is shown as 3.4028235e+38, 0x00000001 as 1e-45.
  assert.equal(await filterBy("=", "3.4028235e+38"), count((v) => v === "0x7f7fffff"));
  assert.ok(count((v) => v === "0x7f7fffff") > 0);
  assert.equal(await filterBy("=", "1e-45"), count((v) => v === "0x00000001"));
  assert.equal(await filterBy(">=", "3.4028235e38"), count((v) => v === "0x7f7fffff" || v === "0x7f800000"));
  assert.equal(await page.isVisible("[data-testid=data-grid-empty]"), false);
  assert.equal(await filterBy("=", "12345"), 0);
  assert.match(await page.textContent("[data-testid=data-grid-empty]"), /No row matches these conditions/);
  assert.equal(await page.isVisible("[data-testid=data-grid-empty]"), true);
  // NaN equals nothing, "is NaN" finds it (0x7fc00000), "is not NaN" the rest.
  assert.equal(await filterBy("=", "nan"), 0);
  const isNaN = (v) => v === "0x7fc00000";
  for (const [op, want] of [["nan", count(isNaN)], ["notnan", count((v) => v !== null && !isNaN(v))]]) {
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", op);
    assert.equal(await page.isVisible("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]"), false, "no value to type");
    const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
    await page.click("[data-testid=filter-apply]");
    await page.waitForFunction((b) => document.querySelector("[data-testid=panel-data]").getAttribute("data-view") !== b, before, { timeout: 20_000 });
    assert.equal(Number(await page.getAttribute("[data-testid=data-status]", "data-total")), want, op);
  }
  assert.ok(count(isNaN) > 0);
  await page.click("[data-testid=filter-clear]");
});

test("timing: re-read from the file and from memory, with exports", async () => {
  await openByInput("real/diamonds.optimized.cols");
  await tab("timing");
  await pickColumns("timing-columns", [0, 6]);
  await page.fill("[data-testid=timing-runs]", "4");
  await page.fill("[data-testid=timing-warmups]", "1");
  await page.check("[data-testid=timing-mode-file]");
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=timing-result-row]", { timeout: 60_000 });
  let rows = await page.$$eval("[data-testid=timing-result-row]", (trs) => trs.map((tr) => ({ col: tr.dataset.col, source: tr.querySelector("[data-field=source]").textContent, median: tr.querySelector("[data-field=median]").textContent })));
  assert.deepEqual(rows.map((r) => r.col), ["0", "6"]);
  assert.ok(rows.every((r) => r.source === "file, re-read"));
  assert.match(await page.textContent("[data-testid=timing-mode-text]"), /re-read from the file/i);
  assert.ok(await page.isVisible("[data-testid=timing-chart]"));
  await shot("16-timing-file");

  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-json]")]);
  const json = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  assert.equal(json.mode, "file");
  assert.equal(json.columns.length, 2);
  assert.ok(json.columns.every((c) => c.runs.length === 4 && c.runs.every((r) => r.fromMemory === false && r.readMs !== null)));
  const [csvDl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-csv]")]);
  const csv = fs.readFileSync(await csvDl.path(), "utf8").trim().split("\n");
  assert.equal(csv.length, 3);
  assert.match(csv[0], /^column,name,type,scope,mode,runs/);
  // Times to 0.1 µs at most: no float noise of a difference of two readings (8.199999999254942, 1.8e-9).
  const tidy = (x) => Math.round(x * 1e4) / 1e4 === x;
  const numbers = (v) => (typeof v === "number" ? [v] : v && typeof v === "object" ? Object.values(v).flatMap(numbers) : []);
  assert.ok(numbers(json).every(tidy), `untidy: ${numbers(json).filter((x) => !tidy(x))}`);
  const [runsDl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-runs-csv]")]);
  const fields = [...csv.slice(1), ...fs.readFileSync(await runsDl.path(), "utf8").trim().split("\n").slice(1)].flatMap((l) => l.split(","));
  assert.ok(fields.every((f) => !/^-?[\d.]+(e-?\d+)?$/.test(f) || /^-?\d+(\.\d{1,4})?$/.test(f)), `untidy: ${fields.filter((f) => /^-?[\d.]+(e-?\d+)?$/.test(f) && !/^-?\d+(\.\d{1,4})?$/.test(f))}`);

  await page.check("[data-testid=timing-mode-memory]");
  await page.click("[data-testid=timing-run]");
  await page.waitForFunction(() => /from memory/i.test(document.querySelector("[data-testid=timing-mode-text]")?.textContent || ""), null, { timeout: 60_000 });
  rows = await page.$$eval("[data-testid=timing-result-row]", (trs) => trs.map((tr) => tr.querySelector("[data-field=source]").textContent));
  assert.deepEqual(rows, ["memory", "memory"]);
  assert.match(await page.textContent("[data-testid=timing-mode-text]"), /allocated new output arrays/);
  await shot("17-timing-memory");

  // Reusing output buffers: same rows, and the page says which it did.
  await page.check("[data-testid=timing-reuse]");
  await page.click("[data-testid=timing-run]");
  await page.waitForFunction(() => /were reused/.test(document.querySelector("[data-testid=timing-mode-text]")?.textContent || ""), null, { timeout: 60_000 });
  rows = await page.$$eval("[data-testid=timing-result-row]", (trs) => trs.map((tr) => tr.querySelector("[data-field=source]").textContent));
  assert.deepEqual(rows, ["memory", "memory"]);
  await page.uncheck("[data-testid=timing-reuse]");
});

test("long work can be cancelled and the page keeps working", async () => {
  await tab("timing");
  await pickColumns("timing-columns", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  await page.fill("[data-testid=timing-runs]", "1000");
  await page.fill("[data-testid=timing-warmups]", "0");
  await page.check("[data-testid=timing-mode-file]");
  const before = Number((await page.getAttribute("body", "data-respawned")) || 0);
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=cancel-button]:not([disabled])");
  await page.waitForTimeout(300);
  await page.click("[data-testid=cancel-button]");
  await page.waitForSelector("[data-testid=timing-error][data-kind=cancelled]");
  assert.ok(await page.$("[data-testid=timing-result-row]"), "the run before still on show, under the word of the stop");
  await page.waitForFunction((n) => Number(document.body.dataset.respawned || 0) > n, before);
  await tab("data");
  await pickColumns("data-columns", [1]);
  const cells = await gridCells({ cols: [1] });
  assert.equal(cells.find((x) => x.row === 0).text, expected("real/diamonds.optimized.cols").row_groups[0].values[1][0]);
});

test("samples open with one click; odd strings stay visible", async () => {
  await resetState();
  await page.click("[data-testid=samples-menu] summary");
  await page.click("[data-testid=menu-sample-edge-strings]");
  await waitState("ready");
  const want = expected("valid/enc_affix_flate.cols");
  const strCol = want.schema.findIndex((s) => s.name === "edge_string");
  await tab("data");
  await pickColumns("data-columns", [strCol]);
  const cells = await gridCells({ cols: [strCol] });
  const vals = fileValues(want, strCol);
  checkColumnValues(cells, strCol, "string", vals, 0);
  const badRow = vals.findIndex((v) => v && typeof v === "object");
  const hex = vals[badRow].hex;
  const cell = cells.find((x) => x.row === badRow);
  // Invalid bytes are marked one by one; the valid rest is text.
  const { invalid, shown } = splitUtf8(Buffer.from(hex, "hex"));
  assert.ok(invalid.length > 0);
  assert.deepEqual(cell.bad, invalid);
  assert.equal(cell.text, shown);
  assert.equal(cells.find((x) => x.row === vals.indexOf("")).kind, "empty");
  await shot("18-data-edge-strings");

  // edge_bytes: the footer's statistics disagree, flagged as the writer's bug.
  const bytesCol = want.schema.findIndex((s) => s.name === "edge_bytes");
  await tab("detail");
  // In row group 1, which no view has read yet: the detail tells the
  // chunk's decoded size (4-byte offsets, the values' bytes, a bitmap where
  // there are nulls) as soon as it shows.
  await page.selectOption("[data-testid=detail-rg]", "1");
  await page.selectOption("[data-testid=detail-col]", String(bytesCol));
  await page.waitForSelector("[data-testid=writer-bug-note]");
  assert.match(await page.textContent(".detail-title"), /row group 1 /);
  const rg1 = want.row_groups[1];
  const wantSize = 4 * (rg1.num_rows + 1) + rg1.values[bytesCol].reduce((a, v) => a + (v === null ? 0 : v.length / 2), 0) + (rg1.columns[bytesCol].null_count > 0 ? Math.ceil(rg1.num_rows / 8) : 0);
  assert.match(await page.textContent("[data-testid=detail-decoded]"), new RegExp(`(^|\\()${wantSize.toLocaleString("en-US")} B\\)?$`));
  const mism = await page.$$eval("[data-testid=check-row][data-agrees=false]", (trs) => trs.map((tr) => tr.dataset.field));
  assert.ok(mism.length > 0);
  await shot("19-detail-writer-bug");
  // edge_string's maximum is not UTF-8: the footer's and the decoded values' columns show it alike, its bytes as \xNN.
  await page.selectOption("[data-testid=detail-rg]", "0");
  await page.selectOption("[data-testid=detail-col]", String(strCol));
  await page.waitForFunction((name) => / row group 0 /.test(document.querySelector(".detail-title")?.textContent) && document.querySelector(".detail-title .colname")?.textContent === name, "edge_string");
  await page.waitForSelector("[data-testid=check-row][data-field=max]");
  const [footerMax, decodedMax] = await page.$$eval("[data-testid=check-row][data-field=max] td.stat", (tds) => tds.map((td) => td.textContent));
  assert.equal(decodedMax, footerMax);
  assert.ok(!decodedMax.includes("\uFFFD") && /\\x[0-9a-f]{2}/i.test(decodedMax), decodedMax);

  // The tokenized sample shows both a resolved (supplied above) and a missing tokenizer.
  await resetState();
  await page.click("[data-testid=samples-menu] summary");
  await page.click("[data-testid=menu-sample-tokenized]");
  await waitState("ready");
  const status = await page.$$eval("[data-testid=tokenizer-row]", (trs) => trs.map((tr) => tr.dataset.status).sort());
  assert.deepEqual(status, ["missing", "resolved"]);
  await shot("20-sample-tokenized");
});

test("text from files is never parsed as markup", async () => {
  const evil = '<img src=x onerror="window.__pwned=1">.json';
  await dropFiles([{ name: evil, bytes: Buffer.from('{"not": "a tokenizer"}'), type: "application/json" }], { state: null });
  await page.waitForSelector(".toast.error");
  assert.ok((await page.textContent("#toasts")).includes(evil));
  await dropFiles([{ name: `<b>${evil}`, bytes: read("tokenizers/small-tokenizer.json"), type: "application/json" }], { state: null });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.$$eval("#toasts img, [data-testid=registered-tokenizers] img, [data-testid=registered-tokenizers] b b", (x) => x.length), 0);
});

test("no console errors and nothing fetched from outside", async () => {
  assert.deepEqual(log.foreign, []);
  assert.deepEqual(log.errors.filter((e) => !/Failed to load resource.*(404|416)/.test(e)), []);
  // SQL was never opened here, so DuckDB was never loaded.
  assert.deepEqual(log.requests.filter((u) => /duckdb/.test(u)), []);
});

test("export with no columns shown says what to do instead of doing nothing", async () => {
  await openByInput("valid/nulls.cols");
  await tab("data");
  await pickColumns("data-columns", []);
  await page.click("[data-testid=export-toggle]");
  await page.click("[data-testid=export-run]");
  assert.match(await page.textContent("[data-testid=export-result]"), /pick at least one column/);
  await page.click("[data-testid=export-toggle]");
});

test("an Arrow export of a string column with bytes that are not UTF-8 is a valid Utf8 column (those bytes as U+FFFD), and says so", async () => {
  const rel = "valid/enc_plain_none.cols";
  const want = expected(rel);
  const c = want.schema.findIndex((s) => s.name === "edge_string");
  const values = fileValues(want, c);
  assert.ok(values.some((v) => v?.hex), "edge_string holds bytes that are not UTF-8");
  await openByInput(rel);
  await tab("data");
  await pickColumns("data-columns", [c]);
  await page.click("[data-testid=export-toggle]");
  await page.check("[data-testid=export-format-arrow]");
  const before = await page.textContent("[data-testid=export-result]");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-run]")]);
  await page.waitForFunction((b) => document.querySelector("[data-testid=export-result]").textContent !== b, before);
  assert.match(await page.textContent("[data-testid=export-result]"), /Bytes that are not UTF-8 in edge_string are U\+FFFD/);
  await page.click("[data-testid=export-toggle]");
  const A = createRequire(path.join(corpus, "../site-deps/package.json"))("apache-arrow");
  const column = A.tableFromIPC(fs.readFileSync(await dl.path())).getChildAt(0);
  assert.equal(String(column.type), "Utf8");
  const data = Buffer.concat(column.data.map((d) => d.values));
  assert.doesNotThrow(() => new TextDecoder("utf-8", { fatal: true }).decode(data), "every byte of the Utf8 column is UTF-8");
  const lossy = new TextDecoder("utf-8", { ignoreBOM: true });
  assert.deepEqual(column.toArray(), values.map((v) => (v?.hex ? lossy.decode(Buffer.from(v.hex, "hex")) : v)));
});

test("a Parquet, Arrow or ZIP file dropped by mistake is named as such", async () => {
  const files = {
    "data.parquet": [Buffer.from("PAR1"), Buffer.alloc(16), Buffer.from("PAR1")],
    "data.arrow": [Buffer.from("ARROW1\0\0"), Buffer.alloc(16)],
    "data.zip": [Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(16)],
    "data.cols.gz": [Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(16)],
    "data.csv": [Buffer.from("a,b,c\n1,2,3\n4,5,6\n")],
  };
  const want = { "data.parquet": /a Parquet file/, "data.arrow": /an Arrow IPC file/, "data.zip": /a ZIP archive/, "data.cols.gz": /gzip-compressed/, "data.csv": /^This is not a columns file/ };
  for (const [name, parts] of Object.entries(files)) {
    await resetState();
    await page.setInputFiles("[data-testid=file-input]", { name, mimeType: "application/octet-stream", buffer: Buffer.concat(parts) });
    await waitState("error");
    assert.equal(await page.textContent("[data-testid=open-error] [data-testid=error-kind]"), "bad_magic", name);
    assert.match(await page.textContent("[data-testid=open-error] [data-testid=error-hint]"), want[name], name);
  }
});
