// The README's TypeScript snippet (Node, ES module), compiled with
// `tsc --strict` and run: it prints the first value of every column chunk
// of data.cols, which the test compares with the corpus JSON.
import { readFileSync } from "node:fs";
import { ColumnsError, ColumnsFile, type Column } from "columns-wasm";

/** The first row of a column, as text. `col.type` narrows `col.values`. */
function first(col: Column): string {
  if (col.values === null) throw new Error("this column was handed back with { reuse }");
  if (!col.isValid(0)) return "null";
  switch (col.type) {
    case "string":
      return new TextDecoder().decode(col.values.data.subarray(col.values.offsets[0], col.values.offsets[1]));
    case "bytes":
      return `${col.values.data.subarray(col.values.offsets[0], col.values.offsets[1]).length} bytes`;
    case "bool":
      return col.values[0] === 1 ? "true" : "false";
    case "int64":
    case "uint64":
      return `${col.values[0]}n`; // BigInt64Array, BigUint64Array
    default:
      return String(col.values[0]); // Float64Array, Int32Array, ...
  }
}

try {
  const file = ColumnsFile.fromBytes(readFileSync("data.cols"));
  for (const col of file.readColumns()) console.log(col.type, first(col));
} catch (e) {
  if (!(e instanceof ColumnsError)) throw e;
  console.error(e.kind, e.rowGroup, e.column, e.message);
}
