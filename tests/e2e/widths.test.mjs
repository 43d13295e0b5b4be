// Long column names and long values never widen the page: at 390 and 1280
// px wide, every view of a file made here (a 63-character column name,
// long and hostile values) keeps the document within the viewport; wide
// tables scroll inside their own box, numbers do not break mid-digit, the
// histogram fits its card and the timing chart fits the window (drawn to
// scale, no sideways scroll) with its labels in their room.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, shot, tab, waitState, corpus, shots } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

export const LONG_NAME = "a_really_long_column_name_that_goes_on_and_on_for_ever_and_ever";
const LONG_VALUE = "L" + "orem ipsum dolor sit amet, ".repeat(40) + "END";
const LONG_WORD = "x".repeat(300);
let server, browser;

/** long-names.cols: 4 columns (the third named LONG_NAME), 2 row groups of 15 rows. */
function makeFile() {
  const dir = path.join(os.tmpdir(), "columns-e2e-widths");
  fs.mkdirSync(dir, { recursive: true });
  const schema = [
    { name: "id", type: "int32", nullable: false },
    { name: "<img src=x onerror=alert(1)>", type: "string", nullable: true },
    { name: LONG_NAME, type: "string", nullable: false },
    { name: "ts_us", type: "int64", nullable: true },
  ];
  const n = 30;
  const cols = [
    Array.from({ length: n }, (_, k) => k * 100003),
    Array.from({ length: n }, (_, k) => [null, "<img src=x onerror=alert(1)>", "<b>bold</b>", "", "שלום עולם", "emoji 🦀👍🏽", LONG_WORD][k % 7]),
    Array.from({ length: n }, (_, k) => (k % 2 ? LONG_VALUE + k : `${LONG_WORD}${k}`)),
    Array.from({ length: n }, (_, k) => (k % 5 === 0 ? null : 1700000000000000 + k * 1000000)),
  ];
  const file = buildFile(schema, [{ offset: 5, columns: cols.map((c) => c.slice(0, 15)) }, { offset: 20000, columns: cols.map((c) => c.slice(15)) }]);
  fs.writeFileSync(path.join(dir, "long-names.cols"), materialize(file));
  return dir;
}

before(async () => {
  server = await serve({ mounts: { "/made/": makeFile(), "/corpus/": corpus } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** The document's width against the viewport's, and the visible elements that reach past it (for the message). */
async function widths(page) {
  return page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const wide = [];
    for (const el of document.querySelectorAll("body *")) {
      if (el.closest("[hidden]")) continue;
      const r = el.getBoundingClientRect();
      if (!r.width || r.right <= W + 1) continue;
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowX) && p.getBoundingClientRect().right <= W + 1) {
          clipped = true;
          break;
        }
      }
      if (!clipped) wide.push(`${el.tagName.toLowerCase()}.${String(el.className?.baseVal ?? el.className).slice(0, 30)}[${el.dataset?.testid || ""}] right=${Math.round(r.right)}`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, W, wide: wide.slice(0, 8) };
  });
}

async function open(page, query, ready, file = "/made/long-names.cols") {
  await page.goto(`${server.base}?url=${encodeURIComponent(`${server.origin}${file}`)}&${query}`);
  await waitState(page, "ready");
  await page.waitForSelector(ready, { timeout: 30_000 });
}

/** Notes in `problems` a view that makes the page wider than the window (every view is checked before the test fails). */
async function fits(page, what, problems) {
  const w = await widths(page);
  if (w.scrollWidth > w.W) problems.push(`${what}: the page is ${w.scrollWidth} px wide in a ${w.W} px viewport; past its edge: ${w.wide.join(", ")}`);
}

for (const width of [390, 1280]) {
  test(`at ${width} px no view is wider than the window`, async () => {
    const { page, log } = await newPage(browser, server.origin, { viewport: { width, height: width < 500 ? 844 : 800 } });
    const problems = [];
    try {
      // Data, a cell of the long-named column selected: its name heads the side panel.
      await open(page, "tab=data&col=2&row=3", "[data-testid=data-grid] .grid-cell.selected");
      await page.waitForFunction((name) => document.querySelector("[data-testid=cell-panel]")?.textContent.includes(name), LONG_NAME);
      await fits(page, "Data with a cell selected", problems);
      await shot(page, `70-widths-${width}-data`);
      // Column detail of that column: the column select, the chunk card, the profile.
      await open(page, "tab=detail&rg=1&col=2", "[data-testid=profile][data-state=done]");
      await page.waitForSelector("[data-testid=detail-chunk]");
      await fits(page, "Column detail", problems);
      await shot(page, `71-widths-${width}-detail`);
      // And of the int column: its histogram.
      await open(page, "tab=detail&rg=0&col=0", "[data-testid=profile][data-state=done][data-col='0']");
      await page.waitForSelector("[data-testid=detail-chunk]");
      await fits(page, "Column detail of a number column", problems);
      for (const t of ["schema", "chunks", "layout"]) {
        await tab(page, t);
        await fits(page, t, problems);
      }
      await shot(page, `72-widths-${width}-layout`);
      await tab(page, "timing");
      await page.fill("[data-testid=timing-runs]", "2");
      await page.fill("[data-testid=timing-warmups]", "0");
      await page.click("[data-testid=timing-run]");
      await page.waitForSelector("[data-testid=timing-chart]", { timeout: 60_000 });
      await fits(page, "Timing", problems);
      // Each row label of the chart fits its left margin (none cut off at the
      // chart's edge), the whole name in its tooltip.
      const labels = await page.$$eval("[data-testid=chart-row-label]", (ts) => ts.map((t) => ({ x: t.getBBox().x, text: [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.data).join(""), title: t.querySelector("title")?.textContent })));
      assert.equal(labels.length, 4);
      for (const l of labels) {
        assert.ok(l.x >= 0, `the chart label "${l.text}" starts at x=${l.x.toFixed(1)}, outside the chart`);
        assert.ok(l.text === l.title || (l.text.endsWith("…") && l.title.startsWith(l.text.slice(0, -1))), `${l.text} shortens ${l.title}`);
      }
      assert.ok(labels.some((l) => l.title === LONG_NAME && l.text.endsWith("…")));
      // The chart fits the window's width: no box around it scrolls
      // sideways, nothing of it is past its card, its text is drawn at
      // its own size (not shrunk with the chart) and its tick labels
      // neither overlap nor leave the chart.
      const fit = await page.$eval("[data-testid=timing-chart]", (svg) => {
        const panel = svg.closest("[data-testid=panel-timing]");
        const scrolls = [];
        for (let p = svg.parentElement; p && p !== panel; p = p.parentElement) if (p.scrollWidth > p.clientWidth + 1) scrolls.push(`${p.tagName.toLowerCase()}.${p.className}: ${p.scrollWidth} > ${p.clientWidth}`);
        const r = svg.getBoundingClientRect();
        const box = panel.getBoundingClientRect();
        const ticks = [...svg.querySelectorAll("[data-testid=chart-tick]")].map((t) => t.getBoundingClientRect()).sort((a, b) => a.left - b.left);
        const overlaps = ticks.slice(1).filter((t, i) => t.left < ticks[i].right).length;
        const outside = ticks.filter((t) => t.left < r.left - 0.5 || t.right > r.right + 0.5).length;
        return { scrolls, left: r.left, right: r.right, boxLeft: box.left, boxRight: box.right, ticks: ticks.length, overlaps, outside, scale: r.width / svg.viewBox.baseVal.width };
      });
      assert.deepEqual(fit.scrolls, [], "the timing chart scrolls sideways in its own box");
      assert.ok(fit.left >= fit.boxLeft && fit.right <= fit.boxRight, `chart ${fit.left}–${fit.right} inside its panel ${fit.boxLeft}–${fit.boxRight}`);
      assert.ok(fit.ticks >= 2, "at least two labelled ticks");
      assert.equal(fit.overlaps, 0, "tick labels overlap");
      assert.equal(fit.outside, 0, "tick labels past the chart's edge");
      assert.ok(Math.abs(fit.scale - 1) < 0.02, `the chart is drawn at ${fit.scale.toFixed(2)}× its own size, not to scale`);
      await shot(page, `73-widths-${width}-timing`);
      assert.deepEqual(problems, []);
      assert.deepEqual(log.errors, []);
    } finally {
      await page.context().close();
    }
  });
}

test("at 390 px the Column detail's tables scroll in their own box, numbers stay whole, the histogram fits its card", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 390, height: 844 } });
  try {
    // A bytes column whose most common values are long hex strings.
    await open(page, "tab=detail&rg=0&col=0", "[data-testid=profile][data-state=done]", "/corpus/valid/enc_affix_flate.cols");
    await page.waitForSelector("[data-testid=detail-chunk]");
    const w = await widths(page);
    assert.ok(w.scrollWidth <= w.W, `the page is ${w.scrollWidth} px wide: ${w.wide.join(", ")}`);
    const top = await page.$eval("[data-testid=profile-top]", (t) => {
      const box = t.parentElement;
      return { overflowX: getComputedStyle(box).overflowX, boxRight: box.getBoundingClientRect().right, cardRight: t.closest(".card").getBoundingClientRect().right };
    });
    assert.equal(top.overflowX, "auto", "the table of most common values scrolls in its own box");
    assert.ok(top.boxRight <= top.cardRight, "its box stays in the card");
    // Numbers in the chunk card: no line break inside one (524,288 was
    // shown as "524,28" / "8 B"), here in a chunk of 10 KiB.
    await open(page, "tab=detail&rg=1&col=2", "[data-testid=profile][data-state=done][data-col='2']");
    await page.waitForSelector("[data-testid=detail-chunk]");
    const broken = await page.$$eval("[data-testid=detail-chunk] dd, [data-testid=profile] dd", (dds) => {
      const out = [];
      for (const dd of dds) {
        const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          for (const m of n.data.matchAll(/\d[\d,.]*\d( ?(B|KiB|MiB|GiB|%))?/g)) {
            const r = document.createRange();
            r.setStart(n, m.index);
            r.setEnd(n, m.index + m[0].length);
            const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
            if (tops.size > 1) out.push(`${m[0]} in "${dd.textContent}"`);
          }
        }
      }
      return out;
    });
    assert.deepEqual(broken, [], "numbers broken across lines");
    await page.locator("[data-testid=detail-chunk]").screenshot({ path: path.join(shots, "75-widths-390-chunk-card.png") });
    await open(page, "tab=detail&rg=0&col=0", "[data-testid=profile][data-state=done][data-col='0']");
    // The histogram scales to its card: nothing of it is scrolled out of view.
    const hist = await page.$eval("[data-testid=profile-histogram]", (svg) => {
      const card = svg.closest(".card");
      const r = svg.getBoundingClientRect();
      const c = card.getBoundingClientRect();
      let scrolls = null;
      for (let p = svg.parentElement; p !== card; p = p.parentElement) if (p.scrollWidth > p.clientWidth) scrolls = p.className;
      return { left: r.left, right: r.right, cardLeft: c.left, cardRight: c.right, scrolls };
    });
    assert.equal(hist.scrolls, null, "the histogram does not scroll sideways");
    assert.ok(hist.left >= hist.cardLeft && hist.right <= hist.cardRight, `histogram ${hist.left}–${hist.right} inside its card ${hist.cardLeft}–${hist.cardRight}`);
    await page.locator("[data-testid=profile]").screenshot({ path: path.join(shots, "74-widths-390-profile.png") });
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("the Chunks table at 1400 px: a column name of up to ten letters and each word of a statistic stay on one line, and the table needs no sideways scroll", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1400, height: 900 } });
  try {
    // movielens' titles: min and max are sentences, the table is wide.
    await open(page, "tab=chunks", "[data-testid=chunk-table]", "/corpus/real/movielens.optimized.cols");
    const r = await page.$eval("[data-testid=chunk-table]", (table) => {
      // A word's lines: the distinct tops of its characters' boxes.
      const lines = (node, from, to) => {
        const tops = new Set();
        for (let i = from; i < to; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          for (const b of range.getClientRects()) tops.add(Math.round(b.top));
        }
        return tops.size;
      };
      const broken = [];
      const texts = (el) => {
        const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const out = [];
        while (walk.nextNode()) out.push(walk.currentNode);
        return out;
      };
      for (const el of table.querySelectorAll("td .colname, td.stat")) {
        for (const node of texts(el)) {
          for (const m of node.data.matchAll(/\S+/g)) {
            if (el.matches(".colname") && m[0].length > 10) continue;
            if (lines(node, m.index, m.index + m[0].length) > 1) broken.push(m[0]);
          }
        }
      }
      const box = table.parentElement;
      return { broken, scroll: box.scrollWidth - box.clientWidth, stats: table.querySelectorAll("tbody td.stat").length };
    });
    assert.equal(r.stats, 28, "min and max of 14 chunks");
    assert.deepEqual(r.broken, [], "words broken across lines");
    assert.ok(r.scroll <= 0, `the chunk table scrolls ${r.scroll} px sideways`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("the Data grid sizes text columns by the footer's longest value: short codes whole in a narrow column, long text cut in a wider one, each header whole", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 } });
  try {
    // all_types_small: c_bytes' values are 11 bytes (22 hex digits), c_string's 8 characters.
    await open(page, "tab=data", "[data-testid=data-grid] .grid-row[data-row='0']", "/corpus/valid/all_types_small.cols");
    await page.evaluate(() => (document.querySelector("[data-testid=data-grid] .grid-scroll").scrollLeft = 1e6));
    await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='25']");
    const cols = await page.evaluate(() => {
      const grid = document.querySelector("[data-testid=data-grid]");
      const out = {};
      for (const c of ["22", "23", "24", "25"]) {
        const head = grid.querySelector(`[data-testid=data-grid-header][data-col='${c}']`);
        const cells = [...grid.querySelectorAll(`.grid-row .grid-cell[data-col='${c}']`)];
        out[c] = { width: head.getBoundingClientRect().width, headCut: head.scrollWidth > head.clientWidth, cells: cells.length, cut: cells.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent) };
      }
      return out;
    });
    for (const [c, x] of Object.entries(cols)) {
      assert.ok(x.cells >= 10, `column ${c}: ${x.cells} cells drawn`);
      assert.deepEqual(x.cut, [], `column ${c}: no value cut`);
      assert.equal(x.headCut, false, `column ${c}: its header whole`);
      assert.ok(x.width < 240, `column ${c} is ${x.width} px wide for values of at most 24 characters`);
    }
    assert.ok(cols[24].width < 200, `c_string (8 characters at most) is ${cols[24].width} px wide, less than the 200 of any string column before`);
    // long-names.cols: LONG_NAME's values are 300 and more characters: cut, in a column wider than a short one.
    await open(page, "tab=data", "[data-testid=data-grid] .grid-row[data-row='0']");
    const long = await page.$eval("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='2']", (e) => ({ width: e.getBoundingClientRect().width, cut: e.scrollWidth > e.clientWidth }));
    assert.ok(long.cut, "a 300-character value is cut");
    assert.ok(long.width > 200 && long.width <= 340, `the column of long values is ${long.width} px wide`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("a Data column's width: dragged by its right edge, fitted to its values by a double-click, changed by < and >, kept through a sort, forgotten with the file", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 } });
  try {
    await open(page, "tab=data", "[data-testid=data-grid] .grid-row[data-row='0']", "/corpus/real/diamonds.optimized.cols");
    const head = (c) => `[data-testid=data-grid-header][data-col='${c}']`;
    const width = (c) => page.$eval(head(c), (e) => e.getBoundingClientRect().width);
    const left = (c) => page.$eval(head(c), (e) => e.getBoundingClientRect().left);
    const cellWidths = (c) => page.$$eval(`[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='${c}']`, (es) => [...new Set(es.map((e) => e.getBoundingClientRect().width))]);
    // A header takes its width at once, its rows' cells at the next frame: wait for them.
    const cellsFollow = async (c) =>
      page.waitForFunction(
        ([sel, w]) => [...document.querySelectorAll(sel)].every((e) => Math.abs(e.getBoundingClientRect().width - w) < 1),
        [`[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='${c}']`, await width(c)],
      );
    const cut = (c) => page.$$eval(`[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='${c}']`, (es) => es.filter((e) => e.scrollWidth > e.clientWidth).length);
    const w1 = await width(1);
    const l2 = await left(2);
    // Drag column 1's edge 60 px right: it widens, column 2 moves with it, its cells follow, nothing sorts.
    const edge = await page.$eval(`${head(1)} [data-testid=data-grid-resize]`, (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    });
    await page.mouse.move(edge.x, edge.y);
    await page.mouse.down();
    await page.mouse.move(edge.x + 60, edge.y, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction(([sel, w]) => Math.abs(document.querySelector(sel).getBoundingClientRect().width - w) < 1, [head(1), w1 + 60]);
    assert.ok(Math.abs((await left(2)) - (l2 + 60)) < 1, "the next column moves along");
    await cellsFollow(1);
    assert.deepEqual(await cellWidths(1), [w1 + 60], "every drawn cell of the column as wide as its header");
    assert.equal(await page.getAttribute(head(1), "aria-sort"), "none", "dragging the edge does not sort");
    // Narrowed by dragging, its values are cut; a double-click on the edge fits them all, and the header.
    await page.mouse.move(edge.x + 60, edge.y);
    await page.mouse.down();
    await page.mouse.move(edge.x - 70, edge.y, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction((sel) => document.querySelector(sel).getBoundingClientRect().width < 60, head(1));
    await cellsFollow(1);
    assert.ok((await cut(1)) > 0, "a column too narrow cuts its values");
    await page.dblclick(`${head(1)} [data-testid=data-grid-resize]`);
    await page.waitForFunction((sel) => document.querySelector(sel).getBoundingClientRect().width > 60, head(1));
    await cellsFollow(1);
    assert.equal(await cut(1), 0, "fitted: no drawn value cut");
    assert.equal(await page.$eval(`${head(1)} .colname`, (e) => e.scrollWidth > e.clientWidth), false, "fitted: the name whole");
    const fitted = await width(1);
    // The keyboard: > widens the selected cell's column, < narrows it.
    await page.click("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='3']");
    const w3 = await width(3);
    await page.keyboard.press(">");
    await page.keyboard.press(">");
    await page.keyboard.press("<");
    await page.waitForFunction(([sel, w]) => document.querySelector(sel).getBoundingClientRect().width > w, [head(3), w3]);
    const w3after = await width(3);
    // A sort draws the grid anew: the widths set stay.
    await page.click(`${head(0)} .grid-sort`);
    await page.waitForFunction((sel) => document.querySelector(sel).getAttribute("aria-sort") === "ascending", head(0));
    assert.equal(await width(1), fitted);
    assert.equal(await width(3), w3after);
    // Another file, opened on the page: widths of its own.
    await page.evaluate(() => (document.body.dataset.state = ""));
    await page.fill("[data-testid=url-input]", "/corpus/real/diamonds.default.cols");
    await page.click("[data-testid=url-open]");
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0']");
    assert.equal(await width(1), w1, "another file's column 1 at its own width");
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("the Data grid sizes integer columns by the footer's min and max: the widest int32 whole, a column of small counts narrow", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 } });
  try {
    const schema = [
      { name: "n", type: "int32", nullable: false },
      { name: "k", type: "int32", nullable: false },
      { name: "big", type: "int64", nullable: true },
    ];
    const cols = [
      [-2147483648, 2147483647, 0, -1],
      [1, 2, 3, 4],
      [-9223372036854775808n, null, 9223372036854775807n, 1n],
    ];
    const bytes = materialize(buildFile(schema, [{ offset: 5, columns: cols }]));
    await page.goto(server.base);
    await page.waitForSelector("body[data-ready='1']");
    await page.setInputFiles("[data-testid=file-input]", { name: "ints.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) });
    await waitState(page, "ready");
    await tab(page, "data");
    await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='3'] .grid-cell[data-col='2']:not([data-kind=pending])");
    const cols2 = await page.evaluate(() =>
      [0, 1, 2].map((c) => {
        const cells = [...document.querySelectorAll(`[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='${c}']`)];
        return { width: cells[0].getBoundingClientRect().width, cut: cells.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent) };
      }),
    );
    for (const [c, x] of cols2.entries()) assert.deepEqual(x.cut, [], `${schema[c].name}: no value cut (${x.width} px)`);
    assert.ok(cols2[1].width < 110, `k (one digit) is ${cols2[1].width} px wide, less than the 110 of any int32 before`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

test("the Data grid widens a float column to its widest value in the first rows (the footer does not bound a float's digits), never narrows one, and keeps the width through a sort", async () => {
  const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 } });
  try {
    // x's values take up to 24 characters, y's one; short names, so
    // neither header sets the width.
    const schema = [
      { name: "x", type: "float64", nullable: false },
      { name: "y", type: "float64", nullable: false },
    ];
    const x = [0.1 + 0.2, 1.5, -2.2250738585072014e-308, 1.7976931348623157e308];
    const bytes = materialize(buildFile(schema, [{ offset: 5, columns: [x, [1, 2, 3, 4]] }]));
    await page.goto(server.base);
    await page.waitForSelector("body[data-ready='1']");
    await page.setInputFiles("[data-testid=file-input]", { name: "floats.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) });
    await waitState(page, "ready");
    await tab(page, "data");
    const state = async () => {
      await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='3'] .grid-cell[data-col='1']:not([data-kind=pending])");
      await twoFramesOf(page);
      return page.evaluate(() =>
        [0, 1].map((c) => {
          const cells = [...document.querySelectorAll(`[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-col='${c}']`)];
          return { width: cells[0].getBoundingClientRect().width, cut: cells.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent), texts: cells.map((e) => e.textContent) };
        }),
      );
    };
    const [a, b] = await state();
    assert.deepEqual(a.texts, ["0.30000000000000004", "1.5", "-2.2250738585072014e-308", "1.7976931348623157e+308"]);
    assert.deepEqual(a.cut, [], `x: no value cut (${a.width} px)`);
    assert.equal(b.width, 140, "y, of one-digit values, keeps float64's width");
    // Sorted by y the other way (x's widest value no longer first): x's width stays.
    await page.click("[data-testid=data-grid-header][data-col='1'] .grid-sort");
    await page.click("[data-testid=data-grid-header][data-col='1'] .grid-sort");
    await page.waitForSelector("[data-testid=data-grid-header][data-col='1'][aria-sort=descending]");
    await page.waitForFunction(() => document.querySelector("[data-testid=data-grid] .grid-row[data-row='0']")?.dataset.fileRow === "3");
    const [a2] = await state();
    assert.equal(a2.width, a.width, "x's width after a sort");
    assert.deepEqual(log.errors, []);
  } finally {
    await page.context().close();
  }
});

const twoFramesOf = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
