#!/usr/bin/env node
// Node side of the decode benchmark. Usually started by `bench/run`; alone:
//   node bench/node/bench.mjs   (env: RUNS, WARMUP, SEED; NATIVE=0 skips the native Rust row)
// Writes bench/results/node.json and bench/results/node.md.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

import { parquetRead, parquetMetadata } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { tableFromIPC } from "apache-arrow";
import { DATASETS, CODECS, parquetName, parquetColumns, colsColumns, buildCells, runSession, results, markdown } from "../lib/core.mjs";

const require = createRequire(import.meta.url);
const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const project = path.resolve(benchDir, "..");
const shared = path.resolve(project, "..", "shared", "bench"); // beside the project, never copied in
const outDir = path.join(benchDir, "results");

const config = {
  runs: Number(process.env.RUNS ?? 15),
  warmup: Number(process.env.WARMUP ?? 3),
  seed: Number(process.env.SEED ?? 20240605),
};
const log = (msg) => console.log(`[node] ${msg}`);
// Other work on the machine skews timings; the load average makes that visible.
const loadavg = () => os.loadavg().map((v) => v.toFixed(2)).join(" ");
const loadBefore = loadavg();

// The nodejs-target build of parquet-wasm is CommonJS and instantiates itself.
const parquetWasm = require("parquet-wasm");

// columns-wasm is optional until the lead builds pkg-node/.
const cwEntry = path.join(project, "pkg-node", "columns_wasm.js");
const columnsWasm = fs.existsSync(cwEntry)
  ? { available: true, note: `pkg-node/columns_wasm.js` }
  : { available: false, note: "columns-wasm not built: run `wasm-pack build --release --target nodejs --out-dir pkg-node` from the project root (pkg-node/columns_wasm.js is missing); benchmarking the alternatives only." };
const ColumnsFile = columnsWasm.available ? require(cwEntry).ColumnsFile : null;
if (!columnsWasm.available) log(columnsWasm.note);

// Load every file once, untimed; each gets a Uint8Array and an exact ArrayBuffer.
function load(name) {
  const buf = fs.readFileSync(path.join(shared, name));
  const bytes = new Uint8Array(buf.byteLength);
  bytes.set(buf);
  return { bytes, arrayBuffer: bytes.buffer };
}
const files = {};
const meta = {};
for (const dataset of DATASETS) {
  for (const codec of CODECS) files[parquetName(dataset, codec)] = load(parquetName(dataset, codec));
  files[dataset.cols] = load(dataset.cols);
  const pq = parquetMetadata(files[parquetName(dataset, "zstd")].arrayBuffer);
  if (Number(pq.num_rows) !== dataset.rows) throw new Error(`${dataset.name}: Parquet has ${pq.num_rows} rows, expected ${dataset.rows}`);
  let cwCols = null;
  if (ColumnsFile) {
    const f = ColumnsFile.fromBytes(files[dataset.cols].bytes);
    if (Number(f.numRows) !== dataset.rows) throw new Error(`${dataset.name}: .cols has ${f.numRows} rows, expected ${dataset.rows}`);
    cwCols = colsColumns(f.schema);
    f.free?.();
  }
  meta[dataset.name] = { pqCols: parquetColumns(pq), cwCols };
}

const libs = { hyparquet: { parquetRead }, compressors, parquetWasm, arrow: { tableFromIPC }, ColumnsFile };
const cells = buildCells(libs, files, meta);
log(`${cells.length} cells × ${config.runs} runs (+${config.warmup} warm-ups), seed ${config.seed}`);
const order = await runSession(cells, config, log);

// Optional: the native Rust core's own numbers, if the example exists.
let native;
if (process.env.NATIVE !== "0") {
  if (fs.existsSync(path.join(project, "examples", "bench.rs"))) {
    const nativeArgs = ["--json", "--runs", String(config.runs), "--warmup", String(config.warmup)];
    log(`native: cargo run --release --example bench -- ${nativeArgs.join(" ")}`);
    const r = spawnSync("cargo", ["run", "--release", "--quiet", "--example", "bench", "--", ...nativeArgs], { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    try {
      native = r.status === 0 ? JSON.parse(r.stdout) : { error: `exit ${r.status}` };
    } catch {
      native = { error: "output is not JSON", stdout: r.stdout };
    }
  } else {
    log("native: examples/bench.rs does not exist yet; skipping the native Rust row");
  }
}

const cpuModel = (() => {
  try {
    return /^model name\s*:\s*(.*)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? os.cpus()[0]?.model;
  } catch {
    return os.cpus()[0]?.model;
  }
})();
const environment = {
  runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
  cpu: `${cpuModel} × ${os.cpus().length}`,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  libraries: libraryVersions(),
  loadavg: `before ${loadBefore}, after ${loadavg()} (1/5/15 min)`,
};
const doc = results(cells, { platform: "node", environment, config, columnsWasm, order, extra: native ? { native } : {} });

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, "node.json"), JSON.stringify(doc, null, 1) + "\n");
fs.writeFileSync(path.join(outDir, "node.md"), markdown(doc));
console.log(markdown(doc));
log(`wrote ${path.relative(project, path.join(outDir, "node.json"))} and node.md`);
if (doc.cells.some((c) => c.error)) {
  log("some cells FAILED (see the report)");
  process.exitCode = 1;
}

function libraryVersions() {
  const v = (p) => JSON.parse(fs.readFileSync(path.join(benchDir, "node_modules", p, "package.json"), "utf8")).version;
  return ["hyparquet", "hyparquet-compressors", "parquet-wasm", "apache-arrow"].map((p) => `${p} ${v(p)}`).join(", ");
}
