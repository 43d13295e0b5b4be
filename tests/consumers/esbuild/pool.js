import { ColumnsPool } from "columns-wasm/pool";

const pool = await ColumnsPool.create(); // no init() needed
const file = await pool.open(await (await fetch("data.cols")).arrayBuffer());
for (const col of await file.readColumns()) console.log(col.type, col.length, col.nullCount);
file.close();
pool.terminate();
