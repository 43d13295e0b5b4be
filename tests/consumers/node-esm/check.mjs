// Every value of the checked corpus files through import "columns-wasm".
//   node check.mjs <corpus dir> <file> ...   (prints "ok" or the differences)
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import * as api from "columns-wasm";
import { checkFile } from "../../js/check.mjs";

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
// The pool comes from the browser build, whose ColumnsError is another class
// than this build's: its errors must still be ColumnsErrors to a caller.
const { ColumnsPool } = await import("columns-wasm/pool");
try {
  await ColumnsPool.create();
  problems.push("ColumnsPool.create() in Node did not reject");
} catch (e) {
  if (!(e instanceof api.ColumnsError) || e.kind !== "load_failed") problems.push(`ColumnsPool.create() in Node: not a ColumnsError load_failed: ${e}`);
}
console.log(problems.length ? problems.join("\n") : "ok");
