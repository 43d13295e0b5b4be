// Types of columns-wasm/arrow: columns and row groups as apache-arrow
// Vectors and Tables over the package's own buffers. See the README's
// Arrow section for the layout rules (bool bit-packing, 32-bit offsets,
// duplicate names, { reuse }).

import type { DataType, Table, TypeMap, Vector } from "apache-arrow";
import type { Column, ColumnsFile } from "./columns_wasm.js";

/** How string columns become Arrow: `"utf8"` (default) as Utf8, whose
 *  getters decode like `Column.toArray()` (invalid UTF-8 becomes U+FFFD,
 *  the bytes stay exact in the buffer); `"binary"` as Binary, the exact
 *  bytes as Uint8Array; `"auto"`: Utf8 when every value of the column is
 *  valid UTF-8, else Binary (a validation pass; what strict readers such
 *  as DuckDB need, which refuse invalid UTF-8 in Utf8). */
export type StringsAs = "utf8" | "binary" | "auto";

/** Options of `toArrowVector`. A name not declared here (misspelt) is a
 *  `bad_argument` naming it, not ignored; so it is in `ArrowTableOptions`. */
export interface ArrowVectorOptions {
  /** How string columns become Arrow (default `"utf8"`). */
  strings?: StringsAs | undefined;
}

/** Options of `toArrowTable` and `toArrowTableAsync`. */
export interface ArrowTableOptions extends ArrowVectorOptions {
  /** Row group indices, in the order wanted (default: all). */
  rowGroups?: readonly number[] | null | undefined;
  /** Column indices or names (default: all). Names are the Table's, made
   *  unique by `uniqueNames`, so "s_1" is the second column named "s". */
  columns?: readonly (number | string)[] | null | undefined;
}

/** The column as an Arrow Vector over the same memory (bool columns read
 *  without `{ boolBits: true }` are packed: a copy of one byte per 8 rows).
 *  Pins the column (`Column.pin()`): `{ reuse }` never rewrites its buffers. */
export function toArrowVector(column: Column, options?: ArrowVectorOptions): Vector<DataType>;

/** Names made unique as DuckDB does: the first of each name keeps it, the
 *  next ones get `_1`, `_2`, ... (skipping names the list already has).
 *  Names that differ only in ASCII case count as the same, as in DuckDB:
 *  `id, ID` becomes `id, ID_1`. */
export function uniqueNames(names: readonly string[]): string[];

/** A file whose columns can be read asynchronously: a ColumnsFile, or a
 *  file opened on a ColumnsPool (its `meta` holds the schema). */
export interface AsyncReadable {
  meta?: Pick<ColumnsFile, "schema" | "rowGroups">;
  readColumns?(rowGroups: readonly number[] | null, columns: readonly number[] | null, options?: { boolBits?: boolean; signal?: AbortSignal }): Promise<Column[]> | Column[];
  readColumnsAsync?(rowGroups: readonly number[] | null, columns: readonly number[] | null, options?: { boolBits?: boolean; signal?: AbortSignal }): Promise<Column[]>;
}

/** Row groups of an in-memory file (`ColumnsFile.fromBytes`) as one Table,
 *  one RecordBatch per row group, sharing the buffers of the read. */
export function toArrowTable(file: ColumnsFile, options?: ArrowTableOptions): Table<TypeMap>;

/** Options of `toArrowTableAsync`. */
export interface ArrowTableAsyncOptions extends ArrowTableOptions {
  /** Aborts the read: the promise rejects with an `aborted` ColumnsError
   *  (the signal's reason as its `cause`); a signal aborted already rejects
   *  before anything is read. Given to the file's read, which checks it. */
  signal?: AbortSignal | null | undefined;
}

/** Like `toArrowTable` for any file (Blob, AsyncBuffer, pool): only the
 *  selected chunks are fetched. */
export function toArrowTableAsync(file: ColumnsFile | AsyncReadable, options?: ArrowTableAsyncOptions): Promise<Table<TypeMap>>;
