#!/usr/bin/env node
// Finishes a wasm-pack output folder: adds the worker pool modules to the
// web target, drops comment-only lines from the shipped JavaScript (the
// .d.ts files keep the documentation; this is a quarter of the JS bytes a
// browser downloads) and lists every shipped file in package.json.
//   node tools/package.mjs <out dir> <target>
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stripComments } from "./strip-comments.mjs";

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
/** Whether `src` parses as an ES module or as CommonJS (the nodejs glue). */
function parses(src) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pkgjs-"));
  try {
    return ["x.mjs", "x.cjs"].some((name) => {
      fs.writeFileSync(path.join(dir, name), src);
      try {
        // --check parses without running; the extension picks the module kind.
        execFileSync(process.execPath, ["--check", path.join(dir, name)], { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    });
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
}

(function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.[cm]?js$/.test(e.name)) {
      const stripped = stripComments(fs.readFileSync(p, "utf8"));
      if (!parses(stripped)) throw new Error(`${p}: does not parse after dropping comment lines`);
      fs.writeFileSync(p, stripped);
    }
  }
})(out);

const shipped = new Set(pkg.files ?? []);
for (const f of fs.readdirSync(out)) {
  if (f === "package.json" || f === ".gitignore") continue;
  shipped.add(f);
}
pkg.files = [...shipped].sort();
pkg.description = "Reader for the `columns` columnar file format (magic ABCD), in WebAssembly: typed columns, Blob and HTTP-range reads, tokenized text.";
pkg.keywords = ["columnar", "wasm", "webassembly", "reader", "arrow", "typed-arrays"];
fs.writeFileSync(pkgPath, JSON.stringify(pkg, null, 2) + "\n");
