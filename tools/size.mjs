#!/usr/bin/env node
// What a browser downloads from the package, raw, gzip (level 9) and
// brotli (quality 11), measured on the packed tarball: the browser entry
// (exports["."].default) and the pool (exports["./pool"].default), and every
// file they load (static imports, `new URL("./x", import.meta.url)`: the
// .wasm and the pool's worker), followed transitively. With --check it fails
// above the budget; --tarball lists every file of the tarball too.
//   node tools/size.mjs [--check] [--markdown] [--tarball] [path/to/columns-wasm-x.y.z.tgz]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// Everything a browser downloads: wasm, entry, pool and its worker. Issue
// 12 sets the ceiling at 120 KB gzip (a quarter of parquet-wasm's smallest
// build); 118.4 KB measured when it was set, after 127.2 KB on the way there.
const BUDGET_GZIP = 120 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const flag = (f) => args.includes(f);
let tarball = args.find((a) => !a.startsWith("--"));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cw-size-"));
try {
  if (!tarball) {
    const out = execFileSync("npm", ["pack", path.join(root, "pkg"), "--pack-destination", tmp, "--json", "--silent"], { encoding: "utf8" });
    tarball = path.join(tmp, JSON.parse(out)[0].filename);
  }
  execFileSync("tar", ["-xzf", tarball, "-C", tmp]);
  const dir = path.join(tmp, "package");
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));

  const entry = (sub) => {
    const e = pkg.exports[sub];
    return typeof e === "string" ? e : e.default;
  };
  // Follow what the browser loads, from the two browser entry points.
  const loaded = new Set();
  const queue = [entry("."), entry("./pool")];
  while (queue.length) {
    const rel = path.posix.normalize(queue.shift());
    if (loaded.has(rel)) continue;
    const file = path.join(dir, rel);
    if (!fs.existsSync(file)) throw new Error(`${rel} is loaded by the package but not in the tarball`);
    loaded.add(rel);
    if (!rel.endsWith(".js")) continue;
    const src = fs.readFileSync(file, "utf8");
    const refs = [
      ...src.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.[^"']+)["']/g),
      ...src.matchAll(/new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g),
    ];
    for (const [, ref] of refs) queue.push(path.posix.join(path.posix.dirname(rel), ref));
  }

  const measure = (buf) => ({
    raw: buf.length,
    gzip: zlib.gzipSync(buf, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  });
  const table = (files) => files.map((f) => ({ file: f, ...measure(fs.readFileSync(path.join(dir, f))) }));
  const sum = (rows) => rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), { raw: 0, gzip: 0, brotli: 0 });
  const kb = (n) => (n / 1024).toFixed(1) + " KB";
  const print = (title, rows, total) => {
    if (flag("--markdown")) {
      console.log(`\n${title}\n\n| file | raw | gzip | brotli |\n|---|---:|---:|---:|`);
      for (const r of [...rows, { file: "**total**", ...total }]) console.log(`| ${r.file} | ${kb(r.raw)} | ${kb(r.gzip)} | ${kb(r.brotli)} |`);
    } else {
      console.log(`\n${title}`);
      for (const r of [...rows, { file: "total", ...total }]) {
        console.log(`${r.file.padEnd(24)} raw ${kb(r.raw).padStart(9)}  gzip ${kb(r.gzip).padStart(9)}  brotli ${kb(r.brotli).padStart(9)}`);
      }
    }
  };

  const browser = table([...loaded].sort());
  const browserTotal = sum(browser);
  print(`What a browser downloads (${path.basename(tarball)}: entry, pool, worker, wasm)`, browser, browserTotal);
  if (flag("--tarball")) {
    const all = [];
    (function walk(d) {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else all.push(path.relative(dir, p).split(path.sep).join("/"));
      }
    })(dir);
    print(`Every file of the tarball (${kb(fs.statSync(tarball).size)} packed)`, table(all.sort()), sum(table(all)));
  }
  if (flag("--check") && browserTotal.gzip > BUDGET_GZIP) {
    console.error(`over budget: ${kb(browserTotal.gzip)} gzip > ${kb(BUDGET_GZIP)} (${browserTotal.gzip} > ${BUDGET_GZIP} bytes)`);
    process.exitCode = 1;
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
