#!/usr/bin/env node
// Node side of the decode benchmark. Usually started by `bench/run`; alone:
//   node --expose-gc bench/node/bench.mjs   (env: RUNS, WARMUP, SEED, FILES, READERS, SCOPES, FLOORS,
//                                            NATIVE_JSON: the native results bench/native.mjs wrote)
// Writes node.json and node.md into bench/results/ (or RESULTS_DIR).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

import { parquetRead, parquetMetadata } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { tableFromIPC } from "apache-arrow";
import { selectDatasets, diskPath } from "../lib/datasets.mjs";
import { configFrom, loadAll, buildCells, runSession, results } from "../lib/core.mjs";
import { markdown } from "../lib/report.mjs";
import { loadColumnsWasm } from "./columns-wasm.mjs";

const require = createRequire(import.meta.url);
const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const project = path.resolve(benchDir, "..");
const floorWasm = path.join(benchDir, "floor", "target", "wasm32-unknown-unknown", "release", "columns_floor.wasm");
const outDir = process.env.RESULTS_DIR ? path.resolve(process.env.RESULTS_DIR) : path.join(benchDir, "results");

const config = configFrom((k) => process.env[k]);
const log = (msg) => console.log(`[node] ${msg}`);
// Other work on the machine skews timings; the load average makes that visible.
const loadavg = () => os.loadavg().map((v) => v.toFixed(2)).join(" ");
const loadBefore = loadavg();

const cw = await loadColumnsWasm();
if (!cw.info.available) log(cw.info.note);
const floorModule = fs.existsSync(floorWasm) ? await WebAssembly.compile(fs.readFileSync(floorWasm)) : null;
const floorInfo = floorModule ? { module: path.relative(project, floorWasm), bytes: fs.statSync(floorWasm).size } : { note: `${path.relative(project, floorWasm)} is missing (bench/run builds it); no floor rows` };
if (!floorModule) log(floorInfo.note);

const libs = {
  hyparquet: { parquetRead, parquetMetadata },
  compressors,
  parquetWasm: require("parquet-wasm"), // the nodejs-target build: CommonJS, instantiates itself
  arrow: { tableFromIPC },
  ColumnsFile: cw.ColumnsFile,
  TokenizerRegistry: cw.TokenizerRegistry,
  pools: cw.pools,
  streamInstance: cw.streamInstance,
  floorModule,
};
const load = {
  file: async (rel) => {
    const buf = fs.readFileSync(diskPath(project, rel));
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength).slice();
  },
  exists: async (rel) => fs.existsSync(diskPath(project, rel)),
  expected: async (name) => {
    const p = path.join(benchDir, "data", "expected", name);
    return fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, "utf8")) : null;
  },
};

const loaded = await loadAll(libs, selectDatasets(config.files), load, config, log);
const cells = buildCells(libs, loaded, config);
log(`${cells.length} cells × ${config.runs} runs (+${config.warmup} warm-ups), seed ${config.seed}`);
const order = await runSession(cells, config, log);

const native = process.env.NATIVE_JSON && fs.existsSync(process.env.NATIVE_JSON) ? JSON.parse(fs.readFileSync(process.env.NATIVE_JSON, "utf8")) : null;
const cpuModel = /^model name\s*:\s*(.*)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? os.cpus()[0]?.model;
const environment = {
  runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
  cpu: `${cpuModel} × ${os.cpus().length}`,
  cores: os.cpus().length,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  libraries: libraryVersions(),
  commit: process.env.BENCH_COMMIT ?? "unknown",
  loadavg: `before ${loadBefore}, after ${loadavg()} (1/5/15 min)`,
  ...(process.env.V8_FLAGS ? { v8Flags: process.env.V8_FLAGS } : {}),
};
const doc = results(cells, { platform: "node", environment, config, columnsWasm: cw.info, order, native, extra: { floor: floorInfo } });

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "node.json"), JSON.stringify(doc, null, 1) + "\n");
fs.writeFileSync(path.join(outDir, "node.md"), markdown(doc));
log(`wrote ${path.relative(process.cwd(), path.join(outDir, "node.md"))} and node.json`);
if (doc.cells.some((c) => c.error)) {
  log("some cells FAILED (see the report)");
  process.exitCode = 1;
}

function libraryVersions() {
  const v = (p) => JSON.parse(fs.readFileSync(path.join(benchDir, "node_modules", p, "package.json"), "utf8")).version;
  return ["hyparquet", "hyparquet-compressors", "parquet-wasm", "apache-arrow"].map((p) => `${p} ${v(p)}`).join(", ");
}
