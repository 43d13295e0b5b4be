// The README's Node (ES module) quick start; it reads data.cols from the
// working directory (the test puts a corpus file there).
import { readFile } from "node:fs/promises";
import { ColumnsFile } from "columns-wasm";

const file = ColumnsFile.fromBytes(await readFile("data.cols"));
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);
