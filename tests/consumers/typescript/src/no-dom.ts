// Compiled only, in a Node project without lib.dom (tsconfig.node-only.json):
// what the declarations promise must hold there too, where the
// WebAssembly namespace has only the names they declare themselves.
import { ColumnsFile, wasmMemory, type ColumnsError } from "columns-wasm";
import { openAsBlob } from "node:fs";

export function watch(): number {
  return wasmMemory().buffer.byteLength;
}

export function causeOf(e: ColumnsError): unknown {
  return e.cause;
}

/** The README's file on disk: Node's fs.openAsBlob gives what fromBlob takes (without lib.dom, where Blob is Node's). */
export async function onDisk(path: string): Promise<number> {
  const file = await ColumnsFile.fromBlob(await openAsBlob(path));
  return file.numRows;
}
