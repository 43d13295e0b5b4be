// ColumnsPool: reads several column chunks at once on a pool of Web Workers,
// each with its own module instance. Row groups (or, in a file of few, the
// columns) are spread over the workers by decoded size (largest first, to
// the least loaded worker); decoded buffers come back transferred, not
// copied. Browsers (module workers), and Node through pool-node.js.
//
// It initialises what it needs itself (the module is fetched and compiled
// once, on this thread, and sent to every worker), needs no
// SharedArrayBuffer (file bytes are transferred to each worker; shared only
// when the page is cross-origin isolated) and accepts a server that does
// not send application/wasm.
//
// "./columns_wasm.js" is the package's browser entry, beside this file in
// the package (tools/package.mjs keeps the import as it is).
import init, { ColumnsError, ColumnsFile, TokenizerRegistry, __internal } from "./columns_wasm.js";

const { abortedError, boolBitsOf, columnFromParts, compiledModule, describe, handBack, known, option, optionsOf, reused, settle, toBytes } = __internal;

let nextId = 1;
// Which worker decoded a column, so that a column handed back with
// { reuse } returns its buffers to the worker that will refill them.
const maker = new WeakMap();

export class ColumnsPool {
  /** Starts `size` workers and waits until each has instantiated the
   *  module (compiled once, here, by init(): call init() yourself first
   *  to load the .wasm from elsewhere). */
  static async create(size = globalThis.navigator?.hardwareConcurrency || 2) {
    if (!Number.isInteger(size) || size < 1 || size > 256) {
      throw new ColumnsError(`ColumnsPool.create(size): 1 to 256 workers, not ${describe(size)}`, "bad_argument");
    }
    // Node's pool, a subclass, brings its own workers (called detached: this one).
    const Pool = this?.prototype instanceof ColumnsPool ? this : ColumnsPool;
    if (Pool === ColumnsPool && typeof Worker !== "function") {
      throw new ColumnsError("ColumnsPool.create(): no Web Workers here", "load_failed");
    }
    await init();
    const module = compiledModule();
    const pool = new Pool(size);
    await Promise.all(pool.workers.map((w) => pool.#call(w, { op: "init", module })));
    return pool;
  }

  constructor(size) {
    this.workers = Array.from({ length: size }, () => this.spawn());
    this.#pending = new Map();
    for (const w of this.workers) {
      w.onmessage = ({ data }) => {
        const p = this.#pending.get(data.job);
        if (!p) return;
        this.#pending.delete(data.job);
        // A worker's error: plainError in pool-worker.js (a field left undefined is null here).
        const e = data.error;
        if (data.op === "error") p.reject(new ColumnsError(e.message, e.kind, e.rowGroup, e.column, e.offset));
        else p.resolve(data);
      };
      // (A worker script that cannot load, not copied beside pool.js, fires a bare Event: no message.)
      w.onerror = (e) => {
        for (const p of this.#pending.values()) p.reject(new ColumnsError(`pool worker failed: ${e.message ?? "pool-worker.js did not load"}`, e.message ? "internal" : "load_failed"));
        this.#pending.clear();
      };
    }
  }

  #pending;

  /** @internal A worker running pool-worker.js. */
  spawn() {
    return new Worker(new URL("./pool-worker.js", import.meta.url), { type: "module" });
  }

  #terminated = false;

  #call(worker, msg, transfer = [], signal) {
    const job = nextId++;
    // On abort the worker stops before its next batch of chunks (and answers, so the job ends here too).
    const cancel = () => worker.postMessage({ op: "cancel", job });
    signal?.addEventListener("abort", cancel);
    return new Promise((resolve, reject) => {
      if (this.#terminated) throw new ColumnsError("the pool was terminated", "freed");
      this.#pending.set(job, { resolve, reject });
      worker.postMessage({ ...msg, job }, transfer);
    }).finally(() => signal?.removeEventListener("abort", cancel));
  }

  /** Number of workers. */
  get size() {
    return this.workers.length;
  }

  /**
   * Opens a file in every worker: a Blob/File (each worker reads only what
   * it needs), or bytes (an ArrayBuffer, SharedArrayBuffer or any
   * ArrayBufferView). Bytes are copied once per worker and transferred;
   * on a cross-origin-isolated page they are shared instead (one copy into a
   * SharedArrayBuffer, none if they are in one already).
   * The returned file's `meta` is a ColumnsFile on this thread (metadata only).
   */
  async open(source, options) {
    const tokenizers = option(optionsOf(options, "ColumnsPool.open", "tokenizers"), "tokenizers", "ColumnsPool.open") ?? [];
    if (!Array.isArray(tokenizers)) throw new ColumnsError("ColumnsPool.open: options.tokenizers must be an array of tokenizer.json bytes", "bad_argument");
    const registry = new TokenizerRegistry();
    for (const t of tokenizers) registry.register(t);
    let meta;
    let payload; // worker index -> [message source, transfer list]
    let blob = false;
    try {
      blob = source instanceof Blob;
    } catch {
      // (A revoked Proxy: toBytes below says what it got.)
    }
    if (blob) {
      meta = await ColumnsFile.fromBlob(source, registry);
      payload = () => [source, []];
    } else {
      const view = toBytes(source, "ColumnsPool.open");
      meta = await ColumnsFile.fromAsyncBuffer({ byteLength: view.length, slice: (s, e) => view.subarray(s, e) }, registry);
      // In memory the chunk headers are free: learn raw sizes to balance the work.
      await meta.loadChunkHeaders();
      // (No SharedArrayBuffer at all on a page that is not cross-origin isolated.)
      if (typeof SharedArrayBuffer === "function" && view.buffer instanceof SharedArrayBuffer) {
        payload = () => [view, []];
      } else if (globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function") {
        const shared = new Uint8Array(new SharedArrayBuffer(view.length));
        shared.set(view);
        payload = () => [shared, []];
      } else {
        payload = () => {
          // A copy in a buffer of its own (not slice(): a Node Buffer's
          // shares memory): transferring it detaches nothing of the caller's.
          const own = new Uint8Array(view);
          return [own, [own.buffer]];
        };
      }
    }
    const id = nextId++;
    await Promise.all(this.workers.map((w) => {
      const [src, transfer] = payload();
      return this.#call(w, { op: "open", id, source: src, tokenizers }, transfer);
    }));
    return new PooledFile(this, id, meta);
  }

  /** @internal Reads rowGroups x columns spread over the workers, each
   *  given a rectangle it reads in one call (from a Blob, its chunks then
   *  come in few requests, several at once; one request a chunk, one after
   *  another, was slower than no pool); row-group-major, as asked. */
  async read(id, meta, rowGroups, columns, reuse, boolBits, signal) {
    // The longer list is split: whole row groups to each worker, or (in a
    // file of few row groups) whole columns.
    const byGroup = rowGroups.length >= columns.length;
    // Decoded size, not stored size, is what costs time.
    const weight = (byGroup ? rowGroups : columns).map(() => 0);
    // (meta.rowGroups is made anew each time it is read: once.)
    const groups = meta.rowGroups;
    rowGroups.forEach((g, i) => columns.forEach((c, j) => (weight[byGroup ? i : j] += groups[g].columns[c].rawLength ?? groups[g].columns[c].byteLength)));
    const load = this.workers.map(() => 0);
    const batches = this.workers.map(() => []);
    // Largest first, each to the least loaded worker.
    for (const i of [...weight.keys()].sort((a, b) => weight[b] - weight[a])) {
      const w = load.indexOf(Math.min(...load));
      load[w] += weight[i];
      batches[w].push(i);
    }
    // Same lists, same split: each worker gets back what it allocated.
    const spare = this.workers.map(() => []);
    for (const col of reuse) {
      // A column from another pool (or none) feeds worker 0.
      const w = maker.get(col);
      spare[w < spare.length ? w : 0].push(...handBack([col]));
    }
    const out = [];
    // (A worker given nothing answers with nothing.) Every worker's part
    // settles first: the error is the first failing chunk's in read order,
    // as the other reads say, not the first worker's to fail.
    const parts = await Promise.allSettled(batches.map(async (batch, w) => {
      // In the order asked: the order its spare buffers come in (see pool-worker.js).
      batch.sort((a, b) => a - b);
      const gs = byGroup ? batch.map((i) => rowGroups[i]) : rowGroups;
      const cs = byGroup ? columns : batch.map((i) => columns[i]);
      const msg = { op: "read", id, rowGroups: gs, columns: cs, buffers: spare[w], boolBits };
      const reply = await this.#call(this.workers[w], msg, spare[w], signal);
      reply.columns.forEach((p, k) => {
        const g = Math.floor(k / cs.length);
        const c = k % cs.length;
        const col = columnFromParts(p.type, p.length, p.nullCount, p.values, p.validity, p.boolBits, [gs[g], cs[c]]);
        col.timings = p.timings;
        maker.set(col, w);
        out[(byGroup ? batch[g] : g) * columns.length + (byGroup ? c : batch[c])] = col;
      });
    }));
    // (An error without a place, such as `freed`, comes after those with one.)
    const rank = (e) => (e.rowGroup == null ? Infinity : rowGroups.indexOf(e.rowGroup) * columns.length + columns.indexOf(e.column));
    const failed = parts.filter((p) => p.status === "rejected").map((p) => p.reason);
    if (failed.length) throw failed.reduce((a, b) => (rank(b) < rank(a) ? b : a));
    return out;
  }

  /** @internal */
  close(id) {
    for (const w of this.workers) w.postMessage({ op: "close", id });
  }

  /** Stops every worker; pending reads reject as later calls do (`freed`). */
  terminate() {
    this.#terminated = true;
    for (const w of this.workers) w.terminate();
    for (const p of this.#pending.values()) p.reject(new ColumnsError("the pool was terminated", "freed"));
    this.#pending.clear();
  }
}

export class PooledFile {
  constructor(pool, id, meta) {
    this.pool = pool;
    this.id = id;
    /** A ColumnsFile on the calling thread: schema, rowGroups, tokenizers, ... */
    this.meta = meta;
  }

  /** Reads chunks (all row groups / all columns when omitted) in parallel;
   *  resolves to Columns in row-group-major order. `options.reuse`: columns
   *  (from this pool) you are done with; their buffers are refilled.
   *  `options.boolBits`: bool columns bit-packed, as for ColumnsFile reads.
   *  `options.signal`: rejects with `aborted` as soon as it aborts; each
   *  worker stops before its next batch of chunks. */
  async readColumns(rowGroups, columns, options) {
    // (Its meta, freed by close(), would say "free() was called".)
    if (this.#closed) throw new ColumnsError("this PooledFile was closed", "freed");
    // Checked by the file itself, as its readColumnsAsync checks them.
    known(options, "PooledFile.readColumns", "reuse, boolBits, signal");
    const signal = this.meta.__check(rowGroups, columns, options);
    const all = (n) => [...Array(n).keys()];
    const gs = rowGroups ?? all(this.meta.rowGroups.length);
    const cs = columns ?? all(this.meta.schema.length);
    const reuse = reused(options);
    const boolBits = boolBitsOf(options);
    if (signal?.aborted) throw abortedError(signal);
    return settle(this.pool.read(this.id, this.meta, gs, cs, reuse, boolBits, signal), signal).catch((e) => {
      throw signal?.aborted ? abortedError(signal) : e;
    });
  }

  #closed;

  close() {
    this.#closed = true;
    this.pool.close(this.id);
    this.meta.free();
  }
}
