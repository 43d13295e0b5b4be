"use strict";
// A worker of columns-wasm/pool in Node, on a worker thread: the scope of a
// Web Worker that pool-worker.js expects (self, postMessage, onmessage),
// then pool-worker.js itself. A file opened by its path arrives as its
// descriptor, size and modification time, read here through a FileBlob. CommonJS: a thread
// inherits the process's flags, and Node refuses an ES module entry under
// --input-type (node --input-type=module -e ...).
const { parentPort } = require("node:worker_threads");
const { FileBlob } = require("./pool-node-file.cjs");

globalThis.self = globalThis;
self.postMessage = (data, transfer) => parentPort.postMessage(data, transfer);

function deliver(data) {
  if (data.op === "open" && data.source?.fd !== undefined) data.source = new FileBlob(data.source.fd, data.source.size, data.source.mtimeMs);
  self.onmessage({ data });
}

// Messages that come before pool-worker.js has set onmessage wait for it, in order.
let queue = [];
parentPort.on("message", (data) => (queue ? queue.push(data) : deliver(data)));
import("./pool-worker.js").then(() => {
  for (const data of queue) deliver(data);
  queue = null;
});
