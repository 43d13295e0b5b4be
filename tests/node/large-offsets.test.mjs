// (d) Offsets above 2^32: a synthetic file (written by tests/node/synth.mjs
// from FORMAT.md) whose row groups sit past 4 GiB inside a 5 GiB source,
// served sparsely (zeros for the padding). Every value is checked against
// what the test wrote, and only the needed ranges may be fetched.

import { test } from "node:test";
import assert from "node:assert/strict";
import { columnJson, isApiError } from "../js/check.mjs";
import { loadApi } from "./corpus.mjs";
import { buildFile, materialize, sparseAsyncBuffer } from "./synth.mjs";

const { ColumnsFile } = loadApi();
const GiB = 2 ** 30;

const schema = [
  { name: "id", type: "int32", nullable: false },
  { name: "label", type: "string", nullable: false },
  { name: "big", type: "int64", nullable: true },
];
const groups = [
  { columns: [[1, -2, 2147483647, -2147483648, 42], ["a", "", "héllo", "z".repeat(300), "end"], [10n, null, -3n, 9007199254740993n, null]] },
  { columns: [[7, 8, 9], ["x", "yy", "zzz"], [null, null, -(2n ** 63n)]] },
];
/** The corpus JSON form of what the test wrote (int64 as decimal strings). */
const expectedJson = (g, c) => groups[g].columns[c].map((v) => (v === null ? null : typeof v === "bigint" ? v.toString() : v));

function build(offsets) {
  return buildFile(schema, groups.map((g, i) => ({ ...g, offset: offsets[i] })));
}

test("the test's own writer produces a file the reader reads back exactly (small offsets)", () => {
  const synth = build([5, 1000]);
  const file = ColumnsFile.fromBytes(materialize(synth));
  assert.deepEqual(file.schema, schema);
  assert.equal(file.rowGroups.length, 2);
  for (let g = 0; g < 2; g++) {
    assert.equal(file.rowGroups[g].byteOffset, synth.chunks[g][0].start);
    for (let c = 0; c < 3; c++) {
      assert.deepEqual(columnJson(file.readColumn(g, c), schema[c].type), expectedJson(g, c), `rg ${g} col ${c}`);
    }
  }
  file.free();
});

test("row groups beyond 4 GiB in a 5 GiB file read correctly, fetching only what they need", async () => {
  // Row group 0 starts 5 bytes past 2^32: an offset truncated to 32 bits
  // would land on the header's end and read padding instead.
  const offsets = [2 ** 32 + 5, 5 * GiB - 4096];
  const synth = build(offsets);
  const size = synth.size;
  assert.ok(size > 5 * GiB - 4096 && size < 5 * GiB, `size ${size}`);
  const log = [];
  const file = await ColumnsFile.fromAsyncBuffer(sparseAsyncBuffer(synth, log));
  assert.equal(file.byteLength, size);
  assert.equal(file.footerOffset, synth.footerStart);
  assert.equal(file.footerLength, synth.footerLength);
  assert.equal(file.numRows, 8);
  const rgs = file.rowGroups;
  assert.equal(rgs[0].byteOffset, offsets[0]);
  assert.ok(rgs[0].byteOffset > 2 ** 32);
  assert.equal(rgs[1].byteOffset, offsets[1]);
  for (let g = 0; g < 2; g++) {
    for (let c = 0; c < 3; c++) {
      const cm = rgs[g].columns[c];
      assert.equal(cm.byteOffset, synth.chunks[g][c].start);
      assert.equal(cm.byteLength, synth.chunks[g][c].end - synth.chunks[g][c].start);
      assert.equal(cm.rawLength, null, "not read yet");
    }
  }
  // Statistics come back in toArray() form.
  assert.equal(rgs[0].columns[0].min, -2147483648);
  assert.equal(rgs[0].columns[0].max, 2147483647);
  assert.equal(rgs[0].columns[2].min, -3n);
  assert.equal(rgs[0].columns[2].max, 9007199254740993n);
  assert.equal(rgs[1].columns[1].max, "zzz");
  assert.equal(rgs[0].columns[2].nullCount, 2);
  // Layout: chunks and footer at their absolute offsets.
  const layout = file.layout;
  assert.deepEqual(layout.find((r) => r.kind === "footer"), { kind: "footer", start: synth.footerStart, end: synth.footerStart + synth.footerLength });
  assert.deepEqual(layout.filter((r) => r.kind === "chunk").map((r) => [r.start, r.end]), synth.chunks.flat().map((r) => [r.start, r.end]));

  // Opening read only the ends of the file.
  const openBytes = file.bytesRead;
  assert.ok(openBytes < 4096, `open read ${openBytes} bytes`);
  for (const [s, e] of log) assert.ok(e <= 9 || s >= synth.footerStart, `open fetched ${s}..${e}`);

  // One range per column read: exactly the chunk.
  for (let g = 0; g < 2; g++) {
    for (let c = 0; c < 3; c++) {
      const before = log.length;
      const col = await file.readColumnAsync(g, c);
      assert.deepEqual(log.slice(before), [[synth.chunks[g][c].start, synth.chunks[g][c].end]], `rg ${g} col ${c} fetched`);
      assert.deepEqual(columnJson(col, schema[c].type), expectedJson(g, c), `rg ${g} col ${c}`);
      assert.deepEqual(col.toArray(), groups[g].columns[c], `rg ${g} col ${c} toArray`);
    }
  }
  // All at once: one request per row group (its chunks are adjacent).
  const before = log.length;
  const all = await file.readColumnsAsync();
  assert.deepEqual(log.slice(before), synth.chunks.map((r) => [r[0].start, r[r.length - 1].end]));
  all.forEach((col, i) => assert.deepEqual(columnJson(col, schema[i % 3].type), expectedJson(Math.floor(i / 3), i % 3)));
  // Chunk headers were learned from the reads.
  assert.equal(file.rowGroups[1].columns[0].rawLength, 12);
  assert.equal(file.rowGroups[1].columns[0].blockCount, 1);
  // Everything fetched, in total, is tiny next to the 5 GiB.
  const chunkBytes = synth.chunks.flat().reduce((s, r) => s + r.end - r.start, 0);
  assert.equal(file.bytesRead, log.reduce((s, [a, b]) => s + b - a, 0));
  assert.ok(file.bytesRead <= openBytes + 2 * chunkBytes, `bytesRead ${file.bytesRead}`);
  assert.equal(file.requests, log.length);
  file.free();
});

test("a footer length the reader will not fetch, or a source that fails, rejects the open without trapping", async () => {
  // The footer length is set to 0xffffffff: below the 5 GiB size, but far
  // beyond any real footer, so the reader refuses it before asking.
  const synth = build([2 ** 32 + 5, 5 * GiB - 4096]);
  const tail = synth.segments[synth.segments.length - 1];
  const bytes = tail.bytes.slice();
  new DataView(bytes.buffer).setUint32(bytes.length - 8, 0xffffffff, true);
  const damaged = { ...synth, segments: [...synth.segments.slice(0, -1), { start: tail.start, bytes }] };
  const log = [];
  await assert.rejects(ColumnsFile.fromAsyncBuffer(sparseAsyncBuffer(damaged, log)), (e) => isApiError(e) && e.kind === "too_large" && /footer length 4294967295/.test(e.message));
  assert.ok(log.every(([s, e]) => e - s <= 9), `only the head probe and the tail were read: ${JSON.stringify(log)}`);
  // A source that refuses a request: the open rejects with bad_source, the refusal as its cause.
  const refusing = { byteLength: synth.size, slice: (s, e) => (e - s > 8 ? Promise.reject(new Error("refused")) : sparseAsyncBuffer(synth, []).slice(s, e)) };
  await assert.rejects(ColumnsFile.fromAsyncBuffer(refusing), (e) => isApiError(e) && e.kind === "bad_source" && e.cause?.message === "refused");
  // A source whose slice() resolves to the wrong length is a truncated file.
  const short = { byteLength: synth.size, slice: (s, e) => new Uint8Array(Math.max(0, e - s - 1)) };
  await assert.rejects(ColumnsFile.fromAsyncBuffer(short), (e) => isApiError(e) && e.kind === "truncated");
  // And one whose slice() resolves to something that is not bytes is a bad source.
  const junk = { byteLength: synth.size, slice: () => Promise.resolve("nope") };
  await assert.rejects(ColumnsFile.fromAsyncBuffer(junk), (e) => isApiError(e) && e.kind === "bad_source");
  await assert.rejects(ColumnsFile.fromAsyncBuffer({ byteLength: -1, slice: () => new Uint8Array(0) }), (e) => isApiError(e) && e.kind === "bad_source");
  await assert.rejects(ColumnsFile.fromAsyncBuffer({ byteLength: 100 }), (e) => isApiError(e) && e.kind === "bad_source");
});
