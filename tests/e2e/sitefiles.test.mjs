// The built site's files (no browser): every module, worker and .wasm of
// the package and of the vendored libraries is named by its content
// (name.HASH.ext, HASH the first 10 hex digits of its SHA-256), and every
// reference to one in the site resolves to a file that is there. So a
// cache holding an old glue cannot pair it with a new .wasm.
//
//   node --test tests/e2e/sitefiles.test.mjs

import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ensureSite, site } from "./harness.mjs";

ensureSite();
const build = JSON.parse(fs.readFileSync(path.join(site, "build.json"), "utf8"));
const read = (rel) => fs.readFileSync(path.join(site, rel), "utf8");
const HASHED = /\.([0-9a-f]{10})\.(?:js|mjs|wasm)$/;

/** The files of the site that must carry their hash. */
function versioned() {
  const out = fs.readdirSync(path.join(site, "pkg")).map((f) => `pkg/${f}`);
  for (const d of ["vendor/arrow", "vendor/duckdb"]) {
    if (!fs.existsSync(path.join(site, d))) continue;
    for (const f of fs.readdirSync(path.join(site, d))) if (/\.(js|mjs|wasm)$/.test(f)) out.push(`${d}/${f}`);
  }
  return out;
}

test("the package's and the vendored libraries' files are named by their content", () => {
  const files = versioned();
  assert.ok(files.some((f) => /^pkg\/columns_wasm\.[0-9a-f]{10}\.js$/.test(f)), "the glue");
  assert.ok(files.some((f) => /^pkg\/columns_wasm_bg\.[0-9a-f]{10}\.wasm$/.test(f)), "the wasm");
  for (const f of files) {
    const m = HASHED.exec(f);
    assert.ok(m, `${f} carries no hash`);
    assert.equal(crypto.createHash("sha256").update(fs.readFileSync(path.join(site, f))).digest("hex").slice(0, 10), m[1], `${f}: the hash is its content's`);
  }
});

/** Relative references in a module's text: import/export from, import(), new URL("./x", import.meta.url). */
function references(text) {
  const out = [];
  for (const re of [/\bfrom\s*["']([^"']+)["']/g, /\bimport\(\s*["']([^"']+)["']\s*\)/g, /new URL\(\s*["']([^"']+)["']\s*,\s*import\.meta\.url\s*\)/g]) {
    for (const m of text.matchAll(re)) if (/^\.{1,2}\//.test(m[1])) out.push(m[1]);
  }
  return out;
}

test("every reference in the site's own modules and the package's resolves to a file of the site", () => {
  const modules = [];
  (function walk(rel) {
    for (const ent of fs.readdirSync(path.join(site, rel), { withFileTypes: true })) {
      const r = path.posix.join(rel, ent.name);
      if (ent.isDirectory()) walk(r);
      else if (/\.(js|mjs)$/.test(ent.name)) modules.push(r);
    }
  })("js");
  modules.push(...versioned().filter((f) => f.startsWith("pkg/") && /\.m?js$/.test(f)));
  if (build.duckdb) modules.push(build.duckdb.module);
  let count = 0;
  for (const m of modules) {
    for (const ref of references(read(m))) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(m), ref));
      assert.ok(fs.existsSync(path.join(site, target)), `${m} names ${ref}: ${target} is not in the site`);
      if (/^(pkg|vendor)\/.*[^/]$/.test(target)) assert.match(target, HASHED, `${m} names ${ref}, which carries no hash`);
      count++;
    }
  }
  assert.ok(count > 50, `${count} references checked`);
  // DuckDB's files, named beside its folder's URL in js/sql-worker.js.
  if (build.duckdb) {
    const names = [...read("js/sql-worker.js").matchAll(/new URL\("([^"]+)", DUCKDB_DIR\)/g)].map((m) => `vendor/duckdb/${m[1]}`);
    assert.deepEqual(names.sort(), [build.duckdb.module, build.duckdb.worker, build.duckdb.wasm].sort());
    for (const n of names) assert.ok(fs.existsSync(path.join(site, n)), n);
  }
  // index.html's own.
  for (const m of read("index.html").matchAll(/\b(?:src|href)="([^"#:]+)"/g)) assert.ok(fs.existsSync(path.join(site, m[1])), `index.html names ${m[1]}`);
  // build.json names the files as they are.
  for (const p of [build.arrow.module, ...Object.values(build.pkg ?? {}), ...(build.duckdb ? [build.duckdb.module, build.duckdb.worker, build.duckdb.wasm] : [])]) assert.ok(fs.existsSync(path.join(site, p)), `build.json names ${p}`);
});

test("nothing is shipped that nothing asks for: no README of the sources, no source map comment naming a file not there", () => {
  assert.ok(!fs.existsSync(path.join(site, "README.md")), "www/README.md is not copied");
  const all = [];
  (function walk(rel) {
    for (const ent of fs.readdirSync(path.join(site, rel), { withFileTypes: true })) {
      const r = path.posix.join(rel, ent.name);
      if (ent.isDirectory()) walk(r);
      else all.push(r);
    }
  })("");
  for (const f of all.filter((f) => /\.(js|mjs|css)$/.test(f))) {
    for (const m of read(f).matchAll(/[#@] sourceMappingURL=(\S+)/g)) {
      assert.ok(fs.existsSync(path.join(site, path.posix.dirname(f), m[1])), `${f} names its source map ${m[1]}, which is not in the site`);
    }
  }
});

test("each vendored library's license text is shipped and named in its NOTICE.txt", () => {
  assert.ok(fs.existsSync(path.join(site, "vendor/arrow/LICENSE.txt")));
  if (!build.duckdb) return;
  const license = read("vendor/duckdb/LICENSE");
  assert.match(license, /Permission is hereby granted, free of charge/, "the MIT license's text");
  assert.match(read("vendor/duckdb/NOTICE.txt"), /\bLICENSE\b/);
});

test("www/README.md's size figures are build.json's", () => {
  const readme = fs.readFileSync(path.join(site, "../www/README.md"), "utf8").replace(/\s+/g, " ");
  const { total, parts, largest } = build.sizes;
  const mb = (n) => (n / 1e6).toFixed(1);
  const m = /Size \(`sizes` in `site\/build\.json`.*?\): ([\d.]+) MB, ([\d.]+) MB gzip, of which DuckDB-Wasm is ([\d.]+) MB \(([\d.]+) MB gzip\).*?the largest file, is ([\d.]+) MB \(([\d.]+) MB gzip\)\. Without it .*?: ([\d.]+) MB, ([\d.]+) MB gzip \(samples ([\d.]+) MB of that\)/.exec(readme);
  assert.ok(m, "the README's size sentence");
  if (!build.duckdb) return;
  const duck = parts["vendor/duckdb"];
  assert.deepEqual(m.slice(1).map(Number), [total.bytes, total.gzipBytes, duck.bytes, duck.gzipBytes, largest.bytes, largest.gzipBytes, total.bytes - duck.bytes, total.gzipBytes - duck.gzipBytes, parts.samples.bytes].map((n) => Number(mb(n))));
});
