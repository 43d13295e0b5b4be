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
import { fileURLToPath } from "node:url";
import { colsFiles, selectDatasets, diskPath } from "./lib/datasets.mjs";
import { nativeExample, tokenizerArgs } from "./lib/native-example.mjs";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(benchDir, "..");
const out = process.argv[2];
if (!out) {
  console.error("usage: node bench/native.mjs OUT.json");
  process.exit(2);
}
const runs = process.env.RUNS ?? "15";
const warmup = process.env.WARMUP ?? "3";
const example = (name, file, extra = []) => nativeExample(project, name, file, { runs, warmup, extra });

const doc = { runs: Number(runs), warmup: Number(warmup), bench: {}, inflate: {}, env: "freed memory kept: glibc's thresholds set by the examples (recycle_freed_memory, tests/common/mod.rs)" };
for (const f of colsFiles(selectDatasets(process.env.FILES))) {
  if (!fs.existsSync(diskPath(project, f.cols))) {
    console.log(`[native] ${f.id}: skipped, ${f.cols} is missing`);
    continue;
  }
  const b = (doc.bench[f.id] = example("bench", f, tokenizerArgs(project, f)));
  console.log(`[native] bench ${f.id}: ${b.error ?? `${b.medianMs.toFixed(2)} ms`}`);
  if (process.env.NATIVE_PARTS === "bench") continue;
  const i = (doc.inflate[f.id] = example("inflate_bench", f));
  console.log(`[native] inflate ${f.id}: ${i.error ?? i.decoders.map((d) => `${d.name} ${d.medianMs.toFixed(2)} ms`).join(", ")}`);
}
fs.writeFileSync(out, JSON.stringify(doc, null, 1) + "\n");
