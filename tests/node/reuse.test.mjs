// Reads with { reuse }: columns handed back give their buffers to the next
// read, which must still produce exactly the corpus values, must really
// refill those buffers, and must leave the handed-back columns unusable.

import { test } from "node:test";
import assert from "node:assert/strict";
import { columnJson, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusFile, loadApi } from "./corpus.mjs";

const { ColumnsFile, wasmMemory } = loadApi();

/** Every column of every row group against the corpus JSON. */
function assertExact(file, expected, cols, where) {
  const n = expected.schema.length;
  cols.forEach((col, k) => {
    const g = Math.floor(k / n), c = k % n;
    const got = columnJson(col, expected.schema[c].type, `${where} rg ${g} col ${c}`);
    assert.deepEqual(got, expected.row_groups[g].values[c], `${where} rg ${g} col ${c}`);
  });
}

// Empty buffers hold no memory and are not recycled.
const buffersOf = (cols) => cols.flatMap((col) => {
  const v = col.values;
  return [...(ArrayBuffer.isView(v) ? [v] : [v.offsets, v.data]), ...(col.validity ? [col.validity] : [])].map((a) => a.buffer);
}).filter((b) => b.byteLength > 0);

for (const name of ["valid/all_types_small", "valid/nulls", "valid/enc_affix_flate", "real/diamonds.default"]) {
  test(`${name}: reading again with reuse gives exact values in the same buffers`, () => {
    const { bytes, expected } = corpusFile(name);
    const file = ColumnsFile.fromBytes(bytes);
    const first = file.readColumns();
    assertExact(file, expected, first, "first read");
    const before = buffersOf(first);
    const second = file.readColumns(null, null, { reuse: first });
    assertExact(file, expected, second, "read with reuse");
    const after = new Set(buffersOf(second));
    // Same file, same sizes: every buffer is found again, none is new.
    assert.equal(after.size, new Set(before).size);
    for (const b of before) assert.ok(after.has(b), "a handed-back buffer was not refilled");
    file.free();
  });
}

test("handed-back columns are emptied and refuse to be read", () => {
  const { bytes } = corpusFile("valid/all_types_small");
  const file = ColumnsFile.fromBytes(bytes);
  const old = file.readColumn(0, 0);
  assert.ok(old.length > 0);
  file.readColumn(0, 0, { reuse: old });
  assert.equal(old.values, null);
  assert.equal(old.validity, null);
  assert.throws(() => old.toArray(), /handed back/);
  assert.throws(() => old.isValid(0), /handed back/);
  file.free();
});

test("a buffer too small for the new column is not used; a larger one is, with exact lengths", () => {
  const { bytes, expected } = corpusFile("real/diamonds.default");
  const file = ColumnsFile.fromBytes(bytes);
  const types = expected.schema.map((s) => s.type);
  const big = types.findIndex((t) => t === "float64");
  const small = types.indexOf("int32");
  assert.ok(big >= 0 && small >= 0, "diamonds has a float64 and an int32 column");
  // Narrow into wide: the float64 buffer is big enough and gets reused.
  const wide = file.readColumn(0, big);
  const wideBuffer = wide.values.buffer;
  const narrow = file.readColumn(0, small, { reuse: wide });
  assert.equal(narrow.values.buffer, wideBuffer);
  assert.equal(narrow.values.length, narrow.length);
  assert.deepEqual(columnJson(narrow, types[small]), expected.row_groups[0].values[small]);
  // Wide from narrow: too small, so a fresh buffer.
  const narrowBuffer = narrow.values.buffer;
  const wideAgain = file.readColumn(0, big, { reuse: file.readColumn(0, small) });
  assert.notEqual(wideAgain.values.buffer, narrowBuffer);
  assert.deepEqual(columnJson(wideAgain, "float64"), expected.row_groups[0].values[big]);
  file.free();
});

test("only buffers the package made are refilled: never a caller's array or the wasm memory", () => {
  const { bytes, expected } = corpusFile("valid/all_types_small");
  const file = ColumnsFile.fromBytes(bytes);
  const col = file.readColumn(0, 0);
  const mine = new Uint8Array(1 << 16).fill(7);
  const memoryView = new Uint8Array(wasmMemory().buffer, 0, 1 << 16);
  // A column object whose arrays the caller (or the module) owns.
  col.values = mine;
  col.validity = memoryView;
  const fresh = file.readColumn(0, 0, { reuse: col });
  assert.ok(mine.every((b) => b === 7), "the caller's array was written");
  assert.notEqual(fresh.values.buffer, mine.buffer);
  assert.notEqual(fresh.values.buffer, wasmMemory().buffer);
  assert.deepEqual(columnJson(fresh, expected.schema[0].type), expected.row_groups[0].values[0]);
  file.free();
});

test("async reads take reuse too, and release the columns at the call", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes));
  const first = await file.readColumnsAsync();
  const before = new Set(buffersOf(first));
  const pending = file.readColumnsAsync(null, null, { reuse: first });
  assert.ok(first.every((c) => c.values === null), "handed-back columns are emptied before the read resolves");
  const second = await pending;
  assertExact(file, expected, second, "async read with reuse");
  for (const b of buffersOf(second)) assert.ok(before.has(b));
  const one = await file.readColumnAsync(0, 2, { reuse: second[2] });
  assert.deepEqual(columnJson(one, expected.schema[2].type), expected.row_groups[0].values[2]);
  file.free();
});

test("a column whose buffers were transferred away is handed back harmlessly", () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const col = file.readColumn(0, 2);
  // Detach its buffers, as postMessage(..., [buffer]) would.
  for (const b of new Set(buffersOf([col]))) structuredClone(b, { transfer: [b] });
  const fresh = file.readColumn(0, 2, { reuse: col });
  assert.deepEqual(columnJson(fresh, expected.schema[2].type), expected.row_groups[0].values[2]);
  file.free();
});

test("random reads handing back random earlier columns, across files and types, stay exact", () => {
  // A seeded walk: each step reads one chunk of one of several files and
  // hands back a random subset of the columns still held (any file, any
  // type), so buffers of every size meet requests of every size.
  const names = ["valid/all_types_small", "valid/nulls", "valid/enc_dict_flate", "valid/enc_affix_gzip", "real/diamonds.default"];
  const files = names.map((name) => {
    const { bytes, expected } = corpusFile(name);
    return { name, file: ColumnsFile.fromBytes(bytes), expected };
  });
  let seed = 20261130;
  const rand = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  let held = [];
  for (let step = 0; step < 400; step++) {
    const f = files[rand(files.length)];
    const g = rand(f.expected.row_groups.length), c = rand(f.expected.schema.length);
    const give = held.filter(() => rand(3) === 0);
    held = held.filter((h) => !give.includes(h));
    const col = f.file.readColumn(g, c, { reuse: give.map((h) => h.col) });
    for (const h of give) assert.equal(h.col.values, null, "a handed-back column is emptied");
    held.push({ col, f, g, c });
    // Every column still held keeps its own values, whatever was refilled.
    if (step % 50 === 49 || step === 399) {
      for (const h of held) {
        assert.deepEqual(columnJson(h.col, h.f.expected.schema[h.c].type), h.f.expected.row_groups[h.g].values[h.c], `${h.f.name} rg ${h.g} col ${h.c} at step ${step}`);
      }
    }
  }
  for (const f of files) f.file.free();
});

test("options absent as undefined or null are accepted; a refused reuse takes nothing back", () => {
  const { bytes, expected } = corpusFile("valid/all_types_small");
  const file = ColumnsFile.fromBytes(bytes);
  for (const o of [{ reuse: undefined, boolBits: undefined, signal: undefined }, { reuse: null, boolBits: null, signal: null }]) {
    assertExact(file, expected, file.readColumns(null, null, o), JSON.stringify(o));
  }
  // Every element is checked before any buffer is taken: the good column
  // in a list with a bad one keeps its values.
  const keep = file.readColumn(0, 0);
  const before = keep.values;
  assert.throws(() => file.readColumns(null, null, { reuse: [keep, "x"] }), (e) => e.kind === "bad_argument" && /options\.reuse/.test(e.message));
  assert.equal(keep.values, before);
  assert.throws(() => file.readColumn(0, 0, { boolBits: 1 }), (e) => e.kind === "bad_argument" && /options\.boolBits/.test(e.message));
  file.free();
});
