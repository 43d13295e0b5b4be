import type { Bytes, Column, ColumnsFile, ReadOptions } from "./columns_wasm.js";

/** Reads column chunks in parallel on a pool of Web Workers (browsers only).
 *  Needs no init() first, no cross-origin isolation and no particular
 *  Content-Type for the .wasm. */
export class ColumnsPool {
  private constructor();
  /** Starts `size` workers (default: navigator.hardwareConcurrency, in Node
   *  os.availableParallelism(); 1 to 256, else `bad_argument`) and
   *  initialises the module (compiled once, here, for all of them). Where
   *  there are no Web Workers (the browser build run elsewhere), or the
   *  workers' script `pool-worker.js` does not load (not copied beside
   *  pool.js), rejects with `load_failed`. */
  static create(size?: number): Promise<ColumnsPool>;
  /** Number of workers. */
  readonly size: number;
  /** Opens a file in every worker: a Blob/File (each worker reads only what it needs), or bytes
   *  (copied once per worker and transferred; shared when the page is cross-origin isolated).
   *  Options that are not an object, or `tokenizers` that is not an array, are a `bad_argument`. */
  open(source: Blob | Bytes, options?: { tokenizers?: Bytes[] | undefined }): Promise<PooledFile>;
  /** Stops every worker; pending reads reject with `freed`, and so do later calls. */
  terminate(): void;
}

/** A file open in every worker of the pool (`pool.open()`). */
export class PooledFile {
  private constructor();
  /** Metadata on the calling thread (schema, rowGroups, tokenizers, ...). */
  readonly meta: ColumnsFile;
  /** Reads chunks (all row groups / columns when omitted) in parallel; columns in row-group-major order.
   *  Its arguments are checked as `meta.readColumnsAsync`'s (the same error kinds).
   *  `options.reuse`: columns from this pool you are done with; each worker refills the buffers it made.
   *  `options.boolBits`: bool columns bit-packed, as for ColumnsFile reads.
   *  `options.signal`: rejects at once with an `aborted` ColumnsError when it aborts; each worker
   *  stops before its next batch of chunks (from memory: whole row groups, 64 chunks or more, a call). */
  readColumns(rowGroups?: readonly number[] | null, columns?: readonly number[] | null, options?: Pick<ReadOptions, "reuse" | "boolBits" | "signal">): Promise<Column[]>;
  /** Closes the file in every worker; a read after it rejects with `freed` ("this PooledFile was closed"). */
  close(): void;
}
