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
for (const name of ["readColumn", "readColumnAsync"]) {
  const read = ColumnsFile.prototype[name];
  ColumnsFile.prototype[name] = function (...args) {
    Atomics.add(workerData.reads, 0, 1);
    const until = performance.now() + workerData.slow;
    while (performance.now() < until);
    return read.apply(this, args);
  };
}
await import(workerData.url);
for (const data of early.splice(0)) self.onmessage({ data });
