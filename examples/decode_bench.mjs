// Runs examples/decode_bench.rs built for wasm32 in Node, on the same files
// as the native run, and prints the same Markdown (JSON with --json FILE).
//
//   node examples/decode_bench.mjs [--budget-ms 3] [--json out.json] [--only ENC] [--no-build] [--no-opt] [FILE...]
//
// It builds the example for wasm32-unknown-unknown (with the crate's
// .cargo/config.toml flags, SIMD128 included) and passes it through
// wasm-opt -O3 with the package's feature flags when tools/ has wasm-opt,
// as the shipped package is. The example imports a clock and an output
// function; the crate's wasm-bindgen exports come along in this build and
// their imports are stubbed (the benchmark never calls them).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
let budget = 3, jsonOut = null, build = true, opt = true, only = "";
const files = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--budget-ms") budget = Number(args[++i]);
  else if (a === "--json") jsonOut = args[++i];
  else if (a === "--only") only = args[++i];
  else if (a === "--no-build") build = false;
  else if (a === "--no-opt") opt = false;
  else files.push(path.resolve(a));
}
const list = (dir, ext) =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => path.join(dir, f)) : [];
// As the native run: ../shared/bench/real (else corpus/real), then corpus/valid.
let real = list(path.resolve(root, "../shared/bench/real"), ".cols");
if (real.length === 0) real = list(path.join(root, "corpus/real"), ".cols");
if (files.length === 0) files.push(...real, ...list(path.join(root, "corpus/valid"), ".cols"));
const isCorpus = (f) => !real.includes(f) && f.split(path.sep).includes("corpus");

const target = path.join(root, "target/wasm32-unknown-unknown/release/examples");
let wasmPath = path.join(target, "decode_bench.wasm");
if (build) {
  execFileSync("cargo", ["build", "--release", "--example", "decode_bench", "--target", "wasm32-unknown-unknown"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
const wasmOpt = path.join(root, "tools/node_modules/.bin/wasm-opt");
if (opt && fs.existsSync(wasmOpt)) {
  const toml = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
  const flags = [...(toml.match(/^wasm-opt = \[(.*)\]/m)?.[1] ?? '"-O3"').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const out = path.join(target, "decode_bench.opt.wasm");
  execFileSync(wasmOpt, [...flags, wasmPath, "-o", out], { stdio: "inherit" });
  wasmPath = out;
}

const module = new WebAssembly.Module(fs.readFileSync(wasmPath));
let memory;
const outputs = [];
const stub = new Proxy({}, { get: (_, name) => () => { throw new Error(`decode_bench called ${String(name)}`); } });
const imports = {};
for (const imp of WebAssembly.Module.imports(module)) imports[imp.module] ??= imp.module === "env" ? {} : stub;
imports.env.bench_now = () => performance.now();
imports.env.bench_emit = (ptr, len, kind) => {
  outputs[kind] = new TextDecoder().decode(new Uint8Array(memory.buffer, ptr, len));
};
const instance = new WebAssembly.Instance(module, imports);
memory = instance.exports.memory;
const ex = instance.exports;

const add = (kind, name, bytes) => {
  const nameBytes = new TextEncoder().encode(name);
  const ptr = ex.bench_stage(nameBytes.length + bytes.length);
  const view = new Uint8Array(memory.buffer, ptr, nameBytes.length + bytes.length);
  view.set(nameBytes, 0);
  view.set(bytes, nameBytes.length);
  ex.bench_add(kind, nameBytes.length);
};
for (const t of list(path.join(root, "corpus/tokenizers"), ".json")) add(0, path.basename(t), fs.readFileSync(t));
for (const f of files) add(isCorpus(f) ? 2 : 1, path.basename(f), fs.readFileSync(f));
const onlyBytes = new TextEncoder().encode(only);
new Uint8Array(memory.buffer, ex.bench_stage(onlyBytes.length), onlyBytes.length).set(onlyBytes);
ex.bench_run(budget);
process.stdout.write(`(Node ${process.version}, ${path.basename(wasmPath)})\n\n${outputs[0]}`);
if (jsonOut) fs.writeFileSync(jsonOut, outputs[1]);
