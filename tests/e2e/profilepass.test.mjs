// A number column's profile reads the column once when the footer's
// statistics give its exact range: its histogram is counted in the same
// pass over that range. Where they do not (a minimum that is not the
// column's), the histogram counted so is dropped and a second pass counts
// it over the exact range. Either way the bars are the same, checked here
// against the values the file was made of, binned by the rule the page
// states (40 bins over minimum..maximum; for integers, whole bins of
// ceil((max - min + 1) / 40) values).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, dropFile, tab } from "./harness.mjs";
import { buildFile, materialize, withFooter, TYPES } from "../node/synth.mjs";

const SCHEMA = [
  { name: "v", type: "int32", nullable: false },
  { name: "f", type: "float64", nullable: true },
];
const N = 1000;
// Skewed, so that a histogram over a wrong range has other counts.
const v = Array.from({ length: N }, (_, i) => Math.floor((i * i) / 1000) + 7);
const f = Array.from({ length: N }, (_, i) => (i % 10 === 0 ? null : Math.sqrt(i) * 1.5 - 3));
const groups = [0, 1].map((g) => ({ columns: [v.slice(g * 500, g * 500 + 500), f.slice(g * 500, g * 500 + 500)] }));

function file({ lie }) {
  const built = buildFile(SCHEMA, groups);
  const bytes = materialize(built);
  if (!lie) return bytes;
  // Row group 1's minimum of v said to be 3, below every value (the file's is 7).
  const rowGroups = built.rowGroups.map((rg, g) => ({ ...rg, columns: rg.columns.map((cm, c) => (g === 1 && c === 0 ? { ...cm, minVal: Uint8Array.of(3, 0, 0, 0) } : cm)) }));
  return withFooter(bytes, built.footerStart, { schema: SCHEMA.map((s) => ({ name: s.name, type: TYPES[s.type], nullable: s.nullable })), rowGroups });
}

/** The histogram the page states: 40 bins (integers: whole ones) over min..max. */
function bins(values, integer) {
  const xs = values.filter((x) => x !== null);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const n = integer && hi - lo + 1 <= 40 ? hi - lo + 1 : 40;
  const width = integer ? (n < 40 ? 1 : Math.ceil((hi - lo + 1) / 40)) : (hi - lo) / 40;
  const out = new Array(n).fill(0);
  for (const x of xs) out[Math.min(n - 1, Math.floor((x - lo) / width))]++;
  return out;
}

let ins;
before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } });
});
after(async () => {
  await ins?.close();
});

async function profile(page, c) {
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", String(c));
  await page.waitForSelector(`[data-testid=profile][data-state=done][data-col='${c}']`, { timeout: 30_000 });
  return {
    passes: await page.getAttribute("[data-testid=profile]", "data-passes"),
    bars: await page.$$eval("[data-testid=histogram-bar]", (bs) => bs.map((b) => Number(b.dataset.count))),
    min: await page.textContent("[data-testid=profile-min]"),
  };
}

test("footer statistics that hold: one pass, and the histogram of the values", async () => {
  const { page } = ins;
  await dropFile(page, { name: "honest.cols", bytes: file({ lie: false }) });
  const pv = await profile(page, 0);
  assert.deepEqual(pv.bars, bins(v, true));
  assert.equal(pv.passes, "1");
  assert.match(pv.min, /^7 footer: 7 ✓ agree/);
  const pf = await profile(page, 1);
  assert.deepEqual(pf.bars, bins(f, false));
  assert.equal(pf.passes, "1");
});

test("a footer minimum below the column's: a second pass, and the same histogram", async () => {
  const { page } = ins;
  await dropFile(page, { name: "lying.cols", bytes: file({ lie: true }) });
  const pv = await profile(page, 0);
  assert.deepEqual(pv.bars, bins(v, true));
  assert.equal(pv.passes, "2");
  assert.match(pv.min, /^7 footer: 3 ✗ differ/);
  // The other column's statistics hold: it is still read once.
  const pf = await profile(page, 1);
  assert.equal(pf.passes, "1");
  assert.deepEqual(pf.bars, bins(f, false));
});

test("no page errors", () => {
  assert.deepEqual(ins.log.errors, []);
});
