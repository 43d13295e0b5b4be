// Runs one of the crate's native benchmark examples (examples/bench,
// examples/inflate_bench) on one columns file and returns its JSON row, or
// { error } saying why there is none. Used by bench/native.mjs and
// bench/paired.mjs.

import { spawnSync } from "node:child_process";
import { diskPath } from "./datasets.mjs";

// glibc's malloc hands large blocks back to the OS on free (mmap'd above a
// threshold that only grows once a process has freed one, and the heap's
// top trimmed), so a process reading one file paid page faults for its
// decoders' buffers on every run: movielens.tokenized 8.2 ms, 6.7 with
// the buffers recycled. wasm's allocator never returns memory, and the
// wasm reads compared with these recycle theirs, so these recycle too.
export const RECYCLE = { MALLOC_MMAP_THRESHOLD_: String(1 << 30), MALLOC_TRIM_THRESHOLD_: String(1 << 30) };

/** `cargo run --release --example NAME -- --json --runs R --warmup W [extra] FILE`. */
export function nativeExample(project, name, file, { runs, warmup, extra = [] }) {
  const args = ["run", "--release", "--quiet", "--example", name, "--", "--json", "--runs", String(runs), "--warmup", String(warmup), ...extra, diskPath(project, file.cols)];
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

/** The `--tokenizer PATH` arguments for a file whose data set has tokenizers. */
export const tokenizerArgs = (project, file) => file.dataset.tokenizers.flatMap((t) => ["--tokenizer", diskPath(project, t)]);
