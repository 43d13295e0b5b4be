// The scoped read (readRowGroupScoped, readRowGroupScopedAsync): exact
// values from views of the reader's own buffers, nothing copied; views that
// fail loudly once their callback has returned; the callback's throws,
// promises and calls back into the package; and memory that stays put.

import { test } from "node:test";
import assert from "node:assert/strict";
import { columnJson, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusDir, findPairs, loadApi, loadTokenizers, readPair, tokenizerDir, corpusFile } from "./corpus.mjs";

const api = loadApi();
const { ColumnsFile, ColumnsError, ScopedColumn, TokenizerRegistry, wasmMemory } = api;
const memory = wasmMemory();
const tokenizers = loadTokenizers(api, tokenizerDir);
const registry = new TokenizerRegistry();
for (const t of tokenizers) registry.register(t);

/** Corpus files that open and read without error. */
const readable = findPairs(corpusDir)
  .pairs.map(readPair)
  .filter(({ expected }) => !expected.error);

const isReleased = (e) => e instanceof ColumnsError && e.kind === "released";

test("every readable corpus file, row group by row group: the lent columns hold exactly the corpus values", () => {
  let checked = 0;
  for (const { bytes, expected, name } of readable) {
    const file = ColumnsFile.fromBytes(bytes, registry);
    (expected.row_groups ?? []).forEach((rg, g) => {
      const got = file.readRowGroupScoped(g, ({ rowGroup, numRows, columns }) => {
        assert.equal(rowGroup, g);
        assert.equal(numRows, rg.num_rows);
        return columns.map((col, c) => {
          assert.ok(col instanceof ScopedColumn);
          // The views are of the module's memory: nothing was copied out.
          const v = col.values;
          for (const a of ArrayBuffer.isView(v) ? [v] : [v.offsets, v.data]) assert.equal(a.buffer, memory.buffer, `${name} ${g}/${c}`);
          return columnJson(col, expected.schema[c].type, `${name} rg ${g} col ${c}`);
        });
      });
      assert.deepEqual(got, rg.values, `${name} rg ${g}`);
      checked += got.length;
    });
    file.free();
  }
  assert.ok(checked > 300, `only ${checked} columns checked`);
});

test("options.columns: the columns asked for, in that order, repeats included", () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const cols = [3, 0, 3];
  const got = file.readRowGroupScoped(2, ({ columns }) => columns.map((col, j) => columnJson(col, expected.schema[cols[j]].type)), { columns: cols });
  assert.deepEqual(got, cols.map((c) => expected.row_groups[2].values[c]));
  assert.deepEqual(file.readRowGroupScoped(2, ({ columns }) => columns.length, { columns: [] }), 0);
  file.free();
});

test("a lent column used after its callback returned fails loudly: getters throw `released`, kept arrays are detached", () => {
  const { bytes, expected } = corpusFile("real/movielens.default");
  const file = ColumnsFile.fromBytes(bytes);
  let col, values, validity, copy;
  file.readRowGroupScoped(0, ({ columns }) => {
    col = columns[1]; // string, with nulls
    values = col.values;
    validity = col.validity;
    copy = col.copy();
    assert.ok(values.data.length > 0 && values.offsets.length === 65537 && validity.length === 8192);
    assert.equal(col.released, false);
  });
  assert.equal(col.released, true);
  for (const get of [() => col.values, () => col.validity, () => col.toArray(), () => col.isValid(0), () => col.copy()]) {
    assert.throws(get, isReleased);
  }
  // The arrays taken inside the callback: detached, not showing other data.
  for (const a of [values.offsets, values.data, validity]) {
    assert.equal(a.length, 0, "a view kept past its callback still has a length");
    assert.equal(a.buffer.byteLength, 0);
    assert.equal(a[0], undefined);
    assert.throws(() => a.subarray(0, 1), TypeError);
    assert.throws(() => a.slice(), TypeError);
  }
  // ... and the next read, into the same buffers, is unaffected by them.
  file.readRowGroupScoped(1, ({ columns }) => assert.deepEqual(columnJson(columns[1], "string"), expected.row_groups[1].values[1]));
  // copy() made a Column of its own, which outlives the scope.
  assert.ok(copy instanceof api.Column);
  assert.deepEqual(columnJson(copy, "string"), expected.row_groups[0].values[1]);
  file.free();
});

test("the package keeps working after views were detached (its own cached views are remade)", () => {
  const { bytes, expected } = corpusFile("valid/all_types_small");
  const file = ColumnsFile.fromBytes(bytes);
  const before = memory.buffer;
  file.readRowGroupScoped(0, () => {});
  assert.notEqual(memory.buffer, before, "the scope's end replaced the memory's ArrayBuffer");
  assert.equal(before.byteLength, 0);
  // Reads that pass strings, numbers and arrays through wasm-bindgen's views.
  const reg = new TokenizerRegistry();
  reg.register(tokenizers[0]);
  assert.equal(reg.digests().length, 1);
  assert.equal(file.schema.length, expected.schema.length);
  assert.throws(() => file.readColumn(99, 0), (e) => e.kind === "out_of_range" && /99/.test(e.message));
  file.readColumns().forEach((col, k) => {
    const n = expected.schema.length;
    assert.deepEqual(columnJson(col, expected.schema[k % n].type), expected.row_groups[Math.floor(k / n)].values[k % n]);
  });
  reg.free();
  file.free();
});

test("the callback's result is returned; a throw ends the scope and propagates as it was", () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  assert.equal(file.readRowGroupScoped(1, ({ numRows }) => numRows * 2), 18);
  const mine = new Error("mine");
  let col;
  assert.throws(
    () =>
      file.readRowGroupScoped(1, ({ columns }) => {
        col = columns[0];
        throw mine;
      }),
    (e) => e === mine,
  );
  assert.throws(() => col.values, isReleased);
  // The file is not left busy.
  assert.equal(file.readRowGroupScoped(1, ({ columns }) => columns.length), 5);
  file.free();
});

test("a callback that returns a promise is refused (its columns were released when it returned)", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  let col;
  assert.throws(
    () =>
      file.readRowGroupScoped(0, async ({ columns }) => {
        col = columns[0];
      }),
    (e) => e instanceof ColumnsError && e.kind === "bad_argument" && /readRowGroupScopedAsync/.test(e.message),
  );
  assert.throws(() => col.values, isReleased);
  assert.equal(file.readRowGroupScoped(0, () => 7), 7);
  file.free();
});

test("re-entrancy: a second scoped read of the same file inside the callback is refused (`busy`); other files and reads work", () => {
  const a = corpusFile("real/movielens.default");
  const b = corpusFile("valid/all_types_small");
  const fa = ColumnsFile.fromBytes(a.bytes);
  const fb = ColumnsFile.fromBytes(b.bytes);
  fa.readRowGroupScoped(1, ({ columns }) => {
    const kept = columns[3].values.data;
    assert.ok(kept.length > 0);
    assert.throws(() => fa.readRowGroupScoped(0, () => {}), (e) => e instanceof ColumnsError && e.kind === "busy");
    // A copying read of the same file, and a scoped read of another.
    assert.deepEqual(columnJson(fa.readColumn(0, 3), "string"), a.expected.row_groups[0].values[3]);
    fb.readRowGroupScoped(0, ({ columns: inner }) => assert.deepEqual(columnJson(inner[0], b.expected.schema[0].type), b.expected.row_groups[0].values[0]));
    // The inner scope's end detached every view, this scope's too; the
    // column makes new ones, over the unchanged buffers.
    assert.equal(kept.length, 0);
    assert.deepEqual(columnJson(columns[3], "string"), a.expected.row_groups[1].values[3]);
  });
  fa.free();
  fb.free();
});

test("free() inside the callback takes effect when it returns", () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  file.readRowGroupScoped(3, ({ columns }) => {
    file.free();
    assert.throws(() => file.numRows, (e) => e.kind === "freed");
    // The lent columns still show the values (their memory is not freed yet).
    assert.deepEqual(columnJson(columns[1], "string"), expected.row_groups[3].values[1]);
  });
  assert.equal(file.__wbg_ptr, 0, "freed once the callback returned");
  assert.throws(() => file.readRowGroupScoped(0, () => {}), (e) => e.kind === "freed");
  file.free(); // a second free does nothing
});

test("bad calls are ColumnsErrors naming what is wrong", () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const kind = (k, re) => (e) => e instanceof ColumnsError && e.kind === k && re.test(e.message);
  assert.throws(() => file.readRowGroupScoped(0), kind("bad_argument", /callback/));
  assert.throws(() => file.readRowGroupScoped(0, () => {}, 5), kind("bad_argument", /options/));
  assert.throws(() => file.readRowGroupScoped(4, () => {}), kind("out_of_range", /row group 4/));
  assert.throws(() => file.readRowGroupScoped(0, () => {}, { columns: [0, 6] }), kind("out_of_range", /column 6/));
  assert.throws(() => file.readRowGroupScoped("0", () => {}), kind("bad_argument", /row group/));
  file.free();
});

test("a tokenized column whose tokenizer is missing fails the read with unknown_tokenizer, and the file is not left busy", () => {
  const { bytes, expected } = corpusFile("valid/tokenized_raw_counts");
  const file = ColumnsFile.fromBytes(bytes);
  assert.throws(() => file.readRowGroupScoped(0, () => {}), (e) => e.kind === "unknown_tokenizer" && e.column === 1);
  assert.deepEqual(file.readRowGroupScoped(0, ({ columns }) => columnJson(columns[0], "int32"), { columns: [0] }), expected.row_groups[0].values[0]);
  file.free();
});

test("not from bytes: readRowGroupScoped is not_in_memory; readRowGroupScopedAsync reads Blob and AsyncBuffer files exactly", async () => {
  const { bytes, expected } = corpusFile("real/movielens.tokenized");
  for (const file of [await ColumnsFile.fromBlob(new Blob([bytes]), registry), await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes), registry)]) {
    assert.throws(() => file.readRowGroupScoped(0, () => {}), (e) => e.kind === "not_in_memory");
    for (let g = 0; g < expected.row_groups.length; g++) {
      const got = await file.readRowGroupScopedAsync(g, ({ columns }) => columns.map((col, c) => columnJson(col, expected.schema[c].type)));
      assert.deepEqual(got, expected.row_groups[g].values);
    }
    file.free();
  }
});

test("readRowGroupScopedAsync waits for the callback's promise before releasing, and runs calls on one file one after another", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes));
  const order = [];
  const cols = [];
  const results = await Promise.all(
    [3, 2, 1].map((g) =>
      file.readRowGroupScopedAsync(g, async ({ rowGroup, columns }) => {
        order.push(`start ${rowGroup}`);
        await new Promise((r) => setTimeout(r, 5));
        cols.push(columns[1]);
        order.push(`end ${rowGroup}`);
        return columnJson(columns[1], "string");
      }),
    ),
  );
  assert.deepEqual(order, ["start 3", "end 3", "start 2", "end 2", "start 1", "end 1"]);
  assert.deepEqual(results, [3, 2, 1].map((g) => expected.row_groups[g].values[1]));
  for (const c of cols) assert.throws(() => c.values, isReleased);
  // A rejected promise releases too, and rejects the read with its reason.
  await assert.rejects(file.readRowGroupScopedAsync(0, async () => Promise.reject(new Error("no"))), /no/);
  assert.equal(await file.readRowGroupScopedAsync(0, ({ numRows }) => numRows), 1);
  const signal = AbortSignal.abort(new Error("stop"));
  await assert.rejects(file.readRowGroupScopedAsync(0, () => {}, { signal }), (e) => e.kind === "aborted");
  file.free();
});

test("readRowGroupScopedAsync waiting behind a read that never ends still answers its own signal at once, and the queue keeps its order", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  let stall = false;
  let release;
  const stalled = new Promise((r) => (release = r));
  const file = await ColumnsFile.fromAsyncBuffer({
    byteLength: bytes.length,
    slice: (s, e) => (stall ? stalled.then(() => bytes.subarray(s, e)) : bytes.subarray(s, e)),
  });
  stall = true;
  const first = file.readRowGroupScopedAsync(0, ({ numRows }) => numRows);
  await new Promise((r) => setTimeout(r, 10));
  stall = false;
  const aborted = (e) => e instanceof ColumnsError && e.kind === "aborted" && e.cause?.message === "stop";
  // Aborted before the call, and while queued.
  await assert.rejects(file.readRowGroupScopedAsync(1, () => 1, { signal: AbortSignal.abort(new Error("stop")) }), aborted);
  const controller = new AbortController();
  const queued = file.readRowGroupScopedAsync(1, () => 1, { signal: controller.signal });
  const after = file.readRowGroupScopedAsync(2, ({ rowGroup }) => rowGroup);
  controller.abort(new Error("stop"));
  await assert.rejects(queued, aborted);
  // The call queued after the aborted one still waits for the first.
  let afterDone = false;
  after.then(() => (afterDone = true));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(afterDone, false);
  release();
  assert.equal(await first, expected.row_groups[0].values[0].length);
  assert.equal(await after, 2);
  file.free();
});

test("after the first call a scoped read takes no new memory: wasm memory stays the same size, Plain buffers stay where they are", () => {
  // Two row groups of 600 rows; every fixed-width column Plain/Flate (with
  // nulls in every other one): decoded straight into the kept buffers.
  const { bytes, expected } = corpusFile("valid/enc_plain_flate");
  const file = ColumnsFile.fromBytes(bytes);
  const fixed = expected.schema.map((s, c) => (s.type === "string" || s.type === "bytes" ? -1 : c)).filter((c) => c >= 0);
  assert.ok(fixed.length >= 10 && fixed.some((c) => expected.schema[c].nullable));
  const where = (g) =>
    file.readRowGroupScoped(g, ({ columns }) => {
      columns.forEach((col, c) => assert.deepEqual(columnJson(col, expected.schema[c].type), expected.row_groups[g].values[c]));
      return fixed.map((c) => [columns[c].values.byteOffset, columns[c].validity?.byteOffset]);
    });
  where(0);
  where(1);
  const size = memory.buffer.byteLength;
  const first = where(0);
  for (let i = 0; i < 200; i++) assert.deepEqual(where(i % 2), first, `call ${i}: a Plain column's buffer moved`);
  assert.equal(memory.buffer.byteLength, size, "wasm memory grew");
  file.free();
});
