// (f) Wasm memory does not keep growing across repeated reads of the same
// file, watched through the package's own wasmMemory() accessor.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusFile, loadApi } from "./corpus.mjs";

const { ColumnsFile, TokenizerRegistry, wasmMemory } = loadApi();
const memory = wasmMemory();
const size = () => memory.buffer.byteLength;

const ROUNDS = 30;
const WARMUP = 3;

/** Runs `round` ROUNDS times; after WARMUP rounds the memory size must not change. */
async function steady(what, round) {
  const sizes = [];
  for (let i = 0; i < ROUNDS; i++) {
    await round(i);
    sizes.push(size());
  }
  const settled = sizes.slice(WARMUP - 1);
  assert.ok(settled.every((s) => s === settled[0]), `${what}: memory grew after warm-up: ${sizes.map((s) => s >> 10).join(" ")} KiB`);
  return sizes;
}

test("the package's wasm memory was found", () => {
  assert.ok(memory instanceof WebAssembly.Memory, "wasmMemory() returns the instance's memory");
  assert.ok(size() > 0);
});

test("diamonds is read correctly before measuring", async () => {
  const f = corpusFile("real/diamonds.default");
  assert.equal(await checkFile({ ColumnsFile, TokenizerRegistry, ...f }), null);
});

test("reading every column of diamonds 30 times from one open file: memory stays flat", async () => {
  const { bytes, expected } = corpusFile("real/diamonds.default");
  const file = ColumnsFile.fromBytes(bytes);
  const rows = expected.row_groups[0].num_rows;
  await steady("readColumns", () => {
    const cols = file.readColumns();
    assert.equal(cols.length, expected.schema.length);
    for (const c of cols) assert.equal(c.length, rows);
  });
  await steady("readColumn each", () => {
    for (let c = 0; c < expected.schema.length; c++) file.readColumn(0, c);
  });
  file.free();
});

test("opening diamonds from bytes and freeing it, 30 times: memory stays flat", async () => {
  const { bytes } = corpusFile("real/diamonds.default");
  await steady("fromBytes + readColumns + free", () => {
    const file = ColumnsFile.fromBytes(bytes);
    file.readColumns();
    file.free();
  });
});

test("async reads of every column of diamonds 30 times: memory stays flat", async () => {
  const { bytes } = corpusFile("real/diamonds.optimized");
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes));
  await steady("readColumnsAsync", async () => {
    await file.readColumnsAsync();
  });
  await steady("readColumnAsync each", async () => {
    for (let c = 0; c < file.schema.length; c++) await file.readColumnAsync(0, c);
  });
  file.free();
});

test("failing reads do not leak either", async () => {
  const { bytes } = corpusFile("invalid/chunk_raw_length_bomb");
  const file = ColumnsFile.fromBytes(bytes);
  await steady("failing readColumn", () => {
    assert.throws(() => file.readColumn(0, 0), (e) => e.kind === "corrupt_chunk");
  });
  file.free();
  const t = corpusFile("valid/tokenized_two_tokenizers");
  await steady("unknown_tokenizer", () => {
    const f = ColumnsFile.fromBytes(t.bytes);
    assert.throws(() => f.readColumn(0, 0), (e) => e.kind === "unknown_tokenizer");
    f.free();
  });
});
