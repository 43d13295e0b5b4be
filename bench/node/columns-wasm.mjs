// The one place the Node benchmark gets columns-wasm from: the package's Node
// entry (pkg/node.cjs), or the older nodejs-target folder (pkg-node/) while
// that layout is what is built. When the layout changes, only this file changes.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = [path.join(project, "pkg", "node.cjs"), path.join(project, "pkg-node", "columns_wasm.js")].find((p) => fs.existsSync(p)) ?? path.join(project, "pkg", "node.cjs");

/** { ColumnsFile, TokenizerRegistry, streamInstance, info } (null when not built). */
export function loadColumnsWasm() {
  if (!fs.existsSync(ENTRY)) {
    return { ColumnsFile: null, TokenizerRegistry: null, info: { available: false, note: `columns-wasm not built (${path.relative(project, ENTRY)} is missing: scripts/build); benchmarking the others only` } };
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
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, streamInstance, info: { available: true, note: path.relative(project, ENTRY) } };
}
