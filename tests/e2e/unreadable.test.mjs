// Chunks the reader cannot read, and other things the page must not pass
// off as fine: once a chunk's read or inspection fails, the Schema and
// Chunks tables flag it with the error (as text) and show where its own
// header names another codec than the footer; Column detail still shows
// its byte range, header bytes and footer statistics.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dropFile, openInspector, corpus, gridDrawn, tab, waitState } from "./harness.mjs";
import { buildFile, materialize, withFooter, TYPES } from "../node/synth.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30_000 });
});

after(async () => {
  await inspector?.close();
});

const rowText = (sel) => page.$eval(sel, (tr) => tr.innerText.replace(/\s+/g, " "));
const field = (sel, f) => page.$eval(`${sel} [data-field=${f}]`, (td) => td.innerText.replace(/\s+/g, " ").trim());

test("a chunk with an unknown codec: flagged in Schema and Chunks once it fails, and Column detail shows what is known", async () => {
  const bytes = fs.readFileSync(path.join(corpus, "invalid/codec_unknown.cols"));
  // Chunk 0:0 starts at byte 5; its header names codec 9, its footer Flate.
  assert.deepEqual([...bytes.subarray(5, 7)], [0x01, 0x09]);
  await dropFile(page, { name: "codec_unknown.cols", bytes });
  await tab(page, "detail");
  await page.waitForSelector("[data-testid=detail-error]");
  assert.equal(await page.getAttribute("[data-testid=detail-error]", "data-kind"), "unsupported_codec");
  assert.match(await page.textContent("[data-testid=detail-error] [data-testid=error-message]"), /codec tag 9/);
  assert.match(await page.textContent("[data-testid=detail-error] [data-testid=error-location]"), /byte offset 6\b/);
  // Said once, on the Location line (with the column's name), not again at the message's end.
  assert.doesNotMatch(await page.textContent("[data-testid=detail-error] [data-testid=error-message]"), /byte offset|row group/);
  assert.match(await page.textContent("[data-testid=detail-error] [data-testid=error-location]"), /row group 0, column 0 \(/);
  // What is known still shows: the byte range, the header bytes, the footer's statistics.
  await page.waitForSelector("[data-testid=detail-chunk]");
  assert.equal(await page.textContent("[data-testid=detail-range]"), "5 – 78");
  assert.match(await page.textContent("[data-testid=detail-header-bytes]"), /^01 09 00 00 00 00 58 02 00 00 2f 00 00 00 01 00 00 00$/);
  assert.match(await page.textContent("[data-testid=detail-header-codec]"), /^9 \(unknown\)$/);
  const codec = await page.textContent("[data-testid=detail-codec]");
  assert.ok(codec.includes("Flate") && codec.includes("9"), `detail codec shows footer and header: ${codec}`);
  assert.equal(await page.textContent("[data-testid=detail-footer-nulls]"), "0");
  assert.ok(await page.isVisible("[data-testid=detail-footer-min]"));

  await tab(page, "chunks");
  await page.waitForSelector('[data-testid=chunk-row][data-rg="0"][data-col="0"][data-unreadable]');
  const bad = '[data-testid=chunk-row][data-rg="0"][data-col="0"]';
  assert.equal(await page.getAttribute(bad, "data-unreadable"), "unsupported_codec");
  const text = await rowText(bad);
  assert.ok(text.includes("unsupported_codec") && text.includes("unknown codec tag 9"), `the row names the error: ${text}`);
  const codecCell = await field(bad, "codec");
  assert.ok(codecCell.includes("Flate") && /header: tag 9/.test(codecCell), `codec cell shows both: ${codecCell}`);
  assert.doesNotMatch(await field(bad, "decoded"), /600 B/);
  // Its neighbour reads: not flagged.
  assert.equal(await page.getAttribute('[data-testid=chunk-row][data-rg="0"][data-col="1"]', "data-unreadable"), null);
  assert.match(await page.textContent("[data-testid=panel-chunks] [data-testid=unreadable-notice]"), /1 chunk does not read/);

  await tab(page, "schema");
  const srow = '[data-testid=schema-row][data-col="0"]';
  assert.equal(await page.getAttribute(srow, "data-unreadable"), "unsupported_codec");
  const stext = await rowText(srow);
  assert.ok(stext.includes("unsupported_codec") && stext.includes("unknown codec tag 9") && stext.includes("row group 0"), stext);
  assert.match(await field(srow, "codecs"), /Flate.*header of row group 0: tag 9/);
  assert.doesNotMatch(await field(srow, "decoded"), /\d B/);
  assert.equal(await page.getAttribute('[data-testid=schema-row][data-col="1"]', "data-unreadable"), null);
  assert.deepEqual(log.errors, []);
});

/** The data grid's cells of row `row` once none is pending: { col: { kind, text, title, label } }. */
async function gridRow(row) {
  await page.waitForFunction((row) => {
    const cells = document.querySelectorAll(`[data-testid=data-grid] .grid-cell[data-row="${row}"]`);
    return cells.length > 0 && ![...cells].some((c) => c.dataset.kind === "pending");
  }, row);
  return page.$$eval(`[data-testid=data-grid] .grid-cell[data-row="${row}"]`, (tds) =>
    Object.fromEntries(tds.map((td) => [td.dataset.col, { kind: td.dataset.kind, text: td.textContent, title: td.title, label: td.firstElementChild?.getAttribute("aria-label") || "" }])),
  );
}

test("an unreadable cell is not a null: its own glyph, a label saying why, and the same in the side panel", async () => {
  await dropFile(page, { name: "codec_unknown.cols", bytes: fs.readFileSync(path.join(corpus, "invalid/codec_unknown.cols")) });
  await tab(page, "data");
  // Column 0 (runs_bool) does not read in row group 0; column 1 (nullable_bool) reads, with nulls.
  let row = null;
  for (let r = 0; r < 20 && row === null; r++) {
    const cells = await gridRow(r);
    if (cells["1"].kind === "null") row = [r, cells];
  }
  assert.ok(row, "a null in nullable_bool among the first 20 rows");
  const [r, cells] = row;
  const bad = cells["0"];
  const nul = cells["1"];
  assert.equal(bad.kind, "error");
  assert.notEqual(bad.text, nul.text, "unreadable and null look different");
  assert.notEqual(bad.text.trim(), "·");
  assert.match(bad.text, /unreadable/);
  assert.match(bad.label, /unreadable/);
  assert.match(bad.label, /unsupported_codec/);
  assert.match(bad.title, /unsupported_codec/);

  await page.click(`[data-testid=data-grid] .grid-cell[data-row="${r}"][data-col="0"]`);
  await page.waitForSelector("[data-testid=cell-panel-unreadable]");
  const panel = await page.textContent("[data-testid=cell-panel-unreadable]");
  assert.match(panel, /unreadable/);
  assert.match(panel, /unsupported_codec/);
  assert.match(panel, /unknown codec tag 9/);
  await page.click(`[data-testid=data-grid] .grid-cell[data-row="${r}"][data-col="1"]`);
  await page.waitForSelector("[data-testid=cell-panel-null]");
  assert.equal(await page.$("[data-testid=cell-panel-unreadable]"), null);
  // The cell's own part of the panel; its row's list below names the unreadable neighbour.
  assert.doesNotMatch(await page.$eval("[data-testid=cell-panel]", (p) => [...p.children].filter((e) => e.dataset.testid !== "record").map((e) => e.textContent).join(" ")), /unreadable/);
  const fields = await page.$$eval("[data-testid=cell-panel] .record-field", (bs) => bs.slice(0, 2).map((b) => b.querySelector(".record-value").textContent));
  assert.deepEqual(fields, ["✗ unreadable", "null"]);
  assert.deepEqual(log.errors, []);
});

/**
 * Three row groups of four rows (id, name), with the chunks of `name` in
 * `bad` row groups damaged: their own header names codec 9, which no
 * reader knows (unsupported_codec).
 */
function damagedFile(bad) {
  const ids = (g) => Array.from({ length: 4 }, (_, k) => 4 * g + k);
  const file = buildFile(
    [
      { name: "id", type: "int32", nullable: false },
      { name: "name", type: "string", nullable: true },
    ],
    [0, 1, 2].map((g) => ({ offset: 5 + 400 * g, columns: [ids(g), ids(g).map((i) => `s${i}`)] })),
  );
  const bytes = materialize(file);
  for (const g of bad) bytes[file.chunks[g][1].start + 1] = 9; // the chunk header's codec byte
  return bytes;
}

test("a column whose chunk fails in some row groups only: the box above the grid names those row groups, not the whole column", async () => {
  const cases = [
    [[1], "Column “name”: row group 1 cannot be read"],
    [[0, 2], "Column “name”: row groups 0 and 2 cannot be read"],
    [[0, 1, 2], "Column “name” cannot be read"],
  ];
  for (const [bad, title] of cases) {
    await dropFile(page, { name: `damaged-${bad.join("-")}.cols`, bytes: damagedFile(bad) });
    await tab(page, "data");
    await gridDrawn(page);
    const boxes = await page.$$eval("[data-testid=column-error]", (els) => els.map((e) => [e.dataset.kind, e.querySelector(".error-title").textContent]));
    assert.deepEqual(boxes, [["unsupported_codec", title]], `damaged in ${bad}`);
    // What the title says is what the grid shows: the other row groups' cells of name read.
    for (let r = 0; r < 12; r++) {
      const cell = (await gridRow(r))["1"];
      const g = Math.floor(r / 4);
      if (bad.includes(g)) {
        assert.equal(cell.kind, "error", `row ${r}`);
        // Each unreadable cell says its own chunk's error, not the first row group's.
        assert.match(cell.title, new RegExp(`\\(row group ${g}, column 1, byte offset \\d+\\)`), `row ${r}`);
        assert.match(cell.label, new RegExp(`row group ${g},`), `row ${r}`);
      } else assert.equal(cell.text, `s${r}`, `row ${r}`);
    }
    const last = 4 * bad.at(-1) + 3;
    await page.click(`[data-testid=data-grid] .grid-cell[data-row="${last}"][data-col="1"]`);
    await page.waitForFunction((r) => document.querySelector("[data-testid=cell-panel-where]")?.textContent === `Row ${r}`, last);
    assert.match(await page.textContent("[data-testid=cell-panel-unreadable]"), new RegExp(`row group ${bad.at(-1)}, column 1`));
  }
  const titles = () => page.$$eval("[data-testid=column-error] .error-title", (els) => els.map((e) => e.textContent));
  // The corpus's own case: runs_bool's chunk in row group 0 of 2.
  await dropFile(page, { name: "codec_unknown.cols", bytes: fs.readFileSync(path.join(corpus, "invalid/codec_unknown.cols")) });
  await tab(page, "data");
  await gridDrawn(page);
  assert.deepEqual(await titles(), ["Column “runs_bool”: row group 0 cannot be read"]);
  // A column that fails as a whole (its tokenizer is not registered, for
  // both its row groups), though only row group 0's rows are in sight.
  await dropFile(page, path.join(corpus, "valid/tokenized_bits_counts.cols"));
  await tab(page, "data");
  await gridDrawn(page);
  assert.deepEqual(await titles(), ["Column “text” cannot be read", "Column “raw” cannot be read"]);
  assert.deepEqual(log.errors, []);
});

test("Go to file row past the last row says so in the page", async () => {
  await dropFile(page, { name: "all_types_small.cols", bytes: fs.readFileSync(path.join(corpus, "valid/all_types_small.cols")) });
  await tab(page, "data");
  await page.fill("[data-testid=data-goto]", "15");
  await page.press("[data-testid=data-goto]", "Enter");
  await page.waitForSelector("[data-testid=data-goto-error]:not([hidden])", { timeout: 5000 });
  assert.equal(await page.textContent("[data-testid=data-goto-error]"), "Row 15 is past the last row, 14.");
  // A row that is there goes, and the message goes away.
  await page.fill("[data-testid=data-goto]", "14");
  await page.press("[data-testid=data-goto]", "Enter");
  await page.waitForSelector("[data-testid=data-goto-error][hidden]", { state: "attached" });
  // Row 14 is in sight already: wait for the go itself (the worker finds
  // the row, then the grid selects it in a frame), not just for the row.
  await page.waitForSelector('[data-testid=data-grid] .grid-row[data-row="14"] .grid-cell.selected');
  assert.deepEqual(log.errors, []);
});

test("Show these rows in Data for a row group whose first row the filter leaves out says so, as Go to file row does", async () => {
  await dropFile(page, { name: "nulls.cols", bytes: fs.readFileSync(path.join(corpus, "valid/nulls.cols")) }); // row groups of 1, 9, 64 and 1000 rows
  await tab(page, "data");
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-col]", "3"); // edges_null_u16: null in each row group's first row
  await page.selectOption("[data-testid=filter-op]", ">");
  await page.fill("[data-testid=filter-value]", "0");
  await page.click("[data-testid=filter-apply]");
  await page.waitForFunction(() => /where/.test(document.querySelector("[data-testid=data-status]").textContent));
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-rg]", "2");
  await page.waitForSelector("[data-testid=detail-chunk]");
  await page.click("[data-testid=detail-preview]");
  await page.waitForSelector("[data-testid=panel-data]:not([hidden])");
  await page.waitForSelector("[data-testid=data-goto-error]:not([hidden])", { timeout: 5000 });
  assert.equal(await page.textContent("[data-testid=data-goto-error]"), "Row 10 is not in the current view (the filter leaves it out).");
  // Without the filter the row group's rows show, and the message goes away.
  await page.click("[data-testid=filter-clear]");
  await page.waitForFunction(() => document.querySelector("[data-testid=data-status]").textContent.startsWith("1,074 rows, in file order"));
  await tab(page, "detail");
  await page.waitForSelector("[data-testid=detail-chunk]");
  await page.click("[data-testid=detail-preview]");
  await page.waitForSelector("[data-testid=data-goto-error][hidden]", { state: "attached" });
  await page.waitForSelector('[data-testid=data-grid] .grid-row[data-row="10"] .grid-cell.selected');
  assert.deepEqual(log.errors, []);
});

test("Go to row just before another file opens leaves the new file's rows at the top", async () => {
  // The row is found in the worker and drawn in a frame: the new file
  // can come between. The page's frames are held until the file is open
  // (so the grid cannot draw the go), in both orders of the two requests.
  const other = fs.readFileSync(path.join(corpus, "valid/enc_affix_flate.cols")).toString("base64"); // 1200 rows
  for (const gotoFirst of [true, false]) {
    await dropFile(page, { name: "all_types_small.cols", bytes: fs.readFileSync(path.join(corpus, "valid/all_types_small.cols")) });
    await tab(page, "data");
    await gridDrawn(page);
    await page.evaluate(({ b64, gotoFirst }) => {
      const raf = window.requestAnimationFrame;
      const held = [];
      window.requestAnimationFrame = (cb) => held.push(cb);
      window.releaseFrames = () => {
        window.requestAnimationFrame = raf;
        for (const cb of held) raf(cb);
      };
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], "enc_affix_flate.cols"));
      const input = document.querySelector("[data-testid=data-goto]");
      input.value = "14";
      const go = () => input.form.requestSubmit();
      const open = () => window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, cancelable: true }));
      document.body.dataset.state = "";
      if (gotoFirst) {
        go();
        open();
      } else {
        open();
        go();
      }
    }, { b64: other, gotoFirst });
    // Ready comes after the answer to the Go (the worker answers in order,
    // and the open asks again after its first answer).
    await waitState(page, "ready");
    await page.evaluate(() => window.releaseFrames());
    await gridDrawn(page);
    const shown = await page.$$eval("[data-testid=data-grid] .grid-row:not([hidden])", (rows) => rows.map((r) => Number(r.dataset.row)));
    assert.equal(Math.min(...shown), 0, `go to row first: ${gotoFirst}`);
    // No cell selected: the old file's row 14 is not chosen in the new one (a new file's grid highlights none until one is chosen).
    assert.equal(await page.$("[data-testid=data-grid] .grid-cell.selected"), null, `go to row first: ${gotoFirst}`);
    assert.equal(await page.textContent("[data-testid=data-status]"), "1,200 rows, in file order");
    // Nor a word about that row under the new file's rows.
    assert.equal(await page.isHidden("[data-testid=data-goto-error]"), true, `go to row first: ${gotoFirst}`);
  }
  assert.deepEqual(log.errors, []);
});

test("bytes values are written one way everywhere: 0x and the hex, empty bytes as 0x alone", async () => {
  // enc_affix_flate.cols, column 2 (edge_bytes): rows 0..2 are "", 00, fffe0080.
  await dropFile(page, { name: "enc_affix_flate.cols", bytes: fs.readFileSync(path.join(corpus, "valid/enc_affix_flate.cols")) });
  await tab(page, "data");
  const cells = [await gridRow(0), await gridRow(1), await gridRow(2)].map((r) => r["2"]);
  assert.deepEqual(cells.map((x) => [x.kind, x.text]), [["empty", "0x"], ["bytes", "0x00"], ["bytes", "0xfffe0080"]]);
  await page.click('[data-testid=data-grid] .grid-cell[data-row="2"][data-col="2"]');
  await page.waitForSelector("[data-testid=cell-panel-value]");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), "0xfffe0080");
  // The footer's statistics in the chunk table.
  await tab(page, "chunks");
  await page.waitForSelector('[data-testid=chunk-row][data-rg="0"][data-col="2"]');
  assert.equal(await field('[data-testid=chunk-row][data-rg="0"][data-col="2"]', "min"), "0x00");
  assert.match(await field('[data-testid=chunk-row][data-rg="0"][data-col="2"]', "max"), /^0xfffe0080/);
  // The affix encoding's prefix and suffix of a bytes column.
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "0");
  await page.waitForSelector("[data-testid=enc-prefix]");
  for (const id of ["enc-prefix", "enc-suffix"]) assert.match(await page.textContent(`[data-testid=${id}]`), /^0x[0-9a-f]* \d+ B$/, id);
  assert.deepEqual(log.errors, []);
});

test("an all-null chunk has no compression ratio: '—' in Column detail as in its block row and the tables, never 0.00×", async () => {
  const file = buildFile(
    [
      { name: "n", type: "int32", nullable: false },
      { name: "s", type: "string", nullable: true },
    ],
    [{ offset: 5, columns: [[1, 2, 3], [null, null, null]] }],
  );
  await dropFile(page, { name: "all-null.cols", bytes: materialize(file) });
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector("[data-testid=block-row]");
  const detailRatio = await page.textContent("[data-testid=detail-ratio]");
  const blockRatio = await page.$eval("[data-testid=block-row] td:nth-child(5)", (td) => td.textContent);
  assert.equal(blockRatio, "—");
  assert.doesNotMatch(detailRatio, /0\.00×/);
  assert.ok(detailRatio.startsWith("—"), detailRatio);
  assert.match(detailRatio, /every value is null/);
  for (const t of ["chunks", "schema"]) {
    await tab(page, t);
    const sel = t === "chunks" ? '[data-testid=chunk-row][data-col="1"]' : '[data-testid=schema-row][data-col="1"]';
    await page.waitForSelector(sel);
    assert.equal(await field(sel, "ratio"), "—", t);
  }
  assert.deepEqual(log.errors, []);
});

test("a tokenizer supplied while the Data tab is sorted keeps the sort, and the grid shows what its status says", async () => {
  await dropFile(page, path.join(corpus, "valid/tokenized_bits_counts.cols"));
  await tab(page, "data");
  await gridDrawn(page);
  const header = "[data-testid=data-grid-header][data-col='0'] button";
  await page.click(header);
  await page.click(header);
  await page.waitForFunction(() => /sorted by id descending/.test(document.querySelector("[data-testid=data-status]").textContent));
  await gridDrawn(page);
  const first = async () => Number(await page.getAttribute("[data-testid=data-grid] .grid-row[data-row='0']", "data-file-row"));
  const sortedFirst = await first();
  assert.notEqual(sortedFirst, 0, "sorted: the first row shown is not file row 0");
  assert.equal((await gridRow(0))["1"].kind, "error", "text needs its tokenizer");
  await page.setInputFiles("[data-testid=file-input]", [{ name: "gpt2-tokenizer.json", mimeType: "application/json", buffer: fs.readFileSync(path.join(corpus, "tokenizers/gpt2-tokenizer.json")) }]);
  await page.waitForFunction(() => !document.querySelector("[data-testid=data-grid] .grid-cell[data-kind=error]") && !document.querySelector("[data-testid=data-grid] .grid-cell[data-kind=pending]"), null, { timeout: 30_000 });
  assert.match(await page.textContent("[data-testid=data-status]"), /sorted by id descending/);
  assert.equal(await first(), sortedFirst, "the rows shown are still the sorted ones");
  assert.notEqual((await gridRow(0))["1"].kind, "error");
  assert.deepEqual(log.errors, []);
});

test("Timing of columns that all fail to read: names them skipped, draws no chart, and the page stays responsive", async () => {
  // Column name's chunks fail in every row group (codec 9); only it is timed.
  await dropFile(page, { name: "damaged-0-1-2.cols", bytes: damagedFile([0, 1, 2]) });
  await tab(page, "timing");
  await page.uncheck('[data-testid=timing-columns-col] >> nth=0'); // id
  await page.fill("[data-testid=timing-runs]", "1");
  await page.fill("[data-testid=timing-warmups]", "0");
  await page.click("[data-testid=timing-run]");
  // No run was timed: an empty chart's axis looped for ever (the main thread blocked, memory growing).
  await page.waitForSelector("[data-testid=timing-skipped]", { timeout: 15_000 });
  assert.match(await page.textContent("[data-testid=timing-skipped]"), /name — unsupported_codec/);
  assert.equal(await page.$("[data-testid=timing-chart]"), null);
  assert.equal(await page.$("[data-testid=timing-result-row]"), null);
  assert.equal(await Promise.race([page.evaluate(() => "answered"), new Promise((r) => setTimeout(() => r("blocked"), 5000))]), "answered");
  assert.deepEqual(log.errors, []);
});

test("Timing on a worker pool of columns that all fail to read: the run is named by the pool size asked for (no pool was made), not 'of undefined'", async () => {
  await dropFile(page, { name: "damaged-0-1-2.cols", bytes: damagedFile([0, 1, 2]) });
  await tab(page, "timing");
  await page.uncheck('[data-testid=timing-columns-col] >> nth=0'); // id
  await page.check("[data-testid=timing-scope-pool]");
  await page.fill("[data-testid=timing-pool-size]", "3");
  await page.fill("[data-testid=timing-runs]", "1");
  await page.fill("[data-testid=timing-warmups]", "0");
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=timing-skipped]", { timeout: 15_000 });
  assert.match(await page.textContent("[data-testid=timing-run-label]"), /^Run #\d+ whole read, worker pool of 3 · file$/);
  assert.equal(await page.$("[data-testid=timing-whole-row]"), null);
  assert.deepEqual(log.errors, []);
});

test("statistics of 100,000 bytes in the footer (a string min, an int64 max of the wrong size) are shown cut, as text, in every tab, with no page error", async () => {
  const schema = [
    { name: "s", type: "string", nullable: false },
    { name: "n", type: "int64", nullable: false },
  ];
  const file = buildFile(schema, [{ offset: 5, columns: [["a", "b"], [1n, 2n]] }]);
  const [s, n] = file.rowGroups[0].columns;
  s.minVal = new TextEncoder().encode("<b data-injected>x</b>".repeat(4546)).subarray(0, 100_000);
  s.minLen = s.maxLen = 4294967295;
  n.maxVal = new Uint8Array(100_000).fill(0x7f);
  const bytes = withFooter(materialize(file), file.footerStart, { schema: schema.map((c) => ({ ...c, type: TYPES[c.type] })), rowGroups: file.rowGroups });
  await dropFile(page, { name: "huge-statistics.cols", bytes });
  for (const t of ["schema", "chunks", "layout", "detail", "data"]) {
    await tab(page, t);
    const text = await page.textContent(`[data-testid=panel-${t}]`);
    assert.ok(text.length < 60_000, `${t}: ${text.length} characters shown`);
  }
  await tab(page, "detail");
  assert.ok((await page.textContent("[data-testid=panel-detail]")).includes("<b data-injected>"), "the min is shown as text");
  assert.equal(await page.$("[data-injected]"), null, "never as HTML");
  assert.deepEqual(log.errors, []);
});

test("a file with row groups but no columns: Column detail and Data say so, with no page error", async () => {
  // A footer of two row groups of 3 rows and an empty schema (no chunks): the reader opens it.
  const bytes = withFooter(Uint8Array.of(0x41, 0x42, 0x43, 0x44, 1), 5, { schema: [], rowGroups: [{ numRows: 3, byteOffset: 5, columns: [] }, { numRows: 3, byteOffset: 5, columns: [] }] });
  await dropFile(page, { name: "no-columns.cols", bytes });
  assert.equal(await page.textContent("[data-testid=fact-rows]"), "6");
  await tab(page, "detail");
  await page.waitForSelector("[data-testid=panel-detail] .notice");
  assert.match(await page.textContent("[data-testid=panel-detail]"), /no columns/);
  await tab(page, "data");
  await page.waitForSelector("[data-testid=panel-data] .notice");
  assert.match(await page.textContent("[data-testid=panel-data]"), /no columns/);
  assert.equal(await page.$("[data-testid=data-grid]:visible"), null);
  assert.equal(await page.$("[data-testid=filter-add]:visible"), null);
  // A tokenizer supplied now finds no grid to redraw.
  await page.setInputFiles("[data-testid=file-input]", [{ name: "gpt2-tokenizer.json", mimeType: "application/json", buffer: fs.readFileSync(path.join(corpus, "tokenizers/gpt2-tokenizer.json")) }]);
  await page.waitForFunction(() => /gpt2-tokenizer/.test(document.body.textContent), null, { timeout: 10_000 });
  await page.waitForTimeout(300);
  assert.match(await page.textContent("[data-testid=panel-data]"), /no columns/);
  assert.equal(await page.$("[data-testid=data-grid]:visible"), null);
  assert.equal(await page.$("[data-testid=data-export]:visible"), null);
  assert.deepEqual(log.errors, []);
});

test("a tokenizer.json over the package's limit is refused by the page before it is read whole: too_large, with its size", async () => {
  // The package's limit (src/wasm/registry.rs), one byte over it, as a
  // sparse file: the page checks its size, then never reads it.
  const rs = fs.readFileSync(path.join(import.meta.dirname, "../../src/wasm/registry.rs"), "utf8");
  const [, base, shift] = /const MAX_TOKENIZER_JSON: u64 = (\d+) << (\d+);/.exec(rs);
  const size = Number(base) * 2 ** Number(shift) + 1;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cw-tok-")), "huge-tokenizer.json");
  fs.closeSync(fs.openSync(file, "w"));
  fs.truncateSync(file, size);
  try {
    await page.evaluate(() => {
      window.__readSizes = [];
      const arrayBuffer = Blob.prototype.arrayBuffer;
      Blob.prototype.arrayBuffer = function () {
        window.__readSizes.push(this.size);
        return arrayBuffer.call(this);
      };
    });
    await page.setInputFiles("[data-testid=file-input]", file);
    await page.waitForFunction(() => /huge-tokenizer\.json: too_large/.test(document.querySelector("#toasts")?.textContent || ""));
    assert.match(await page.textContent("#toasts"), new RegExp(`huge-tokenizer\\.json: too_large: a tokenizer\\.json of ${size} bytes exceeds the ${size - 1} bytes this reader accepts`));
    assert.deepEqual(await page.evaluate(() => window.__readSizes), [], "the file was never read");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true });
  }
  assert.deepEqual(log.errors, []);
});
