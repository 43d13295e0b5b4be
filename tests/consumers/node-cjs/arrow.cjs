// columns-wasm/arrow from CommonJS, beside the app's own apache-arrow:
// require() gives the adapter's CommonJS build, which makes its Tables with
// apache-arrow's CommonJS build, the copy this app's require("apache-arrow")
// has, so apache-arrow's functions take them. (The adapter as an ES module
// only, reached by require(esm) or import(), made them with apache-arrow's ES
// module build, a second copy: tableToIPC threw "AsyncQueue is closed" and
// `instanceof arrow.Int32` was false.)
//   node arrow.cjs <corpus dir> <file>   (prints "ok" or every problem)
const { readFileSync } = require("node:fs");
const path = require("node:path");
const arrow = require("apache-arrow");
const { ColumnsFile } = require("columns-wasm");
const { toArrowTable } = require("columns-wasm/arrow");

const [corpus, name] = process.argv.slice(2);
const file = ColumnsFile.fromBytes(readFileSync(path.join(corpus, `${name}.cols`)));
const table = toArrowTable(file);
const problems = [];
if (!(table instanceof arrow.Table)) problems.push("the Table is not an instance of the app's apache-arrow Table");
for (const field of table.schema.fields) {
  if (!arrow.DataType.isInt(field.type) && /int/.test(String(field.type))) problems.push(`${field.name}: arrow.DataType.isInt is false for ${field.type}`);
}
const int32 = table.schema.fields.find((f) => String(f.type) === "Int32");
if (int32 && !(int32.type instanceof arrow.Int32)) problems.push(`${int32.name}: its type is not an instance of the app's arrow.Int32`);

// Through Arrow IPC and back with the app's apache-arrow: every value as the package reads it.
let back = null;
try {
  back = arrow.tableFromIPC(arrow.tableToIPC(table, "stream"));
} catch (e) {
  problems.push(`tableToIPC / tableFromIPC: ${e.message}`);
}
const plain = (v) => (v instanceof Uint8Array ? `bytes ${Array.from(v)}` : typeof v === "bigint" ? `${v}n` : v);
if (back) {
  const { schema, rowGroups } = file;
  if (back.numRows !== file.numRows) problems.push(`${back.numRows} rows back, ${file.numRows} in the file`);
  const cols = file.readColumns();
  schema.forEach((c, k) => {
    const got = back.getChildAt(k);
    let row = 0;
    rowGroups.forEach((_, g) => {
      const want = cols[g * schema.length + k].toArray();
      want.forEach((w, i) => {
        const v = got.get(row + i);
        if (!Object.is(plain(v), plain(w)) && String(plain(v)) !== String(plain(w))) problems.push(`${c.name} row ${row + i}: ${plain(v)} back, ${plain(w)} read`);
      });
      row += want.length;
    });
  });
}
console.log(problems.length ? problems.slice(0, 10).join("\n") : "ok");
