// The README's Node (CommonJS) quick start; it reads data.cols from the
// working directory (the test puts a corpus file there).
const { readFileSync } = require("node:fs");
const { ColumnsFile } = require("columns-wasm");

const file = ColumnsFile.fromBytes(readFileSync("data.cols"));
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);
