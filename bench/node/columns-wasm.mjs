// The one place the Node benchmark gets columns-wasm from: the package's Node
// entry (pkg/node.cjs). When the layout changes, only this file changes.

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const ENTRY = path.join(project, "pkg", "node.cjs");

/** { ColumnsFile, TokenizerRegistry, info } (both null when not built). */
export function loadColumnsWasm() {
  if (!fs.existsSync(ENTRY)) {
    return { ColumnsFile: null, TokenizerRegistry: null, info: { available: false, note: `columns-wasm not built (${path.relative(project, ENTRY)} is missing: scripts/build); benchmarking the others only` } };
  }
  const mod = createRequire(import.meta.url)(ENTRY);
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, info: { available: true, note: path.relative(project, ENTRY) } };
}
