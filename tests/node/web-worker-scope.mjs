// The worker side of web-worker.mjs: the test hooks on ColumnsFile's reads,
// then the package's own Node worker script (pool-node-worker.cjs: the Web
// Worker scope over the thread's port, then pool-worker.js), so the scope
// under test is the one Node's pool ships.

import { workerData } from "node:worker_threads";
import { countReads } from "../js/count-reads.mjs";

// The module instance pool-worker.js imports (the same URL).
const { ColumnsFile } = await import(new URL("columns_wasm.js", workerData.url).href);
// Each chunk the pool's worker asks for counts, and takes `slow` ms more.
countReads(
  ColumnsFile,
  ({ chunks, reuse }) => {
    Atomics.add(workerData.reads, 0, chunks);
    Atomics.add(workerData.reads, 1, 1);
    Atomics.add(workerData.reads, 2, reuse);
  },
  () => workerData.slow,
);
await import(new URL("pool-node-worker.cjs", workerData.url).href);
