// Errors at the API's edges: every failure is a ColumnsError with a kind,
// including arguments out of range, sources that fail, and tails that claim
// an absurd footer.

import { test } from "node:test";
import assert from "node:assert/strict";
import { corpusFile, loadApi } from "./corpus.mjs";

const { ColumnsFile, TokenizerRegistry } = loadApi();

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
  let calls = 0;
  // Opening a version 1 file reads the head probe, the tail, then the footer.
  const later = { byteLength: bytes.length, slice: (s, e) => (++calls > 3 ? Promise.reject(boom) : bytes.slice(s, e)) };
  const file = await ColumnsFile.fromAsyncBuffer(later);
  await rejectsKind(file.readColumnAsync(0, 0), "bad_source");
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length }), "bad_source", (e) => assert.match(e.message, /slice\(\)/));
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: () => "nope" }), "bad_source");
  await rejectsKind(ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice: () => new Uint8Array(3) }), "truncated");
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
