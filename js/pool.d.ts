import type { ColumnsFile, Column, ReadOptions } from "./columns_wasm.js";

/** Reads column chunks in parallel on a pool of Web Workers (browser only). */
export class ColumnsPool {
  /** Starts `size` workers (default: navigator.hardwareConcurrency) and compiles the module once for all. */
  static create(size?: number): Promise<ColumnsPool>;
  /** Number of workers. */
  readonly size: number;
  /** Opens a file in every worker: a Blob/File, or bytes (copied once per worker; a SharedArrayBuffer is shared). */
  open(source: Blob | ArrayBuffer | Uint8Array, options?: { tokenizers?: Uint8Array[] }): Promise<PooledFile>;
  /** Stops every worker; pending reads reject. */
  terminate(): void;
}

export class PooledFile {
  /** Metadata on the calling thread (schema, rowGroups, tokenizers, ...). */
  readonly meta: ColumnsFile;
  /** Reads chunks (all row groups / columns when omitted) in parallel; columns in row-group-major order.
   *  `options.reuse`: columns from this pool you are done with; each worker refills the buffers it made. */
  readColumns(rowGroups?: number[] | null, columns?: number[] | null, options?: ReadOptions): Promise<Column[]>;
  close(): void;
}
