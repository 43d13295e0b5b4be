// Runs one of the crate's native benchmark examples (examples/bench,
// examples/inflate_bench) on one columns file and returns its JSON row, or
// { error } saying why there is none. Used by bench/native.mjs and
// bench/paired.mjs.

import { spawnSync } from "node:child_process";
import { diskPath } from "./datasets.mjs";

// The examples keep freed memory as wasm's allocator does (glibc's
// thresholds set by `recycle_freed_memory` in tests/common/mod.rs), so a
// run by hand and a run from here measure the same thing.

/** `cargo run --release --example NAME -- --json --runs R --warmup W [extra] FILE`. */
export function nativeExample(project, name, file, { runs, warmup, extra = [] }) {
  const args = ["run", "--release", "--quiet", "--example", name, "--", "--json", "--runs", String(runs), "--warmup", String(warmup), ...extra, diskPath(project, file.cols)];
  const r = spawnSync("cargo", args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 });
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
