// The Schema, Chunks, Byte layout and Column detail tabs by keyboard and in
// both colour schemes: the byte map's selection is one (the chunk marked,
// aria-selected and where the keys start), a row opened from a table puts
// the focus in Column detail, a table sorted from the keyboard keeps the
// focus on the header's button, and the block bars' caption is true in the
// light and the dark scheme, where each bar stands out at 3:1.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serve, launch, newPage, tab, waitState, corpus } from "./harness.mjs";

let server, browser;

before(async () => {
  server = await serve({ mounts: { "/corpus/": corpus } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function open(file, options = {}) {
  const { page, context } = await newPage(browser, server.origin, options);
  await page.goto(`${server.base}?url=${encodeURIComponent(file)}`);
  await waitState(page, "ready");
  return { page, context };
}

/** The focused element as "testid" or "tag[data-key]" in its table, "BODY" when none. */
const focused = (page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body) return "BODY";
    const th = e.closest("th[data-key]");
    if (th) return `${th.closest("table").dataset.testid} sort ${th.dataset.key}`;
    return e.dataset.testid || e.tagName;
  });

/** The byte map's chunks marked: by the `selected` class, by aria-selected, and the one the keys start at. */
async function mapMarks(page) {
  const marked = await page.$$eval("[data-testid=layout-region]", (gs) => ({
    selected: gs.filter((g) => g.classList.contains("selected")).map((g) => `${g.dataset.rg}:${g.dataset.col}`),
    aria: gs.filter((g) => g.getAttribute("aria-selected") === "true").map((g) => `${g.dataset.rg}:${g.dataset.col}`),
  }));
  await page.focus("[data-testid=layout-map]");
  const active = await page.$eval("[data-testid=layout-map]", (svg) => {
    const g = document.getElementById(svg.getAttribute("aria-activedescendant"));
    return `${g.dataset.rg}:${g.dataset.col}`;
  });
  return { ...marked, active };
}

test("the byte map's selection is one: the chunk marked, aria-selected and where the keys start", async () => {
  const { page, context } = await open("/corpus/real/zipcodes.default.cols");
  await tab(page, "layout");
  assert.deepEqual(await mapMarks(page), { selected: ["0:0"], aria: ["0:0"], active: "0:0" });
  // A click on chunk 0:3 opens its detail; back on the map, 0:3 is the selection.
  await page.click("[data-testid=layout-region][data-rg='0'][data-col='3'] rect");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden])");
  await tab(page, "layout");
  assert.deepEqual(await mapMarks(page), { selected: ["0:3"], aria: ["0:3"], active: "0:3" });
  // Picked in the Chunks table: the same.
  await tab(page, "chunks");
  await page.click("[data-testid=chunk-row][data-rg='0'][data-col='1']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden])");
  await tab(page, "layout");
  assert.deepEqual(await mapMarks(page), { selected: ["0:1"], aria: ["0:1"], active: "0:1" });
  // Selected on the map by Enter: the keys go on from there after the focus leaves and comes back.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await page.focus("[data-testid=tab-layout]");
  assert.deepEqual(await mapMarks(page), { selected: ["0:2"], aria: ["0:2"], active: "0:2" });
  await context.close();
});

test("Enter on a Chunks or Schema row, or on the byte map's Open in Column detail, opens Column detail with the focus on the chunk's heading", async () => {
  const { page, context } = await open("/corpus/real/birdstrikes.optimized.cols");
  await tab(page, "chunks");
  await page.waitForSelector("[data-testid=chunk-table][data-complete='1']");
  await page.focus("[data-testid=chunk-row][data-rg='0'][data-col='3']");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden])");
  assert.equal(await focused(page), "detail-title");
  assert.ok(await page.$eval("[data-testid=detail-title]", (e) => !!e.closest("[data-testid=panel-detail]")));
  assert.match(await page.textContent("[data-testid=detail-title]"), /row group 0/);
  // (the heading stays the one focused once the chunk's report is drawn)
  await page.waitForSelector("[data-testid=detail-encoding]");
  assert.equal(await focused(page), "detail-title");
  // Tab goes on inside Column detail, not from the top of the page.
  await page.keyboard.press("Tab");
  assert.ok(await page.evaluate(() => !!document.activeElement.closest("[data-testid=panel-detail]")));

  await tab(page, "schema");
  await page.focus("[data-testid=schema-row][data-col='2']");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden])");
  assert.equal(await focused(page), "detail-title");
  assert.equal(await page.inputValue("[data-testid=detail-col]"), "2");

  // The byte map's "Open in Column detail", pressed from the keyboard: the same.
  await tab(page, "layout");
  await page.focus("[data-testid=layout-map]");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await page.focus("[data-testid=layout-open-detail]");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden])");
  assert.equal(await focused(page), "detail-title");
  assert.equal(await page.inputValue("[data-testid=detail-col]"), "3");
  await context.close();
});

test("Column detail's row group and column fields keep the focus when they change the chunk shown", async () => {
  const { page, context } = await open("/corpus/valid/nulls.cols");
  await tab(page, "detail");
  await page.waitForSelector("[data-testid=detail-encoding]");
  for (const field of ["detail-col", "detail-rg"]) {
    const before = await page.inputValue(`[data-testid=${field}]`);
    await page.focus(`[data-testid=${field}]`);
    // (a closed select changes its value on an arrow key)
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction((t) => document.querySelector(".detail-title")?.textContent.includes(t), field === "detail-rg" ? "row group 1" : "");
    assert.notEqual(await page.inputValue(`[data-testid=${field}]`), before, `${field} changed`);
    assert.equal(await focused(page), field);
  }
  assert.match(await page.textContent("[data-testid=detail-title]"), /row group 1 /);
  await context.close();
});

test("a table sorted from the keyboard keeps the focus on the header's sort button", async () => {
  const { page, context } = await open("/corpus/real/birdstrikes.optimized.cols");
  // (each by its Stored column)
  for (const [view, table, key] of [["schema", "schema-table", "stored"], ["chunks", "chunk-table", "stored"], ["layout", "layout-table", "len"]]) {
    await tab(page, view);
    const button = `[data-testid=${table}] th[data-key=${key}] button`;
    await page.focus(button);
    await page.keyboard.press("Enter");
    assert.equal(await focused(page), `${table} sort ${key}`, `${table}: after the first Enter`);
    assert.equal(await page.getAttribute(`[data-testid=${table}] th[data-key=${key}]`, "aria-sort"), "descending");
    // A second Enter, on the same button: the other way, the focus still there.
    await page.keyboard.press("Enter");
    assert.equal(await focused(page), `${table} sort ${key}`, `${table}: after the second Enter`);
    assert.equal(await page.getAttribute(`[data-testid=${table}] th[data-key=${key}]`, "aria-sort"), "ascending");
  }
  // Every table sorts the same way (js/table.js): the profiles' too.
  await tab(page, "schema");
  await page.click("[data-testid=profiles-run]");
  await page.waitForSelector("[data-testid=profiles-table][data-complete='1']", { timeout: 60_000 });
  await page.focus("[data-testid=profiles-table] th[data-key=distinct] button");
  await page.keyboard.press("Enter");
  assert.equal(await focused(page), "profiles-table sort distinct", "profiles-table: after Enter");
  assert.notEqual(await page.getAttribute("[data-testid=profiles-table] th[data-key=distinct]", "aria-sort"), "none");
  await context.close();
});

test("the block bars' key is true in the light and the dark scheme: the encoded bar faint but edged at 3:1, the stored bar solid, as their swatches", async () => {
  for (const colorScheme of ["light", "dark"]) {
    const { page, context } = await open("/corpus/real/birdstrikes.optimized.cols", { colorScheme });
    await tab(page, "detail");
    await page.waitForSelector("[data-testid=block-row]");
    const seen = await page.evaluate(() => {
      const rgba = (c) => {
        const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(c);
        return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
      };
      // The colour drawn: the element's background at its opacity over the first opaque background behind it.
      const drawn = (el) => {
        let behind = null;
        for (let p = el.parentElement; p && !behind; p = p.parentElement) {
          const c = rgba(getComputedStyle(p).backgroundColor);
          if (c[3] === 1) behind = c;
        }
        behind ??= getComputedStyle(document.documentElement).colorScheme.includes("dark") ? [0, 0, 0, 1] : [255, 255, 255, 1];
        const st = getComputedStyle(el);
        const over = (c) => {
          const a = c[3] * Number(st.opacity);
          return [0, 1, 2].map((i) => Math.round(c[i] * a + behind[i] * (1 - a)));
        };
        // Its edge, if any: a border or an inset shadow's spread of 1px or more, as drawn.
        let edge = null;
        if (parseFloat(st.borderTopWidth) >= 1 && st.borderTopStyle !== "none") edge = over(rgba(st.borderTopColor));
        const shadow = /^(rgba?\([^)]*\)) 0px 0px 0px ([\d.]+)px inset$/.exec(st.boxShadow);
        if (shadow && Number(shadow[2]) >= 1) edge = over(rgba(shadow[1]));
        return { color: over(rgba(st.backgroundColor)), edge, behind };
      };
      const lum = ([r, g, b]) => [r, g, b].map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
      const contrast = (x, y) => (Math.max(lum(x), lum(y)) + 0.05) / (Math.min(lum(x), lum(y)) + 0.05);
      const out = {};
      for (const kind of ["raw", "stored"]) {
        const bar = drawn(document.querySelector(`[data-testid=block-row] .bar.${kind}`));
        const key = document.querySelector(`[data-testid=blocks-key-${kind}]`);
        const drawnKey = key && drawn(key);
        out[kind] = {
          bar: bar.color,
          againstBehind: contrast(bar.color, bar.behind),
          edge: bar.edge,
          edgeAgainstBehind: bar.edge && contrast(bar.edge, bar.behind),
          key: drawnKey?.color,
          keyEdge: drawnKey?.edge,
          label: key?.parentElement.textContent.trim(),
        };
      }
      return out;
    });
    assert.ok(seen.raw.key && seen.stored.key, `${colorScheme}: a swatch for each bar in the caption`);
    assert.deepEqual(seen.raw.key, seen.raw.bar, `${colorScheme}: the encoded swatch is drawn as the encoded bar`);
    assert.deepEqual(seen.stored.key, seen.stored.bar, `${colorScheme}: the stored swatch is drawn as the stored bar`);
    assert.deepEqual(seen.raw.keyEdge, seen.raw.edge, `${colorScheme}: the encoded swatch has the encoded bar's edge`);
    // A graphic that carries meaning stands out at 3:1 (WCAG 1.4.11): the
    // faint encoded bar by its edge, the solid one by its fill.
    assert.ok(Math.max(seen.raw.againstBehind, seen.raw.edgeAgainstBehind ?? 0) >= 3, `${colorScheme}: the encoded bar against what is behind it: ${JSON.stringify(seen.raw)}`);
    assert.ok(seen.stored.againstBehind >= 3, `${colorScheme}: the stored bar: ${JSON.stringify(seen.stored)}`);
    assert.match(seen.raw.label, /^encoded\b/);
    assert.match(seen.stored.label, /^stored\b/);
    // "outlined" (its fill faint) and "solid": the encoded bar's fill stands out less from what is behind it.
    assert.ok(seen.raw.againstBehind < seen.stored.againstBehind, `${colorScheme}: ${JSON.stringify(seen)}`);
    const caption = await page.$eval("[data-testid=blocks-key]", (e) => e.textContent);
    assert.doesNotMatch(caption, /\b(light|dark)\b/, "no word that one scheme makes false");
    await context.close();
  }
});
