// The README's pool in Node: worker threads, a file opened by its path; it
// prints what the quick start prints, which the test compares with the corpus JSON.
import { ColumnsPool } from "columns-wasm/pool";

const pool = await ColumnsPool.create(); // in Node: worker threads
const file = await pool.open("data.cols"); // each thread reads the chunks it is given
for (const col of await file.readColumns()) console.log(col.type, col.length, col.nullCount);
file.close();
pool.terminate();
