// Types of columns-wasm: the same for every entry point (browser, bundler,
// Node ESM and CommonJS). Written by hand (wasm-bindgen's generated
// declarations are not shipped); tests/consumers checks them against the
// runtime exports and with `tsc --strict`.

// Names these declarations need from the environment, declared the way the
// libs that have them do, so that they merge with those and compile without
// them: `Symbol.dispose` (lib.esnext.disposable, @types/node; absent from the
// default lib), and the WebAssembly namespace (lib.dom only: a Node project
// with "lib": ["es2023"] has none).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
  namespace WebAssembly {
    interface Module {}
    interface Memory {}
  }
}

/** Where init() finds the WebAssembly module: a URL, a Request, a Response
 *  (or a promise of one), its bytes, or a compiled WebAssembly.Module. */
export type InitInput = string | URL | Request | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/**
 * Loads the WebAssembly module (once; later calls resolve at once).
 * Browsers and bundlers: await it before any other call. Without an
 * argument it fetches `columns_wasm_bg.wasm` beside the package's script.
 * Node: loads nothing (the module is loaded when the package is imported),
 * but awaits a promise given, so that its rejection is a `load_failed` there too.
 * Rejects with a `load_failed` ColumnsError (fetch, compile, or a rejected
 * input promise, quoted), after which it may be called again.
 */
export default function init(input?: { module_or_path?: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<void>;

/** init() without waiting, for a Worker that was given the compiled module
 *  or its bytes (a page's main thread too: Chromium compiles bytes
 *  synchronously there only below 8 MB, this module is far under); bytes that
 *  do not compile throw `load_failed`. Node: does nothing. */
export function initSync(input: { module: ArrayBuffer | ArrayBufferView | WebAssembly.Module } | ArrayBuffer | ArrayBufferView | WebAssembly.Module): void;

/** The module's WebAssembly.Memory, to watch its size (it should not keep
 *  growing across repeated reads). `buffer` is spelled out for projects
 *  without lib.dom, where WebAssembly.Memory is only the empty name above. */
export function wasmMemory(): WebAssembly.Memory & { readonly buffer: ArrayBuffer };

/** Not API: what the package's own modules (its pools, columns-wasm/arrow)
 *  share with this one. Unguarded (it can make a Column around any buffer),
 *  untyped on purpose, and it may change in any release. */
export const __internal: unknown;

/** Every `kind` a ColumnsError can have. */
export type ErrorKind =
  // the file
  | "truncated"
  | "bad_magic"
  | "unsupported_version"
  | "corrupt_footer"
  | "corrupt_chunk"
  | "unsupported_codec"
  | "unsupported_encoding"
  | "unknown_tokenizer"
  | "out_of_range"
  | "invalid_tokenizer"
  | "too_large"
  // the call
  | "bad_argument"
  | "bad_source"
  | "not_in_memory"
  | "not_initialized"
  | "freed"
  | "busy"
  | "released"
  | "aborted"
  | "load_failed"
  // a bug, or a pool worker that died
  | "internal";

/** Thrown (or rejected with) by every call that fails. `instanceof
 *  ColumnsError` is true of any Error named "ColumnsError" (a second copy of
 *  the package in one bundle makes its own). */
export class ColumnsError extends Error {
  constructor(message: string, kind: ErrorKind, rowGroup?: number | null, column?: number | null, offset?: number | null);
  readonly name: "ColumnsError";
  /** What went wrong (see ErrorKind). */
  kind: ErrorKind;
  /** Where, when known: row group index, column index, byte offset in the file. */
  rowGroup: number | null;
  column: number | null;
  offset: number | null;
  /** What JS threw or rejected with, when that caused this error (a
   *  source's failure, an abort's reason, a failed fetch or compile). */
  cause?: unknown;
  /** A plain object, so the error survives postMessage and JSON. */
  toJSON(): { name: "ColumnsError"; message: string; kind: ErrorKind; rowGroup: number | null; column: number | null; offset: number | null };
}

/** A column's type, as the file's schema names it. */
export type ColumnType =
  | "bool"
  | "int8"
  | "int16"
  | "int32"
  | "int64"
  | "uint8"
  | "uint16"
  | "uint32"
  | "uint64"
  | "float32"
  | "float64"
  | "bytes"
  | "string";

/** String and bytes values, Arrow's layout: value i is `data[offsets[i] .. offsets[i + 1]]`. */
export interface VarValues {
  offsets: Uint32Array;
  data: Uint8Array;
}

/** What `values` holds for each column type. */
export interface ValuesOf {
  /** One byte per row, 0 or 1; bit-packed when read with `{ boolBits: true }`. */
  bool: Uint8Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  float32: Float32Array;
  float64: Float64Array;
  bytes: VarValues;
  string: VarValues;
}

/** What `toArray()` gives for each column type (nulls are null). */
export interface ValueOf {
  bool: boolean;
  int8: number;
  int16: number;
  int32: number;
  int64: bigint;
  uint8: number;
  uint16: number;
  uint32: number;
  uint64: bigint;
  float32: number;
  float64: number;
  bytes: Uint8Array;
  /** UTF-8, invalid sequences replaced with U+FFFD (the exact bytes are in `values`). */
  string: string;
}

/** Milliseconds spent on each stage of a read. */
export interface Timings {
  /** The async reads only: getting the chunk's bytes from the file's
   *  source (a copy out of memory for a `fromBytes` file). */
  readMs?: number;
  decompressMs: number;
  decodeMs: number;
  /** Copying the decoded buffers into JavaScript arrays. */
  copyMs: number;
  totalMs: number;
  /** Whether the file is in memory (`fromBytes`), so `readMs` fetched nothing. */
  fromMemory: boolean;
}

/** A decoded column chunk of type `T`. */
export interface ColumnOf<T extends ColumnType> {
  readonly type: T;
  /** Number of rows. */
  length: number;
  /** Number of null rows. */
  nullCount: number;
  /** The values (a null row holds 0 or an empty value). `null` only once this
   *  column was handed back with `{ reuse }`: its buffers then belong to a newer read. */
  values: ValuesOf[T] | null;
  /** `null` when no row is null; else bit i (LSB first) set = row i valid. */
  validity: Uint8Array | null;
  /** Milliseconds per stage of the read that made it. */
  timings: Timings | null;
  /** `true` when this bool column was read with `{ boolBits: true }`: `values`
   *  is then bit-packed, bit i (LSB first) = row i, Arrow's layout. `false`:
   *  one byte per row (and for every other type). */
  boolBits: boolean;
  /** A bool column's values bit-packed (bit i, LSB first = row i): `values`
   *  itself when read with `{ boolBits: true }`, else a packed copy. Throws
   *  for other types, and once the column was handed back. */
  boolBitmap(): Uint8Array;
  /** Keeps this column's buffers out of `{ reuse }` for good (handing it back
   *  still empties it, but no read writes into its arrays again): call it
   *  before keeping views of its arrays (the Arrow adapter does). */
  pin(): this;
  /** Whether row `row` holds a value. Throws once the column was handed back. */
  isValid(row: number): boolean;
  /** Plain JS values, null for nulls. Throws once the column was handed back. */
  toArray(): (ValueOf[T] | null)[];
}

/** A decoded column chunk: narrow it by `type` to reach typed `values`. */
export type Column = { [T in ColumnType]: ColumnOf<T> }[ColumnType];
/** The runtime class of every Column (for `instanceof`); columns come from reads only
 *  (`new Column()` is a `bad_argument`, as is a Column method called on anything else). */
export declare const Column: abstract new (...args: never[]) => Column;

/** A decoded column chunk of type `T` lent by a scoped read
 *  (`readRowGroupScoped`, `rowGroupsAsync({ scoped: true })`): its arrays
 *  are views of the reader's own buffers in the module's memory, valid
 *  until the callback returns (the loop iteration ends). After that every
 *  member but `released` throws a `released` ColumnsError, and arrays taken
 *  from it are detached (length 0; their methods throw). One memory backs
 *  every scope, so memory growth (another read) and the end of any other
 *  scoped read (of any file: another task's, while an async callback
 *  awaits) detach them too: read `values` again after any call into the
 *  package and after any await. */
export interface ScopedColumnOf<T extends ColumnType> {
  readonly type: T;
  readonly length: number;
  readonly nullCount: number;
  readonly values: ValuesOf[T];
  readonly validity: Uint8Array | null;
  /** Always `false`: bools are one byte per row. */
  readonly boolBits: false;
  readonly timings: null;
  /** Whether the scope has ended. */
  readonly released: boolean;
  /** A Column with copies of the arrays, in JavaScript memory, to keep. */
  copy(): ColumnOf<T>;
  isValid(row: number): boolean;
  toArray(): (ValueOf[T] | null)[];
  boolBitmap(): Uint8Array;
}

/** A lent column chunk: narrow it by `type` to reach typed `values`. */
export type ScopedColumn = { [T in ColumnType]: ScopedColumnOf<T> }[ColumnType];
/** The runtime class of every ScopedColumn (for `instanceof`); they are lent by
 *  scoped reads only (`new ScopedColumn()` is a `bad_argument`, as `new Column()` is). */
export declare const ScopedColumn: abstract new (...args: never[]) => ScopedColumn;

/** One row group's columns, as a scoped read and `rowGroupsAsync` give them. */
export interface RowGroupBatch<C = Column> {
  /** Its index in the file. */
  rowGroup: number;
  numRows: number;
  /** The columns asked for, in the order asked for. */
  columns: C[];
}

/** A value as `Column.toArray()` and the statistics give it. */
export type Value = number | bigint | boolean | string | Uint8Array | null;

/** One column of `file.schema`. */
export interface SchemaColumn {
  /** As the file names it (names may repeat). */
  name: string;
  type: ColumnType;
  /** Whether the schema lets the column hold nulls. */
  nullable: boolean;
}

/** One entry of `file.tokenizers`, the file's tokenizer table. */
export interface TokenizerRef {
  /** Lowercase hex SHA-256 of the tokenizer.json. */
  digest: string;
  /** Whether the file's registry has it. */
  resolved: boolean;
}

/** A column chunk as the footer describes it (`file.rowGroups[g].columns[c]`). */
export interface ChunkMeta {
  /** The encoding's name ("Plain", "RLEBitpack", "Delta", "Dict",
   *  "OffsetBytes", "Affix", "Tokenized"), or "unknown(N)" for a tag the
   *  format does not define. */
  encoding: string;
  /** The codec's name ("None", "Zstd", "Flate", "Gzip", "Zlib", "Lzw"), or "unknown(N)". */
  codec: string;
  /** The encoding's tag as the footer stores it (1 to 7 when known). */
  encodingTag: number;
  /** The codec's tag as the footer stores it (0 to 5 when known). */
  codecTag: number;
  /** Where the chunk starts in the file, and its length in bytes. */
  byteOffset: number;
  byteLength: number;
  /** From the chunk's own header: null until that chunk has been read (Blob and AsyncBuffer files). */
  rawLength: number | null;
  blockCount: number | null;
  nullCount: number;
  /** The footer's statistics as the writer stored them, never recomputed:
   *  the smallest and largest non-null value (null when the stored bytes
   *  are empty, as for an empty string or a chunk of nulls only), and those
   *  bytes themselves. */
  min: Value;
  max: Value;
  minRaw: Uint8Array;
  maxRaw: Uint8Array;
  /** The shortest and longest value in bytes (strings and bytes), or the
   *  type's width (fixed-width types); 0 when no value is non-null. */
  minLen: number;
  maxLen: number;
  /** The column's tokenizer, a 1-based position in `file.tokenizers`; 0 when it has none. */
  tokenizer: number;
  /** That tokenizer's digest (lowercase hex SHA-256), null when it has none. */
  tokenizerDigest: string | null;
}

/** A row group as the footer describes it (`file.rowGroups[g]`). */
export interface RowGroupMeta {
  numRows: number;
  /** Where its first chunk starts in the file. */
  byteOffset: number;
  /** Its chunks, one per schema column, in schema order. */
  columns: ChunkMeta[];
}

/** A stretch of the file's bytes (`file.layout`): the header, a chunk,
 *  the footer, or the tail (footer length and magic). */
export interface Region {
  kind: "header" | "chunk" | "footer" | "tail";
  start: number;
  end: number;
  rowGroup?: number;
  column?: number;
}

/** A chunk's encoded stream as `inspectChunk` describes it. */
export type EncodingDetail =
  | { kind: "Plain" }
  /** Bools: how many are true. */
  | { kind: "RLEBitpack"; trues: number }
  /** The first value and the smallest and largest delta after it (null when there are none). */
  | { kind: "Delta"; first: bigint | null; minDelta: bigint | null; maxDelta: bigint | null }
  | { kind: "Dict"; size: number; indexWidth: number; indexBytes: number; entryBytes: number }
  | { kind: "OffsetBytes"; dataBytes: number }
  /** The prefix and suffix every value shares, and the bytes between. */
  | { kind: "Affix"; prefix: Uint8Array; suffix: Uint8Array; middleBytes: number }
  | {
      kind: "Tokenized";
      /** How token ids are stored. */
      representation: "Raw" | "Remap" | "Bits";
      /** How values' token counts are stored. */
      boundaries: "Counts" | "Offsets" | "Deltas";
      values: number;
      tokens: number;
      escapes: number;
      tableLength: number;
      /** Bits a token id takes (Bits only). */
      bitsWidth: number | null;
      idBytes: number;
    };

/** What `inspectChunk` found in a chunk's own bytes. */
export interface ChunkReport {
  encoding: string;
  codec: string;
  nullBitmapLength: number;
  rawLength: number;
  dataLength: number;
  blocks: { rawLength: number; storedLength: number; offset: number }[];
  /** What the encoded stream says of itself, by `kind` (its encoding);
   *  null when the stream could not be read. */
  detail: EncodingDetail | null;
  decoded: {
    nullCount: number;
    min: Value;
    max: Value;
    minRaw: Uint8Array;
    maxRaw: Uint8Array;
    minLen: number;
    maxLen: number;
  } | null;
  checks: { field: string; agrees: boolean }[];
  /** Whether this chunk's type is one the format's reference writer gets
   *  statistics wrong for (bytes: after an empty value, min/max and the
   *  lengths can be off), so that a check's disagreement may be that bug
   *  rather than damage. A fact of the type, true whether or not the checks
   *  here agree. */
  knownWriterBug: boolean;
  error: ColumnsError | null;
}

/** Any random-access byte source: an HTTP resource, a file handle, ... */
export interface AsyncBuffer {
  byteLength: number;
  /** Exactly the bytes `start` to `end` (an ArrayBuffer or any view), or a promise of them.
   *  `options.signal` is the AbortSignal of the open or read that asks (absent when it
   *  has none): a source may stop what it started for it (a fetch), or ignore it.
   *  A failure is the package's `bad_source` with it as `cause`, or, when it is a
   *  ColumnsError of kind `aborted` or `too_large`, the package's error of that kind. */
  slice(start: number, end: number, options?: { signal?: AbortSignal | undefined }): Promise<Bytes> | Bytes;
}

/** Options of every async method. */
export interface AbortOptions {
  /** Stops an async open or read: it rejects at once with an `aborted`
   *  ColumnsError (`cause`: the signal's reason); the file stays usable. */
  signal?: AbortSignal | null | undefined;
}

/** Options of the copying reads (`readColumn`, `readColumns` and their async forms).
 *  In every options object of the package, a name its method does not take
 *  (misspelt, or another method's option) is a `bad_argument` naming it and
 *  the method, not ignored; one left `undefined` or `null` takes its default. */
export interface ReadOptions extends AbortOptions {
  /** Columns you are done with: the read refills their buffers instead of
   *  allocating new memory, and empties them (their `values` become null). */
  reuse?: Column | readonly Column[] | null | undefined;
  /** Bool columns come bit-packed (8 rows per byte, Arrow's layout) instead
   *  of one byte per row; see `Column.boolBits`. */
  boolBits?: boolean | undefined;
}

/** Options of `readRowGroupScoped`. */
export interface ScopedReadOptions {
  /** Column indexes, in the order wanted (all when omitted or null). */
  columns?: readonly number[] | null | undefined;
}

/** Options of `readRowGroupScopedAsync`. */
export interface ScopedReadAsyncOptions extends ScopedReadOptions, AbortOptions {}

/** Options of `rowGroupsAsync`. */
export interface RowGroupsOptions extends AbortOptions {
  /** Row group indexes, in the order wanted (all when omitted or null). */
  rowGroups?: readonly number[] | null | undefined;
  /** Column indexes, in the order wanted (all when omitted or null). */
  columns?: readonly number[] | null | undefined;
  /** Bytes that may be fetched ahead of the row group being handed out
   *  (64 MiB by default; a chunk larger than this is still fetched whole),
   *  in requests of at most half as many, so one can arrive while the one
   *  before is decoded. */
  readAhead?: number | undefined;
  /** Bool columns bit-packed (copied columns only). */
  boolBits?: boolean | undefined;
  /** Columns you are done with (copied columns only), as a read's `reuse`:
   *  the stream refills their buffers instead of allocating new memory, and
   *  empties them. */
  reuse?: Column | readonly Column[] | null | undefined;
  /** `true`: lend each row group's columns (ScopedColumn, valid until the
   *  next step of the loop) instead of copying them. */
  scoped?: boolean | undefined;
}

/** What `rowGroupsAsync` returns: `for await` over it; `break` stops the
 *  fetching and releases the memory. */
export interface RowGroupStream<C> extends AsyncIterableIterator<RowGroupBatch<C>> {
  next(): Promise<IteratorResult<RowGroupBatch<C>, undefined>>;
  /** Stops the loop (as `break` does); resolves with `value`, as a generator's return does. */
  return<R = undefined>(value?: R): Promise<IteratorResult<RowGroupBatch<C>, R>>;
}

/** What makes a promise-returning callback of readRowGroupScoped a type
 *  error (at run time it is a bad_argument): its columns are released when
 *  it returns, before the promise settles. */
export type NotAPromise<R> = [R] extends [PromiseLike<unknown>] ? "readRowGroupScoped refuses a callback that returns a promise: use readRowGroupScopedAsync" : unknown;

/** Bytes in memory: an ArrayBuffer, a SharedArrayBuffer or any view of one
 *  (Uint8Array, Node's Buffer, DataView, ...). */
export type Bytes = ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/** A `columns` file opened for reading. Opening reads the tail, header and
 *  footer only; a read fetches just the chunks it needs. */
export class ColumnsFile {
  private constructor();
  /** Opens a file held in memory. The bytes are kept by reference, not
   *  copied: each read copies the chunks it needs, so changing the bytes
   *  later changes what later reads see. */
  static fromBytes(bytes: Bytes, registry?: TokenizerRegistry | null): ColumnsFile;
  /** Opens a Blob or File, reading only its tail, header and footer. */
  static fromBlob(blob: Blob, registry?: TokenizerRegistry | null, options?: AbortOptions): Promise<ColumnsFile>;
  /** Opens any `{ byteLength, slice(start, end) }` source (HTTP ranges, ...), reading only its tail, header and footer. */
  static fromAsyncBuffer(source: AsyncBuffer, registry?: TokenizerRegistry | null, options?: AbortOptions): Promise<ColumnsFile>;

  /** Format version: 1 or 2. */
  readonly version: number;
  /** File size in bytes. */
  readonly byteLength: number;
  /** Total rows over all row groups. */
  readonly numRows: number;
  readonly headerLength: number;
  readonly footerOffset: number;
  readonly footerLength: number;
  /** Bytes fetched from the source so far (0 for in-memory files). */
  readonly bytesRead: number;
  /** Range requests made to the source so far. */
  readonly requests: number;
  /** Whether the whole file is in memory (`fromBytes`): only then do the synchronous reads work. */
  readonly inMemory: boolean;
  /** The header's tokenizer digests, in order, and whether each is registered. */
  readonly tokenizers: TokenizerRef[];
  /** Made anew, whole, on each read of the property: read it once, not in
   *  a loop (`file.schema[c]` per column costs the whole schema each time). */
  readonly schema: SchemaColumn[];
  /** Made anew on each read of the property (raw lengths and block counts
   *  appear as chunk headers are learnt): read it once, not in a loop. */
  readonly rowGroups: RowGroupMeta[];
  /** The file's regions in order: header, every chunk, footer, tail. Made
   *  anew on each read of the property, as `schema` is. */
  readonly layout: Region[];

  /** Reads one column chunk. Synchronous: needs a `fromBytes` file (and ignores `signal`). */
  readColumn(rowGroup: number, column: number, options?: ReadOptions): Column;
  /** Reads several chunks (all row groups / all columns when omitted or null), in row-group-major order. Synchronous: needs a `fromBytes` file. */
  readColumns(rowGroups?: readonly number[] | null, columns?: readonly number[] | null, options?: ReadOptions): Column[];
  /** Reads one column chunk from any file, fetching only its byte range. */
  readColumnAsync(rowGroup: number, column: number, options?: ReadOptions): Promise<Column>;
  /** Reads several chunks from any file, chunks at most 8 KiB apart in one request; row-group-major order. */
  readColumnsAsync(rowGroups?: readonly number[] | null, columns?: readonly number[] | null, options?: ReadOptions): Promise<Column[]>;
  /** Calls `callback` with row group `rowGroup`'s columns lent, not copied:
   *  views of buffers the file keeps and reuses (nothing is copied out of
   *  the module and no ArrayBuffer is allocated; once the buffers have
   *  grown to fit the largest row group read, nothing is allocated in the
   *  module either, whatever the encoding), valid
   *  until the callback returns; its result is returned. A callback that
   *  returns a promise is refused (use the Async form). One scoped read per
   *  file at a time (`busy`); `free()` inside the callback waits until it
   *  returns. Needs a `fromBytes` file. */
  readRowGroupScoped<R>(rowGroup: number, callback: (batch: RowGroupBatch<ScopedColumn>) => R & NotAPromise<R>, options?: ScopedReadOptions): R;
  /** readRowGroupScoped for any file: fetches the row group's chunks, then
   *  calls `callback`, and waits for the promise it returns (if any) before
   *  taking the columns back. Calls on one file run one after the other;
   *  one made while a callback of this file runs is refused (`busy`),
   *  whoever makes it: the package cannot tell a call from inside that
   *  callback (awaited there, it could never start) from another task's. */
  readRowGroupScopedAsync<R>(rowGroup: number, callback: (batch: RowGroupBatch<ScopedColumn>) => R | PromiseLike<R>, options?: ScopedReadAsyncOptions): Promise<R>;
  /** The file's row groups one at a time (`for await`), fetching ahead at
   *  most `readAhead` bytes: each step decodes the next row group and gives
   *  its columns, copied (`Column`) or with `{ scoped: true }` lent
   *  (`ScopedColumn`, valid until the next step). Errors, a freed file's
   *  included, reject the step they happen in. */
  rowGroupsAsync(options: RowGroupsOptions & { scoped: true }): RowGroupStream<ScopedColumn>;
  rowGroupsAsync(options?: RowGroupsOptions & { scoped?: false }): RowGroupStream<Column>;
  rowGroupsAsync(options?: RowGroupsOptions): RowGroupStream<Column | ScopedColumn>;
  /** Describes one chunk: its blocks, what its encoding did, and whether the footer's statistics agree with the decoded values. Needs a `fromBytes` file. */
  inspectChunk(rowGroup: number, column: number): ChunkReport;
  /** `inspectChunk` for any file, fetching the chunk's bytes. */
  inspectChunkAsync(rowGroup: number, column: number, options?: AbortOptions): Promise<ChunkReport>;
  /** Fetches the 18-byte header of every chunk not yet read, so `rowGroups` can report raw lengths and block counts. */
  loadChunkHeaders(options?: AbortOptions): Promise<void>;

  /** Releases the file's memory in the module. Any later call throws a `freed` ColumnsError; a second free() does nothing. */
  free(): void;
  [Symbol.dispose](): void;
}

/** tokenizer.json files by SHA-256 digest, for files with tokenized columns.
 *  Files opened with a registry see tokenizers registered later. */
export class TokenizerRegistry {
  constructor();
  /** Registers a tokenizer.json (its exact bytes); returns its lowercase hex SHA-256 digest.
   *  A UTF-8 byte order mark before the JSON is read past, and is part of the digest. */
  register(tokenizerJson: Bytes): string;
  /** Whether a tokenizer with this hex digest is registered. */
  has(digest: string): boolean;
  /** Hex digests of every registered tokenizer, in registration order. */
  digests(): string[];
  /** Number of registered tokenizers. */
  readonly size: number;
  free(): void;
  [Symbol.dispose](): void;
}
