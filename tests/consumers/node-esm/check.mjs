// Every value of the checked corpus files through import "columns-wasm".
//   node check.mjs <corpus dir> <file> ...   (prints "ok" or the differences)
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import * as api from "columns-wasm";
import { checkFile, columnJson, compare } from "../../js/check.mjs";

const [corpus, ...files] = process.argv.slice(2);
const problems = [];
for (const name of files) {
  const bytes = new Uint8Array(await readFile(path.join(corpus, `${name}.cols`)));
  const json = path.join(corpus, `${name}.json`);
  const expected = JSON.parse(existsSync(json) ? await readFile(json, "utf8") : gunzipSync(await readFile(json + ".gz")).toString());
  for (const mode of ["bytes", "async", "blob"]) {
    const why = await checkFile({ ...api, bytes, expected, name: `${path.basename(name)}.cols`, mode });
    if (why !== null) problems.push(`${name} (${mode}): ${why}`);
  }
}
// columns-wasm/pool in Node: worker threads, each file opened by its path;
// every value as the corpus JSON has it, the columns and errors this build's.
const { ColumnsPool } = await import("columns-wasm/pool");
const pool = await ColumnsPool.create(2);
for (const name of files) {
  const json = path.join(corpus, `${name}.json`);
  const expected = JSON.parse(existsSync(json) ? await readFile(json, "utf8") : gunzipSync(await readFile(json + ".gz")).toString());
  const file = await pool.open(path.join(corpus, `${name}.cols`));
  const schema = file.meta.schema;
  const cols = await file.readColumns();
  if (cols.length !== expected.row_groups.length * schema.length) problems.push(`${name} (pool): ${cols.length} columns`);
  cols.forEach((col, k) => {
    const g = Math.floor(k / schema.length), c = k % schema.length;
    const why = compare(`${name} (pool) rg ${g} col ${c}`, expected.row_groups[g].values[c], columnJson(col, schema[c].type));
    if (why !== null) problems.push(why);
    if (!(col instanceof api.Column)) problems.push(`${name} (pool): a column that is not this build's Column`);
  });
  file.close();
}
try {
  await pool.open(path.join(corpus, "no-such-file.cols"));
  problems.push("the pool opened a file that does not exist");
} catch (e) {
  if (!(e instanceof api.ColumnsError) || e.kind !== "bad_source") problems.push(`the pool's missing file: not a ColumnsError bad_source: ${e}`);
}
pool.terminate();
console.log(problems.length ? problems.join("\n") : "ok");
