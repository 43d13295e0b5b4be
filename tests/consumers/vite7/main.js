import init, { ColumnsFile } from "columns-wasm";

await init();
const response = await fetch("data.cols");
const file = ColumnsFile.fromBytes(await response.arrayBuffer());
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);

// For the test: the snippets are done; the API this page imported.
import "./pool.js"; // the README's pool snippet (imports run first)
import "./start-worker.js"; // the README's Web Worker snippet
import * as api from "columns-wasm";
import { ColumnsPool } from "columns-wasm/pool";
import { asyncBufferFromUrl } from "columns-wasm/http";
globalThis.columnsWasm = { ...api, ColumnsPool, asyncBufferFromUrl };
