// ColumnsPool: reads several column chunks at once on a pool of Web Workers,
// each with its own module instance. Chunks are spread over the workers by
// stored size (largest first, to the least loaded worker); decoded buffers
// come back transferred, not copied. Browser (module workers) only.
//
//   import init from "columns-wasm";
//   import { ColumnsPool } from "columns-wasm/pool.js";
//   await init();
//   const pool = await ColumnsPool.create(navigator.hardwareConcurrency);
//   const file = await pool.open(blobOrBytes, { tokenizers: [jsonBytes] });
//   const columns = await file.readColumns();   // row-group-major order
//   file.close(); pool.terminate();
import { ColumnsFile, TokenizerRegistry, columnFromParts, handBack } from "./columns_wasm.js";

let nextId = 1;
// Which worker decoded a column, so that a column handed back with
// { reuse } returns its buffers to the worker that will refill them.
const maker = new WeakMap();

function toError(e) {
  const err = new Error(e.message);
  err.name = "ColumnsError";
  Object.assign(err, { kind: e.kind, rowGroup: e.rowGroup, column: e.column, offset: e.offset });
  return err;
}

export class ColumnsPool {
  /** Starts `size` workers and waits until each has compiled the module. */
  static async create(size = globalThis.navigator?.hardwareConcurrency || 2) {
    const wasmUrl = new URL("./columns_wasm_bg.wasm", import.meta.url);
    const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
    const pool = new ColumnsPool(Math.max(1, size | 0));
    await Promise.all(pool.workers.map((w) => pool.#call(w, { op: "init", module })));
    return pool;
  }

  constructor(size) {
    this.workers = Array.from({ length: size }, () => new Worker(new URL("./pool-worker.js", import.meta.url), { type: "module" }));
    this.#pending = new Map();
    for (const w of this.workers) {
      w.onmessage = ({ data }) => {
        const p = this.#pending.get(data.job);
        if (!p) return;
        this.#pending.delete(data.job);
        if (data.op === "error") p.reject(toError(data.error));
        else p.resolve(data);
      };
      w.onerror = (e) => {
        for (const p of this.#pending.values()) p.reject(new Error(`pool worker failed: ${e.message}`));
        this.#pending.clear();
      };
    }
  }

  #pending;

  #call(worker, msg, transfer = []) {
    const job = nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(job, { resolve, reject });
      worker.postMessage({ ...msg, job }, transfer);
    });
  }

  /** Number of workers. */
  get size() {
    return this.workers.length;
  }

  /**
   * Opens a file in every worker: a Blob/File (each worker reads only what
   * it needs), or bytes (an ArrayBuffer / Uint8Array, copied to each worker
   * once; shared without copying when it is a SharedArrayBuffer).
   * The returned file's `meta` is a ColumnsFile on this thread (metadata only).
   */
  async open(source, { tokenizers = [] } = {}) {
    const registry = new TokenizerRegistry();
    for (const t of tokenizers) registry.register(t);
    let meta, payload;
    if (source instanceof Blob) {
      meta = await ColumnsFile.fromBlob(source, registry);
      payload = source;
    } else {
      const view = source instanceof Uint8Array ? source : new Uint8Array(source);
      meta = await ColumnsFile.fromAsyncBuffer({ byteLength: view.length, slice: (s, e) => view.subarray(s, e) }, registry);
      // In memory the chunk headers are free: learn raw sizes to balance the work.
      await meta.loadChunkHeaders();
      payload = view.buffer instanceof SharedArrayBuffer ? view.buffer : view.slice().buffer;
    }
    const id = nextId++;
    await Promise.all(this.workers.map((w) => this.#call(w, { op: "open", id, source: payload, tokenizers })));
    return new PooledFile(this, id, meta);
  }

  /** @internal Reads chunks spread over the workers; columns in input order. */
  async read(id, meta, picks, reuse = null) {
    const groups = meta.rowGroups;
    const load = this.workers.map(() => 0);
    const batches = this.workers.map(() => []);
    const order = picks.map((p, i) => i).sort((a, b) => {
      const [ga, ca] = picks[a], [gb, cb] = picks[b];
      return groups[gb].columns[cb].byteLength - groups[ga].columns[ca].byteLength;
    });
    for (const i of order) {
      const [g, c] = picks[i];
      let w = 0;
      for (let k = 1; k < load.length; k++) if (load[k] < load[w]) w = k;
      // Decoded size, not stored size, is what costs time.
      load[w] += groups[g].columns[c].rawLength ?? groups[g].columns[c].byteLength;
      batches[w].push(i);
    }
    // Same picks, same split: each worker gets back what it allocated.
    const spare = this.workers.map(() => []);
    for (const col of Array.isArray(reuse) ? reuse : reuse ? [reuse] : []) {
      // A column from another pool (or none) feeds worker 0.
      const w = maker.get(col);
      spare[w < spare.length ? w : 0].push(...handBack(col));
    }
    const out = new Array(picks.length);
    await Promise.all(batches.map(async (batch, w) => {
      if (batch.length === 0) return;
      const msg = { op: "read", id, chunks: batch.map((i) => picks[i]), buffers: spare[w] };
      const reply = await this.#call(this.workers[w], msg, spare[w]);
      reply.columns.forEach((p, k) => {
        const col = columnFromParts(p.type, p.length, p.nullCount, p.values, p.validity);
        col.timings = p.timings;
        maker.set(col, w);
        out[batch[k]] = col;
      });
    }));
    return out;
  }

  /** @internal */
  close(id) {
    for (const w of this.workers) w.postMessage({ op: "close", id });
  }

  /** Stops every worker; pending reads reject. */
  terminate() {
    for (const w of this.workers) w.terminate();
    for (const p of this.#pending.values()) p.reject(new Error("pool terminated"));
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
   *  (from this pool) you are done with; their buffers are refilled. */
  async readColumns(rowGroups = null, columns = null, options = undefined) {
    const gs = rowGroups ?? this.meta.rowGroups.map((_, i) => i);
    const cs = columns ?? this.meta.schema.map((_, i) => i);
    for (const g of gs) if (!(g >= 0 && g < this.meta.rowGroups.length)) throw toError({ message: `row group ${g} does not exist`, kind: "out_of_range" });
    for (const c of cs) if (!(c >= 0 && c < this.meta.schema.length)) throw toError({ message: `column ${c} does not exist`, kind: "out_of_range" });
    return this.pool.read(this.id, this.meta, gs.flatMap((g) => cs.map((c) => [g, c])), options?.reuse);
  }

  close() {
    this.pool.close(this.id);
    this.meta.free();
  }
}
