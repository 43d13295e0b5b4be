// Browser side of the decode benchmark. Served by tools/serve.mjs at
// /bench/browser/; bench/browser/run.mjs opens it in headless Chromium and
// collects `window.benchResult` (or `window.benchError`).

import { parquetRead, parquetMetadata } from "/bench/node_modules/hyparquet/src/index.js";
import { compressors } from "/bench/node_modules/hyparquet-compressors/src/index.js";
import initParquetWasm, * as parquetWasm from "/bench/node_modules/parquet-wasm/esm/parquet_wasm.js";
import { tableFromIPC } from "/bench/node_modules/apache-arrow/Arrow.dom.mjs";
import { DATASETS, parquetName, hasParquet, datasetFiles, parquetColumns, colsColumns, buildCells, prepareFloors, runSession, gcBetweenRuns, results } from "/bench/lib/core.mjs";

// The inflate floor (bench/floor), built by bench/run.
const FLOOR_WASM = "/bench/floor/target/wasm32-unknown-unknown/release/columns_floor.wasm";

const query = new URLSearchParams(location.search);
const config = {
  runs: Number(query.get("runs") ?? 15),
  warmup: Number(query.get("warmup") ?? 3),
  seed: Number(query.get("seed") ?? 20240605),
  gcBetweenRuns: gcBetweenRuns(),
};
const logEl = document.getElementById("log");
const log = (msg) => {
  console.log(`[browser] ${msg}`);
  logEl.textContent += msg + "\n";
};

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, arrayBuffer: bytes.buffer };
}

// columns-wasm is optional until the lead builds pkg/ (web target).
async function loadColumnsWasm() {
  const entry = "/pkg/columns_wasm.js";
  const head = await fetch(entry, { method: "HEAD" });
  if (!head.ok) {
    return { ColumnsFile: null, info: { available: false, note: "columns-wasm not built: run scripts/build from the project root (/pkg/columns_wasm.js is missing); benchmarking the alternatives only." } };
  }
  const mod = await import(entry);
  await mod.default();
  // Worker pools of 1, 2 and hardwareConcurrency workers (created once, untimed).
  const { ColumnsPool } = await import("/pkg/pool.js");
  const pools = {};
  for (const [key, size] of [["cwPool1", 1], ["cwPool2", 2], ["cwPoolN", navigator.hardwareConcurrency]]) {
    if (key === "cwPoolN" && size <= 2) continue; // same as one above on a 2-core machine
    pools[key] = await ColumnsPool.create(size);
  }
  return { ColumnsFile: mod.ColumnsFile, pools, info: { available: true, note: "pkg/columns_wasm.js", poolSizes: Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p.size])), crossOriginIsolated } };
}

async function main() {
  await initParquetWasm("/bench/node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm");
  const cw = await loadColumnsWasm();
  if (!cw.info.available) log(cw.info.note);

  // Every file fetched once, untimed.
  const files = {};
  const meta = {};
  for (const dataset of DATASETS) {
    const dir = dataset.local ? "/bench/data/" : "/shared/bench/";
    if (!hasParquet(dataset) && !cw.ColumnsFile) {
      log(`${dataset.name}: skipped (a columns file only, and columns-wasm is not built)`);
      continue;
    }
    if (dataset.local && !(await fetch(dir + dataset.cols, { method: "HEAD" })).ok) {
      log(`${dataset.name}: skipped (${dir}${dataset.cols} is missing: bench/run generates it)`);
      continue;
    }
    for (const name of datasetFiles(dataset)) files[name] = await fetchBytes(dir + name);
    const pq = hasParquet(dataset) ? parquetMetadata(files[parquetName(dataset, "zstd")].arrayBuffer) : null;
    if (pq && Number(pq.num_rows) !== dataset.rows) throw new Error(`${dataset.name}: Parquet has ${pq.num_rows} rows, expected ${dataset.rows}`);
    let cwCols = null;
    if (cw.ColumnsFile) {
      const f = cw.ColumnsFile.fromBytes(files[dataset.cols].bytes);
      if (Number(f.numRows) !== dataset.rows) throw new Error(`${dataset.name}: .cols has ${f.numRows} rows, expected ${dataset.rows}`);
      cwCols = colsColumns(f.schema);
      f.free?.();
    }
    meta[dataset.name] = { pqCols: pq ? parquetColumns(pq) : null, cwCols };
  }

  const floorRes = await fetch(FLOOR_WASM);
  const floorModule = floorRes.ok ? await WebAssembly.compileStreaming(floorRes) : null;
  const floorInfo = floorModule ? { module: FLOOR_WASM.slice(1), bytes: Number(floorRes.headers.get("content-length")) || null } : { note: `${FLOOR_WASM} is missing (bench/run builds it); no floor rows` };
  if (!floorModule) log(floorInfo.note);

  const libs = { hyparquet: { parquetRead }, compressors, parquetWasm, arrow: { tableFromIPC }, ColumnsFile: cw.ColumnsFile, pools: cw.pools, floorModule };
  await prepareFloors(libs, files, log);
  const cells = buildCells(libs, files, meta);
  log(`${cells.length} cells × ${config.runs} runs (+${config.warmup} warm-ups), seed ${config.seed}`);
  const order = await runSession(cells, config, log);
  const environment = {
    runtime: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
  };
  window.benchResult = results(cells, { platform: "browser", environment, config, columnsWasm: cw.info, order, extra: { floor: floorInfo } });
  log("done");
}

main().catch((e) => {
  window.benchError = String(e?.stack ?? e);
  log(`ERROR ${window.benchError}`);
});
