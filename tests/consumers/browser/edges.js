// The API at its edges, in a page: calls before init(), fromBytes with every
// kind of bytes (and things that are not bytes), calls after free(). Each
// misuse must be a ColumnsError with its kind and a message that says what
// to do. Failures are listed in globalThis.columnsWasmEdges for the test.
import init, { ColumnsError, ColumnsFile, TokenizerRegistry, wasmMemory } from "columns-wasm";
import * as api from "columns-wasm";
import { ColumnsPool } from "columns-wasm/pool";

const failures = [];
async function expectError(what, fn, kind, message) {
  try {
    await fn();
    failures.push(`${what}: no error`);
  } catch (e) {
    if (!(e instanceof ColumnsError) || e.kind !== kind || !message.test(e.message)) {
      failures.push(`${what}: expected a ColumnsError ${kind} matching ${message}, got ${e?.name} ${e?.kind}: ${e?.message}`);
    }
  }
}

await expectError("fromBytes before init()", () => ColumnsFile.fromBytes(new Uint8Array(8)), "not_initialized", /await init\(\)/);
await expectError("new TokenizerRegistry() before init()", () => new TokenizerRegistry(), "not_initialized", /TokenizerRegistry.*init\(\)/);
await expectError("fromBlob before init() (rejects)", () => ColumnsFile.fromBlob(new Blob([])), "not_initialized", /fromBlob/);
await expectError("wasmMemory() before init()", () => wasmMemory(), "not_initialized", /wasmMemory/);

// Failed loads are load_failed ColumnsErrors quoting the cause, and init() may be retried after one.
await expectError("init(a promise that rejects)", () => init(Promise.reject(new Error("no module here"))), "load_failed", /init\(\) rejected: no module here/);
await expectError("initSync(bytes that are not wasm)", () => api.initSync(new Uint8Array([1, 2, 3, 4])), "load_failed", /initSync\(\) did not compile: /);
await init();
await init(); // a second call resolves at once
const buffer = await (await fetch("data.cols")).arrayBuffer();
const rows = ColumnsFile.fromBytes(new Uint8Array(buffer)).numRows;
const shifted = new Uint8Array(buffer.byteLength + 3);
shifted.set(new Uint8Array(buffer), 3);
const inputs = {
  "an ArrayBuffer (await response.arrayBuffer())": buffer,
  "a DataView": new DataView(buffer),
  "a Uint8Array at an offset in a larger buffer": new Uint8Array(shifted.buffer, 3, buffer.byteLength),
  "an Int8Array": new Int8Array(buffer),
  "a SharedArrayBuffer-free copy (slice)": buffer.slice(0),
};
for (const [what, bytes] of Object.entries(inputs)) {
  try {
    const file = ColumnsFile.fromBytes(bytes);
    if (rows === 0 || file.numRows !== rows || file.readColumns().length === 0) failures.push(`fromBytes(${what}): ${file.numRows} rows`);
    file.free();
  } catch (e) {
    failures.push(`fromBytes(${what}): ${e.kind}: ${e.message}`);
  }
}
await expectError("fromBytes(a string)", () => ColumnsFile.fromBytes("data.cols"), "bad_argument", /got a string/);
await expectError("fromBytes(a Response)", async () => ColumnsFile.fromBytes(await fetch("data.cols")), "bad_argument", /got a Response.*arrayBuffer/);
await expectError("fromBytes(a Blob)", () => ColumnsFile.fromBytes(new Blob([buffer])), "bad_argument", /got a Blob.*fromBlob/);
await expectError("fromBytes(a plain array)", () => ColumnsFile.fromBytes([65, 66, 67, 68]), "bad_argument", /Array.*Uint8Array\.from/);
await expectError("fromBytes(a promise)", () => ColumnsFile.fromBytes(fetch("data.cols")), "bad_argument", /Promise.*await/);
const gone = buffer.slice(0);
structuredClone(gone, { transfer: [gone] });
await expectError("fromBytes(a detached ArrayBuffer)", () => ColumnsFile.fromBytes(gone), "bad_argument", /detached/);
await expectError("register(an ArrayBuffer that is not a tokenizer)", () => new TokenizerRegistry().register(buffer), "invalid_tokenizer", /./);

const file = ColumnsFile.fromBytes(buffer);
file.free();
await expectError("readColumns() after free()", () => file.readColumns(), "freed", /ColumnsFile was freed/);
await expectError("numRows after free()", () => file.numRows, "freed", /freed/);
await expectError("readColumnsAsync() after free() (rejects)", () => file.readColumnsAsync(), "freed", /freed/);
try {
  file.free();
} catch (e) {
  failures.push(`a second free() threw ${e.message}`);
}
const registry = new TokenizerRegistry();
registry.free();
await expectError("registry.size after free()", () => registry.size, "freed", /TokenizerRegistry was freed/);
if (!(wasmMemory() instanceof WebAssembly.Memory)) failures.push("wasmMemory() is not a WebAssembly.Memory");

// The pool: a view whose slice() shares memory (as Node's Buffer does) is
// copied, not detached; bad indexes are refused by kind; a terminated pool
// refuses calls instead of leaving them pending.
class SharingBytes extends Uint8Array {
  slice(start, end) {
    return this.subarray(start, end);
  }
}
const pool = await ColumnsPool.create(2);
const mine = new Uint8Array(buffer.byteLength + 16);
mine.set(new Uint8Array(buffer), 16);
const pooled = await pool.open(new SharingBytes(mine.buffer, 16, buffer.byteLength));
if (mine.buffer.byteLength !== buffer.byteLength + 16) failures.push("pool.open detached the caller's buffer");
const pooledCols = await pooled.readColumns();
if (pooledCols.length === 0 || pooledCols[0].length !== ColumnsFile.fromBytes(buffer).readColumn(0, 0).length) failures.push("pool read the wrong rows");
// Checked as ColumnsFile.readColumnsAsync checks them (by the file itself): the same kinds and messages.
await expectError("pool readColumns([0.5])", () => pooled.readColumns([0.5]), "out_of_range", /^row group 0\.5 \(position 0 of the list\) does not exist; the file has \d+$/);
await expectError("pool readColumns([true])", () => pooled.readColumns(null, [true]), "bad_argument", /^column \(position 0 of the list\) must be a number; got a boolean$/);
// A hole in a list is no index: refused, not skipped (which read fewer chunks than asked, in other places).
await expectError("pool readColumns([, 0])", () => pooled.readColumns([, 0]), "bad_argument", /^row group \(position 0 of the list\) must be a number; got undefined$/);
await expectError("pool readColumns(null, new Array(2))", () => pooled.readColumns(null, new Array(2)), "bad_argument", /^column \(position 0 of the list\) must be a number; got undefined$/);
await expectError("pool readColumns(\"0\")", () => pooled.readColumns("0"), "bad_argument", /^the row groups to read must be an array of indexes, null or undefined; got a string$/);
await expectError("pool readColumns(null, [\"0\"])", () => pooled.readColumns(null, ["0"]), "bad_argument", /^column \(position 0 of the list\) must be a number; got a string$/);
await expectError("pool readColumns(null, null, 5)", () => pooled.readColumns(null, null, 5), "bad_argument", /^options must be an object; got the number 5$/);
await expectError("pool readColumns({ signal: 5 })", () => pooled.readColumns(null, null, { signal: 5 }), "bad_argument", /^options\.signal must be an AbortSignal/);
await expectError("pool readColumns({ signal: aborted })", () => pooled.readColumns(null, null, { signal: AbortSignal.abort() }), "aborted", /^the read was aborted$/);
{
  // Aborted while the workers read: rejected at once; the pool goes on.
  const controller = new AbortController();
  const reading = pooled.readColumns(null, null, { signal: controller.signal });
  controller.abort();
  await expectError("pool readColumns, aborted while reading", () => reading, "aborted", /^the read was aborted$/);
  if ((await pooled.readColumns()).length !== pooledCols.length) failures.push("pool read after an abort: wrong column count");
}
await expectError("pool.open(bytes, 5)", () => pool.open(buffer, 5), "bad_argument", /^ColumnsPool\.open's options must be an object; got the number 5$/);
await expectError("pool.open(bytes, { tokenizers: 5 })", () => pool.open(buffer, { tokenizers: 5 }), "bad_argument", /options\.tokenizers must be an array/);
await expectError("pool readColumns({ reuse: \"x\" })", () => pooled.readColumns(null, null, { reuse: "x" }), "bad_argument", /options\.reuse must be a Column/);
await expectError("pool readColumns({ boolBits: 1 })", () => pooled.readColumns(null, null, { boolBits: 1 }), "bad_argument", /options\.boolBits must be true or false/);
pool.terminate();
await expectError("pool.open after terminate() (rejects)", () => pool.open(buffer), "freed", /terminated/);
await expectError("pool readColumns after terminate() (rejects)", () => pooled.readColumns(), "freed", /terminated/);

globalThis.columnsWasmEdges = failures;
globalThis.columnsWasm = { ...api };
