// How the page looks and is used without a mouse: WCAG AA text contrast
// in the light and the dark theme, every view at 1000 and 700 px wide, the
// byte map by keyboard, repeated column names told apart by index, no
// spinning for those who ask for less motion, and one
// run with cross-origin isolation (the site works with and without it).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, shot, tab, waitState, corpus } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";

let server, browser;
const VIEWS = ["schema", "chunks", "layout", "detail", "data", "timing"];

/** A small file whose column names repeat (as comparison.cols has i, i, f, s, s). */
function repeatedNames() {
  const dir = path.join(os.tmpdir(), "columns-e2e");
  fs.mkdirSync(dir, { recursive: true });
  const schema = [{ name: "i", type: "int32", nullable: false }, { name: "i", type: "int32", nullable: false }, { name: "s", type: "string", nullable: true }, { name: "s", type: "string", nullable: false }];
  const n = 40;
  const cols = [Array.from({ length: n }, (_, k) => k), Array.from({ length: n }, (_, k) => 1000 - k), Array.from({ length: n }, (_, k) => (k % 3 ? `a${k}` : null)), Array.from({ length: n }, (_, k) => `b${k}`)];
  const file = buildFile(schema, [{ offset: 5, columns: cols.map((c) => c.slice(0, 20)) }, { offset: 2000, columns: cols.map((c) => c.slice(20)) }]);
  fs.writeFileSync(path.join(dir, "repeated-names.cols"), materialize(file));
  return dir;
}

before(async () => {
  server = await serve({ mounts: { "/corpus/": corpus, "/made/": repeatedNames() } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

/** Text whose contrast with what is behind it is under WCAG AA (4.5:1, or 3:1 for large text). */
async function lowContrast(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(c);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
    };
    const lum = ([r, g, b]) => {
      const f = (v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const over = (top, bottom) => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
    };
    const background = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg && bg[3] > 0) layers.push(bg);
        if (bg && bg[3] === 1) break;
      }
      let c = [255, 255, 255, 1];
      if (!layers.length || layers.at(-1)[3] < 1) c = getComputedStyle(document.documentElement).colorScheme.includes("dark") ? [0, 0, 0, 1] : c;
      for (const l of layers.reverse()) c = over(l, c);
      return c;
    };
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent.trim()) continue;
      seen.add(el);
      if (el.closest("svg, [hidden], .visually-hidden, option, noscript") || el.closest(":disabled")) continue;
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || st.visibility === "hidden" || Number(st.opacity) === 0) continue;
      const fg = parse(st.color);
      const bg = background(el);
      const color = over(fg, bg);
      const [a, b] = [lum(color), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      const size = parseFloat(st.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) out.push({ text: n.textContent.trim().slice(0, 40), cls: el.className?.baseVal ?? el.className, ratio: Number(ratio.toFixed(2)), color: st.color, bg: `rgb(${bg.slice(0, 3).map(Math.round).join(",")})` });
    }
    return out;
  });
}

async function openForLooks(page, file) {
  await page.goto(`${server.base}?url=${encodeURIComponent(file)}`);
  await waitState(page, "ready");
}

/** Brings each view into a state with content, then calls fn(view). */
async function eachView(page, fn) {
  for (const v of VIEWS) {
    await tab(page, v);
    if (v === "detail") await page.waitForSelector("[data-testid=profile][data-state=done]", { timeout: 30_000 });
    if (v === "data") await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not([data-kind=pending])");
    if (v === "timing" && !(await page.$("[data-testid=timing-result-row]"))) {
      await page.fill("[data-testid=timing-runs]", "3");
      await page.fill("[data-testid=timing-warmups]", "0");
      await page.click("[data-testid=timing-run]");
      await page.waitForSelector("[data-testid=timing-result-row]", { timeout: 60_000 });
    }
    if (v === "layout") await page.focus("[data-testid=layout-map]");
    await fn(v);
  }
}

for (const scheme of ["light", "dark"]) {
  test(`text contrast meets WCAG AA in the ${scheme} theme`, async () => {
    const { page, context } = await newPage(browser, server.origin, { colorScheme: scheme });
    await page.goto(server.base);
    await page.waitForSelector("body[data-ready='1']");
    const failures = [];
    const check = async (where) => {
      for (const f of await lowContrast(page)) failures.push({ where, ...f });
    };
    await check("welcome");
    await openForLooks(page, "/corpus/valid/tokenized_two_tokenizers.cols");
    await check("tokenizers");
    await openForLooks(page, "/corpus/real/diamonds.optimized.cols");
    await eachView(page, (v) => check(v));
    await shot(page, `40-theme-${scheme}`);
    await context.close();
    assert.deepEqual(failures, [], `${failures.length} texts below AA:\n${failures.map((f) => JSON.stringify(f)).join("\n")}`);
  });
}

for (const width of [1000, 700, 390]) {
  test(`every view holds at ${width} px wide`, async () => {
    const { page, context, log } = await newPage(browser, server.origin, { viewport: { width, height: width < 500 ? 844 : 900 } });
    await openForLooks(page, "/corpus/real/diamonds.optimized.cols");
    const overflow = [];
    const tiny = [];
    await eachView(page, async (v) => {
      // Nothing pushes the page sideways: wide tables and the grid scroll inside their own boxes.
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (wide > 0) overflow.push(`${v}: ${wide} px`);
      // Charts are drawn to scale: their labels stay legible (not shrunk with the chart).
      const small = await page.evaluate(() =>
        [...document.querySelectorAll("section:not([hidden]) svg text")]
          .map((t) => ({ text: t.textContent, h: t.getBoundingClientRect().height }))
          .filter((t) => t.h > 0 && t.h < 9),
      );
      if (small.length) tiny.push(`${v}: ${small.length} labels under 9 px, e.g. ${JSON.stringify(small[0])}`);
      await shot(page, `41-${width}px-${v}`);
    });
    await context.close();
    assert.deepEqual(overflow, []);
    assert.deepEqual(tiny, []);
    assert.deepEqual(log.errors, []);
  });
}

test("on a phone (390 x 844) the top bar leaves room: a usable URL field, the Samples menu on screen, grid headers in sight", async () => {
  const { page, context } = await newPage(browser, server.origin, { viewport: { width: 390, height: 844 } });
  await page.goto(server.base);
  await page.waitForSelector("body[data-ready='1']");
  const url = await page.$eval("[data-testid=url-input]", (e) => e.getBoundingClientRect().width);
  assert.ok(url >= 200, `the URL field is ${url} px wide`);
  await page.click("#samples-menu > summary");
  const menu = await page.$eval("#samples-menu-body", (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right };
  });
  assert.ok(menu.left >= 0 && menu.right <= 390, `the Samples menu spans ${menu.left}..${menu.right}`);
  await page.keyboard.press("Escape");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Samples", "Escape gives the focus back to the menu's button");
  // A sample card opened from the keyboard: the card goes, the focus moves to the file's tabs.
  await page.focus("[data-testid=sample-all-types]");
  await page.keyboard.press("Enter");
  await waitState(page, "ready");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "tab", "the focus is on the file's tabs");
  await openForLooks(page, "/corpus/real/diamonds.optimized.cols");
  await tab(page, "data");
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not([data-kind=pending])");
  // Scrolled to the grid, its header row is not under the top bar.
  await page.$eval("[data-testid=data-grid]", (g) => g.scrollIntoView({ block: "start" }));
  const covered = await page.evaluate(() => {
    const head = document.querySelector("[data-testid=data-grid] .grid-head").getBoundingClientRect();
    const bar = document.querySelector(".topbar").getBoundingClientRect();
    return bar.bottom > head.top + 1 ? bar.bottom - head.top : 0;
  });
  assert.equal(covered, 0, "the top bar covers the grid's header row");
  await shot(page, "42-phone-data");
  await context.close();
});

test("the byte map is one tab stop; arrow keys move, Enter selects and keeps the focus", async () => {
  const { page, context } = await newPage(browser, server.origin);
  await openForLooks(page, "/corpus/valid/nulls.cols");
  await tab(page, "layout");
  const want = readJson(expectedPath(path.join(corpus, "valid/nulls.cols")));
  // One tab stop for the whole map.
  assert.equal(await page.$$eval("[data-testid=layout-map] [tabindex]", (x) => x.length), 0);
  assert.equal(await page.getAttribute("[data-testid=layout-map]", "tabindex"), "0");
  // A boundary mark for each row group.
  assert.equal(await page.$$eval("[data-testid=rg-boundary]", (x) => x.length), want.row_groups.length);
  // One colour per column, the same in every row group.
  const fills = await page.$$eval("[data-testid=layout-region][data-kind=chunk] rect", (rs) => rs.map((r) => [r.parentElement.dataset.col, r.getAttribute("fill")]));
  const byCol = new Map();
  for (const [c, f] of fills) byCol.set(c, new Set([...(byCol.get(c) || []), f]));
  assert.ok([...byCol.values()].every((s) => s.size === 1), "one colour per column");
  assert.equal(new Set([...byCol.values()].map((s) => [...s][0])).size, want.schema.length, "distinct colours");
  await page.focus("[data-testid=layout-map]");
  const active = () => page.$eval("[data-testid=layout-map]", (svg) => {
    const g = document.getElementById(svg.getAttribute("aria-activedescendant"));
    return { kind: g.dataset.kind, rg: g.dataset.rg, col: g.dataset.col };
  });
  assert.deepEqual(await active(), { kind: "chunk", rg: "0", col: "0" });
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await active(), { kind: "chunk", rg: "0", col: "1" });
  await page.keyboard.press("ArrowDown");
  assert.deepEqual(await active(), { kind: "chunk", rg: "1", col: "1" });
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "layout-map", "the focus stays on the map");
  assert.equal(await page.getAttribute("[data-testid=layout-region][data-rg='1'][data-col='1']", "aria-selected"), "true");
  assert.match(page.url(), /rg=1/);
  assert.match(page.url(), /col=1/);
  await shot(page, "42-layout-keyboard");
  await page.click("[data-testid=layout-open-detail]");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=detail-encoding]");
  assert.equal(await page.inputValue("[data-testid=detail-rg]"), "1");
  await context.close();
});

test("the byte map's header, footer and tail show their tooltip under the pointer, in a small file and a big one", async () => {
  const { page, context } = await newPage(browser, server.origin);
  // (nulls: 10 KB in 8 lines, its regions a few pixels wide; movielens: 1.8 MB in 16 lines, where 5 or 8 bytes are a hair)
  for (const file of ["/corpus/valid/nulls.cols", "/corpus/real/movielens.default.cols"]) {
    await openForLooks(page, file);
    await tab(page, "layout");
    for (const [kind, title] of [["header", /^Header: /], ["footer", /^Footer: /], ["tail", /^Tail: /]]) {
      // The middle of each piece the region is drawn in (the footer may wrap over lines).
      const boxes = await page.$$eval(`[data-testid=layout-region][data-kind=${kind}] rect`, (rs) => rs.map((r) => r.getBoundingClientRect().toJSON()));
      for (const b of boxes) {
        await page.mouse.move(5, 5);
        await page.evaluate(() => (document.getElementById("tooltip").hidden = true));
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
        const under = await page.evaluate(([x, y]) => {
          const e = document.elementFromPoint(x, y);
          return e?.closest("[data-testid=layout-region]")?.dataset.kind ?? `${e?.tagName}.${e?.getAttribute("class")}`;
        }, [b.x + b.width / 2, b.y + b.height / 2]);
        assert.equal(under, kind, `${file}: what is under the pointer in the ${kind}'s middle`);
        assert.equal(await page.isVisible("#tooltip"), true, `${file}: ${kind}'s tooltip`);
        assert.match(await page.textContent("#tooltip .tt-title"), title, `${file}: ${kind}'s tooltip`);
      }
    }
  }
  await context.close();
});

test("repeated column names carry their index everywhere", async () => {
  const { page, context } = await newPage(browser, server.origin);
  await openForLooks(page, "/made/repeated-names.cols");
  await tab(page, "data");
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not([data-kind=pending])");
  const heads = await page.$$eval("[data-testid=data-grid-header] .colname", (x) => x.map((e) => e.textContent));
  assert.deepEqual(heads, ["i #0", "i #1", "s #2", "s #3"]);
  // File-wide rows across the two row groups.
  assert.equal(await page.textContent("[data-testid=data-grid] .grid-row[data-row='21'] .grid-cell[data-col='1']"), String(1000 - 21));
  await tab(page, "layout");
  const legend = await page.$$eval("[data-testid=panel-layout] .legend .colname", (x) => x.map((e) => e.textContent));
  assert.deepEqual(legend, ["i #0", "i #1", "s #2", "s #3"]);
  await tab(page, "timing");
  await page.fill("[data-testid=timing-runs]", "2");
  await page.fill("[data-testid=timing-warmups]", "0");
  await page.click("[data-testid=timing-run]");
  await page.waitForSelector("[data-testid=timing-result-row]");
  const labels = await page.$$eval("[data-testid=timing-chart] .row-label", (x) => x.map((e) => e.lastChild.textContent));
  assert.deepEqual(labels, ["i #0", "i #1", "s #2", "s #3"]);
  // Exports name them the same way.
  await tab(page, "data");
  await page.click("[data-testid=export-toggle]");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-run]")]);
  const csv = fs.readFileSync(await dl.path(), "utf8").split("\r\n");
  assert.equal(csv[0], "i #0,i #1,s #2,s #3");
  assert.equal(csv[1], '0,1000,,b0');
  assert.equal(csv[2], "1,999,a1,b1");
  await shot(page, "43-repeated-names");
  await context.close();
});

test("work starting moves nothing in the top bar or below it: the status is as wide at rest as busy, at any width", async () => {
  for (const width of [1400, 1100, 1000, 900, 760, 390]) {
    const { page, context, log } = await newPage(browser, server.origin, { viewport: { width, height: 800 } });
    await page.goto(`${server.base}?url=${encodeURIComponent("/corpus/valid/all_types_small.cols")}`);
    await waitState(page, "ready");
    const geometry = () =>
      page.evaluate(() => {
        const box = (sel) => document.querySelector(sel).getBoundingClientRect();
        return { bar: box(".topbar").height, url: box("#url-input").width, openUrl: box("[data-testid=url-open]").left, samples: box("#samples-menu").left, main: box("#main").top };
      });
    const rest = await geometry();
    // Busy as the page makes it (app.js's status line), with a long label and its progress.
    await page.evaluate(() => {
      document.querySelector("[data-testid=status]").classList.add("busy");
      document.querySelector("#status-text").innerHTML = '<span class="status-what">Sorting: reading the sort keys of every row group:</span><span class="status-detail"><span class="status-gap"> </span>row group 13 of 46</span>';
      document.querySelector("#cancel-button").disabled = false;
    });
    assert.deepEqual(await geometry(), rest, `${width} px wide`);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

test("asked for less motion (prefers-reduced-motion), the busy spinner stands still; otherwise it turns", async () => {
  for (const reducedMotion of ["no-preference", "reduce"]) {
    const { page, context, log } = await newPage(browser, server.origin, { reducedMotion });
    await page.goto(server.base);
    await page.waitForSelector("body[data-ready='1']");
    const spin = await page.evaluate(() => {
      document.querySelector("[data-testid=status]").classList.add("busy");
      const s = getComputedStyle(document.querySelector("[data-testid=status] .spinner"));
      return { name: s.animationName, visible: s.visibility };
    });
    assert.equal(spin.visible, "visible", reducedMotion);
    assert.equal(spin.name, reducedMotion === "reduce" ? "none" : "spin", reducedMotion);
    assert.deepEqual(log.errors, []);
    await context.close();
  }
});

test("with cross-origin isolation too: fine timers, SQL and the pool", async () => {
  const iso = await serve({ isolate: true, mounts: { "/corpus/": corpus } });
  try {
    const { page, context, log } = await newPage(browser, iso.origin);
    await page.goto(`${iso.base}?url=${encodeURIComponent("/corpus/real/diamonds.optimized.cols")}&tab=timing`);
    await waitState(page, "ready");
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    await page.fill("[data-testid=timing-runs]", "3");
    await page.check("[data-testid=timing-scope-pool]");
    await page.check("[data-testid=timing-mode-memory]");
    await page.click("[data-testid=timing-run]");
    await page.waitForSelector("[data-testid=timing-whole-row]", { timeout: 60_000 });
    assert.doesNotMatch(await page.textContent("[data-testid=panel-timing]"), /coarse/);
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
    await page.fill("[data-testid=sql-input]", "SELECT count(*) FROM t");
    await page.click("[data-testid=sql-run]");
    await page.waitForSelector("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']:not([data-kind=pending])");
    assert.equal(await page.textContent("[data-testid=sql-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']"), "53940");
    await shot(page, "44-isolated-sql");
    assert.deepEqual(log.foreign, []);
    assert.deepEqual(log.errors, []);
    await context.close();
  } finally {
    iso.stop();
  }
});
