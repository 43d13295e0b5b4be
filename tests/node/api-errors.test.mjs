// Errors at the API's edges: every failure is a ColumnsError with a kind,
// including arguments out of range, sources that fail, and tails that claim
// an absurd footer.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { corpusFile, loadApi } from "./corpus.mjs";
import { constantDictFile } from "./synth.mjs";

const { ColumnsFile, ColumnsError, TokenizerRegistry } = loadApi();

/** `fn` throws an Error whose kind is `kind`; `check` looks further. */
function throwsKind(fn, kind, check = () => {}) {
  assert.throws(fn, (e) => isKind(e, kind, check));
}

/** The same for a promise that rejects. */
async function rejectsKind(promise, kind, check = () => {}) {
  await assert.rejects(promise, (e) => isKind(e, kind, check));
}

function isKind(e, kind, check) {
  assert.ok(e instanceof Error, "an Error");
  assert.equal(e.kind, kind, e.message);
  check(e);
  return true;
}

test("row group and column indexes out of range name what was asked", () => {
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  throwsKind(() => file.readColumn(-1, 0), "out_of_range", (e) => assert.match(e.message, /row group -1 does not exist; the file has 4/));
  throwsKind(() => file.readColumn(0.5, 0), "out_of_range", (e) => assert.match(e.message, /row group 0\.5/));
  throwsKind(() => file.readColumn(9, 0), "out_of_range", (e) => assert.equal(e.rowGroup, 9));
  throwsKind(() => file.readColumn(0, 99), "out_of_range", (e) => assert.match(e.message, /column 99/));
  throwsKind(() => file.readColumns([0.5]), "out_of_range", (e) => assert.match(e.message, /row group 0\.5/));
  throwsKind(() => file.inspectChunk(0, -3), "out_of_range");
});

test("a footer length far beyond any real footer is refused before it is fetched", async () => {
  const { bytes } = corpusFile("valid/nulls");
  // Present the file as if a huge region preceded its tail, with a 1 GiB footer length.
  const big = 8 * 1024 ** 3;
  const tail = bytes.slice(bytes.length - 8);
  new DataView(tail.buffer).setUint32(0, 1024 ** 3, true);
  const asked = [];
  const source = {
    byteLength: big,
    slice(s, e) {
      asked.push([s, e]);
      if (s === 0) return bytes.slice(0, e);
      if (s === big - 8) return tail;
      return new Uint8Array(e - s);
    },
  };
  await rejectsKind(ColumnsFile.fromAsyncBuffer(source), "too_large", (e) => assert.match(e.message, /footer length 1073741824/));
  assert.ok(asked.every(([s, e]) => e - s <= 9), `only the head and tail were read: ${JSON.stringify(asked)}`);
});

test("a source whose slice() rejects or throws gives bad_source with the cause", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const boom = new Error("disk on fire");
  const rejecting = { byteLength: bytes.length, slice: () => Promise.reject(boom) };
  await rejectsKind(ColumnsFile.fromAsyncBuffer(rejecting), "bad_source", (e) => {
    assert.equal(e.cause, boom);
    assert.match(e.message, /disk on fire/);
  });
  const throwing = { byteLength: bytes.length, slice: () => { throw boom; } };
  await rejectsKind(ColumnsFile.fromAsyncBuffer(throwing), "bad_source", (e) => assert.equal(e.cause, boom));
  // Fails only when a column is read.
  let opened = false;
  const later = { byteLength: bytes.length, slice: (s, e) => (opened ? Promise.reject(boom) : bytes.slice(s, e)) };
  const file = await ColumnsFile.fromAsyncBuffer(later);
  opened = true;
  await rejectsKind(file.readColumnAsync(0, 0), "bad_source", (e) => assert.equal(e.cause, boom));
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length }), "bad_source", (e) => assert.match(e.message, /slice\(\)/));
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: () => "nope" }), "bad_source");
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: () => new Uint8Array(3) }), "truncated");
});

test("a source failing with a ColumnsError of kind aborted or too_large (its own signal, its limit) keeps that kind, with the cause; anything else is bad_source; a long message is kept whole up to 1,500 characters, else cut with an ellipsis", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const failing = (fail) => ({ byteLength: bytes.length, slice: () => fail() });
  for (const kind of ["aborted", "too_large"]) {
    const err = new ColumnsError(`the source's own ${kind}`, kind);
    await rejectsKind(ColumnsFile.fromAsyncBuffer(failing(() => Promise.reject(err))), kind, (e) => {
      assert.equal(e.cause, err);
      assert.match(e.message, /^reading bytes \d+\.\.\d+ from the source failed: the source's own/);
      assert.equal(typeof e.offset, "number");
    });
    await rejectsKind(ColumnsFile.fromAsyncBuffer(failing(() => { throw err; })), kind, (e) => assert.equal(e.cause, err));
  }
  // Not a ColumnsError, another kind, or a kind that throws when read: bad_source.
  const lookalike = Object.assign(new Error("x"), { kind: "aborted" });
  const otherKind = new ColumnsError("y", "truncated");
  const trap = Object.defineProperty(new ColumnsError("z", "aborted"), "kind", { get() { throw new Error("trap"); } });
  for (const err of [lookalike, otherKind, trap, "aborted"]) {
    await rejectsKind(ColumnsFile.fromAsyncBuffer(failing(() => Promise.reject(err))), "bad_source", (e) => assert.equal(e.cause, err));
  }
  const url = `https://example.com/${"a".repeat(1400)}`;
  await rejectsKind(ColumnsFile.fromAsyncBuffer(failing(() => Promise.reject(new Error(`cannot fetch ${url}`)))), "bad_source", (e) => assert.ok(e.message.endsWith(`cannot fetch ${url}`), e.message));
  await rejectsKind(ColumnsFile.fromAsyncBuffer(failing(() => Promise.reject(new Error("b".repeat(5000))))), "bad_source", (e) => {
    assert.ok(e.message.endsWith(`: ${"b".repeat(1500)}…`), e.message.slice(-20));
    assert.ok(e.message.length < 2000);
  });
});

test("a registry argument that is not a live TokenizerRegistry is a bad_argument", () => {
  const { bytes } = corpusFile("valid/nulls");
  throwsKind(() => ColumnsFile.fromBytes(bytes, { __handle: 123456 }), "bad_argument");
  const reg = new TokenizerRegistry();
  reg.free();
  throwsKind(() => ColumnsFile.fromBytes(bytes, { __handle: 1e9 }), "bad_argument");
});

test("errors serialize to plain objects (postMessage, JSON)", () => {
  try {
    ColumnsFile.fromBytes(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert.fail("expected an error");
  } catch (e) {
    assert.equal(e.name, "ColumnsError");
    const plain = JSON.parse(JSON.stringify(e));
    assert.deepEqual(Object.keys(plain).sort(), ["column", "kind", "message", "name", "offset", "rowGroup"]);
    assert.equal(plain.kind, "bad_magic");
    assert.equal(plain.offset, 0);
    assert.deepEqual(structuredClone(e.toJSON()), plain);
  }
});

test("an async method never throws: every misuse rejects its promise with a kind", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const calls = {
    "readColumnsAsync([0.5])": [() => file.readColumnsAsync([0.5]), "out_of_range"],
    "readColumnsAsync(null, [99])": [() => file.readColumnsAsync(null, [99]), "out_of_range"],
    "readColumnsAsync(\"0\")": [() => file.readColumnsAsync("0"), "bad_argument"],
    "readColumnsAsync(null, null, 5)": [() => file.readColumnsAsync(null, null, 5), "bad_argument"],
    "readColumnAsync(9, 0)": [() => file.readColumnAsync(9, 0), "out_of_range"],
    "inspectChunkAsync(0, -1)": [() => file.inspectChunkAsync(0, -1), "out_of_range"],
    "readRowGroupScopedAsync(0, 5)": [() => file.readRowGroupScopedAsync(0, 5), "bad_argument"],
  };
  for (const [what, [call, kind]] of Object.entries(calls)) {
    let p;
    assert.doesNotThrow(() => (p = call()), `${what} threw instead of rejecting`);
    await rejectsKind(p, kind);
  }
  file.free();
});

test("a method called on the wrong object is a bad_argument, never a trap; the module goes on working", () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const registry = new TokenizerRegistry();
  // Another class's object: its pointer is of the wrong kind.
  throwsKind(() => TokenizerRegistry.prototype.free.call(file), "bad_argument", (e) => assert.match(e.message, /this is a ColumnsFile/));
  throwsKind(() => ColumnsFile.prototype.readColumn.call(registry, 0, 0), "bad_argument");
  // The exported TokenizerRegistry subclasses the glue's, which holds the getter.
  const size = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(TokenizerRegistry.prototype), "size");
  throwsKind(() => size.get.call(file), "bad_argument");
  // Objects the package did not make hold no pointer at all.
  throwsKind(() => Object.create(ColumnsFile.prototype).numRows, "bad_argument");
  throwsKind(() => Reflect.construct(Object, [], ColumnsFile).readColumns(), "bad_argument");
  // `new ColumnsFile()` opens nothing; the message says how it was made.
  throwsKind(() => new ColumnsFile().numRows, "bad_argument", (e) => assert.match(e.message, /made by this package, not by new ColumnsFile\(\)/));
  const detached = file.readColumn;
  throwsKind(() => detached(0, 0), "bad_argument", (e) => assert.match(e.message, /this is undefined/));
  // Both objects are untouched, and the module still works.
  assert.equal(file.numRows, expected.row_groups.reduce((n, rg) => n + rg.num_rows, 0));
  assert.equal(registry.size, 0);
  assert.equal(ColumnsFile.fromBytes(bytes).readColumn(0, 0).length, expected.row_groups[0].num_rows);
  file.free();
  registry.free();
});

test("a scoped async read awaited inside its own callback is refused (busy), not left pending", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error("the nested read never settled")), 5000).unref());
  const outer = file.readRowGroupScopedAsync(0, async () => {
    await rejectsKind(file.readRowGroupScopedAsync(1, () => 1), "busy", (e) => assert.match(e.message, /while a scoped read's callback of the same file runs/));
    return "outer";
  });
  assert.equal(await Promise.race([outer, timeout]), "outer");
  // Calls made outside a callback still queue and run.
  assert.deepEqual(await Promise.all([0, 1].map((g) => file.readRowGroupScopedAsync(g, ({ rowGroup }) => rowGroup))), [0, 1]);
  file.free();
});

test("a column's methods refuse misuse with a kind (handed back, the wrong type); isValid is false where there is no row", () => {
  const { bytes } = corpusFile("valid/all_types_small");
  const file = ColumnsFile.fromBytes(bytes);
  const int8 = file.readColumn(0, 2);
  assert.equal(int8.type, "int8");
  throwsKind(() => int8.boolBitmap(), "bad_argument", (e) => assert.match(e.message, /bool column, not int8/));
  // Not a row: no value there (not another row's bit).
  for (const row of [-1, 1.5, "0", int8.length, NaN]) assert.equal(int8.isValid(row), false, `isValid(${row})`);
  assert.equal(int8.isValid(0), true);
  file.readColumn(0, 2, { reuse: int8 });
  for (const use of [() => int8.toArray(), () => int8.isValid(0), () => int8.boolBitmap()]) throwsKind(use, "released");
  file.free();
});

test("a lent column refuses every member but `released` once its scope ends", () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const kept = file.readRowGroupScoped(0, ({ columns }) => {
    assert.equal(typeof columns[0].length, "number");
    return columns[0];
  });
  assert.equal(kept.released, true);
  for (const key of ["type", "length", "nullCount", "values", "validity", "boolBits", "timings"]) throwsKind(() => kept[key], "released");
  file.free();
});

test("a Blob or Blob-like source whose slice() gives something without arrayBuffer() is named as such (bad_source), not blamed on arrayBuffer()", async () => {
  const { bytes } = corpusFile("valid/nulls");
  for (const part of [5, null, undefined, {}, { arrayBuffer: 3 }]) {
    class OddBlob extends Blob {
      slice() {
        return part;
      }
    }
    for (const source of [{ size: bytes.length, slice: () => part }, new OddBlob([bytes])]) {
      await rejectsKind(ColumnsFile.fromBlob(source), "bad_source", (e) => {
        assert.match(e.message, /^the source's slice\(\) result has no arrayBuffer\(\) method \(arrayBuffer is /);
        assert.doesNotMatch(e.message, /Reflect|threw/);
      });
    }
  }
});

test("messages name the package's own classes as their users know them, in the minified browser build too", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const pkg = new URL("../../pkg/", import.meta.url);
  const browser = await import(new URL("columns_wasm.js", pkg).href);
  browser.initSync({ module: fs.readFileSync(new URL("columns_wasm_bg.wasm", pkg)) });
  // Bundling renamed them: "a n", "this is a lt" (browser), "TokenizerRegistry2" (Node).
  for (const api of [{ ColumnsFile, ColumnsError, TokenizerRegistry }, browser]) {
    const file = api.ColumnsFile.fromBytes(bytes);
    const column = file.readColumn(0, 0);
    throwsKind(() => api.ColumnsFile.prototype.readColumn.call(new api.TokenizerRegistry(), 0, 0), "bad_argument", (e) => assert.match(e.message, /this is a TokenizerRegistry$/));
    throwsKind(() => api.ColumnsFile.fromBytes(column), "bad_argument", (e) => assert.match(e.message, /it got a Column$/));
    throwsKind(() => api.ColumnsFile.fromBytes(file), "bad_argument", (e) => assert.match(e.message, /it got a ColumnsFile$/));
    throwsKind(() => api.ColumnsFile.fromBytes(new api.ColumnsError("x", "internal")), "bad_argument", (e) => assert.match(e.message, /it got a ColumnsError$/));
    file.free();
  }
});

test("free() from a getter that a call on the same file reached is refused (busy); the call and the file go on", () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const refused = [];
  const tryFree = () => {
    try {
      file.free();
    } catch (e) {
      refused.push(e);
    }
  };
  const columns = file.readColumns(null, null, {
    get boolBits() {
      tryFree();
      return false;
    },
  });
  assert.equal(columns.length, expected.row_groups.length * expected.schema.length);
  file.readColumn(0, 0, { get reuse() { tryFree(); return null; } });
  assert.equal(refused.length, 2);
  for (const e of refused) {
    assert.ok(e instanceof ColumnsError, e.message);
    assert.equal(e.kind, "busy");
    assert.match(e.message, /free\(\) was called while a call on this ColumnsFile was running/);
  }
  assert.deepEqual(file.readColumn(1, 1).toArray(), expected.row_groups[1].values[1]);
  file.free();
  throwsKind(() => file.numRows, "freed");
  // Statics work detached, as they always did.
  const { fromBytes } = ColumnsFile;
  assert.equal(fromBytes(bytes).numRows, expected.row_groups.reduce((n, rg) => n + rg.values[0].length, 0));
});

test("Node's init(): a rejected input promise is its load_failed, as in browsers, not an unhandled rejection; anything else resolves", async () => {
  const { default: init } = loadApi();
  const reason = new Error("no module");
  for (const input of [Promise.reject(reason), { module_or_path: Promise.reject(reason) }]) {
    await assert.rejects(init(input), (e) => isKind(e, "load_failed", () => assert.equal(e.cause, reason)));
  }
  for (const input of [undefined, null, "columns_wasm_bg.wasm", { module_or_path: Promise.resolve(new Uint8Array(0)) }]) assert.equal(await init(input), undefined);
});

test("rowGroupsAsync called on something that is not a file rejects its first step with bad_argument", async () => {
  const stream = ColumnsFile.prototype.rowGroupsAsync.call({});
  await rejectsKind(stream.next(), "bad_argument", (e) => assert.match(e.message, /need a ColumnsFile made by this package; this is an Object/));
});

test("ColumnsPool.create: a size that is not 1 to 256 workers is a bad_argument; without Web Workers (Node) a load_failed that says so", async () => {
  const { ColumnsPool } = await import(new URL("../../pkg/pool.js", import.meta.url).href);
  for (const size of [0, -1, 1.5, 257, 1e9, 2 ** 32 + 1, NaN, "2", null]) {
    await assert.rejects(ColumnsPool.create(size), (e) => e.kind === "bad_argument" && /1 to 256 workers/.test(e.message));
  }
  for (const size of [undefined, 1, 256]) {
    await assert.rejects(ColumnsPool.create(size), (e) => e.kind === "load_failed" && /no Web Workers here/.test(e.message) && e instanceof ColumnsError);
  }
});

test("instanceof ColumnsError holds for the other build's errors (the pool's, a second copy's) and for nothing but Errors named so", async () => {
  const other = (await import(new URL("../../pkg/columns_wasm.js", import.meta.url).href)).ColumnsError;
  assert.notEqual(other, ColumnsError, "the browser build has a class of its own");
  const theirs = new other("from the browser build", "corrupt_chunk", 1, 2, 3);
  assert.ok(theirs instanceof ColumnsError && theirs instanceof other && theirs instanceof Error);
  assert.ok(new ColumnsError("x", "bad_argument") instanceof other);
  const named = new TypeError("x");
  named.name = "ColumnsError";
  assert.ok(named instanceof ColumnsError);
  for (const x of [new Error("x"), new TypeError("x"), { name: "ColumnsError", kind: "bad_argument" }, JSON.parse(JSON.stringify(theirs)), null, undefined, "ColumnsError", 0, Object.create(null)]) {
    assert.equal(x instanceof ColumnsError, false, typeof x);
  }
});

test("a file too small to be one says how small, in bytes, against the smallest there is", () => {
  for (const n of [0, 5]) {
    throwsKind(() => ColumnsFile.fromBytes(new Uint8Array(n)), "truncated", (e) => assert.match(e.message, new RegExp(`^file is ${n} bytes; a columns file has at least 13 bytes$`)));
  }
});

test("toArray() keeps a string's leading U+FEFF: a value's bytes are its text, not a document with a byte order mark", async () => {
  const { buildFile, materialize } = await import("./synth.mjs");
  const values = ["\uFEFFbom first", "bom \uFEFF inside", "\uFEFF", "\uFEFF\uFEFFtwo", "plain"];
  const bytes = materialize(buildFile([{ name: "s", type: "string", nullable: false }], [{ offset: 5, columns: [values] }]));
  const [col] = ColumnsFile.fromBytes(bytes).readColumns();
  assert.deepEqual(col.toArray(), values);
});

test("a callback that throws when inspected (a Proxy whose traps throw, a revoked Proxy) is a bad_argument, not the Proxy's own error", async () => {
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const boom = new Error("trap");
  const trap = () => { throw boom; };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  for (const callback of [throwing, revocable.proxy]) {
    throwsKind(() => file.readRowGroupScoped(0, callback), "bad_argument", (e) => assert.match(e.message, /^readRowGroupScoped needs a callback function as its second argument; got an object$/));
    await rejectsKind(file.readRowGroupScopedAsync(0, callback), "bad_argument", (e) => assert.match(e.message, /^readRowGroupScopedAsync needs a callback function/));
    // Options too: described, not inspected into a raw error.
    throwsKind(() => file.readRowGroupScoped(0, () => {}, callback), "bad_argument");
  }
  assert.equal(file.readRowGroupScoped(1, ({ numRows }) => numRows), 9, "the file goes on working");
  file.free();
});

test("a callable source (a function with byteLength and slice(), or size and slice()) is read as any other; without slice() it is a bad_source that says so", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const asyncBuffer = Object.assign(function source() {}, { slice: (s, e) => bytes.slice(s, e) });
  Object.defineProperty(asyncBuffer, "byteLength", { value: bytes.length });
  const blobLike = Object.assign(function blob() {}, { size: bytes.length, slice: (s, e) => new Blob([bytes.slice(s, e)]) });
  for (const file of [await ColumnsFile.fromAsyncBuffer(asyncBuffer), await ColumnsFile.fromBlob(blobLike)]) {
    assert.equal(file.numRows, 1 + 9 + 64 + 1000);
    assert.deepEqual((await file.readColumnAsync(1, 0)).toArray(), expected.row_groups[1].values[0]);
    file.free();
  }
  const noSlice = function source() {};
  Object.defineProperty(noSlice, "byteLength", { value: bytes.length });
  await rejectsKind(ColumnsFile.fromAsyncBuffer(noSlice), "bad_source", (e) => assert.match(e.message, /^the source has no slice\(\) method \(slice is undefined\)$/));
  const notCallableSlice = Object.assign(function source() {}, { slice: 5 });
  Object.defineProperty(notCallableSlice, "byteLength", { value: bytes.length });
  await rejectsKind(ColumnsFile.fromAsyncBuffer(notCallableSlice), "bad_source", (e) => assert.match(e.message, /slice is the number 5/));
});

test("an index list's out_of_range says where: rowGroup or column is the index asked for, as readColumn's errors do; the message names the index that does not exist, and no place after it (it repeated the index)", async () => {
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const at = (rowGroup, column, re) => (e) => {
    assert.equal(e.rowGroup, rowGroup, "rowGroup");
    assert.equal(e.column, column, "column");
    assert.match(e.message, re);
  };
  throwsKind(() => file.readColumns([0, 99]), "out_of_range", at(99, null, /^row group 99 \(position 1 of the list\) does not exist; the file has 4$/));
  throwsKind(() => file.readColumns(null, [0, 7]), "out_of_range", at(null, 7, /^column 7 \(position 1 of the list\) does not exist; the file has 5$/));
  throwsKind(() => file.readColumns([0], [-1]), "out_of_range", at(null, null, /column -1 \(position 0/));
  throwsKind(() => file.readColumns([1.5]), "out_of_range", at(null, null, /row group 1\.5 \(position 0/));
  await rejectsKind(file.readColumnsAsync([4]), "out_of_range", at(4, null, /row group 4/));
  await rejectsKind(file.readColumnsAsync(null, [0, 0, 5]), "out_of_range", at(null, 5, /column 5 \(position 2/));
  throwsKind(() => file.readRowGroupScoped(1, () => {}, { columns: [0, 6] }), "out_of_range", at(null, 6, /column 6/));
  await rejectsKind(file.rowGroupsAsync({ rowGroups: [0, 9] }).next(), "out_of_range", at(9, null, /row group 9/));
  await rejectsKind(file.rowGroupsAsync({ columns: [8] }).next(), "out_of_range", at(null, 8, /column 8/));
  // One index, as before: both fields, the indexes asked for; the message names the one that does not exist, and no place after it.
  throwsKind(() => file.readColumn(9, 0), "out_of_range", at(9, 0, /^row group 9 does not exist; the file has 4$/));
  throwsKind(() => file.readColumn(0, 9), "out_of_range", at(0, 9, /^column 9 does not exist; the file has 5$/));
  throwsKind(() => file.inspectChunk(9, 9), "out_of_range", at(9, 9, /^row group 9 does not exist; the file has 4$/));
  throwsKind(() => file.readColumn(-1, 0), "out_of_range", at(null, 0, /^row group -1 does not exist; the file has 4$/));
  await rejectsKind(file.readColumnAsync(1, 5), "out_of_range", at(1, 5, /^column 5 does not exist; the file has 5$/));
  throwsKind(() => file.readRowGroupScoped(4, () => {}), "out_of_range", at(4, null, /^row group 4 does not exist; the file has 4$/));
  file.free();
});

test("a `this` that throws when inspected (a Proxy whose traps throw, a revoked Proxy, a file behind a Proxy that hides its pointer) is a bad_argument for every method and free(), never the Proxy's own error", async () => {
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const registry = new TokenizerRegistry();
  const trap = () => { throw new Error("trap"); };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const hiding = new Proxy(file, { get: (t, k) => (k === "__wbg_ptr" ? trap() : Reflect.get(t, k)) });
  for (const self of [throwing, revocable.proxy, hiding]) {
    throwsKind(() => ColumnsFile.prototype.readColumn.call(self, 0, 0), "bad_argument", (e) => assert.match(e.message, /^ColumnsFile methods need a ColumnsFile made by this package; this is an? \w+ that threw when read$/));
    throwsKind(() => ColumnsFile.prototype.free.call(self), "bad_argument");
    throwsKind(() => TokenizerRegistry.prototype.register.call(self, new Uint8Array(1)), "bad_argument");
    await rejectsKind(ColumnsFile.prototype.readColumnsAsync.call(self), "bad_argument");
  }
  // A freed file's second free() is still a no-op, and a foreign object one holding 0 is no file.
  const freed = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  freed.free();
  freed.free();
  throwsKind(() => ColumnsFile.prototype.free.call({ __wbg_ptr: 0 }), "bad_argument");
  assert.equal(file.readColumn(1, 0).length, 9, "the file goes on working");
  file.free();
  registry.free();
});

test("a value is described the same way by the module's messages and the JavaScript's (one describe): numbers by value, a promise told to be awaited, a class's name cut to 100 characters", () => {
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const said = (fn) => {
    try {
      fn();
    } catch (e) {
      return e.message.replace(/^.*; (got|this is) /, "");
    }
    assert.fail("no error");
  };
  class Huge {}
  Object.defineProperty(Huge, "name", { value: "H".repeat(1_000_000) });
  const promise = Promise.resolve(1);
  for (const [value, text] of [[5, "the number 5"], [1.5, "the number 1.5"], [true, "a boolean"], ["x", "a string"], [[], "an Array"], [promise, "a Promise (await it first)"], [new Huge(), `a ${"H".repeat(100)}`], [Object.create(null), "an object"]]) {
    // Rust's messages (readColumns' options, which must be an object;
    // readColumn's row group, which must be a number) and JavaScript's
    // (readRowGroupScoped's callback, which must be a function).
    const rust = typeof value === "object" ? () => file.readColumn(value, 0) : () => file.readColumns(null, null, value);
    assert.equal(said(rust), text, `module: ${text}`);
    assert.equal(said(() => file.readRowGroupScoped(0, value)), text, `readRowGroupScoped: ${text}`);
  }
  file.free();
});

test("a source's failure says where: offset is the first byte asked for, and a one-chunk read names its row group and column", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  let failing = false;
  const boom = new Error("network down");
  const source = { byteLength: bytes.length, slice: (s, e) => (failing === "reject" ? Promise.reject(boom) : failing === "short" ? bytes.slice(s, e - 1) : failing === "throw" ? (() => { throw boom; })() : bytes.slice(s, e)) };
  const file = await ColumnsFile.fromAsyncBuffer(source);
  const chunk = expected.row_groups[1].columns[2];
  const at = chunk.chunk_offset;
  for (const [how, kind] of [["reject", "bad_source"], ["throw", "bad_source"], ["short", "truncated"]]) {
    failing = how;
    await rejectsKind(file.readColumnAsync(1, 2), kind, (e) => assert.deepEqual([e.rowGroup, e.column, e.offset], [1, 2, at], how));
    // Several chunks in one request: the request's first byte, no one chunk.
    await rejectsKind(file.readColumnsAsync([1], [2, 3]), kind, (e) => assert.deepEqual([e.rowGroup, e.column, e.offset], [null, null, at], how));
  }
  failing = false;
  assert.equal((await file.readColumnAsync(1, 2)).length, expected.row_groups[1].num_rows);
  file.free();
});

test("the two sources mixed up (bytes to fromBlob, a Blob to fromAsyncBuffer): bad_source naming the method that takes them", async () => {
  const { bytes } = corpusFile("valid/nulls");
  for (const b of [bytes, bytes.buffer, new DataView(bytes.buffer)]) {
    await rejectsKind(ColumnsFile.fromBlob(b), "bad_source", (e) => assert.match(e.message, /fromBlob needs a Blob or File; bytes go to ColumnsFile\.fromBytes/));
  }
  await rejectsKind(ColumnsFile.fromAsyncBuffer(new Blob([bytes])), "bad_source", (e) => assert.match(e.message, /a Blob or File goes to ColumnsFile\.fromBlob/));
  // Each still opens what it takes.
  assert.equal((await ColumnsFile.fromBlob(new Blob([bytes]))).numRows, ColumnsFile.fromBytes(bytes).numRows);
});

test("an option name a method does not take (misspelt, or another method's) is a bad_argument naming it and the call, never ignored; every name it takes passes", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const named = (method, key, takes) => (e) => {
    assert.equal(e.message, `${method} has no option "${key}"; it takes ${takes}`);
    assert.ok(e instanceof ColumnsError);
  };
  const READ = "reuse, boolBits, signal";
  throwsKind(() => file.readColumn(0, 0, { resue: [] }), "bad_argument", named("readColumn", "resue", READ));
  throwsKind(() => file.readColumns(null, null, { columns: [0] }), "bad_argument", named("readColumns", "columns", READ));
  await rejectsKind(file.readColumnAsync(0, 0, { boolbits: true }), "bad_argument", named("readColumnAsync", "boolbits", READ));
  await rejectsKind(file.readColumnsAsync(null, null, { colums: [0] }), "bad_argument", named("readColumnsAsync", "colums", READ));
  await rejectsKind(file.inspectChunkAsync(0, 0, { reuse: [] }), "bad_argument", named("inspectChunkAsync", "reuse", "signal"));
  await rejectsKind(file.loadChunkHeaders({ signl: null }), "bad_argument", named("loadChunkHeaders", "signl", "signal"));
  throwsKind(() => file.readRowGroupScoped(0, () => {}, { column: [0] }), "bad_argument", named("readRowGroupScoped", "column", "columns"));
  await rejectsKind(file.readRowGroupScopedAsync(0, () => {}, { columns: [0], scoped: true }), "bad_argument", named("readRowGroupScopedAsync", "scoped", "columns, signal"));
  const STREAM = "rowGroups, columns, readAhead, boolBits, scoped, reuse, signal";
  await rejectsKind(file.rowGroupsAsync({ readahead: 1 }).next(), "bad_argument", named("rowGroupsAsync", "readahead", STREAM));
  await rejectsKind(file.rowGroupsAsync({ scoped: true, rowGroup: [0] }).next(), "bad_argument", named("rowGroupsAsync", "rowGroup", STREAM));
  await rejectsKind(ColumnsFile.fromBlob(new Blob([bytes]), null, { singal: null }), "bad_argument", named("ColumnsFile.fromBlob", "singal", "signal"));
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: (s, e) => bytes.slice(s, e) }, null, { limit: 5 }), "bad_argument", named("ColumnsFile.fromAsyncBuffer", "limit", "signal"));
  // Left undefined, the name is still wrong; a key past 100 characters is cut.
  throwsKind(() => file.readColumns(null, null, { signal: undefined, boolBit: undefined }), "bad_argument", named("readColumns", "boolBit", READ));
  throwsKind(() => file.readColumns(null, null, { ["k".repeat(500)]: 1 }), "bad_argument", named("readColumns", "k".repeat(100), READ));
  // Options whose keys cannot be listed: a bad_argument with the cause.
  const boom = new Error("ownKeys");
  throwsKind(() => file.readColumns(null, null, new Proxy({}, { ownKeys: () => { throw boom; } })), "bad_argument", (e) => assert.equal(e.cause, boom));
  // Every name each takes, together, passes.
  const signal = new AbortController().signal;
  const all = { reuse: [], boolBits: true, signal };
  assert.equal(file.readColumn(0, 0, all).length, 1);
  assert.equal(file.readColumns([0], [0], all).length, 1);
  assert.equal((await file.readColumnAsync(0, 0, all)).length, 1);
  assert.equal((await file.readColumnsAsync([0], [0], all)).length, 1);
  assert.equal((await file.inspectChunkAsync(0, 0, { signal })).rowGroup ?? 0, 0);
  await file.loadChunkHeaders({ signal });
  assert.equal(file.readRowGroupScoped(0, ({ numRows }) => numRows, { columns: [0] }), 1);
  assert.equal(await file.readRowGroupScopedAsync(0, ({ numRows }) => numRows, { columns: [0], signal }), 1);
  for (const scoped of [false, true]) {
    const step = await file.rowGroupsAsync({ rowGroups: [0], columns: [0], readAhead: 1 << 20, boolBits: false, scoped, reuse: null, signal }).next();
    assert.equal(step.value.numRows, 1);
  }
  assert.equal((await ColumnsFile.fromBlob(new Blob([bytes]), null, { signal })).numRows, file.numRows);
  file.free();
});

test("the classes only a read makes (Column, ScopedColumn) refuse `new`, and their methods refuse another `this` (null, a plain object, a Proxy that throws), each a bad_argument, not an empty column or a TypeError", async () => {
  const { Column, ScopedColumn } = loadApi();
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  throwsKind(() => new Column(), "bad_argument", (e) => assert.equal(e.message, "Column methods need a Column made by this package, not by new Column()"));
  throwsKind(() => new Column("int32", 1, 0, new Int32Array(1), null), "bad_argument");
  throwsKind(() => new ScopedColumn(), "bad_argument", (e) => assert.equal(e.message, "ScopedColumn methods need a ScopedColumn made by this package, not by new ScopedColumn()"));
  throwsKind(() => new ScopedColumn({ live: true }, ["int32", 1, 0]), "bad_argument");
  const trap = () => { throw new Error("trap"); };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap });
  const column = file.readColumn(0, 0);
  for (const self of [null, undefined, {}, 5, throwing, { values: new Int32Array(1), length: 1, validity: null }]) {
    for (const method of ["isValid", "toArray", "boolBitmap", "pin"]) {
      throwsKind(() => Column.prototype[method].call(self, 0), "bad_argument", (e) => assert.match(e.message, /^Column methods need a Column made by this package; this is /, method));
    }
    for (const key of ["values", "validity", "released"]) {
      throwsKind(() => Object.getOwnPropertyDescriptor(ScopedColumn.prototype, key).get.call(self), "bad_argument", (e) => assert.match(e.message, /^ScopedColumn methods need a ScopedColumn made by this package; this is /, key));
    }
    throwsKind(() => ScopedColumn.prototype.copy.call(self), "bad_argument");
  }
  // A Column is not a ScopedColumn; the methods they share take both.
  throwsKind(() => ScopedColumn.prototype.copy.call(column), "bad_argument", (e) => assert.match(e.message, /this is a Column$/));
  assert.equal(Column.prototype.isValid.call(column, 0), column.isValid(0));
  file.readRowGroupScoped(0, ({ columns: [lent] }) => {
    assert.deepEqual(Column.prototype.toArray.call(lent), column.toArray());
    assert.equal(ScopedColumn.prototype.isValid.call(lent, 0), column.isValid(0));
    assert.equal(lent.released, false);
  }, { columns: [0] });
  assert.equal(column.pin(), column);
  file.free();
});

test("a column only looking like one (Object.create(Column.prototype), a plain object given Column's prototype) is no Column: its methods and a read's reuse refuse it, and Column has no static that makes one from the caller's buffers", () => {
  const { Column } = loadApi();
  const file = ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const real = file.readColumn(0, 0);
  const mine = new Int32Array(real.length).fill(-1);
  const fakes = [Object.create(Column.prototype), Object.setPrototypeOf({ type: real.type, length: real.length, nullCount: 0, values: mine, validity: null, boolBits: false }, Column.prototype)];
  for (const fake of fakes) {
    for (const method of ["isValid", "toArray", "pin"]) throwsKind(() => fake[method](0), "bad_argument", (e) => assert.match(e.message, /^Column methods need a Column made by this package/, method));
    throwsKind(() => file.readColumn(0, 0, { reuse: fake }), "bad_argument", (e) => assert.match(e.message, /reuse must be a Column/));
  }
  assert.ok(mine.every((v) => v === -1), "the caller's array untouched");
  for (const name of ["fromParts", "fromViews"]) assert.equal(Column[name], undefined, name);
  file.free();
});

test("a chunk whose decoded values pass 2 GiB is too_large, and says why: one allocation's limit in wasm, not a machine out of memory", () => {
  // In wasm32 one allocation holds at most isize::MAX (2^31 - 1) bytes, and
  // a chunk's values are one: 300,000,000 int64s (2.4 GB), or 2,100 strings
  // of 1 MiB (2.2 GB of string data). Refused before any memory is taken.
  const limit = /: more than one allocation may hold \(2 GiB in wasm\)/;
  const ints = ColumnsFile.fromBytes(constantDictFile([{ name: "v", type: "int64", value: 7 }], [300_000_000]));
  throwsKind(() => ints.readColumn(0, 0), "too_large", (e) => {
    assert.match(e.message, /cannot allocate 300000000 elements of 8 bytes for column values/);
    assert.match(e.message, limit);
  });
  const value = "x".repeat(1 << 20);
  const strings = ColumnsFile.fromBytes(constantDictFile([{ name: "s", type: "string", value }], [2100]));
  throwsKind(() => strings.readColumn(0, 0), "too_large", (e) => {
    assert.match(e.message, /cannot allocate 22020096\d\d elements of 1 bytes for string data/); // (and a decoder's slack)
    assert.match(e.message, limit);
  });
});
