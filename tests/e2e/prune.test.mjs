// The Data tab's filter leaves out the row groups whose footer statistics
// (each chunk's min and max, its null count) show that no row of theirs
// passes a condition (www/js/filter.js excludedByStats): over a URL, a
// filter on a sorted column asks the server for the matching row groups'
// chunks only (QA: n > 7990000 on 400 row groups read 32 MB in 399
// requests for the last one). Where the statistics say nothing certain
// they are read: a float chunk whose first value is NaN (the writer
// records NaN for both), -0 against 0 (the filter's = counts -0 with 0,
// and the writer keeps the first of them), a chunk without statistics.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { openInspector, waitState, gridDrawn, tab, rangeAnswer } from "./harness.mjs";
import { buildFile, materialize, withFooter, TYPES } from "../node/synth.mjs";

const G = 40;
const ROWS = 1000;
const f64 = (x) => new Uint8Array(Float64Array.of(x).buffer);
const none = { minVal: new Uint8Array(0), maxVal: new Uint8Array(0), minLen: 0, maxLen: 0 };

// n: the row number (sorted); s: "k" and it in five digits (sorted);
// x: the row number as a float, but in row group 0 a NaN first, all -0 in
// row group 1, 0 then -0 in row group 2.
const schema = [
  { name: "n", type: "int32", nullable: false },
  { name: "s", type: "string", nullable: false },
  { name: "x", type: "float64", nullable: false },
];
const built = buildFile(
  schema,
  Array.from({ length: G }, (_, g) => {
    const n = Array.from({ length: ROWS }, (_, i) => g * ROWS + i);
    const x = g === 0 ? n.map((v, i) => (i === 0 ? NaN : v)) : g === 1 ? n.map(() => -0) : g === 2 ? n.map((_, i) => (i === 0 ? 0 : -0)) : n;
    return { columns: [n, n.map((v) => `k${String(v).padStart(5, "0")}`), x] };
  }),
);
// The statistics as the reference writer leaves them (FORMAT.md): NaN
// first, NaN for both; 0 then -0, 0 for both (replaced on a strict < or >
// only). Row group 3's x and row group 39's n have none.
const groups = built.rowGroups.map((rg, g) => ({
  ...rg,
  columns: rg.columns.map((cm, c) => {
    if (c === 2 && g === 0) return { ...cm, minVal: f64(NaN), maxVal: f64(NaN) };
    if (c === 2 && g === 2) return { ...cm, minVal: f64(0), maxVal: f64(0) };
    if ((c === 2 && g === 3) || (c === 0 && g === G - 1)) return { ...cm, ...none };
    return cm;
  }),
}));
const sorted = withFooter(materialize(built), built.footerStart, { schema: schema.map((s) => ({ name: s.name, type: TYPES[s.type], nullable: s.nullable })), rowGroups: groups });

// A second file for "any text column": s as above, t descending ("m"
// and 9,999 minus the row number); t's chunk in row group 5 without
// statistics. A row group is ruled out only where both s's and t's are.
// (`ranges` says which row groups' chunks a search read.)
const TG = 20;
const TROWS = 500;
const tSchema = [
  { name: "n", type: "int32", nullable: false },
  { name: "s", type: "string", nullable: false },
  { name: "t", type: "string", nullable: false },
];
const tRows = Array.from({ length: TG * TROWS }, (_, r) => ({ s: `k${String(r).padStart(5, "0")}`, t: `m${String(TG * TROWS - 1 - r).padStart(5, "0")}` }));
const tBuilt = buildFile(
  tSchema,
  Array.from({ length: TG }, (_, g) => {
    const rows = tRows.slice(g * TROWS, (g + 1) * TROWS);
    // (row groups 128 KiB apart: no read of another's chunks, or of the
    // chunk headers as the file opens, holds a row group's chunks too)
    return { offset: 5 + g * 131072, columns: [rows.map((_, i) => g * TROWS + i), rows.map((r) => r.s), rows.map((r) => r.t)] };
  }),
);
const tBytes = withFooter(materialize(tBuilt), tBuilt.footerStart, {
  schema: tSchema.map((x) => ({ name: x.name, type: TYPES[x.type], nullable: x.nullable })),
  rowGroups: tBuilt.rowGroups.map((rg, g) => ({ ...rg, columns: rg.columns.map((cm, c) => (c === 2 && g === 5 ? { ...cm, ...none } : cm)) })),
});

// A Range server that logs each range it answers.
const ranges = [];
const server = http.createServer((req, res) => {
  const bytes = req.url.endsWith("/text.cols") ? tBytes : sorted;
  const { status, headers, start, end } = rangeAnswer(req, bytes.length);
  if (req.method === "OPTIONS") return res.writeHead(204, headers).end();
  if (req.method !== "HEAD") ranges.push({ start, end });
  res.writeHead(status, headers);
  res.end(req.method === "HEAD" ? undefined : Buffer.from(bytes.subarray(start, end)));
});

let ins;
let url;
before(async () => {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${server.address().port}/sorted.cols`;
  ins = await openInspector();
});
after(async () => {
  await ins?.close();
  server.close();
});

/** Applies the one condition `c op text`; the status line once done. */
async function filter(page, c, op, text) {
  if (!(await page.$("[data-testid=filter-row]"))) await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-col]", String(c));
  await page.selectOption("[data-testid=filter-op]", op);
  if (text !== null) await page.fill("[data-testid=filter-value]", text);
  return newView(page, () => page.click("[data-testid=filter-apply]"));
}

/** Does `act` and waits for the view it makes; the status line once done. */
async function newView(page, act) {
  const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
  await act();
  await page.waitForFunction((v) => {
    const p = document.querySelector("[data-testid=panel-data]");
    return p.dataset.view !== v && !p.dataset.busy;
  }, before);
  await gridDrawn(page);
  return page.textContent("[data-testid=data-status]");
}

/** Clicks column c's header (ascending, descending, file order); the status line once done. */
async function sortBy(page, c) {
  return newView(page, () => page.click(`[data-testid=data-grid-header][data-col='${c}'] button`));
}

/** The row groups some range read since `from` touched, in chunks of columns `cols` (of `file`'s). */
function groupsRead(from, cols, file = built) {
  const read = new Set();
  for (const r of ranges.slice(from)) {
    file.chunks.forEach((chunks, g) => {
      for (const c of cols) if (r.start < chunks[c].end && chunks[c].start < r.end) read.add(g);
    });
  }
  return [...read].sort((a, b) => a - b);
}

test("a filter on a sorted column reads only the row groups its statistics leave possible; a row group without statistics is read", async () => {
  const { page, log } = ins;
  await page.fill("[data-testid=url-input]", url);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await tab(page, "data");
  await gridDrawn(page);

  let from = ranges.length;
  // Rows 38,500 to 39,999: row group 38 by its statistics, 39 as it has none for n.
  let status = await filter(page, 0, ">=", "38500");
  assert.match(status, /^1,500 of 40,000 rows, where n ≥ 38500/);
  assert.deepEqual(groupsRead(from, [0, 1, 2]), [38, 39]);
  assert.match(status, /38 of 40 row groups not read: their statistics rule the filter out/);

  // Sorted, the filter's rows: the sort reads the row groups they are in only.
  from = ranges.length;
  status = await sortBy(page, 2);
  assert.match(status, /^1,500 of 40,000 rows, where n ≥ 38500, sorted by x ascending/);
  assert.deepEqual(groupsRead(from, [0, 1, 2]).filter((g) => g !== 38 && g !== 39), []);
  await sortBy(page, 2);
  assert.match(await sortBy(page, 2), /in file order/);

  from = ranges.length;
  // Strings bytewise: "k385" starts rows 38,500 to 38,599 only.
  status = await filter(page, 1, "starts", "k385");
  assert.match(status, /^100 of 40,000 rows, where s starts with k385/);
  assert.match(status, /39 of 40 row groups not read/);
  // (row group 38's chunks were read for the rows shown before: kept)
  assert.deepEqual(groupsRead(from, [0, 1, 2]).filter((g) => g !== 38), []);

  from = ranges.length;
  status = await filter(page, 0, "<", "1000");
  assert.match(status, /^1,000 of 40,000 rows/);
  assert.deepEqual(groupsRead(from, [0, 1, 2]).filter((g) => g !== 0 && g !== 39), []);
  assert.deepEqual(log.errors, []);
});

test("statistics that prove nothing prune nothing: NaN bounds, -0 against 0, a chunk without them", async () => {
  const { page, log } = ins;
  // (the file of the test before, still open)
  // x = 0: row groups 1 and 2 (all -0, and 0 then -0 recorded as 0 to 0).
  assert.match(await filter(page, 2, "=", "0"), /^2,000 of 40,000 rows, where x = 0/);
  assert.match(await filter(page, 2, "=", "-0"), /^2,000 of 40,000 rows/);
  assert.match(await filter(page, 2, "<=", "-0"), /^2,000 of 40,000 rows/);
  // x = 5: in row group 0, whose statistics are NaN.
  let status = await filter(page, 2, "=", "5");
  assert.match(status, /^1 of 40,000 rows/);
  // x = 3500: in row group 3, which has none.
  status = await filter(page, 2, "=", "3500");
  assert.match(status, /^1 of 40,000 rows/);
  assert.match(status, /38 of 40 row groups not read/); // (0 and 3 read)
  // is NaN: never pruned.
  assert.match(await filter(page, 2, "nan", null), /^1 of 40,000 rows/);

  // Cleared: the file's rows as they are, no computation to time (QA saw
  // "computed in 0.000 ms in the worker" after a Clear, and after a search
  // stopped then).
  const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
  await page.click("[data-testid=filter-clear]");
  await page.waitForFunction((v) => document.querySelector("[data-testid=panel-data]").dataset.view !== v, before);
  assert.equal(await page.textContent("[data-testid=data-status]"), "40,000 rows, in file order");
  assert.deepEqual(log.errors, []);
});

test("any text column, = and starts with: a row group is not read where every string column's statistics rule it out, and read where one column's do not (or it has none); contains reads every row group", async () => {
  const { page, log } = ins;
  await page.fill("[data-testid=url-input]", url.replace(/sorted\.cols$/, "text.cols"));
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await tab(page, "data");
  await gridDrawn(page);
  // The rows a search passes, counted here from the values themselves: a
  // row group the page left out holding one would make its count short.
  const count = (test) => tRows.filter((r) => test(r.s) || test(r.t)).length;
  const search = async (op, text) => {
    const from = ranges.length;
    const status = await filter(page, -1, op, text);
    return { status, read: groupsRead(from, [1, 2], tBuilt) };
  };
  const fmt = (n) => n.toLocaleString("en-US");

  // "k012": rows 1,200 to 1,299 (s, row group 2); t starts with m in every
  // row group, ruled out everywhere but row group 5 (no statistics).
  let r = await search("starts", "k012");
  assert.equal(count((v) => v.startsWith("k012")), 100);
  assert.match(r.status, /^100 of 10,000 rows, where any text column starts with k012/);
  assert.match(r.status, /18 of 20 row groups not read: their statistics rule the filter out/);
  assert.deepEqual(r.read.filter((g) => g !== 0), [2, 5]); // (0: read for the rows shown first)

  // t = m09999: row 0 (row group 0); s rules out every row group.
  r = await search("=", "m09999");
  assert.match(r.status, /^1 of 10,000 rows, where any text column = m09999/);
  assert.match(r.status, /18 of 20 row groups not read/);
  assert.deepEqual(r.read.filter((g) => g !== 2 && g !== 5), [0].filter(() => false)); // (0, 2 and 5 decoded and kept)

  // t = m05000: row 4,999 (row group 9), s = k05000: row 5,000 (row group 10).
  r = await search("=", "m04999");
  assert.equal(count((v) => v === "m04999"), 1);
  assert.match(r.status, /^1 of 10,000 rows/);
  assert.match(r.status, /18 of 20 row groups not read/); // (10 and 5)
  assert.deepEqual(r.read.filter((g) => g !== 5), [10]);

  // Starting with "m": t's statistics rule out no row group, s's all: every one is read.
  r = await search("starts", "m");
  assert.match(r.status, /^10,000 rows, where any text column starts with m/);
  assert.doesNotMatch(r.status, /not read/);
  assert.deepEqual([...new Set([...r.read, 0, 2, 5, 10])].sort((a, b) => a - b), [...Array(TG).keys()]); // (those four kept from before)

  // Contains: no statistics rule it out.
  r = await search("contains", "k012");
  assert.match(r.status, new RegExp(`^${fmt(count((v) => v.includes("k012")))} of 10,000 rows, where any text column contains k012`));
  assert.doesNotMatch(r.status, /not read/);
  assert.deepEqual(log.errors, []);
});
