// Browser side of the decode benchmark. Served by tools/serve.mjs at
// /bench/browser/; bench/browser/run.mjs opens it in headless Chromium and
// collects `window.benchResult` (or `window.benchError`). The query string
// carries the knobs (RUNS, WARMUP, WARMUP_MS, SEED, FILES, READERS, SCOPES,
// FLOORS).

import { parquetRead, parquetMetadata } from "/bench/node_modules/hyparquet/src/index.js";
import { compressors } from "/bench/node_modules/hyparquet-compressors/src/index.js";
import initParquetWasm, * as parquetWasm from "/bench/node_modules/parquet-wasm/esm/parquet_wasm.js";
import { tableFromIPC } from "/bench/node_modules/apache-arrow/Arrow.dom.mjs";
import { selectDatasets, urlPath } from "/bench/lib/datasets.mjs";
import { configFrom, loadAll, buildCells, runSession, results } from "/bench/lib/core.mjs";
import { loadColumnsWasm } from "./columns-wasm.mjs";

// The inflate floor (bench/floor), built by bench/run.
const FLOOR_WASM = "/bench/floor/target/wasm32-unknown-unknown/release/columns_floor.wasm";

const query = new URLSearchParams(location.search);
const logEl = document.getElementById("log");
const log = (msg) => {
  console.log(`[browser] ${msg}`);
  logEl.textContent += msg + "\n";
};

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function main() {
  const config = configFrom((k) => query.get(k));
  await initParquetWasm("/bench/node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm");
  const cw = await loadColumnsWasm();
  if (!cw.info.available) log(cw.info.note);

  const floorRes = await fetch(FLOOR_WASM);
  const floorModule = floorRes.ok ? await WebAssembly.compileStreaming(floorRes) : null;
  const floorInfo = floorModule ? { module: FLOOR_WASM.slice(1) } : { note: `${FLOOR_WASM} is missing (bench/run builds it); no floor rows` };
  if (!floorModule) log(floorInfo.note);

  const libs = {
    hyparquet: { parquetRead, parquetMetadata },
    compressors,
    parquetWasm,
    arrow: { tableFromIPC },
    ColumnsFile: cw.ColumnsFile,
    TokenizerRegistry: cw.TokenizerRegistry,
    pools: cw.pools,
    streamInstance: cw.streamInstance,
    floorModule,
  };
  const exists = async (url) => (await fetch(url, { method: "HEAD" })).ok;
  const load = {
    file: (rel) => fetchBytes(urlPath(rel)),
    exists: (rel) => exists(urlPath(rel)),
    expected: async (name) => {
      const url = `/bench/data/expected/${name}`;
      return (await exists(url)) ? JSON.parse(new TextDecoder().decode(await fetchBytes(url))) : null;
    },
  };
  const loaded = await loadAll(libs, selectDatasets(config.files), load, config, log);
  const cells = buildCells(libs, loaded, config);
  log(`${cells.length} cells × ${config.runs} runs (+${config.warmup} warm-ups), seed ${config.seed}`);
  const order = await runSession(cells, config, log);
  const environment = { runtime: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency };
  window.benchResult = results(cells, { platform: "browser", environment, config, columnsWasm: cw.info, order, extra: { floor: floorInfo } });
  log("done");
}

main().catch((e) => {
  window.benchError = String(e?.stack ?? e);
  log(`ERROR ${window.benchError}`);
});
