// The one place the Node benchmark gets columns-wasm from: the package's Node
// entry (pkg/node.cjs), or the older nodejs-target folder (pkg-node/) while
// that layout is what is built. When the layout changes, only this file changes.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = [path.join(project, "pkg", "node.cjs"), path.join(project, "pkg-node", "columns_wasm.js")].find((p) => fs.existsSync(p)) ?? path.join(project, "pkg", "node.cjs");

/** { ColumnsFile, TokenizerRegistry, stream, streamScoped, info } (null when not built). */
export function loadColumnsWasm() {
  if (!fs.existsSync(ENTRY)) {
    return { ColumnsFile: null, TokenizerRegistry: null, info: { available: false, note: `columns-wasm not built (${path.relative(project, ENTRY)} is missing: scripts/build); benchmarking the others only` } };
  }
  const require = createRequire(import.meta.url);
  const mod = require(ENTRY);
  // The streaming hooks (bench/lib/readers.mjs) get a module instance each
  // (the entry evaluated again), so that its wasm memory's size after the
  // runs is that reader's peak.
  const instance = () => {
    delete require.cache[require.resolve(ENTRY)];
    const own = require(ENTRY);
    return { ColumnsFile: own.ColumnsFile, TokenizerRegistry: own.TokenizerRegistry, memory: own.wasmMemory() };
  };
  const streams = typeof mod.ColumnsFile.prototype.rowGroupsAsync === "function" ? { stream: instance(), streamScoped: instance() } : {};
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, ...streams, info: { available: true, note: path.relative(project, ENTRY) } };
}
