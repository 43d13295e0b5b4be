// CommonJS TypeScript: the same import compiles to require(), and resolves
// the package's CommonJS types (columns_wasm.d.cts) and code (node.cjs).
import { readFileSync } from "node:fs";
import { ColumnsFile } from "columns-wasm";

const file = ColumnsFile.fromBytes(readFileSync("data.cols"));
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);

// The Node pool from CommonJS, by import() (kept as import() under
// "module": "nodenext"): its declarations are Node's, whose open() takes a
// path (the README's TypeScript section). Type-checked, not called.
export async function poolByPath(): Promise<number> {
  const { ColumnsPool } = await import("columns-wasm/pool");
  const pool = await ColumnsPool.create(1);
  const file = await pool.open("data.cols");
  const n = (await file.readColumns()).length;
  pool.terminate();
  return n;
}
