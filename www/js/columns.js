// The one place the page names the columns-wasm package: every other module
// (the page, the workers) imports it from here, so a change of the
// package's layout is a change of this file only.

export { default as init, ColumnsFile, TokenizerRegistry } from "../pkg/columns_wasm.js";
export { ColumnsPool } from "../pkg/pool.js";
export { asyncBufferFromUrl } from "../pkg/http.js";
