// The entry point for Node (built as CommonJS, node.cjs; node.mjs re-exports
// it, so ESM and CommonJS importers share one instance). The module is
// compiled and instantiated synchronously as this file loads: nothing to
// await. init() and initSync() exist, and do nothing, so that code written
// for browsers runs unchanged.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as glue from "columns-wasm-glue";
import { ColumnsError, initialised } from "./api.js";

export { Column, ColumnsError, ColumnsFile, ScopedColumn, TokenizerRegistry, wasmMemory, internal as __internal } from "./api.js";

// __dirname: this file is only ever shipped as CommonJS (node.cjs).
const module = new WebAssembly.Module(readFileSync(join(__dirname, "columns_wasm_bg.wasm")));
glue.initSync({ module });
initialised(module);

/** Already done in Node: the input is not needed. A promise given is still
 *  awaited, so that its rejection is this call's `load_failed`, as in
 *  browsers, instead of an unhandled rejection. */
export default async function init(input) {
  try {
    await (input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input.module_or_path : input);
  } catch (e) {
    const err = new ColumnsError(`columns-wasm: the promise given to init() rejected: ${e?.message ?? e}`, "load_failed");
    err.cause = e;
    throw err;
  }
}

/** Already done in Node. */
export function initSync() {}
