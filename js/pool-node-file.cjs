// A file on disk as a Blob for columns-wasm/pool in Node: the pool opens a
// path once (one descriptor, on the calling thread) and every worker
// thread reads its chunks from that descriptor with positioned reads
// (fs.readSync: a worker thread may block, and a synchronous read skips
// the thread-pool hop each fs.openAsBlob read takes: flights-3m chunk by
// chunk, 55 ms against 88). Node cannot send a file-backed Blob to a
// thread; this one travels as its descriptor, size and modification time.
// Like fs.openAsBlob's Blobs, it refuses to read a file changed since it
// was opened: a footer read before a rewrite would otherwise lead new
// bytes to be decoded as the old file's chunks.
"use strict";
const fs = require("node:fs");

class FileBlob extends Blob {
  #fd;
  #size;
  #mtimeMs;

  constructor(fd, size, mtimeMs) {
    super([]);
    this.#fd = fd;
    this.#size = size;
    this.#mtimeMs = mtimeMs;
  }

  get size() {
    return this.#size;
  }

  /** What the package reads from a Blob: bytes `start` to `end`, fewer if the file is shorter now. */
  slice(start, end) {
    const bytes = new Uint8Array(Math.max(0, Math.min(end, this.#size) - start));
    let n = 0;
    try {
      n = fs.readSync(this.#fd, bytes, 0, bytes.length, start);
      // (after the read, so that a change while it ran is seen too)
      const now = fs.fstatSync(this.#fd);
      if (now.size !== this.#size || now.mtimeMs !== this.#mtimeMs) {
        throw new Error("the file changed after it was opened (its size or modification time is not the same)");
      }
    } catch (e) {
      return { arrayBuffer: () => Promise.reject(e) };
    }
    return { arrayBuffer: async () => (n === bytes.length ? bytes.buffer : bytes.buffer.slice(0, n)) };
  }

  /** What a thread is sent for it. */
  get descriptor() {
    return { fd: this.#fd, size: this.#size, mtimeMs: this.#mtimeMs };
  }
}

module.exports = { FileBlob };
