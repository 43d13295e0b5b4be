// The pool's argument checks (PooledFile.readColumns, ColumnsPool.open), in
// Node: the pool itself needs Web Workers, so a PooledFile is made here
// around a stand-in pool that records what it is asked to read. Its checks
// must give the same kinds and locations as ColumnsFile.readColumnsAsync's
// on the same file; the reading itself is tested in Chromium
// (tests/e2e/pool.test.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { corpusFile } from "./corpus.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
// The browser build, which pool.js imports as ./columns_wasm.js (the same module here).
const browser = await import(new URL("columns_wasm.js", pkg).href);
browser.initSync({ module: fs.readFileSync(new URL("columns_wasm_bg.wasm", pkg)) });
const { ColumnsPool, PooledFile } = await import(new URL("pool.js", pkg).href);

/** A PooledFile over `valid/nulls` (4 row groups, 5 columns) whose pool
 *  answers every read with `answer()` and records its chunks. */
function pooled(answer = () => Promise.resolve([])) {
  const meta = browser.ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const reads = [];
  const pool = { read: (id, m, rowGroups, columns) => (reads.push([rowGroups, columns]), answer()), close() {} };
  return { file: new PooledFile(pool, 1, meta), meta, reads };
}

/** How a call ended: "ok", or the error's kind and location. */
async function outcome(call) {
  try {
    await call();
    return "ok";
  } catch (e) {
    return { kind: e.kind, rowGroup: e.rowGroup, column: e.column, columnsError: e instanceof browser.ColumnsError };
  }
}

test("PooledFile.readColumns refuses what ColumnsFile.readColumnsAsync refuses, with the same kind and location", async () => {
  const { file, meta } = pooled();
  const trap = () => { throw new Error("trap"); };
  const cases = {
    "no lists": [],
    "null lists": [null, null],
    "some of each": [[0, 3], [4, 0]],
    "a row group repeated up to the count": [[1, 1, 1, 1]],
    "more row groups than the file has": [[0, 0, 0, 0, 0]],
    'columns ["0"]': [null, ["0"]],
    "row groups [0.5]": [[0.5]],
    "row groups [-1]": [[-1]],
    "row groups [0, 99]": [[0, 99]],
    "columns [0, 7]": [null, [0, 7]],
    'row groups "0"': ["0"],
    "row groups 5": [5],
    "row groups {}": [{}],
    "an array-like": [{ length: 1, 0: 0 }],
    "a list whose traps throw": [new Proxy([0], { get: trap })],
    "options 5": [null, null, 5],
    'options "x"': [null, null, "x"],
    "options whose traps throw": [null, null, new Proxy({}, { get: trap })],
    "signal 5": [null, null, { signal: 5 }],
    "signal {}": [null, null, { signal: {} }],
    "signal null": [null, null, { signal: null }],
    "reuse 5": [null, null, { reuse: 5 }],
    'boolBits "yes"': [null, null, { boolBits: "yes" }],
    "boolBits true": [null, null, { boolBits: true }],
    "an aborted signal": [null, null, { signal: AbortSignal.abort() }],
    "a reuse getter that throws": [null, null, { get reuse() { return trap(); } }],
    "a boolBits getter that throws": [null, null, { get boolBits() { return trap(); } }],
    "a signal getter that throws": [null, null, { get signal() { return trap(); } }],
    "a misspelt option": [null, null, { boolbits: true }],
    "an option of another method": [null, null, { columns: [0] }],
    "an unknown option left undefined": [null, null, { signal: undefined, resue: undefined }],
    "every option it takes": [null, null, { reuse: [], boolBits: false, signal: null }],
  };
  for (const [what, args] of Object.entries(cases)) {
    const want = await outcome(() => meta.readColumnsAsync(...args));
    if (/getter|option of|unknown option|misspelt/.test(what)) assert.equal(want.kind, "bad_argument", what);
    const got = await outcome(() => file.readColumns(...args));
    assert.deepEqual(got, want, what);
  }
});

test("an option name PooledFile.readColumns or ColumnsPool.open does not take is named, with the call", async () => {
  const { file } = pooled();
  await assert.rejects(file.readColumns(null, null, { boolbits: true }), { kind: "bad_argument", message: 'PooledFile.readColumns has no option "boolbits"; it takes reuse, boolBits, signal' });
  const pool = Object.create(ColumnsPool.prototype);
  await assert.rejects(pool.open(corpusFile("valid/nulls").bytes, { tokenizer: [] }), { kind: "bad_argument", message: 'ColumnsPool.open has no option "tokenizer"; it takes tokenizers' });
});

test("PooledFile.readColumns asks its pool for the row groups and columns as given, every one for a list left out", async () => {
  const { file, reads } = pooled();
  await file.readColumns([0, 3], [4, 0]);
  await file.readColumns(null, [2]);
  await file.readColumns([1, 1], undefined);
  assert.deepEqual(reads, [
    [[0, 3], [4, 0]],
    [[0, 1, 2, 3], [2]],
    [[1, 1], [0, 1, 2, 3, 4]],
  ]);
});

test("PooledFile.readColumns with a signal rejects with aborted (cause: the reason) as soon as it aborts; the pool's answer is dropped", async () => {
  let answered;
  const { file, reads } = pooled(() => new Promise((resolve) => (answered = resolve)));
  const controller = new AbortController();
  const reading = file.readColumns([0], [0], { signal: controller.signal });
  const reason = new Error("enough");
  controller.abort(reason);
  await assert.rejects(reading, (e) => e instanceof browser.ColumnsError && e.kind === "aborted" && e.cause === reason);
  answered([]);
  assert.equal(reads.length, 1);
  // Aborted before the call: nothing is read.
  await assert.rejects(file.readColumns(null, null, { signal: AbortSignal.abort(reason) }), (e) => e.kind === "aborted" && e.cause === reason);
  assert.equal(reads.length, 1);
  // A signal that does not fire changes nothing.
  const { file: other } = pooled(() => Promise.resolve(["a column"]));
  assert.deepEqual(await other.readColumns([0], [0], { signal: new AbortController().signal }), ["a column"]);
});

test("ColumnsPool.prototype.open refuses options that are not an object, an option it does not take, and tokenizers that are not a list, with bad_argument", async () => {
  const bytes = corpusFile("valid/nulls").bytes;
  // open() is reached without workers: a pool of none (its argument checks come first).
  const pool = Object.create(ColumnsPool.prototype);
  for (const options of [5, "x", true, { tokenizers: 5 }, { tokenizers: "abc" }, { tokenizers: {} }, { tokenizer: [] }, { signal: null }]) {
    const got = await outcome(() => pool.open(bytes, options));
    assert.deepEqual(got, { kind: "bad_argument", rowGroup: null, column: null, columnsError: true }, JSON.stringify(options));
  }
});

test("ColumnsPool.prototype.open refuses a source that throws when inspected (a revoked Proxy, a Proxy whose traps throw) with bad_argument", async () => {
  const pool = Object.create(ColumnsPool.prototype);
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const trap = () => {
    throw new Error("trap");
  };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap });
  for (const [what, source] of Object.entries({ revoked, throwing })) {
    const got = await outcome(() => pool.open(source));
    assert.deepEqual(got, { kind: "bad_argument", rowGroup: null, column: null, columnsError: true }, what);
  }
});
