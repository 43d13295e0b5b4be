#!/usr/bin/env node
// Finishes a wasm-pack output folder: adds the worker pool modules to the
// web target and lists every shipped file in package.json.
//   node tools/package.mjs <out dir> <target>
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const [outDir, target] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.resolve(root, outDir);
const pkgPath = path.join(out, "package.json");
const pkg = JSON.parse(fs.readFileSync(pkgPath, "utf8"));

if (target === "web") {
  for (const f of ["pool.js", "pool.d.ts", "pool-worker.js"]) {
    fs.copyFileSync(path.join(root, "js", f), path.join(out, f));
  }
}
const shipped = new Set(pkg.files ?? []);
for (const f of fs.readdirSync(out)) {
  if (f === "package.json" || f === ".gitignore") continue;
  shipped.add(f);
}
pkg.files = [...shipped].sort();
pkg.description = "Reader for the `columns` columnar file format (magic ABCD), in WebAssembly: typed columns, Blob and HTTP-range reads, tokenized text.";
pkg.keywords = ["columnar", "wasm", "webassembly", "reader", "arrow", "typed-arrays"];
fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + "\n");
