// CommonJS TypeScript: the same import compiles to require(), and resolves
// the package's CommonJS types (columns_wasm.d.cts) and code (node.cjs).
import { readFileSync } from "node:fs";
import { ColumnsFile } from "columns-wasm";

const file = ColumnsFile.fromBytes(readFileSync("data.cols"));
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);
