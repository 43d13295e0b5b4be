#!/usr/bin/env node
// How far the machine moved during a run. bench/run times the native core
// first and the browser and Node phases after it, minutes apart, and goal 3
// (wasm within 1.5x of native) divides one phase's medians by another's; on
// a shared machine whose speed drifts, that ratio moves with the machine.
// bench/run re-measures the native core once the phases are over
// (native-after.json); this appends, to each report of the run, both native
// medians per file and the change between them, and names the files whose
// goal-3 verdict lies within that drift.
//
//   node bench/drift.mjs RESULTS_DIR     (bench/run calls it)

import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node bench/drift.mjs RESULTS_DIR");
  process.exit(2);
}
const read = (name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
const before = read("native.json").bench ?? {};
const after = read("native-after.json").bench ?? {};

/** Files whose native core is within this fraction at both ends count as steady. */
const STEADY = 0.1;
const GOAL3 = 1.5;

const rows = Object.keys(before)
  .filter((id) => typeof before[id]?.medianMs === "number" && typeof after[id]?.medianMs === "number")
  .map((id) => ({ id, a: before[id].medianMs, b: after[id].medianMs, change: after[id].medianMs / before[id].medianMs - 1 }));

const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pct = (v) => `${v >= 0 ? "+" : ""}${(v * 100).toFixed(0)}%`;
const MARK = "## Machine drift during this run";

for (const report of ["browser", "node"]) {
  const md = path.join(dir, `${report}.md`);
  const json = path.join(dir, `${report}.json`);
  if (!fs.existsSync(md) || !fs.existsSync(json)) continue;
  // Only the reports this run wrote (a BUILD=0 ONLY=browser run leaves the other alone).
  if (fs.statSync(md).mtimeMs < fs.statSync(path.join(dir, "native.json")).mtimeMs) continue;
  const doc = JSON.parse(fs.readFileSync(json, "utf8"));
  const loop = new Map((doc.summary ?? []).map((r) => [r.file, r.ratios?.nativeLoop]));
  const L = [MARK, ""];
  L.push(
    "The native core (`examples/bench`) timed at the start of the run and again after the last phase. " +
      `Goal 3's ratios divide this report's times by the first; where the two native medians differ by more than ${STEADY * 100}%, ` +
      "the machine's own speed moved by more than that between the phases, and a goal-3 ratio within that margin of " +
      `${GOAL3}× says more about the machine than about the code.`,
    "",
    "| file | native, start (ms) | native, end (ms) | change | wasm / native, loop (start) | … (end) |",
    "|---|--:|--:|--:|--:|--:|",
  );
  const unsure = [];
  for (const r of rows) {
    const q = loop.get(r.id);
    const qEnd = typeof q === "number" ? (q * r.a) / r.b : null;
    const x = (v) => (typeof v === "number" ? `${v.toFixed(2)}×` : "—");
    L.push(`| ${r.id} | ${ms(r.a)} | ${ms(r.b)} | ${pct(r.change)} | ${x(q)} | ${x(qEnd)} |`);
    if (Math.abs(r.change) > STEADY && typeof q === "number" && (q <= GOAL3) !== (qEnd <= GOAL3)) unsure.push(r.id);
  }
  const moved = rows.filter((r) => Math.abs(r.change) > STEADY).map((r) => `${r.id} (${pct(r.change)})`);
  L.push(
    "",
    moved.length ? `Moved by more than ${STEADY * 100}%: ${moved.join(", ")}.` : `Every file's native median stayed within ${STEADY * 100}%: the machine held steady.`,
    unsure.length ? `Files whose goal-3 verdict changes with the native time used: ${unsure.join(", ")}.` : "No goal-3 verdict turns on which of the two native times is used.",
    "",
  );
  let text = fs.readFileSync(md, "utf8");
  const at = text.indexOf(MARK);
  if (at >= 0) text = text.slice(0, at);
  fs.writeFileSync(md, `${text.trimEnd()}\n\n${L.join("\n")}`);
  console.log(`[drift] ${report}.md: ${moved.length ? `native moved on ${moved.length} of ${rows.length} files` : "steady"}`);
}
