#!/usr/bin/env node
// The native side of the benchmark: for every selected columns file, the
// native core (examples/bench, owned by the speed work: every chunk
// decompressed and decoded, the file already parsed, nothing copied) and the
// native inflate floor (examples/inflate_bench), each run per file so one
// failing file does not hide the others. Writes one JSON document:
//   { bench: { "flights-3m.default": {file, medianMs, ..., columns} | {error} },
//     inflate: { ID: {file, blocks, decoders: [...]} | {error} } }
//
//   node bench/native.mjs OUT.json     (env: RUNS, WARMUP, FILES; bench/run calls it)
//   NATIVE_PARTS=bench node bench/native.mjs OUT.json   (examples/bench only: the
//                                      end-of-run re-measure, see bench/drift.mjs)
//
// A file with tokenized columns gets its data set's tokenizers passed as
// `--tokenizer PATH` (examples/bench registers the corpus's own anyway).

import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { colsFiles, selectDatasets, diskPath } from "./lib/datasets.mjs";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(benchDir, "..");
const out = process.argv[2];
if (!out) {
  console.error("usage: node bench/native.mjs OUT.json");
  process.exit(2);
}
const runs = process.env.RUNS ?? "15";
const warmup = process.env.WARMUP ?? "3";

function example(name, file, extra = []) {
  const args = ["run", "--release", "--quiet", "--example", name, "--", "--json", "--runs", runs, "--warmup", warmup, ...extra, diskPath(project, file.cols)];
  const r = spawnSync("cargo", args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, env: { ...process.env, ...RECYCLE } });
  if (r.status !== 0) {
    const lines = (r.stderr || "").trim().split("\n").filter((l) => !/^\s*(Compiling|Finished|Running|warning)/.test(l));
    const at = Math.max(0, lines.findIndex((l) => l.includes("panicked at")));
    return { error: `examples/${name} ${r.status === null ? `killed by ${r.signal}` : `exited ${r.status}`}: ${lines.slice(at, at + 2).join(" ").trim()}` };
  }
  try {
    const doc = JSON.parse(r.stdout);
    const row = Array.isArray(doc) ? doc[0] : doc;
    return row && typeof row === "object" ? row : { error: `examples/${name}: no result` };
  } catch {
    return { error: `examples/${name}: output is not JSON` };
  }
}

// glibc's malloc hands large blocks back to the OS on free (mmap'd above a
// threshold that only grows once a process has freed one, and the heap's
// top trimmed), so a process reading one file paid page faults for its
// decoders' buffers on every run: movielens.tokenized 8.2 ms, 6.7 with
// the buffers recycled. wasm's allocator never returns memory, and the
// wasm reads compared with these recycle theirs, so these recycle too.
const RECYCLE = { MALLOC_MMAP_THRESHOLD_: String(1 << 30), MALLOC_TRIM_THRESHOLD_: String(1 << 30) };

const doc = { runs: Number(runs), warmup: Number(warmup), bench: {}, inflate: {}, env: RECYCLE };
for (const f of colsFiles(selectDatasets(process.env.FILES))) {
  if (!fs.existsSync(diskPath(project, f.cols))) {
    console.log(`[native] ${f.id}: skipped, ${f.cols} is missing`);
    continue;
  }
  const tok = f.dataset.tokenizers.flatMap((t) => ["--tokenizer", diskPath(project, t)]);
  const b = (doc.bench[f.id] = example("bench", f, tok));
  console.log(`[native] bench ${f.id}: ${b.error ?? `${b.medianMs.toFixed(2)} ms`}`);
  if (process.env.NATIVE_PARTS === "bench") continue;
  const i = (doc.inflate[f.id] = example("inflate_bench", f));
  console.log(`[native] inflate ${f.id}: ${i.error ?? i.decoders.map((d) => `${d.name} ${d.medianMs.toFixed(2)} ms`).join(", ")}`);
}
fs.writeFileSync(out, JSON.stringify(doc, null, 1) + "\n");
