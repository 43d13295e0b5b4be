#!/usr/bin/env node
// Two builds of the inflater, A and B, timed alternately in one headless
// Chromium page on the Flate blocks of real files: how a change to
// src/codec/inflate.rs is judged (examples/decode_bench.md records such
// runs). Each build is a bench/floor wasm module (`ours_inflate`); both
// inflate every block once first and must give the same bytes, every block
// its recorded length. Then rounds of A B B A (B A A B every other round),
// each sample whole passes over a file's blocks (as many as take 20 ms),
// a full GC before each.
//
//   (cd bench/floor && cargo build --release --target wasm32-unknown-unknown)
//   cp bench/floor/target/wasm32-unknown-unknown/release/columns_floor.wasm /tmp/a.wasm
//   ... change the inflater, build again, copy to /tmp/b.wasm ...
//   node bench/floor-ab.mjs /tmp/a.wasm /tmp/b.wasm FILE.cols... [--rounds N]
//
// Reads the block table with the package in pkg/ (node.cjs); needs
// tools/test's playwright-core and /usr/bin/chromium, as bench/run does.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { launch } from "./lib/chromium.mjs";
import { flateChunks } from "./lib/floor.mjs";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const at = args.indexOf("--rounds");
const rounds = at >= 0 ? Number(args.splice(at, 2)[1]) : 20;
const [aPath, bPath, ...files] = args;
if (!aPath || !bPath || files.length === 0 || !(rounds > 0)) {
  console.error("usage: node bench/floor-ab.mjs A.wasm B.wasm FILE.cols... [--rounds N]");
  process.exit(2);
}
const { ColumnsFile } = createRequire(import.meta.url)(path.join(project, "pkg", "node.cjs"));

/** Every Flate block of a file: its stored bytes back to back, and each one's lengths. */
function blocksOf(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const f = ColumnsFile.fromBytes(bytes);
  let blocks;
  try {
    blocks = flateChunks(f).flatMap((chunk) => chunk.blocks);
  } finally {
    f.free();
  }
  const stored = new Uint8Array(blocks.reduce((s, b) => s + b.inLen, 0));
  let o = 0;
  for (const b of blocks) {
    stored.set(bytes.subarray(b.at, b.at + b.inLen), o);
    o += b.inLen;
  }
  return { name: path.basename(file), stored, inLen: blocks.map((b) => b.inLen), outLen: blocks.map((b) => b.outLen) };
}

const browser = await launch(project);
try {
  const page = await browser.newPage();
  // Bytes go to the page through an origin of this script's own (large
  // files through evaluate() arguments would be serialized as JSON).
  const origin = "http://floor-ab.invalid/";
  const served = new Map([["", Buffer.from("<!doctype html>")], ["a.wasm", fs.readFileSync(aPath)], ["b.wasm", fs.readFileSync(bPath)]]);
  await page.route(`${origin}**`, (route) => {
    const name = route.request().url().slice(origin.length);
    const body = served.get(name);
    return body ? route.fulfill({ body, contentType: name ? "application/octet-stream" : "text/html" }) : route.abort();
  });
  await page.goto(origin);
  await page.evaluate(async () => {
    const get = async (name) => new WebAssembly.Module(await (await fetch(name)).arrayBuffer());
    window.builds = [await get("a.wasm"), await get("b.wasm")];
  });
  console.log(`| file | blocks | A ms | B ms | B / A | B faster in |`);
  console.log(`|---|--:|--:|--:|--:|--:|`);
  for (const file of files) {
    const t = blocksOf(file);
    if (t.inLen.length === 0) continue;
    served.set("blocks", Buffer.from(t.stored.buffer, t.stored.byteOffset, t.stored.byteLength));
    const r = await page.evaluate(
      async ({ inLen, outLen, rounds }) => {
        const stored = new Uint8Array(await (await fetch("blocks")).arrayBuffer());
        const n = inLen.length;
        const raw = outLen.reduce((s, v) => s + v, 0);
        const runs = window.builds.map((module) => {
          const imports = {};
          for (const { module: m, name } of WebAssembly.Module.imports(module)) (imports[m] ??= {})[name] = () => { throw new Error(`unexpected ${m}.${name}`); };
          const x = new WebAssembly.Instance(module, imports).exports;
          const inBase = x.alloc(stored.length), outBase = x.alloc(raw);
          new Uint8Array(x.memory.buffer).set(stored, inBase);
          return () => {
            let i0 = inBase, o0 = outBase;
            for (let i = 0; i < n; i++) {
              if (x.ours_inflate(i0, inLen[i], o0, outLen[i]) !== outLen[i]) throw new Error(`block ${i} failed`);
              i0 += inLen[i];
              o0 += outLen[i];
            }
            return new Uint8Array(x.memory.buffer, outBase, raw);
          };
        });
        const [a, b] = runs.map((run) => run());
        for (let i = 0; i < raw; i++) if (a[i] !== b[i]) throw new Error(`A and B differ at output byte ${i}`);
        // Passes per sample: at least 20 ms of them (the page's clock has
        // 0.1 ms steps), found on A after a warm-up of both.
        for (let k = 0; k < 2; k++) runs[k]();
        let reps = 1;
        for (let t0 = performance.now(); performance.now() - t0 < 20; reps++) runs[0]();
        const times = [[], []];
        const time = (k) => {
          gc();
          const t0 = performance.now();
          for (let j = 0; j < reps; j++) runs[k]();
          times[k].push((performance.now() - t0) / reps);
        };
        for (let r = 0; r < rounds; r++) for (const k of r % 2 ? [1, 0, 0, 1] : [0, 1, 1, 0]) time(k);
        const med = (v) => [...v].sort((x, y) => x - y)[v.length >> 1];
        let wins = 0;
        for (let i = 0; i < times[0].length; i++) if (times[1][i] < times[0][i]) wins++;
        return { n, a: med(times[0]), b: med(times[1]), wins, of: times[0].length };
      },
      { inLen: t.inLen, outLen: t.outLen, rounds },
    );
    const f = (v) => (v >= 10 ? v.toFixed(1) : v.toFixed(3));
    console.log(`| ${t.name} | ${r.n} | ${f(r.a)} | ${f(r.b)} | ${(r.b / r.a).toFixed(3)} | ${r.wins} of ${r.of} |`);
  }
} finally {
  await browser.close();
}
