import type { Bytes, Column, ColumnsFile, ReadOptions } from "./columns_wasm.js";

/** Reads column chunks in parallel on a pool of worker threads (Node: the
 *  "node" condition of `columns-wasm/pool`). Its files, columns and errors
 *  are the classes `columns-wasm` gives. An idle pool does not keep the
 *  process alive; a pending read does. */
export class ColumnsPool {
  private constructor();
  /** Starts `size` worker threads (default: os.availableParallelism(); 1
   *  to 256, else `bad_argument`) and initialises the module (compiled once,
   *  here, for all of them). */
  static create(size?: number): Promise<ColumnsPool>;
  /** Number of worker threads. */
  readonly size: number;
  /** Opens a file in every thread: a path, or a file: URL (a URL, or a string starting "file:"),
   *  opened once here, each thread reading only the chunks it is given (`bad_source` if it does
   *  not open); a Blob in memory; or bytes, shared with the threads through one
   *  SharedArrayBuffer (one copy in all, none for bytes on a SharedArrayBuffer). A Blob from
   *  fs.openAsBlob is a `bad_argument` (Node cannot send it to a thread: pass its path).
   *  Options that are not an object, or `tokenizers` that is not an array, are a `bad_argument`. */
  open(source: Blob | Bytes | string | URL, options?: { tokenizers?: Bytes[] | undefined }): Promise<PooledFile>;
  /** Stops every thread; pending reads reject with `freed`, and so do later calls. A thread
   *  that stops on its own fails what waits on it, and what is asked of it later, as `internal`. */
  terminate(): void;
}

/** A file open in every thread of the pool (`pool.open()`). */
export class PooledFile {
  private constructor();
  /** Metadata on the calling thread (schema, rowGroups, tokenizers, ...). */
  readonly meta: ColumnsFile;
  /** Reads chunks (all row groups / columns when omitted) in parallel; columns in row-group-major order.
   *  Its arguments are checked as `meta.readColumnsAsync`'s (the same error kinds).
   *  `options.reuse`: columns from this pool you are done with; each thread refills the buffers it made.
   *  `options.boolBits`: bool columns bit-packed, as for ColumnsFile reads.
   *  `options.signal`: rejects at once with an `aborted` ColumnsError when it aborts; each thread
   *  stops before its next batch of chunks (from memory: whole row groups, 64 chunks or more, a call). */
  readColumns(rowGroups?: readonly number[] | null, columns?: readonly number[] | null, options?: Pick<ReadOptions, "reuse" | "boolBits" | "signal">): Promise<Column[]>;
  /** Closes the file in every thread (and a file opened by its path, once no read of it runs);
   *  a read after it rejects with `freed` ("this PooledFile was closed"). A thread lets go of the
   *  file's bytes or Blob once it is idle (it runs V8's collector then). */
  close(): void;
}
