// Under the strictest flags a project may set (noUncheckedIndexedAccess,
// exactOptionalPropertyTypes): an option passed as `undefined`, as code
// forwarding its own optional arguments does, type-checks (the package
// accepts it at run time: tests/node/reuse.test.mjs). Compiled only;
// columns-wasm/arrow's options: tests/arrow/types.test.mjs.
import { type Column, ColumnsFile } from "columns-wasm";
import { ColumnsPool } from "columns-wasm/pool";

export async function forward(file: ColumnsFile, reuse?: Column, signal?: AbortSignal, boolBits?: boolean, columns?: number[]): Promise<number> {
  const cols = file.readColumns(null, null, { reuse, boolBits });
  await file.readColumnsAsync(undefined, columns, { signal, reuse, boolBits });
  file.readRowGroupScoped(0, ({ numRows }) => numRows, { columns });
  await file.readRowGroupScopedAsync(0, ({ numRows }) => numRows, { columns, signal });
  for await (const batch of file.rowGroupsAsync({ columns, rowGroups: undefined, readAhead: undefined, boolBits, reuse, scoped: undefined, signal })) void batch;
  const pool = await ColumnsPool.create();
  const pooled = await pool.open(new Uint8Array(0), { tokenizers: undefined });
  await pooled.readColumns(null, null, { reuse, boolBits, signal });
  return cols.length;
}
