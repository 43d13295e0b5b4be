// Every value of the checked corpus files through require("columns-wasm"),
// the package's classes as CommonJS code sees them, and detached buffers.
//   node check.cjs <corpus dir> <file> ...   (prints "ok" or the first difference)
const { existsSync, readFileSync } = require("node:fs");
const { gunzipSync } = require("node:zlib");
const path = require("node:path");
const api = require("columns-wasm");

(async () => {
  const { checkFile } = await import("../../js/check.mjs");
  const [corpus, ...files] = process.argv.slice(2);
  const problems = [];
  for (const name of files) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, `${name}.cols`)));
    const json = path.join(corpus, `${name}.json`);
    const expected = JSON.parse(existsSync(json) ? readFileSync(json, "utf8") : gunzipSync(readFileSync(json + ".gz")).toString());
    const why = await checkFile({ ...api, bytes, expected, name: `${path.basename(name)}.cols` });
    if (why !== null) problems.push(`${name}: ${why}`);
  }
  try {
    api.ColumnsFile.fromBytes(new ArrayBuffer(3));
  } catch (e) {
    if (!(e instanceof api.ColumnsError) || e.kind !== "truncated") problems.push(`not a ColumnsError: ${e}`);
  }
  // A detached buffer (Node 20 has no ArrayBuffer.prototype.detached to ask).
  const gone = new ArrayBuffer(16);
  const view = new Uint8Array(gone, 4);
  structuredClone(gone, { transfer: [gone] });
  for (const bytes of [gone, view]) {
    try {
      api.ColumnsFile.fromBytes(bytes);
      problems.push("fromBytes(detached) did not throw");
    } catch (e) {
      if (!(e instanceof api.ColumnsError) || e.kind !== "bad_argument" || !/detached/.test(e.message)) problems.push(`fromBytes(detached): ${e.kind} ${e.message}`);
    }
  }
  // The pool from CommonJS, as the README says: import() it. Its columns
  // and errors are this require()'s classes (one instance for both).
  const { ColumnsPool } = await import("columns-wasm/pool");
  const pool = await ColumnsPool.create(2);
  const pooled = await pool.open(path.join(corpus, `${files[0]}.cols`));
  const cols = await pooled.readColumns();
  if (cols.length !== pooled.meta.rowGroups.length * pooled.meta.schema.length || !cols.every((c) => c instanceof api.Column)) problems.push("the pool from CommonJS: not this build's columns");
  await pooled.readColumns([99]).then(
    () => problems.push("the pool read row group 99"),
    (e) => e instanceof api.ColumnsError && e.kind === "out_of_range" || problems.push(`the pool's error from CommonJS: ${e}`),
  );
  pool.terminate();
  console.log(problems.length ? problems.join("\n") : "ok");
})();
