// The zero-copy claim, checked where a copy would hide: a Table's buffers
// are the very arrays the read produced, and a write into a column's
// memory shows through its Arrow vector.

import test from "node:test";
import assert from "node:assert/strict";
import { adapter, api, corpusFile, duplicateNamesFile } from "./support.mjs";
import { buildFile, sparseAsyncBuffer } from "../node/synth.mjs";

const { toArrowTable, toArrowTableAsync, toArrowVector, uniqueNames } = adapter;
const { ColumnsError } = api;

/** A file that records the columns its reads return. */
function spied(file) {
  const columns = [];
  return {
    columns,
    schema: file.schema,
    rowGroups: file.rowGroups,
    readColumns(g, c, o) {
      const out = file.readColumns(g, c, o);
      columns.push(...out);
      return out;
    },
  };
}

function sameMemory(a, b) {
  return a.buffer === b.buffer && a.byteOffset === b.byteOffset;
}

/** Every buffer of every Data in the table is one the read produced. */
function assertTableShares(table, columns, width) {
  let checked = 0;
  table.batches.forEach((batch, r) => {
    batch.data.children.forEach((d, k) => {
      const col = columns[r * width + k];
      if (col.type === "string" || col.type === "bytes") {
        assert.ok(sameMemory(d.values, col.values.data), "string data");
        assert.ok(sameMemory(d.valueOffsets, col.values.offsets), "string offsets");
      } else {
        // Bools too: toArrowTable reads them packed, so they are shared.
        assert.equal(col.type === "bool", col.boolBits, "bools are read packed");
        assert.ok(sameMemory(d.values, col.values), `${col.type} values`);
      }
      if (col.validity) assert.ok(sameMemory(d.nullBitmap, col.validity), "validity");
      checked++;
    });
  });
  return checked;
}

test("toArrowTable: every buffer of the table is the read's own array", () => {
  for (const name of ["valid/all_types_small", "valid/nulls", "valid/optimized", "real/diamonds.default"]) {
    const file = api.ColumnsFile.fromBytes(corpusFile(name).bytes);
    const spy = spied(file);
    const table = toArrowTable(spy);
    const width = file.schema.length;
    assert.equal(spy.columns.length, file.rowGroups.length * width);
    assert.equal(assertTableShares(table, spy.columns, width), spy.columns.length, name);
  }
});

test("toArrowTable: a selection (row groups in any order, columns by index and name) shares too", () => {
  const file = api.ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  const spy = spied(file);
  const names = file.schema.map((c) => c.name);
  const table = toArrowTable(spy, { rowGroups: [3, 1], columns: [4, names[1]] });
  assert.deepEqual(table.schema.fields.map((f) => f.name), [names[4], names[1]]);
  assert.equal(table.numRows, file.rowGroups[3].numRows + file.rowGroups[1].numRows);
  assert.equal(assertTableShares(table, spy.columns, 2), 4);
  // And the values are those row groups', in that order.
  const want = [3, 1].flatMap((g) => file.readColumn(g, 1).toArray());
  assert.deepEqual(table.getChildAt(1).toArray(), want);
});

test("toArrowTableAsync over a Blob: fetches only the selection, shares the buffers", async () => {
  const bytes = corpusFile("real/diamonds.default").bytes;
  const file = await api.ColumnsFile.fromBlob(new Blob([bytes]));
  const before = file.bytesRead;
  const table = await toArrowTableAsync(file, { columns: ["price", "cut"] });
  const price = file.rowGroups[0].columns[6];
  const cut = file.rowGroups[0].columns[1];
  assert.equal(file.bytesRead - before, price.byteLength + cut.byteLength, "only the two chunks were fetched");
  const mem = api.ColumnsFile.fromBytes(bytes);
  assert.deepEqual(table.getChild("price").toArray(), Int32Array.from(mem.readColumn(0, 6).toArray()));
  assert.deepEqual([...table.getChild("cut")], mem.readColumn(0, 1).toArray());
});

test("a write into a column's memory shows through its Arrow vector (no copy in between)", () => {
  const file = api.ColumnsFile.fromBytes(corpusFile("valid/all_types_small").bytes);
  file.schema.forEach((sc, c) => {
    const col = file.readColumn(0, c, { boolBits: true });
    const v = toArrowVector(col);
    const row = [...Array(col.length).keys()].find((i) => col.isValid(i));
    if (sc.type === "string" || sc.type === "bytes") {
      const { offsets, data } = col.values;
      const i = [...Array(col.length).keys()].find((r) => col.isValid(r) && offsets[r + 1] > offsets[r]);
      data[offsets[i]] = 0x5a; // "Z"
      const got = v.get(i);
      assert.equal(sc.type === "string" ? got.codePointAt(0) : got[0], 0x5a, sc.name);
    } else if (sc.type === "bool") {
      const before = v.get(row);
      col.values[row >> 3] ^= 1 << (row & 7);
      assert.equal(v.get(row), !before, sc.name);
    } else {
      const big = sc.type.endsWith("64") && sc.type !== "float64";
      col.values[row] = big ? 42n : 42;
      assert.equal(v.get(row), big ? 42n : 42, sc.name);
    }
    // Nulls too: clearing a validity bit makes Arrow see a null.
    if (col.validity) {
      col.validity[row >> 3] &= ~(1 << (row & 7));
      assert.equal(v.isValid(row), false, `${sc.name}: validity`);
    }
  });
});

test("duplicate names (as comparison.cols's i, i, f, s, s) become unique, and select columns by those names", () => {
  const { bytes, names } = duplicateNamesFile();
  const file = api.ColumnsFile.fromBytes(bytes);
  assert.deepEqual(file.schema.map((c) => c.name), names);
  assert.deepEqual(toArrowTable(file).schema.fields.map((f) => f.name), ["i", "i_2", "f", "s", "s_1", "i_1"]);
  assert.deepEqual(toArrowTable(file, { columns: [] }).schema.fields.map((f) => f.name), []);
  const table = toArrowTable(file, { columns: ["s_1", "i_2", "i", "i_1"] });
  assert.deepEqual(table.schema.fields.map((f) => f.name), ["s_1", "i_2", "i", "i_1"]);
  const whole = (c) => file.rowGroups.flatMap((_, g) => file.readColumn(g, c).toArray());
  assert.deepEqual([...table.getChild("s_1")], whole(4));
  assert.deepEqual([...table.getChild("i_2")], whole(1));
  assert.deepEqual([...table.getChild("i")], whole(0));
  assert.deepEqual([...table.getChild("i_1")], whole(5));
  assert.throws(() => toArrowTable(file, { columns: ["s_2"] }), { kind: "out_of_range", message: /"s_2" does not exist.*i, i_2, f, s, s_1, i_1/ });
  assert.throws(() => toArrowTable(file, { columns: [6] }), (e) => e instanceof ColumnsError && e.kind === "out_of_range" && e.column === null && e.toJSON().kind === "out_of_range");
  assert.throws(() => uniqueNames(null), (e) => e instanceof ColumnsError && e.kind === "bad_argument" && JSON.parse(JSON.stringify(e)).name === "ColumnsError");
  assert.throws(() => toArrowTable(file, { rowGroups: [2] }), { kind: "out_of_range" });
  assert.throws(() => toArrowTable(file, { columns: "s" }), { kind: "bad_argument", message: /columns must be an array/ });
  assert.throws(() => toArrowTable(file, { columns: [NaN] }), { kind: "out_of_range", message: /column NaN does not exist/ });
  assert.throws(() => toArrowTable(file, { columns: [3, "s"] }), { kind: "bad_argument", message: /"s" is asked for twice/ });
  assert.throws(() => uniqueNames(null), { kind: "bad_argument" });
});

test("options and files the adapter cannot show or use are still errors with a kind, not JSON.stringify's or a plain Error", async () => {
  const { bytes } = duplicateNamesFile();
  const file = api.ColumnsFile.fromBytes(bytes);
  const circular = {};
  circular.self = circular;
  assert.throws(() => toArrowTable(file, { strings: 1n }), { kind: "bad_argument", message: /not 1$/ });
  for (const options of [1, "utf8", true]) {
    // (a Vector's options as a Table's: refused, not ignored)
    assert.throws(() => toArrowVector(file.readColumn(0, 0), options), { kind: "bad_argument", message: /options must be an object/ }, String(options));
    assert.throws(() => toArrowTable(file, options), { kind: "bad_argument", message: /options must be an object/ }, String(options));
  }
  assert.throws(() => toArrowTable(file, { strings: circular }), { kind: "bad_argument", message: /not an object$/ });
  // A name it does not take (misspelt, or a Table's given to a Vector) is refused, not ignored.
  assert.throws(() => toArrowTable(file, { string: "binary" }), { kind: "bad_argument", message: 'columns-wasm/arrow: toArrowTable has no option "string"; it takes rowGroups, columns, strings' });
  await assert.rejects(toArrowTableAsync(file, { colums: [0] }), { kind: "bad_argument", message: 'columns-wasm/arrow: toArrowTableAsync has no option "colums"; it takes rowGroups, columns, strings, signal' });
  assert.throws(() => toArrowVector(file.readColumn(0, 0), { columns: [0] }), { kind: "bad_argument", message: 'columns-wasm/arrow: toArrowVector has no option "columns"; it takes strings' });
  assert.throws(() => toArrowTable(file, { columns: [2n] }), { kind: "out_of_range", message: /column 2 does not exist/ });
  // A file-like object whose read gives the wrong number of columns, or columns of the wrong length.
  const fake = { schema: file.schema, rowGroups: file.rowGroups, readColumnsAsync: async () => [] };
  await assert.rejects(toArrowTableAsync(fake), { kind: "bad_argument", message: /expected 12 columns from the file.s read, got 0/ });
  const short = file.readColumns([0]).map((c) => (c.length = 1, c));
  await assert.rejects(toArrowTableAsync({ ...fake, readColumnsAsync: async () => short, rowGroups: [{ ...file.rowGroups[0], numRows: 2 }] }), { kind: "bad_argument", message: /row group 0 has 2 rows but column 0 has 1/ });
});

test("uniqueNames: first use keeps the name, later ones count up past names already taken", () => {
  assert.deepEqual(uniqueNames(["i", "i", "f", "s", "s"]), ["i", "i_1", "f", "s", "s_1"]);
  assert.deepEqual(uniqueNames(["a", "a", "a_1", "a"]), ["a", "a_2", "a_1", "a_3"]);
  assert.deepEqual(uniqueNames(["", ""]), ["", "_1"]);
  assert.deepEqual(uniqueNames([]), []);
});

test("uniqueNames: names that differ only in ASCII case are the same name, as in DuckDB; other letters' case is not folded", () => {
  assert.deepEqual(uniqueNames(["id", "ID"]), ["id", "ID_1"]);
  assert.deepEqual(uniqueNames(["a", "A", "a_1"]), ["a", "A_2", "a_1"]);
  assert.deepEqual(uniqueNames(["s", "S", "s", "S_1"]), ["s", "S_2", "s_3", "S_1"]);
  assert.deepEqual(uniqueNames(["Ä", "ä"]), ["Ä", "ä"]);
  assert.throws(() => uniqueNames([1, 1]), { kind: "bad_argument", message: /strings/ });
});

test("a pool-like file (schema on .meta, async readColumns, bools one byte each): bools are packed, the rest shared", async () => {
  const file = api.ColumnsFile.fromBytes(corpusFile("valid/all_types_small").bytes);
  const read = [];
  // What a ColumnsPool's file looks like to the adapter; a pool ignores { boolBits }.
  const pooled = {
    meta: file,
    readColumns: async (g, c) => {
      const out = file.readColumns(g, c);
      read.push(...out);
      return out;
    },
  };
  const table = await toArrowTableAsync(pooled);
  const width = file.schema.length;
  file.schema.forEach((sc, c) => {
    const want = file.rowGroups.flatMap((_, g) => file.readColumn(g, c).toArray());
    assert.deepEqual(table.getChildAt(c).toArray().length, want.length);
    assert.deepEqual([...table.getChildAt(c)], want, sc.name);
  });
  table.batches.forEach((batch, r) => batch.data.children.forEach((d, k) => {
    const col = read[r * width + k];
    assert.equal(col.boolBits, false);
    if (col.type === "bool") assert.notEqual(d.values.buffer, col.values.buffer, "packed into new memory");
    else assert.ok(sameMemory(d.values, col.type === "string" || col.type === "bytes" ? col.values.data : col.values), col.type);
  }));
});

test("toArrowTable on a file that is not in memory says to use toArrowTableAsync's reads", async () => {
  const file = await api.ColumnsFile.fromBlob(new Blob([corpusFile("valid/nulls").bytes]));
  assert.throws(() => toArrowTable(file), { kind: "not_in_memory" });
  // A pool's file is refused before its read starts: that read would run on, and its failure go unheard.
  let started = 0;
  const pooled = { meta: file, readColumns: async () => (started++, Promise.reject(new ColumnsError("a chunk failed", "corrupt_chunk"))) };
  assert.throws(() => toArrowTable(pooled), { kind: "bad_argument", message: /use toArrowTableAsync/ });
  assert.equal(started, 0, "no read started");
  // Anything else whose read turns out to be a promise: refused, its rejection handled (else Node would stop on it).
  const unhandled = [];
  const onUnhandled = (e) => unhandled.push(e);
  process.on("unhandledRejection", onUnhandled);
  try {
    const lookalike = { schema: file.schema, rowGroups: file.rowGroups, readColumns: () => Promise.reject(new ColumnsError("a chunk failed", "corrupt_chunk")) };
    assert.throws(() => toArrowTable(lookalike), { kind: "bad_argument", message: /use toArrowTableAsync/ });
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  assert.deepEqual(unhandled, []);
});

test("a freed file keeps the package's kind (freed), through both entry points; options that are not an object are a bad_argument", async () => {
  const file = api.ColumnsFile.fromBytes(corpusFile("valid/all_types_small").bytes);
  assert.throws(() => toArrowTable(file, "binary"), { kind: "bad_argument", message: /options must be an object; got "binary"/ });
  await assert.rejects(toArrowTableAsync(file, 5), { kind: "bad_argument", message: /options must be an object; got 5/ });
  file.free();
  assert.throws(() => toArrowTable(file), (e) => e instanceof ColumnsError && e.kind === "freed");
  await assert.rejects(toArrowTableAsync(file), (e) => e instanceof ColumnsError && e.kind === "freed");
  // (the adapter's own errors are named for what they are in a stack or a debugger)
  assert.throws(() => toArrowTable(null), (e) => e instanceof ColumnsError && e.constructor.name === "AdapterError");
});

test("a file, column or options that throw when read (a Proxy whose traps throw, a revoked Proxy, a getter) are a bad_argument ColumnsError with what was thrown as its cause, from every entry point", async () => {
  const { bytes } = duplicateNamesFile();
  const file = api.ColumnsFile.fromBytes(bytes);
  const column = file.readColumn(0, 0);
  const boom = new Error("trap");
  const trap = () => { throw boom; };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const getter = (key) => Object.defineProperty({}, key, { get: trap });
  const isThrown = (e) => e instanceof ColumnsError && e.kind === "bad_argument" && /threw when read/.test(e.message) && e.cause !== undefined;
  for (const hostile of [throwing, revocable.proxy]) {
    assert.throws(() => toArrowVector(hostile), isThrown);
    assert.throws(() => toArrowVector(column, hostile), isThrown);
    assert.throws(() => uniqueNames(hostile), (e) => e instanceof ColumnsError && e.kind === "bad_argument");
    assert.throws(() => toArrowTable(hostile), isThrown);
    assert.throws(() => toArrowTable(file, hostile), isThrown);
    await assert.rejects(toArrowTableAsync(hostile), isThrown);
    await assert.rejects(toArrowTableAsync(file, hostile), isThrown);
  }
  for (const key of ["columns", "rowGroups", "strings"]) {
    assert.throws(() => toArrowTable(file, getter(key)), (e) => isThrown(e) && e.cause === boom, key);
    await assert.rejects(toArrowTableAsync(file, getter(key)), (e) => isThrown(e) && e.cause === boom, key);
  }
  assert.throws(() => toArrowVector(column, getter("strings")), isThrown);
  // A file whose read method cannot be looked up.
  const hiding = { schema: file.schema, rowGroups: file.rowGroups, get readColumns() { return trap(); }, get readColumnsAsync() { return trap(); } };
  assert.throws(() => toArrowTable(hiding), isThrown);
  await assert.rejects(toArrowTableAsync(hiding), isThrown);
  assert.equal(toArrowTable(file).numRows, file.numRows, "the file still reads");
});

test("toArrowTableAsync takes a signal: one aborted already rejects as aborted before anything is read; an abort during the read stops its fetches", async () => {
  // 20 row groups 100 KB apart (too far to share a request), each fetched
  // in 5 ms: one request a row group, at most 8 in flight.
  const sparse = buildFile(
    [{ name: "v", type: "int32", nullable: false }],
    Array.from({ length: 20 }, (_, g) => ({ offset: 5 + g * 100_000, columns: [[g, -g]] })),
  );
  const log = [];
  const inner = sparseAsyncBuffer(sparse, log);
  let onSlice = () => {};
  const slow = {
    byteLength: inner.byteLength,
    slice: (start, end) => {
      onSlice();
      return new Promise((r) => setTimeout(r, 5)).then(() => inner.slice(start, end));
    },
  };
  const file = await api.ColumnsFile.fromAsyncBuffer(slow);
  const aborted = (reason) => (e) => e instanceof ColumnsError && e.kind === "aborted" && e.cause === reason;

  const early = new AbortController();
  const reason = new Error("not wanted");
  early.abort(reason);
  let before = log.length;
  await assert.rejects(toArrowTableAsync(file, { signal: early.signal }), aborted(reason));
  assert.equal(log.length, before, "nothing was fetched");
  // A pool's file too: its read is not even started.
  let calls = 0;
  const pooled = { meta: file, readColumns: async () => (calls++, []) };
  await assert.rejects(toArrowTableAsync(pooled, { signal: early.signal }), aborted(reason));
  assert.equal(calls, 0);

  // Aborted as the first fetch starts: the read rejects, and no fetch after the first window is made.
  const mid = new AbortController();
  const stop = new Error("stop");
  onSlice = () => mid.abort(stop);
  before = log.length;
  await assert.rejects(toArrowTableAsync(file, { signal: mid.signal }), aborted(stop));
  await new Promise((r) => setTimeout(r, 50));
  const made = log.length - before;
  assert.ok(made >= 1 && made <= 8, `${made} of 20 fetches made after the abort`);
  onSlice = () => {};

  // The signal reaches a pool's read (PooledFile.readColumns takes { signal }), and a read that is not aborted is whole.
  const live = new AbortController();
  let given;
  const table = await toArrowTableAsync({ meta: file, readColumnsAsync: (g, c, o) => ((given = o), file.readColumnsAsync(g, c, o)) }, { signal: live.signal });
  assert.equal(given.signal, live.signal);
  assert.deepEqual([...table.getChild("v")], Array.from({ length: 20 }, (_, g) => [g, g ? -g : 0]).flat());
});

test("toArrowVector of a scoped read's lent column is refused with the way out: column.copy()", () => {
  const file = api.ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
  file.readRowGroupScoped(0, ({ columns }) => {
    assert.throws(() => toArrowVector(columns[0]), { kind: "bad_argument", message: /scoped read's column.*column\.copy\(\)/ });
    assert.equal(toArrowVector(columns[0].copy()).length, columns[0].length);
  });
});
