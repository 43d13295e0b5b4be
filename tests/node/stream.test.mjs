// Streaming over row groups (rowGroupsAsync): exact values, copied or lent,
// from every kind of source; fetching ahead within readAhead; `break`
// stopping the fetching; errors and aborts rejecting the iteration.

import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { columnJson, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusDir, corpusFile, findPairs, loadApi, loadTokenizers, readPair, tokenizerDir } from "./corpus.mjs";

const api = loadApi();
const { Column, ColumnsError, ColumnsFile, ScopedColumn, TokenizerRegistry, wasmMemory } = api;
const registry = new TokenizerRegistry();
for (const t of loadTokenizers(api, tokenizerDir)) registry.register(t);

const readable = findPairs(corpusDir)
  .pairs.map(readPair)
  .filter(({ expected }) => !expected.error);

const opens = {
  bytes: (bytes) => ColumnsFile.fromBytes(bytes, registry),
  blob: (bytes) => ColumnsFile.fromBlob(new Blob([bytes]), registry),
  asyncBuffer: (bytes) => ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes), registry),
};

for (const scoped of [false, true]) {
  test(`every readable corpus file from a Blob, ${scoped ? "lent" : "copied"} columns: every row group in order, exact values`, async () => {
    let checked = 0;
    for (const { bytes, expected, name } of readable) {
      const file = await opens.blob(bytes);
      let g = 0;
      for await (const { rowGroup, numRows, columns } of file.rowGroupsAsync({ scoped })) {
        assert.equal(rowGroup, g, name);
        assert.equal(numRows, expected.row_groups[g].num_rows, name);
        columns.forEach((col, c) => {
          assert.ok(scoped ? col instanceof ScopedColumn : col instanceof Column);
          assert.deepEqual(columnJson(col, expected.schema[c].type, `${name} ${g}/${c}`), expected.row_groups[g].values[c], `${name} ${g}/${c}`);
          checked++;
        });
        g++;
      }
      assert.equal(g, (expected.row_groups ?? []).length, name);
      file.free();
    }
    assert.ok(checked > 300, `only ${checked} columns checked`);
  });
}

test("rowGroups and columns: those asked for, in that order (repeats included), from memory, a Blob and an AsyncBuffer", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  for (const [how, open] of Object.entries(opens)) {
    for (const scoped of [false, true]) {
      const file = await open(bytes);
      const seen = [];
      for await (const { rowGroup, columns } of file.rowGroupsAsync({ rowGroups: [3, 1, 3], columns: [4, 0, 4], scoped })) {
        seen.push(rowGroup);
        assert.deepEqual(
          columns.map((col) => columnJson(col, col.type)),
          [4, 0, 4].map((c) => expected.row_groups[rowGroup].values[c]),
          `${how} ${rowGroup}`,
        );
      }
      assert.deepEqual(seen, [3, 1, 3], how);
      file.free();
    }
  }
});

test("lent columns are released at the next step, and when the loop ends or breaks", async () => {
  const { bytes } = corpusFile("real/movielens.default");
  const file = await opens.blob(bytes);
  const lent = [];
  const views = [];
  for await (const { columns } of file.rowGroupsAsync({ scoped: true })) {
    for (const c of lent) assert.throws(() => c.values, (e) => e instanceof ColumnsError && e.kind === "released");
    for (const v of views) assert.equal(v.length, 0, "a view of the previous row group still has a length");
    lent.push(columns[3]);
    views.push(columns[3].values.data);
    assert.ok(views.at(-1).length > 0);
  }
  assert.equal(lent.length, 2);
  assert.throws(() => lent[1].toArray(), (e) => e.kind === "released");
  assert.equal(views[1].length, 0);
  for await (const { columns } of file.rowGroupsAsync({ scoped: true })) {
    lent.push(columns[0]);
    break;
  }
  assert.throws(() => lent[2].values, (e) => e.kind === "released");
  file.free();
});

/** An AsyncBuffer that records each request and holds every answer until
 *  `release()` is called for it (or answers at once with `auto`). */
function recordingSource(bytes) {
  const requests = [];
  return {
    requests,
    byteLength: bytes.length,
    slice(start, end) {
      requests.push([start, end]);
      return Promise.resolve().then(() => bytes.slice(start, end));
    },
  };
}

test("readAhead bounds what is requested ahead of the row group being handed out; break stops requesting", async () => {
  // movielens.default: 2 row groups of 6 chunks; readAhead under one chunk: one chunk per request.
  const { bytes } = corpusFile("real/movielens.default");
  const source = recordingSource(bytes);
  const file = await ColumnsFile.fromAsyncBuffer(source);
  const chunks = file.rowGroups.flatMap((rg) => rg.columns.map((c) => [c.byteOffset, c.byteOffset + c.byteLength]));
  const opened = source.requests.length;
  const readAhead = 1000;
  for await (const { rowGroup } of file.rowGroupsAsync({ readAhead })) {
    // While row group g is handed out, what was requested beyond its last
    // chunk is at most readAhead bytes, plus one request (always allowed).
    const last = chunks[(rowGroup + 1) * file.schema.length - 1][1];
    const ahead = source.requests.slice(opened).filter(([s]) => s >= last);
    assert.ok(ahead.length <= 1 || ahead.reduce((n, [s, e]) => n + e - s, 0) <= readAhead + Math.max(...ahead.map(([s, e]) => e - s)), JSON.stringify(ahead));
  }
  for (const [s, e] of source.requests.slice(opened)) {
    assert.ok(e - s <= readAhead || chunks.some(([cs, ce]) => cs === s && ce === e), `request ${s}..${e} is larger than readAhead and not one chunk`);
  }
  // Each chunk fetched exactly once, in file order.
  assert.deepEqual(source.requests.slice(opened), chunks);

  // Default readAhead: adjacent chunks merge. A break after the first row
  // group: nothing more is requested afterwards.
  const source2 = recordingSource(bytes);
  const file2 = await ColumnsFile.fromAsyncBuffer(source2);
  const opened2 = source2.requests.length;
  for await (const { rowGroup } of file2.rowGroupsAsync({ readAhead: 1, columns: [0] })) {
    assert.equal(rowGroup, 0);
    break;
  }
  const asked = source2.requests.length;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(source2.requests.length, asked, "requests made after the loop broke");
  assert.ok(asked - opened2 <= 2, `${asked - opened2} requests for one chunk (plus at most one ahead)`);
  file.free();
  file2.free();
});

test("with readAhead set, the next request is in flight while the one before is handed out", async () => {
  // Requests merged up to readAhead itself would fill the window one at a
  // time, so nothing would be fetched while the loop body runs.
  const { bytes, expected } = corpusFile("real/movielens.default");
  let inFlight = 0;
  let most = 0;
  const sizes = [];
  const source = {
    byteLength: bytes.length,
    async slice(start, end) {
      sizes.push(end - start);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 2));
      inFlight--;
      return bytes.slice(start, end);
    },
  };
  const file = await ColumnsFile.fromAsyncBuffer(source);
  const chunks = file.rowGroups.flatMap((rg) => rg.columns.map((c) => c.byteLength));
  const readAhead = 2 * Math.max(...chunks);
  sizes.length = 0;
  most = 0;
  let g = 0;
  for await (const { rowGroup, columns } of file.rowGroupsAsync({ readAhead })) {
    assert.deepEqual(columnJson(columns[0], expected.schema[0].type), expected.row_groups[rowGroup].values[0]);
    g++;
  }
  assert.equal(g, 2);
  assert.ok(most >= 2, `at most ${most} request in flight at once (requests of ${sizes.join(", ")} bytes, readAhead ${readAhead})`);
  for (const n of sizes) assert.ok(n <= readAhead / 2 || chunks.includes(n), `a request of ${n} bytes: over half of readAhead (${readAhead}) and not one chunk`);
  file.free();
});

test("an error in a row group rejects that step, with the ColumnsError and its place; the iteration then ends", async () => {
  const { bytes, expected } = corpusFile("valid/tokenized_raw_counts");
  const file = ColumnsFile.fromBytes(bytes); // no registry: column 1 cannot be read
  const it = file.rowGroupsAsync({ columns: [0, 1] });
  await assert.rejects(it.next(), (e) => e instanceof ColumnsError && e.kind === "unknown_tokenizer" && e.rowGroup === 0 && e.column === 1);
  assert.deepEqual(await it.next(), { value: undefined, done: true });
  // Without that column, every row group reads.
  let n = 0;
  for await (const { columns } of file.rowGroupsAsync({ columns: [0] })) assert.deepEqual(columnJson(columns[0], "int32"), expected.row_groups[n++].values[0]);
  assert.equal(n, 2);
  file.free();
});

test("bad options and a freed file reject the first step; a source that fails rejects with bad_source", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const first = (options) => file.rowGroupsAsync(options).next();
  const kind = (k, re) => (e) => e instanceof ColumnsError && e.kind === k && re.test(e.message);
  await assert.rejects(first(7), kind("bad_argument", /options must be an object/));
  await assert.rejects(first({ columns: [9] }), kind("out_of_range", /column 9/));
  await assert.rejects(first({ rowGroups: [4] }), kind("out_of_range", /row group 4/));
  await assert.rejects(first({ readAhead: 0 }), kind("bad_argument", /readAhead/));
  await assert.rejects(first({ signal: "no" }), kind("bad_argument", /signal/));
  // Lent columns take no reuse or boolBits, but those of the wrong type are
  // refused as for copied ones; right ones are taken without effect, and
  // columns offered for reuse are left as they were.
  for (const scoped of [false, true]) {
    await assert.rejects(first({ scoped, boolBits: 1 }), kind("bad_argument", /boolBits/));
    await assert.rejects(first({ scoped, reuse: "x" }), kind("bad_argument", /reuse/));
  }
  const mine = file.readColumn(0, 0);
  const lent = await first({ scoped: true, boolBits: true, reuse: mine });
  assert.equal(lent.value.rowGroup, 0);
  assert.ok(mine.values !== null, "a column offered to a scoped stream was emptied");
  const it = file.rowGroupsAsync();
  file.free();
  await assert.rejects(it.next(), kind("freed", /freed/));
  // Freed between steps: the next step rejects, and the stream is over.
  const again = ColumnsFile.fromBytes(bytes);
  const stream = again.rowGroupsAsync({ scoped: true });
  assert.equal((await stream.next()).value.rowGroup, 0);
  again.free();
  await assert.rejects(stream.next(), kind("freed", /ColumnsFile was freed/));
  assert.deepEqual(await stream.next(), { value: undefined, done: true });

  let gone = false;
  const failing = await ColumnsFile.fromAsyncBuffer({
    byteLength: bytes.length,
    slice: (s, e) => (gone ? Promise.reject(new Error("disk gone")) : bytes.slice(s, e)),
  });
  gone = true;
  await assert.rejects(
    (async () => {
      for await (const _ of failing.rowGroupsAsync()) {
        // nothing
      }
    })(),
    (e) => e.kind === "bad_source" && e.cause?.message === "disk gone",
  );
  failing.free();
});

test("abort: a signal aborted while the loop body runs rejects the next step with `aborted`", async () => {
  const { bytes } = corpusFile("real/movielens.default");
  const file = await opens.blob(bytes);
  const controller = new AbortController();
  const seen = [];
  await assert.rejects(
    (async () => {
      for await (const { rowGroup } of file.rowGroupsAsync({ signal: controller.signal })) {
        seen.push(rowGroup);
        controller.abort(new Error("user"));
      }
    })(),
    (e) => e instanceof ColumnsError && e.kind === "aborted" && e.cause?.message === "user",
  );
  assert.deepEqual(seen, [0]);
  // The file is still usable.
  let n = 0;
  for await (const _ of file.rowGroupsAsync({ columns: [0] })) n++;
  assert.equal(n, 2);
  file.free();
});

test("the iterator protocol: next() calls queue, return() ends it, and a finished iterator stays done", async () => {
  const { bytes } = corpusFile("valid/nulls");
  const file = ColumnsFile.fromBytes(bytes);
  const it = file.rowGroupsAsync({ columns: [0] });
  assert.equal(it[Symbol.asyncIterator](), it);
  const steps = await Promise.all([it.next(), it.next(), it.next()]);
  assert.deepEqual(steps.map((s) => s.value.rowGroup), [0, 1, 2]);
  assert.deepEqual(await it.return(5), { value: 5, done: true });
  assert.deepEqual(await it.next(), { value: undefined, done: true });
  // return() before any next(): nothing is read.
  const unused = file.rowGroupsAsync();
  assert.deepEqual(await unused.return(), { value: undefined, done: true });
  assert.deepEqual(await unused.next(), { value: undefined, done: true });
  file.free();
});

test("streaming every row group many times: wasm memory stays the same size, copied or lent", async () => {
  const { bytes } = corpusFile("real/movielens.tokenized");
  const file = await opens.blob(bytes);
  const memory = wasmMemory();
  const sizes = [];
  for (let i = 0; i < 20; i++) {
    for await (const { columns } of file.rowGroupsAsync({ scoped: i % 2 === 1 })) assert.equal(columns.length, file.schema.length);
    sizes.push(memory.buffer.byteLength);
  }
  assert.ok(sizes.slice(2).every((s) => s === sizes[2]), `memory grew: ${sizes.map((s) => s >> 10).join(" ")} KiB`);
  file.free();
});

test("a stream dropped after one step (no break, no return()) lets its reading go once collected: wasm memory stops growing", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  // Finalizers run in a task after the collection, the reading ends in the microtasks after that.
  const collect = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const { bytes } = corpusFile("real/movielens.tokenized");
  const memory = wasmMemory();
  for (const scoped of [true, false]) {
    const file = await opens.blob(bytes);
    const sizes = [];
    let lent = null;
    for (let i = 0; i < 12; i++) {
      // Peeking at the first row group, the stream itself never kept.
      const { value } = await file.rowGroupsAsync({ scoped }).next();
      assert.equal(value.rowGroup, 0);
      if (scoped && i === 0) lent = value.columns[0];
      await collect();
      sizes.push(memory.buffer.byteLength);
    }
    // Each dropped stream held its row group's buffers (movielens: MBs each).
    assert.ok(sizes[11] - sizes[1] < 4 << 20, `memory grew: ${sizes.map((s) => s >> 20).join(" ")} MiB (scoped: ${scoped})`);
    // A lent column of a collected stream is released, not left showing reused memory.
    if (scoped) assert.throws(() => lent.values, (e) => e instanceof ColumnsError && e.kind === "released");
    // And a stream still referenced, waiting for its step, is not collected from under its caller.
    const kept = file.rowGroupsAsync({ scoped, rowGroups: [1] });
    const step = kept.next();
    await collect();
    assert.equal((await step).value.rowGroup, 1);
    await kept.return();
    file.free();
  }
});

test("a stream that ran to its end, or to an error, keeps neither itself nor its file from being collected", async () => {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const { bytes } = corpusFile("valid/nulls");
  const bad = corpusFile("invalid/chunk_raw_length_bomb").bytes;
  const collected = new Set();
  const registryOf = new FinalizationRegistry((name) => collected.add(name));
  const names = [];
  // In a function of its own: nothing here keeps the file or the stream.
  const run = async (name, fileBytes, scoped) => {
    const file = ColumnsFile.fromBytes(fileBytes);
    const stream = file.rowGroupsAsync({ scoped });
    registryOf.register(file, `${name} file`);
    registryOf.register(stream, `${name} stream`);
    names.push(`${name} file`, `${name} stream`);
    try {
      for await (const _ of stream);
    } catch (e) {
      assert.equal(e.kind, "corrupt_chunk");
    }
  };
  for (const scoped of [false, true]) {
    await run(`ended, scoped: ${scoped}`, bytes, scoped);
    await run(`failed, scoped: ${scoped}`, bad, scoped);
  }
  for (let i = 0; i < 10 && collected.size < names.length; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.deepEqual(names.filter((n) => !collected.has(n)), [], "never collected");
});

test("bytes detached while a loop runs (a fromBytes file's buffer, or what an AsyncBuffer gave): the next step rejects with bad_source, never an uncaught TypeError and a step that never settles", async () => {
  const { bytes, expected } = corpusFile("valid/nulls"); // 4 row groups, fetched in one request
  const detach = (buffer) => structuredClone(buffer, { transfer: [buffer] });
  const cases = {
    fromBytes: async () => {
      const own = bytes.slice();
      return [ColumnsFile.fromBytes(own), () => detach(own.buffer)];
    },
    asyncBuffer: async () => {
      const given = [];
      const source = { byteLength: bytes.length, slice: (s, e) => given[given.push(bytes.slice(s, e)) - 1] };
      return [await ColumnsFile.fromAsyncBuffer(source), () => detach(given.at(-1).buffer)];
    },
  };
  for (const [what, open] of Object.entries(cases)) {
    for (const scoped of [false, true]) {
      const [file, take] = await open();
      const steps = [];
      const loop = (async () => {
        for await (const { rowGroup } of file.rowGroupsAsync({ scoped })) {
          steps.push(rowGroup);
          if (rowGroup === 0) take();
        }
      })();
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`${what}: the step never settled`)), 5000).unref());
      await assert.rejects(Promise.race([loop, timeout]), (e) => e instanceof ColumnsError && e.kind === "bad_source" && /detached/.test(e.message), `${what}, scoped: ${scoped}`);
      assert.deepEqual(steps, [0]);
      // A file whose bytes are gone goes on refusing; a source's file reads on.
      if (what === "fromBytes") await assert.rejects(file.readColumnAsync(1, 0), (e) => e.kind === "bad_source");
      else assert.equal((await file.readColumnAsync(1, 0)).length, expected.row_groups[1].num_rows);
      file.free();
    }
  }
  assert.equal(ColumnsFile.fromBytes(bytes).readColumns().length, 20);
});
