#!/usr/bin/env node
// Drives the browser bench: opens /bench/browser/ in headless Chromium
// (Debian's /usr/bin/chromium via the playwright-core pinned in tools/test/) and
// writes bench/results/browser.json and browser.md (or RESULTS_DIR).
//   node bench/browser/run.mjs http://127.0.0.1:PORT/
// env: RUNS, WARMUP, WARMUP_MS, SEED, FILES, READERS, SCOPES, FLOORS (passed to the page),
// V8_FLAGS (extra --js-flags),
// NATIVE_JSON (bench/native.mjs's output, added to the report), BENCH_COMMIT.
// The static server (tools/serve.mjs) must already be listening; bench/run starts it.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summary } from "../lib/core.mjs";
import { markdown } from "../lib/report.mjs";
import { launch, localOnly, playwright, runPage } from "../lib/chromium.mjs";

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const project = path.resolve(benchDir, "..");
const outDir = process.env.RESULTS_DIR ? path.resolve(process.env.RESULTS_DIR) : path.join(benchDir, "results"); // RESULTS_DIR: elsewhere, e.g. for trial runs
const base = process.argv[2];
if (!base) {
  console.error("usage: node bench/browser/run.mjs http://127.0.0.1:PORT/");
  process.exit(2);
}

const query = new URLSearchParams(Object.fromEntries(["RUNS", "WARMUP", "WARMUP_MS", "SEED", "FILES", "READERS", "SCOPES", "FLOORS"].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])));
// Other work on the machine skews timings; the load average makes that visible.
const loadavg = () => os.loadavg().map((v) => v.toFixed(2)).join(" ");
const loadBefore = loadavg();
const browser = await launch(project);
let exitCode = 0;
try {
  const page = await browser.newPage();
  page.on("console", (m) => {
    if (m.text().startsWith("[browser]")) console.log(m.text());
  });
  await localOnly(page, base);
  const doc = await runPage(page, base, query);

  doc.environment = {
    ...doc.environment,
    browser: `Chromium ${browser.version()} (headless, /usr/bin/chromium)`,
    cpu: cpuModel(),
    cores: os.cpus().length,
    commit: process.env.BENCH_COMMIT ?? "unknown",
    driver: `Node ${process.version}, playwright-core ${playwright(project).version}`,
    loadavg: `before ${loadBefore}, after ${loadavg()} (1/5/15 min)`,
    ...(process.env.V8_FLAGS ? { v8Flags: process.env.V8_FLAGS } : {}),
  };
  if (process.env.NATIVE_JSON && fs.existsSync(process.env.NATIVE_JSON)) {
    doc.native = JSON.parse(fs.readFileSync(process.env.NATIVE_JSON, "utf8"));
    doc.summary = summary(doc);
  }
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, "browser.json"), JSON.stringify(doc, null, 1) + "\n");
  fs.writeFileSync(path.join(outDir, "browser.md"), markdown(doc));
  console.log(`[browser] wrote ${path.relative(project, path.join(outDir, "browser.json"))} and browser.md`);
  if (doc.cells.some((c) => c.error)) {
    console.log("[browser] some cells FAILED (see the report)");
    exitCode = 1;
  }
} finally {
  await browser.close();
}
process.exitCode = exitCode;

function cpuModel() {
  try {
    const info = fs.readFileSync("/proc/cpuinfo", "utf8");
    const model = /^model name\s*:\s*(.*)$/m.exec(info)?.[1] ?? "unknown";
    const count = (info.match(/^processor\s*:/gm) ?? []).length;
    return `${model} × ${count}`;
  } catch {
    return "unknown";
  }
}
