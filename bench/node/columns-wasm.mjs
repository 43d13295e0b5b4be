// The one place the Node benchmark gets columns-wasm from: the package's Node
// entry (pkg/node.cjs) and its pool on worker threads (pkg/pool-node.mjs,
// over the same instance). When the layout changes, only this file changes.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = path.join(project, "pkg", "node.cjs");
const POOL = path.join(project, "pkg", "pool-node.mjs");

/** { ColumnsFile, TokenizerRegistry, pools, streamInstance, info } (null when not built). */
export async function loadColumnsWasm() {
  if (!fs.existsSync(ENTRY)) {
    return { ColumnsFile: null, TokenizerRegistry: null, pools: {}, info: { available: false, note: `columns-wasm not built (${path.relative(project, ENTRY)} is missing: scripts/build); benchmarking the others only` } };
  }
  const require = createRequire(import.meta.url);
  const mod = require(ENTRY);
  // The streaming hooks (bench/lib/readers.mjs) make module instances of
  // their own (the entry evaluated again), so that an instance's wasm memory
  // size after the runs is one reader's peak on one file.
  const streamInstance = async () => {
    delete require.cache[require.resolve(ENTRY)];
    const own = require(ENTRY);
    return { ColumnsFile: own.ColumnsFile, TokenizerRegistry: own.TokenizerRegistry, memory: own.wasmMemory() };
  };
  // Pools of 1 and 2 threads, and of the machine's parallelism where it is
  // more (created once, untimed; idle, they let the process end).
  const { ColumnsPool } = await import(pathToFileURL(POOL).href);
  const pools = {};
  for (const [key, size] of [["cwPool1", 1], ["cwPool2", 2], ["cwPoolN", os.availableParallelism?.() ?? os.cpus().length]]) {
    if (key === "cwPoolN" && size <= 2) continue;
    pools[key] = await ColumnsPool.create(size);
  }
  const poolSizes = Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p.size]));
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, pools, streamInstance, info: { available: true, note: path.relative(project, ENTRY), poolSizes } };
}
