"use strict";
// A worker of columns-wasm/pool in Node, on a worker thread: the scope of a
// Web Worker that pool-worker.js expects (self, postMessage, onmessage),
// then pool-worker.js itself. A file opened by its path arrives as its
// descriptor, size and modification time, read here through a FileBlob. CommonJS: a thread
// inherits the process's flags, and Node refuses an ES module entry under
// --input-type (node --input-type=module -e ...).
const { parentPort, workerData } = require("node:worker_threads");
const { FileBlob } = require("./pool-node-file.cjs");

globalThis.self = globalThis;

// A closed file's bytes (a SharedArrayBuffer, a Blob) go when this thread's
// heap is collected, and an idle thread, which allocates next to nothing,
// never collects it: each file opened from bytes stayed until terminate()
// (21 MB an open of flights-3m). So the thread collects once it is idle
// after a close. The collector is V8's gc(), exposed for one new context
// and the flag put back at once, as --expose-gc would expose it to every
// context made later (a process started with --expose-gc has it already;
// where neither works, nothing is collected here, as before). The flag is
// the process's: the pool's threads take turns with it under a lock
// (workerData, pool-node.js), or one thread's reset could come between
// another's set and its look-up. Code elsewhere in the process that makes
// a vm context in that moment (microseconds as each thread starts) sees
// gc too, and code that sets the flag itself then can see it reset; a
// process started with --expose-gc, or that set it before the pool, has
// no such moment (its threads start with gc).
let gc = globalThis.gc;
if (typeof gc !== "function") {
  // (A thread stopped while it held the lock would hold it for ever: after
  // a second, this one goes on without it.)
  let lock = workerData instanceof Int32Array ? workerData : null;
  for (let tries = 0; lock && Atomics.compareExchange(lock, 0, 0, 1) !== 0; tries++) {
    if (tries === 50) lock = null;
    else Atomics.wait(lock, 0, 1, 20);
  }
  try {
    const v8 = require("node:v8");
    v8.setFlagsFromString("--expose-gc");
    try {
      gc = require("node:vm").runInNewContext("gc");
    } finally {
      v8.setFlagsFromString("--no-expose-gc");
    }
  } catch {
    gc = null;
  } finally {
    if (lock) Atomics.store(lock, 0, 0), Atomics.notify(lock, 0);
  }
}
// Jobs sent and not yet answered (every message with a job but a cancel is
// answered once, pool-node.js), and whether a file was closed since the last
// collection.
let busy = 0;
let closed = false;
let timer = null;
function collectWhenIdle() {
  if (!closed || busy > 0 || timer || typeof gc !== "function") return;
  // (After the messages already queued; unref'd: never what keeps a process alive.)
  timer = setTimeout(() => {
    timer = null;
    if (busy > 0) return;
    closed = false;
    gc();
  });
  timer.unref();
}

self.postMessage = (data, transfer) => {
  parentPort.postMessage(data, transfer);
  if (data?.job !== undefined && --busy === 0) collectWhenIdle();
};

function deliver(data) {
  if (data.op === "open" && data.source?.fd !== undefined) data.source = new FileBlob(data.source.fd, data.source.size, data.source.mtimeMs);
  if (data.job !== undefined && data.op !== "cancel") busy++;
  self.onmessage({ data });
  if (data.op === "close") {
    closed = true;
    collectWhenIdle();
  }
}

// Messages that come before pool-worker.js has set onmessage wait for it, in order.
let queue = [];
parentPort.on("message", (data) => (queue ? queue.push(data) : deliver(data)));
import("./pool-worker.js").then(() => {
  for (const data of queue) deliver(data);
  queue = null;
});
