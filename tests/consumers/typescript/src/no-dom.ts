// Compiled only, in a Node project without lib.dom (tsconfig.node-only.json):
// what the declarations promise must hold there too, where the
// WebAssembly namespace has only the names they declare themselves.
import { wasmMemory, type ColumnsError } from "columns-wasm";

export function watch(): number {
  return wasmMemory().buffer.byteLength;
}

export function causeOf(e: ColumnsError): unknown {
  return e.cause;
}
