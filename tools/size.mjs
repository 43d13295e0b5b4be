#!/usr/bin/env node
// Reports the web package's size raw, gzip (level 9) and brotli (quality 11),
// and with --check fails when it exceeds the budget.
//   node tools/size.mjs [--check] [--markdown]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";

// Budget for everything the package ships to a browser: wasm, JS glue,
// snippets and the optional worker-pool modules. The ceiling is issue 12's
// (the design's libraries: sha2, a strict tokenizer reader, ...), still a
// quarter of parquet-wasm's smallest build; it stops regressions (see README, "Size").
const BUDGET_GZIP = 120 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = path.join(root, "pkg");
const files = [];
(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(wasm|js)$/.test(e.name)) files.push(p);
  }
})(pkg);
const measure = (buf) => ({
  raw: buf.length,
  gzip: zlib.gzipSync(buf, { level: 9 }).length,
  brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const rows = files.map((f) => ({ file: path.relative(pkg, f), ...measure(fs.readFileSync(f)) }));
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), { raw: 0, gzip: 0, brotli: 0 });
const kb = (n) => (n / 1024).toFixed(1) + " KB";
if (process.argv.includes("--markdown")) {
  console.log("| file | raw | gzip | brotli |\n|---|---:|---:|---:|");
  for (const r of [...rows, { file: "**total**", ...total }]) console.log(`| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} |`);
} else {
  for (const r of rows) console.log(`${r.file.padEnd(32)} raw ${kb(r.raw).padStart(9)}  gzip ${kb(r.gzip).padStart(9)}  brotli ${kb(r.brotli).padStart(9)}`);
  console.log(`${"total".padEnd(32)} raw ${kb(total.raw).padStart(9)}  gzip ${kb(total.gzip).padStart(9)}  brotli ${kb(total.brotli).padStart(9)}`);
}
if (process.argv.includes("--check") && total.gzip > BUDGET_GZIP) {
  console.error(`over budget: ${kb(total.gzip)} gzip > ${kb(BUDGET_GZIP)}`);
  process.exit(1);
}
