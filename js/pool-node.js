// columns-wasm/pool in Node (the "node" condition of the package's
// exports): the browser pool's ColumnsPool and PooledFile, bundled from
// pool.js by tools/package.mjs with this thread's module the Node build
// (node.mjs, so files, columns and errors are the classes "columns-wasm"
// gives), and its workers on worker_threads, each running pool-worker.js
// in a Web Worker's scope (pool-node-worker.cjs). ES module only.
import { Worker as Thread } from "node:worker_threads";
import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { ColumnsError, __internal } from "./columns_wasm.js";
import { ColumnsPool as WebPool, PooledFile } from "./pool.js";
import { FileBlob } from "./pool-node-file.cjs";

export { PooledFile };

const { describe, toBytes } = __internal;

/** A method called on anything but an object of its class (`Class.prototype.method.call(x)`) is a bad_argument, as the package's own classes' are. */
function own(self, cls, method) {
  let mine = false;
  try {
    mine = self instanceof cls;
  } catch {
    // (A revoked Proxy.)
  }
  if (!mine) throw new ColumnsError(`${method} needs a ${method.split(".")[0]} made by columns-wasm/pool as its this; this is ${describe(self)}`, "bad_argument");
}

// PooledFile is the browser pool's class: its methods checked here, in Node's copy.
for (const [name, isAsync] of [["readColumns", true], ["close", false]]) {
  const method = PooledFile.prototype[name];
  PooledFile.prototype[name] = isAsync
    ? async function (...args) {
        own(this, PooledFile, `PooledFile.${name}`);
        return method.apply(this, args);
      }
    : function (...args) {
        own(this, PooledFile, `PooledFile.${name}`);
        return method.apply(this, args);
      };
}

// The lock the threads take turns with V8's flags under (pool-node-worker.cjs).
const flagLock = new Int32Array(new SharedArrayBuffer(4));

/** A worker thread with the surface of a Web Worker that the pool uses. */
class ThreadWorker {
  constructor() {
    this.thread = new Thread(new URL("./pool-node-worker.cjs", import.meta.url), { workerData: flagLock });
    this.thread.on("message", (data) => {
      // Idle, a pool does not keep the process alive (as a page's workers do not).
      if (--this.busy === 0) this.thread.unref();
      this.onmessage?.({ data });
    });
    this.thread.on("error", (e) => this.onerror?.(e));
    // A thread that stops on its own (process.exit in it, a fatal error)
    // answers nothing more: what waits on it, and what is sent to it
    // later, fails as a worker's error does, rather than wait for ever.
    this.thread.on("exit", (code) => {
      if (this.ended) return;
      this.ended = { message: `its thread stopped (exit code ${code})` };
      this.onerror?.(this.ended);
    });
    this.ended = null;
    this.busy = 0;
    this.thread.unref();
  }

  postMessage(data, transfer) {
    if (this.ended) {
      if (data.op !== "cancel") queueMicrotask(() => this.onerror?.(this.ended));
      return;
    }
    const message = data.source instanceof FileBlob ? { ...data, source: data.source.descriptor } : data;
    try {
      this.thread.postMessage(message, transfer);
    } catch (e) {
      throw Object.assign(new ColumnsError(`ColumnsPool: ${e.message} (to read a file on disk, open it by its path)`, "bad_argument"), { cause: e });
    }
    // Every message with a job but a cancel is answered once.
    if (data.job !== undefined && data.op !== "cancel" && this.busy++ === 0) this.thread.ref();
  }

  terminate() {
    this.ended ??= { message: "terminated" };
    this.thread.terminate();
  }
}

/** `source` as bytes; refused as toBytes refuses it, its message naming
 *  every source Node's pool takes (toBytes names the kinds of bytes only). */
function bytesOrPath(source) {
  try {
    return toBytes(source, "ColumnsPool.open");
  } catch (e) {
    const message = e.message.replace(/needs (an ArrayBuffer, a Uint8Array or another ArrayBufferView|bytes)/, "needs a file's path or file: URL, a Blob, or bytes (an ArrayBuffer or any ArrayBufferView)");
    if (message === e.message) throw e;
    throw Object.assign(new ColumnsError(message, e.kind), e.cause === undefined ? null : { cause: e.cause });
  }
}

export class ColumnsPool extends WebPool {
  /** Starts `size` workers (default: the machine's available parallelism). */
  static create(size = Math.min(256, os.availableParallelism?.() ?? os.cpus().length)) {
    // (Called detached, this pool: not the browser's.)
    return super.create.call(this?.prototype instanceof WebPool ? this : ColumnsPool, size);
  }

  /** Descriptors of the files opened by their paths: file id -> { fd, reads, closed }. */
  #files = new Map();

  /** As the browser pool's (bytes shared, not copied per thread), and a
   *  file on disk by its path or file: URL (a URL, or a string starting
   *  "file:"): opened once here, each worker reads the chunks it is given. */
  async open(source, options) {
    own(this, ColumnsPool, "ColumnsPool.open");
    let path = typeof source === "string";
    let blob = false;
    try {
      path ||= source instanceof URL;
      blob = source instanceof Blob;
    } catch {
      // (A revoked Proxy: toBytes below says what it got.)
    }
    if (!path) {
      // Bytes go to the threads in one SharedArrayBuffer (Node always has
      // them): one copy in all, where a page without cross-origin
      // isolation makes one per worker.
      const view = blob ? null : bytesOrPath(source);
      if (view && !(view.buffer instanceof SharedArrayBuffer)) {
        const shared = new Uint8Array(new SharedArrayBuffer(view.length));
        shared.set(view);
        return super.open(shared, options);
      }
      return super.open(source, options);
    }
    let fd;
    let stat;
    try {
      // (fs takes a file: URL object but reads a string as a path: "file:///a" would be ./file:/a)
      fd = fs.openSync(source instanceof URL || source.startsWith("file:") ? fileURLToPath(source) : source, "r");
      stat = fs.fstatSync(fd);
    } catch (e) {
      if (fd !== undefined) fs.closeSync(fd);
      throw Object.assign(new ColumnsError(`ColumnsPool.open: cannot open ${String(source)}: ${e.message}`, "bad_source"), { cause: e });
    }
    try {
      const file = await super.open(new FileBlob(fd, stat.size, stat.mtimeMs), options);
      this.#files.set(file.id, { fd, reads: 0, closed: false });
      return file;
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  // A file's descriptor is closed once it is closed and no read of it is
  // still running in a thread (an aborted read ends when they all answer).
  #release(id) {
    const f = this.#files.get(id);
    if (f && f.closed && f.reads === 0) {
      this.#files.delete(id);
      fs.closeSync(f.fd);
    }
  }

  /** @internal */
  async read(id, ...args) {
    const f = this.#files.get(id);
    if (f) f.reads++;
    try {
      return await super.read(id, ...args);
    } finally {
      if (f) f.reads--;
      this.#release(id);
    }
  }

  /** @internal */
  close(id) {
    super.close(id);
    const f = this.#files.get(id);
    if (f) f.closed = true;
    this.#release(id);
  }

  terminate() {
    own(this, ColumnsPool, "ColumnsPool.terminate");
    super.terminate();
    for (const f of this.#files.values()) fs.closeSync(f.fd);
    this.#files.clear();
  }

  /** @internal */
  spawn() {
    return new ThreadWorker();
  }
}
