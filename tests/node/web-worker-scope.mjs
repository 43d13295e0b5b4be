// The worker side of web-worker.mjs: a `self` with postMessage and
// onmessage over the thread's port, the test hooks on ColumnsFile's reads,
// then the worker script itself.

import { parentPort, workerData } from "node:worker_threads";

globalThis.self = globalThis;
self.postMessage = (data, transfer = []) => parentPort.postMessage(data, transfer);
// Messages that come before the script has set onmessage wait for it.
const early = [];
parentPort.on("message", (data) => (self.onmessage ? self.onmessage({ data }) : early.push(data)));

// The module instance the worker script imports (the same URL).
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
await import(workerData.url);
for (const data of early.splice(0)) self.onmessage({ data });
