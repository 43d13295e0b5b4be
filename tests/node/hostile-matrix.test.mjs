// Every public call, each argument position (and `this`) in turn given
// each of a set of hostile values, the others left sensible: the call
// succeeds, or it throws or rejects a ColumnsError of a documented kind
// with a bounded message; never the value's own error (a Proxy's trap, a
// getter's throw), a TypeError from inside the package, or a trap, and
// the file goes on reading afterwards. hostile-cases.mjs names the kind of
// each case it holds; this walks the whole surface.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { ERROR_KINDS } from "../js/check.mjs";
import { corpusFile, loadApi } from "./corpus.mjs";

const api = loadApi();
const { ColumnsFile, ColumnsError, TokenizerRegistry } = api;
const { asyncBufferFromUrl } = await import(new URL("../../pkg/http.js", import.meta.url).href);

const trap = () => {
  throw new Error("a trap of the test's own");
};
const revocable = Proxy.revocable({}, {});
revocable.revoke();
/** Hostile values, by name; fresh each time (some are used up). */
const hostile = () => ({
  undefined: undefined,
  null: null,
  NaN: NaN,
  "-0": -0,
  "-1": -1,
  "2**53": 2 ** 53,
  Infinity: Infinity,
  "1.5": 1.5,
  '"0"': "0",
  "0n": 0n,
  "a Symbol": Symbol("s"),
  "{}": {},
  "[]": [],
  "a function": () => {},
  "a Proxy whose traps throw": new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, apply: trap }),
  "a revoked Proxy": revocable.proxy,
  "{ length: 2 ** 32 }": { length: 2 ** 32 },
});
/** Options whose one getter throws, for each option the package reads. */
const OPTIONS = ["signal", "reuse", "boolBits", "columns", "rowGroups", "readAhead", "scoped", "tokenizers", "limit", "headers", "fetch"];
const throwingGetter = (key) => Object.defineProperty({}, key, { get: trap, enumerable: true });

const { bytes, expected } = corpusFile("valid/nulls");
const file = ColumnsFile.fromBytes(bytes);
const asyncFile = await ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: (s, e) => bytes.slice(s, e) });
const rows0 = expected.row_groups[0].num_rows;
const drain = async (it) => {
  for await (const batch of it) void batch;
};

// Each call: its name, and how to make it with `args` in place of its
// sensible arguments (the matrix replaces one position at a time).
// A server in a function: HEAD gives the size, a Range GET its bytes.
const serve = async (url, init) => {
  if (init?.method === "HEAD") return new Response(null, { headers: { "content-length": String(bytes.length), "accept-ranges": "bytes" } });
  const m = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init?.headers).get("range") ?? "");
  if (!m) return new Response(bytes);
  const [s, e] = [Number(m[1]), Math.min(Number(m[2]), bytes.length - 1)];
  return new Response(bytes.slice(s, e + 1), { status: 206, headers: { "content-range": `bytes ${s}-${e}/${bytes.length}`, "content-length": String(e - s + 1) } });
};
const url = await asyncBufferFromUrl("http://127.0.0.1:1/x.cols", { fetch: serve });

// columns-wasm/pool in Node (worker threads): a pool and a file on it.
const { ColumnsPool, PooledFile } = await import(new URL("../../pkg/pool-node.mjs", import.meta.url).href);
const pool = await ColumnsPool.create(1);
const pooled = await pool.open(bytes);
after(() => pool.terminate());

const F = ColumnsFile.prototype;
const R = TokenizerRegistry.prototype;
// [name, sensible arguments, the call (with `self` as its `this`), the
// sensible `this` (none for the statics)].
const calls = [
  ["ColumnsFile.fromBytes", [bytes, undefined], (a) => ColumnsFile.fromBytes(...a)],
  ["ColumnsFile.fromBlob", [new Blob([bytes]), undefined], (a) => ColumnsFile.fromBlob(...a)],
  ["ColumnsFile.fromAsyncBuffer", [{ byteLength: bytes.length, slice: (s, e) => bytes.slice(s, e) }, undefined], (a) => ColumnsFile.fromAsyncBuffer(...a)],
  ["readColumn", [0, 0, undefined], (a, self) => F.readColumn.call(self, ...a), () => file],
  ["readColumns", [[0], [0], undefined], (a, self) => F.readColumns.call(self, ...a), () => file],
  ["readColumnAsync", [0, 0, undefined], (a, self) => F.readColumnAsync.call(self, ...a), () => asyncFile],
  ["readColumnsAsync", [[0], [0], undefined], (a, self) => F.readColumnsAsync.call(self, ...a), () => asyncFile],
  ["rowGroupsAsync", [{ columns: [0] }], (a, self) => drain(F.rowGroupsAsync.call(self, ...a)), () => asyncFile],
  ["readRowGroupScoped", [0, ({ numRows }) => numRows, undefined], (a, self) => F.readRowGroupScoped.call(self, ...a), () => file],
  ["readRowGroupScopedAsync", [0, ({ numRows }) => numRows, undefined], (a, self) => F.readRowGroupScopedAsync.call(self, ...a), () => asyncFile],
  ["inspectChunk", [0, 0], (a, self) => F.inspectChunk.call(self, ...a), () => file],
  ["loadChunkHeaders", [undefined], (a, self) => F.loadChunkHeaders.call(self, ...a), () => asyncFile],
  ["TokenizerRegistry.register", [new Uint8Array([123, 125])], (a, self) => R.register.call(self, ...a), () => new TokenizerRegistry()],
  ["TokenizerRegistry.has", ["00"], (a, self) => R.has.call(self, ...a), () => new TokenizerRegistry()],
  ["asyncBufferFromUrl", ["http://127.0.0.1:1/x.cols", { fetch: () => Promise.reject(new Error("no network in this test")) }], (a) => asyncBufferFromUrl(...a)],
  ["UrlAsyncBuffer.slice", [0, 10], (a) => url.slice(...a)],
  ["UrlAsyncBuffer.readAll", [undefined], (a) => url.readAll(...a)],
  // (A pool made is ended at once; a file opened is closed.)
  ["ColumnsPool.create", [1], (a) => ColumnsPool.create(...a).then((p) => p.terminate())],
  ["ColumnsPool.open", [bytes, undefined], (a, self) => ColumnsPool.prototype.open.call(self, ...a).then((f) => f.close()), () => pool],
  ["PooledFile.readColumns", [[0], [0], undefined], (a, self) => PooledFile.prototype.readColumns.call(self, ...a), () => pooled],
  // (Only their `this` varies: no argument; the pool and file themselves are never closed here.)
  ["PooledFile.close", [], (a, self) => PooledFile.prototype.close.call(self, ...a), () => pooled],
  ["ColumnsPool.terminate", [], (a, self) => ColumnsPool.prototype.terminate.call(self, ...a), () => pool],
];

/** How a call ended: "ok", or the problem with its error (null when it is a proper one). */
async function ending(run) {
  let error;
  try {
    await run();
    return null;
  } catch (e) {
    error = e;
  }
  if (!(error instanceof ColumnsError)) return `not a ColumnsError: ${error?.name}: ${error?.message}`;
  if (!ERROR_KINDS.includes(error.kind)) return `undocumented kind ${error.kind}`;
  if (typeof error.message !== "string" || error.message.length > 2000) return "a message of unbounded length";
  return null;
}

for (const [name, sensible, make, sensibleThis = () => undefined] of calls) {
  test(`${name}: each argument, and this, hostile in turn`, async () => {
    const problems = [];
    for (let at = 0; at < sensible.length; at++) {
      for (const [what, value] of Object.entries(hostile())) {
        const args = [...sensible];
        args[at] = value;
        const problem = await ending(() => make(args, sensibleThis()));
        if (problem) problems.push(`argument ${at} = ${what}: ${problem}`);
      }
      // Options (and option-shaped arguments) whose one getter throws.
      if (sensible[at] === undefined || (typeof sensible[at] === "object" && !ArrayBuffer.isView(sensible[at]) && !(sensible[at] instanceof Blob))) {
        for (const key of OPTIONS) {
          const args = [...sensible];
          args[at] = throwingGetter(key);
          const problem = await ending(() => make(args, sensibleThis()));
          if (problem) problems.push(`argument ${at} with a throwing ${key} getter: ${problem}`);
        }
      }
    }
    // A method's `this` (the statics and asyncBufferFromUrl have none to vary).
    if (sensibleThis() !== undefined) {
      for (const [what, self] of Object.entries(hostile())) {
        const problem = await ending(() => make([...sensible], self));
        if (problem) problems.push(`this = ${what}: ${problem}`);
      }
    }
    assert.deepEqual(problems, []);
    // The files still read.
    assert.equal(file.readColumn(0, 0).length, rows0);
    assert.equal((await asyncFile.readColumnAsync(0, 0)).length, rows0);
    assert.deepEqual(await url.slice(0, 4), new Uint8Array([0x41, 0x42, 0x43, 0x44]));
    assert.equal((await pooled.readColumns([0], [0]))[0].length, rows0);
  });
}
