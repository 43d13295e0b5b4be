// The README's browser and bundler snippets, type-checked as TypeScript
// (moduleResolution "bundler"); pool.ts, start-worker.ts and worker.ts hold the others.
import init, { ColumnsFile } from "columns-wasm";

await init();
const response = await fetch("data.cols");
const file = ColumnsFile.fromBytes(await response.arrayBuffer());
for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount);
