#!/usr/bin/env node
// Assembles the npm package in pkg/ from wasm-bindgen's web-target output
// (the glue and the .wasm) and the hand-written modules in js/:
//
//   columns_wasm_bg.wasm   the module, once, for every entry point
//   columns_wasm.js        browsers and bundlers: ES module, init() fetches the .wasm beside it
//   node.cjs               Node, CommonJS: instantiated synchronously as it loads, no init()
//   node.mjs               Node, ES module: re-exports node.cjs (one instance for both)
//   pool.js                columns-wasm/pool (imports ./columns_wasm.js)
//   pool-worker.js         the pool's worker (imports ./columns_wasm.js too)
//   pool-node.mjs          columns-wasm/pool in Node: pool.js over node.mjs, workers on threads
//   pool-node-worker.cjs   a Node pool thread's script (runs pool-worker.js)
//   pool-node-file.cjs     a file on disk as a Blob both of those read
//   arrow.js               columns-wasm/arrow, when js/arrow.js exists
//   arrow.cjs              the same for require(), over apache-arrow's CommonJS build
//   http.js                columns-wasm/http: a URL as an AsyncBuffer (range requests)
//   *.d.ts, *.d.cts        the hand-written types (js/index.d.ts)
//   README.md, LICENSE     npm/README.md (with js/arrow.md) and the repository's LICENSE
//
// esbuild bundles each entry with the glue and js/column.js inlined, which
// also drops the sources' comments from what browsers download.
//   node tools/package.mjs <wasm-bindgen out dir> <package dir>
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { shortenNames } from "./names.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [glueDir, outDir] = process.argv.slice(2).map((p) => path.resolve(root, p));
if (!glueDir || !outDir) throw new Error("usage: node tools/package.mjs <wasm-bindgen out dir> <package dir>");
const js = path.join(root, "js");
const glue = path.join(glueDir, "columns_wasm.js");
for (const f of [glue, path.join(glueDir, "columns_wasm_bg.wasm")]) {
  if (!fs.existsSync(f)) throw new Error(`${f} is missing: run wasm-pack build --target web first (scripts/build does)`);
}

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
// The .wasm and its glue with short import and trampoline names (names.mjs).
const short = shortenNames(fs.readFileSync(path.join(glueDir, "columns_wasm_bg.wasm")), fs.readFileSync(glue, "utf8"));
fs.writeFileSync(path.join(outDir, "columns_wasm_bg.wasm"), short.wasm);

// The glue imports its copy of js/column.js from snippets/; point that at
// js/column.js itself, so a bundle holds one Column and one ColumnsError class.
const resolveGlue = {
  name: "columns-wasm-glue",
  setup(build) {
    build.onResolve({ filter: /^columns-wasm-glue$/ }, () => ({ path: glue }));
    build.onResolve({ filter: /\/snippets\/[^/]+\/js\/column\.js$/ }, () => ({ path: path.join(js, "column.js") }));
    build.onLoad({ filter: /\/columns_wasm\.js$/ }, (args) =>
      args.path === glue ? { contents: withoutFallbacks(short.glue), loader: "js", resolveDir: glueDir } : undefined,
    );
  },
};
// The glue's stand-ins for a missing FinalizationRegistry and a missing
// TextEncoder.encodeInto: every browser with WebAssembly SIMD (the
// package's floor) has both (encodeInto since Chrome 74, Firefox 66,
// Safari 14.1; Node 12), and js/scoped.js uses FinalizationRegistry
// unguarded already. And initSync()'s warning about a parameter that is
// not `{ module }`: the package always passes `{ module }` (browser.js,
// node.js). 94 B gzip.
function withoutFallbacks(code) {
  const fallback = /\(typeof FinalizationRegistry === 'undefined'\)\s*\?\s*\{ register: \(\) => \{\}, unregister: \(\) => \{\} \}\s*:\s*/g;
  let out = code.replace(fallback, "");
  if (out.includes("typeof FinalizationRegistry")) throw new Error("the glue tests for FinalizationRegistry in a new way: update withoutFallbacks in tools/package.mjs");
  out = out.replace(/\nif \(!\('encodeInto' in cachedTextEncoder\)\) \{\n[\s\S]*?\n\}\n/, "\n");
  if (out.includes("'encodeInto' in")) throw new Error("the glue tests for encodeInto in a new way: update withoutFallbacks in tools/package.mjs");
  out = out.replace(/ else \{\n\s*console\.warn\('using deprecated parameters for `initSync\(\)`; pass a single object instead'\)\n\s*\}/, "");
  if (out.includes("deprecated parameters for `initSync()`")) throw new Error("initSync() warns in a new way: update withoutFallbacks in tools/package.mjs");
  // passStringToWasm0's path for a module without __wbindgen_realloc:
  // every caller passes one (wasm.NAME, as its third argument).
  const calls = out.match(/passStringToWasm0\([^)]*\)/g) ?? [];
  if (!calls.every((c) => /^passStringToWasm0\((\w+, wasm\.\w+, wasm\.\w+|arg, malloc, realloc)\)$/.test(c))) {
    throw new Error(`passStringToWasm0 is called in a new way (${calls.join("; ")}): update withoutFallbacks in tools/package.mjs`);
  }
  out = out.replace(/\n    if \(realloc === undefined\) \{\n[\s\S]*?\n    \}\n/, "\n");
  if (out.includes("realloc === undefined")) throw new Error("passStringToWasm0 changed: update withoutFallbacks in tools/package.mjs");
  return out;
}

const bundle = (entry, outfile, options) =>
  esbuild.build({
    entryPoints: [path.join(js, entry)],
    outfile: path.join(outDir, outfile),
    bundle: true,
    target: "es2022",
    legalComments: "none",
    logLevel: "warning",
    // The glue lists its snippet module once per import (harmless), and its
    // own init() reads import.meta, which the Node build never calls (and drops).
    logOverride: { "duplicate-object-key": "silent", "empty-import-meta": "silent" },
    plugins: [resolveGlue],
    ...options,
  });

// What browsers download is minified (a third of its gzip size); Node's
// CommonJS entry is not, so its stack traces stay readable.
const web = { format: "esm", platform: "browser", minify: true };
await bundle("browser.js", "columns_wasm.js", web);
await bundle("pool.js", "pool.js", { ...web, keepNames: true, external: ["./columns_wasm.js"] });
await bundle("pool-worker.js", "pool-worker.js", { ...web, external: ["./columns_wasm.js"] });
// columns-wasm/pool in Node: pool.js bundled in, its ./columns_wasm.js the
// Node build; the worker thread's script beside it runs pool-worker.js.
const nodeBuild = {
  name: "columns-wasm-node-build",
  setup(build) {
    build.onResolve({ filter: /^\.\/columns_wasm\.js$/ }, () => ({ path: "./node.mjs", external: true }));
    build.onResolve({ filter: /^\.\/pool-node-file\.cjs$/ }, () => ({ path: "./pool-node-file.cjs", external: true }));
  },
};
await esbuild.build({
  entryPoints: [path.join(js, "pool-node.js")],
  outfile: path.join(outDir, "pool-node.mjs"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node18",
  legalComments: "none",
  logLevel: "warning",
  plugins: [nodeBuild],
});
for (const f of ["pool-node-worker.cjs", "pool-node-file.cjs"]) fs.copyFileSync(path.join(js, f), path.join(outDir, f));
// Strict like the ES module sources: a detached method's `this` stays
// undefined instead of becoming globalThis.
await bundle("node.js", "node.cjs", { format: "cjs", platform: "node", target: "node18", banner: { js: '"use strict";' } });
// The Arrow adapter and columns-wasm/http keep their classes' names (an
// error's constructor is AdapterError, not "p"), as the browser pool does
// above (ColumnsPool and PooledFile in a console, not "d" and "B": 98 B gzip).
const arrow = fs.existsSync(path.join(js, "arrow.js"));
if (arrow) {
  await bundle("arrow.js", "arrow.js", { ...web, platform: "neutral", keepNames: true, external: ["apache-arrow", "columns-wasm", "./columns_wasm.js"] });
  // And for require() (the "require" condition of its export): apache-arrow
  // is two modules, an ES module build and a CommonJS one, and the adapter
  // must make its Tables with the copy the application has. A CommonJS
  // application's require("apache-arrow") is the CommonJS build; were the
  // adapter an ES module there, it would import the other, and apache-arrow's
  // functions would refuse its Tables (tableToIPC: "AsyncQueue is closed").
  // Not minified, as node.cjs is not. The adapter takes nothing from the
  // package at run time (it needs no entry of its own).
  await bundle("arrow.js", "arrow.cjs", { format: "cjs", platform: "neutral", keepNames: true, external: ["apache-arrow"], banner: { js: '"use strict";' } });
  const required = fs.readFileSync(path.join(outDir, "arrow.cjs"), "utf8").match(/\brequire\(["'][^"']*["']\)/g) ?? [];
  if (required.some((r) => r !== 'require("apache-arrow")')) throw new Error(`arrow.cjs requires ${required.join(", ")}: only apache-arrow expected`);
}
// columns-wasm/http imports nothing; like the Arrow adapter it is outside
// what tools/size.mjs measures (the entry, the pool and what they load).
await bundle("http.js", "http.js", { ...web, platform: "neutral", keepNames: true });

// Node's ES module entry re-exports the CommonJS one by name, so both share
// one instance (and one ColumnsError class for instanceof).
const require = createRequire(import.meta.url);
const names = Object.keys(require(path.join(outDir, "node.cjs"))).filter((n) => n !== "default" && n !== "__esModule");
fs.writeFileSync(
  path.join(outDir, "node.mjs"),
  `import api from "./node.cjs";\nexport const { ${names.join(", ")} } = api;\nexport default api.default;\n`,
);

// The same declarations serve import (.d.ts) and require (.d.cts).
fs.copyFileSync(path.join(js, "index.d.ts"), path.join(outDir, "columns_wasm.d.ts"));
fs.copyFileSync(path.join(js, "index.d.ts"), path.join(outDir, "columns_wasm.d.cts"));
fs.copyFileSync(path.join(js, "pool.d.ts"), path.join(outDir, "pool.d.ts"));
// Node's pool (pool-node.mjs) has its own words, and also opens a file by
// its path: its declarations must be the browser pool's but for open's source.
const declarations = (file) =>
  fs
    .readFileSync(path.join(js, file), "utf8")
    .replace(/\/\*\*[\s\S]*?\*\//g, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
const [webPool, nodePool] = [declarations("pool.d.ts"), declarations("pool-node.d.ts")];
const apart = webPool.map((l, i) => (l === nodePool[i] ? null : `${l}\n  ${nodePool[i]}`)).filter(Boolean);
if (webPool.length !== nodePool.length || apart.length !== 1 || !apart[0].includes("open(source: Blob | Bytes | string | URL,")) {
  throw new Error(`js/pool.d.ts and js/pool-node.d.ts declare different things:\n${apart.join("\n")}`);
}
fs.copyFileSync(path.join(js, "pool-node.d.ts"), path.join(outDir, "pool-node.d.ts"));
if (arrow) {
  fs.copyFileSync(path.join(js, "arrow.d.ts"), path.join(outDir, "arrow.d.ts"));
  // For require(): the package's classes as CommonJS code has them (columns_wasm.d.cts).
  const dts = fs.readFileSync(path.join(js, "arrow.d.ts"), "utf8");
  const cts = dts.replace('from "./columns_wasm.js";', 'from "./columns_wasm.cjs";');
  if (cts === dts) throw new Error('js/arrow.d.ts no longer imports from "./columns_wasm.js": update tools/package.mjs');
  fs.writeFileSync(path.join(outDir, "arrow.d.cts"), cts);
}
fs.copyFileSync(path.join(js, "http.d.ts"), path.join(outDir, "http.d.ts"));
// The README, with the Arrow section (js/arrow.md, the adapter's own
// document, tested with it) where npm/README.md marks its place.
const marker = /^<!-- arrow: .* -->\n/m;
const readme = fs.readFileSync(path.join(root, "npm", "README.md"), "utf8");
if (!marker.test(readme)) throw new Error("npm/README.md has no <!-- arrow: ... --> line");
const arrowDoc = arrow ? fs.readFileSync(path.join(js, "arrow.md"), "utf8").trimEnd() + "\n" : "";
fs.writeFileSync(path.join(outDir, "README.md"), readme.replace(marker, () => arrowDoc));
fs.copyFileSync(path.join(root, "LICENSE"), path.join(outDir, "LICENSE"));

// package.json: name, version and description from Cargo.toml.
const cargo = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
const field = (name) => cargo.match(new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m"))?.[1];
const pkg = {
  name: field("name"),
  version: field("version"),
  description:
    "Reader for the `columns` columnar file format (magic ABCD), in WebAssembly: typed columns, Blob and HTTP-range reads, tokenized text. Browsers, bundlers and Node.",
  keywords: ["columnar", "wasm", "webassembly", "reader", "arrow", "typed-arrays"],
  license: field("license"),
  repository: { type: "git", url: `git+${field("repository")}.git` },
  type: "module",
  engines: { node: ">=18" },
  exports: {
    ".": {
      node: {
        import: { types: "./columns_wasm.d.ts", default: "./node.mjs" },
        require: { types: "./columns_wasm.d.cts", default: "./node.cjs" },
      },
      types: "./columns_wasm.d.ts",
      default: "./columns_wasm.js",
    },
    "./pool": { node: { types: "./pool-node.d.ts", default: "./pool-node.mjs" }, types: "./pool.d.ts", default: "./pool.js" },
    ...(arrow
      ? { "./arrow": { require: { types: "./arrow.d.cts", default: "./arrow.cjs" }, types: "./arrow.d.ts", default: "./arrow.js" } }
      : {}),
    "./http": { types: "./http.d.ts", default: "./http.js" },
    "./columns_wasm_bg.wasm": "./columns_wasm_bg.wasm",
    "./package.json": "./package.json",
  },
  // For tools that predate `exports`.
  main: "./node.cjs",
  module: "./columns_wasm.js",
  types: "./columns_wasm.d.ts",
  // Importing the package only defines things, except the pool's worker script.
  sideEffects: ["./pool-worker.js", "./pool-node-worker.cjs"],
  files: fs.readdirSync(outDir).filter((f) => f !== "package.json").sort(),
  ...(arrow
    ? { peerDependencies: { "apache-arrow": "^21.0.0" }, peerDependenciesMeta: { "apache-arrow": { optional: true } } }
    : {}),
};
for (const [k, v] of Object.entries(pkg)) if (v === undefined) throw new Error(`package.json: no ${k} (Cargo.toml?)`);
fs.writeFileSync(path.join(outDir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
