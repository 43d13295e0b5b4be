// The worker side of web-worker.mjs: the test hooks on ColumnsFile's reads,
// then the package's own Node worker script (pool-node-worker.cjs: the Web
// Worker scope over the thread's port, then pool-worker.js), so the scope
// under test is the one Node's pool ships.

import { workerData } from "node:worker_threads";

// The module instance pool-worker.js imports (the same URL).
const { ColumnsFile } = await import(new URL("columns_wasm.js", workerData.url).href);
// (The pool's worker reads with readColumnsAsync: each chunk it asks for
// counts, and takes `slow` ms more, unless the call is refused at once.)
const read = ColumnsFile.prototype.readColumnsAsync;
ColumnsFile.prototype.readColumnsAsync = function (rowGroups, columns, options) {
  if (!options?.signal?.aborted) {
    const chunks = rowGroups.length * columns.length;
    Atomics.add(workerData.reads, 0, chunks);
    Atomics.add(workerData.reads, 1, 1);
    Atomics.add(workerData.reads, 2, options?.reuse?.length ?? 0);
    const until = performance.now() + workerData.slow * chunks;
    while (performance.now() < until);
  }
  return read.call(this, rowGroups, columns, options);
};
await import(new URL("pool-node-worker.cjs", workerData.url).href);
