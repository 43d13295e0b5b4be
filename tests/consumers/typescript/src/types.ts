// What the declarations must allow and refuse. Every @ts-expect-error line
// must be an error: were a type `any` (or too loose), the directive would be
// unused and tsc would fail. Compiled only (the test does not run it).
import init, { Column, ColumnsError, ColumnsFile, ScopedColumn, TokenizerRegistry, initSync, wasmMemory, type ErrorKind, type RowGroupBatch } from "columns-wasm";
import { ColumnsPool } from "columns-wasm/pool";
import { openAsBlob } from "node:fs";

export async function allowed(bytes: Uint8Array, buffer: ArrayBuffer, blob: Blob, view: DataView): Promise<void> {
  await init();
  await init({ module_or_path: new URL("https://example.invalid/columns_wasm_bg.wasm") });
  initSync({ module: buffer });
  const file = ColumnsFile.fromBytes(buffer);
  ColumnsFile.fromBytes(view, new TokenizerRegistry());
  ColumnsFile.fromBytes(bytes, null);
  await ColumnsFile.fromBlob(blob);
  const columns: Column[] = file.readColumns();
  file.readColumns([0], null, { reuse: columns });
  file.readColumns(undefined, [1, 2]);
  const bits = file.readColumn(0, 0, { boolBits: true });
  const packed: Uint8Array = bits.boolBitmap();
  const kept: Column = bits.pin();
  const isPacked: boolean = bits.boolBits;
  void packed, kept, isPacked;
  const again = await file.readColumnsAsync(null, null, { reuse: columns[0], signal: AbortSignal.timeout(1000) });
  await ColumnsFile.fromBlob(blob, null, { signal: new AbortController().signal });
  await file.loadChunkHeaders({ signal: null });
  const memory: WebAssembly.Memory = wasmMemory();
  const pages: number = memory.buffer.byteLength / 65536;
  const col = again[0];
  if (col.type === "float64" && col.values !== null) {
    const f: Float64Array = col.values;
    const x: number | null = col.toArray()[0];
    void f, x;
  }
  if (col.type === "int64" && col.values) {
    const b: BigInt64Array = col.values;
    const v: bigint | null = col.toArray()[0];
    void b, v;
  }
  if (col.type === "string" && col.values) {
    const { offsets, data }: { offsets: Uint32Array; data: Uint8Array } = col.values;
    const s: string | null = col.toArray()[0];
    void offsets, data, s;
  }
  const kinds: ErrorKind[] = ["not_initialized", "freed", "bad_argument", "internal", "aborted", "load_failed", "truncated", "busy", "released"];
  // Lent columns: a scoped read's result is its callback's.
  const rows: number = file.readRowGroupScoped(
    0,
    ({ rowGroup, numRows, columns }) => {
      const lent = columns[0];
      if (lent.type === "float64") {
        const v: Float64Array = lent.values;
        void v;
      }
      const copy: Column = lent.copy();
      const gone: boolean = lent.released;
      const isScoped: boolean = lent instanceof ScopedColumn;
      void copy, gone, isScoped, rowGroup;
      return numRows;
    },
    { columns: [0, 1] },
  );
  const type: string = await file.readRowGroupScopedAsync(1, async ({ columns }) => columns[0].type, { signal: null });
  for await (const { rowGroup, columns: copied } of file.rowGroupsAsync({ columns: [0], readAhead: 1 << 20, rowGroups: [2, 1] })) {
    const kept: Column = copied[0];
    void kept, rowGroup;
  }
  for await (const batch of file.rowGroupsAsync({ scoped: true, signal: AbortSignal.timeout(1000) })) {
    const lent: RowGroupBatch<ScopedColumn> = batch;
    void lent;
    break;
  }
  // A chunk's encoding detail narrows by its kind.
  const detail = file.inspectChunk(0, 0).detail;
  if (detail?.kind === "Delta") {
    const first: bigint | null = detail.first;
    void first;
  } else if (detail?.kind === "Tokenized") {
    const layout: "Raw" | "Remap" | "Bits" = detail.representation;
    void layout;
  }
  // return() resolves with what it is given, as a generator's does.
  const stopped = await file.rowGroupsAsync().return(42);
  if (stopped.done) {
    const n: number = stopped.value;
    void n;
  }
  void rows, type;
  const unknownValue: unknown = columns[0];
  if (unknownValue instanceof Column) void unknownValue.length;
  try {
    file.readColumn(0, 0);
  } catch (e) {
    if (e instanceof ColumnsError) {
      const k: ErrorKind = e.kind;
      const where: number | null = e.rowGroup ?? e.column ?? e.offset;
      void k, where, e.toJSON().kind;
    }
  }
  const err = new ColumnsError("message", "bad_argument");
  const pool = await ColumnsPool.create();
  const pooled = await pool.open(buffer, { tokenizers: [bytes] });
  const fromPool: Column[] = await pooled.readColumns(null, null, { reuse: columns });
  // In Node (this project resolves the "node" condition) a file's path or file: URL too.
  await pool.open("data.cols");
  await pool.open(new URL("file:///data/data.cols"), { tokenizers: [] });
  // @ts-expect-error a path is a string or a URL, not a number
  await pool.open(5);
  file.free();
  void pages, kinds, err, fromPool;
}

export async function refusedLent(file: ColumnsFile): Promise<void> {
  file.readRowGroupScoped(0, ({ columns }) => {
    // @ts-expect-error a lent column is not a Column (no pin(); released with its scope)
    const c: Column = columns[0];
    void c;
  });
  // @ts-expect-error the batch has rowGroup, numRows and columns only
  file.readRowGroupScoped(0, (batch) => batch.values);
  // @ts-expect-error a callback is needed
  file.readRowGroupScoped(0);
  // @ts-expect-error a callback that returns a promise: its columns are released before it settles
  file.readRowGroupScoped(0, async ({ numRows }) => numRows);
  // @ts-expect-error the same, spelled as a promise
  file.readRowGroupScoped(0, ({ numRows }) => Promise.resolve(numRows));
  // @ts-expect-error readAhead is a number of bytes
  file.rowGroupsAsync({ readAhead: "64 MiB" });
  for await (const { columns } of file.rowGroupsAsync({ scoped: true })) {
    // @ts-expect-error lent when scoped
    const c: Column = columns[0];
    void c;
  }
}

export function refused(file: ColumnsFile, col: Column, e: ColumnsError): void {
  // @ts-expect-error values is null once the column was handed back
  void col.values.length;
  // @ts-expect-error not narrowed: any of the typed arrays, or { offsets, data }
  const f: Float64Array = col.values ?? new Float64Array();
  // @ts-expect-error kind is a union of known kinds, not any string
  const k: "no_such_kind" = e.kind;
  // @ts-expect-error a Memory, not any
  void wasmMemory().noSuchProperty;
  // @ts-expect-error columns come from reads only
  new ColumnsFile();
  // @ts-expect-error not bytes
  ColumnsFile.fromBytes("data.cols");
  // @ts-expect-error row groups are numbers
  file.readColumns(["0"]);
  // @ts-expect-error no such option
  file.readColumn(0, 0, { reuse: [col], nope: true });
  // @ts-expect-error narrowing: an int64 column holds bigints, not numbers
  if (col.type === "int64" && col.values) { const n: number = col.values[0]; void n; }
  // @ts-expect-error not a kind of this package
  new ColumnsError("m", "oops");
  const detail = file.inspectChunk(0, 0).detail;
  // @ts-expect-error a Dict's detail has no prefix (narrowed by kind)
  if (detail?.kind === "Dict") void detail.prefix;
  void f, k;
}

/** The README's file on disk: Node's fs.openAsBlob gives what fromBlob takes (with lib.dom, where Blob is the DOM's). */
export async function onDisk(path: string): Promise<number> {
  const file = await ColumnsFile.fromBlob(await openAsBlob(path));
  return file.numRows;
}
