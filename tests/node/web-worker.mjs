// A Web Worker for Node tests, over worker_threads: as much of one as
// pool.js uses (new Worker(url, { type: "module" }), onmessage / onerror,
// postMessage with a transfer list, terminate()), so that the pool runs here
// on the package's own worker script (pool-node-worker.cjs, which runs
// pool-worker.js) with test hooks around it. Test hooks: `sources` keeps what each
// worker was sent to open; on the worker's side, `reads` counts the chunk
// reads every worker started, and `slow` makes each one take that many
// milliseconds more.

import { Worker as Thread } from "node:worker_threads";

export class WebWorker {
  /** Chunk reads started, over every worker made here ([0]), the
   *  readColumnsAsync calls that started them ([1]), and the columns those
   *  calls were offered to refill (options.reuse, [2]). */
  static reads = new Int32Array(new SharedArrayBuffer(12));

  /** Milliseconds each chunk read is made to take beyond its own time. */
  static slow = 0;

  constructor(url) {
    const workerData = { url: String(url), reads: WebWorker.reads, slow: WebWorker.slow };
    this.thread = new Thread(new URL("./web-worker-scope.mjs", import.meta.url), { workerData });
    this.thread.on("message", (data) => this.onmessage?.({ data }));
    this.thread.on("error", (e) => this.onerror?.(e));
  }

  /** The sources of the files the workers were sent (`open` messages). */
  static sources = [];

  postMessage(data, transfer = []) {
    if (data.op === "open") WebWorker.sources.push(data.source);
    this.thread.postMessage(data, transfer);
  }

  terminate() {
    this.thread.terminate();
  }
}
