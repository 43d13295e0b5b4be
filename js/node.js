// The entry point for Node (built as CommonJS, node.cjs; node.mjs re-exports
// it, so ESM and CommonJS importers share one instance). The module is
// compiled and instantiated synchronously as this file loads: nothing to
// await. init() and initSync() exist, and do nothing, so that code written
// for browsers runs unchanged.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as glue from "columns-wasm-glue";
import { initialised } from "./api.js";

export { Column, ColumnsError, ColumnsFile, ScopedColumn, TokenizerRegistry, wasmMemory, internal as __internal } from "./api.js";

// __dirname: this file is only ever shipped as CommonJS (node.cjs).
const module = new WebAssembly.Module(readFileSync(join(__dirname, "columns_wasm_bg.wasm")));
glue.initSync({ module });
initialised(module);

/** Already done in Node: resolves at once. */
export default function init() {
  return Promise.resolve();
}

/** Already done in Node. */
export function initSync() {}
