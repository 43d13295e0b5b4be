// (e) What an AsyncBuffer / Blob file fetches: only the header, footer and
// tail at open; exactly one range per column read; chunks in file order
// merged into one request when they touch or lie at most 8 KiB apart. A
// short file, read whole at open, is asked for nothing more. Every slice()
// call is logged.

import { test } from "node:test";
import assert from "node:assert/strict";
import { columnJson, isApiError, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusFile, loadApi } from "./corpus.mjs";

const { ColumnsFile, TokenizerRegistry } = loadApi();

/** The longest gap a request reads between two wanted ranges (src/plan.rs). */
const MAX_GAP = 8 * 1024;
/** The longest request made of several ranges. */
const MAX_REQUEST = 32 * 1024 * 1024;

/** Merges sorted-by-start ranges that touch or overlap (the bytes wanted). */
function merge(ranges) {
  return requestsFor(ranges, 0);
}

/**
 * The requests the rule gives for `ranges` read in file order: a range
 * joins the last request when it starts at most `gap` bytes after its end
 * and the request stays within MAX_REQUEST bytes.
 */
function requestsFor(ranges, gap = MAX_GAP) {
  const out = [];
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && s <= last[1] + gap && Math.max(last[1], e) - last[0] <= MAX_REQUEST) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

const sortRanges = (rs) => [...rs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

function chunkRange(expected, g, c) {
  const cm = expected.row_groups[g].columns[c];
  return [cm.chunk_offset, cm.chunk_offset + cm.byte_length];
}

/**
 * Checks what opening fetched: only the header, the footer and the tail;
 * or, of a file whose head probe (9 bytes) and tail (8) lie at most
 * MAX_GAP apart, the whole file in one request.
 */
function checkOpenReads(file, log, expected, what) {
  const n = expected.size;
  assert.equal(file.requests, log.length);
  assert.equal(file.bytesRead, log.reduce((t, [s, e]) => t + e - s, 0));
  assert.equal(file.inMemory, false);
  if (n <= 9 + MAX_GAP + 8) {
    assert.deepEqual(log, [[0, n]], `${what}: a short file is read whole, in one request`);
    assert.equal(file.bytesRead, n, `${what}: nothing read twice`);
    return;
  }
  const headerEnd = file.headerLength;
  const footerStart = n - 8 - expected.footer_length;
  assert.ok(log.length >= 1 && log.length <= 4, `${what}: ${log.length} requests at open`);
  for (const [s, e] of log) {
    const inHeader = e <= Math.max(headerEnd, 9);
    const inFooterOrTail = s >= footerStart && e <= n;
    assert.ok(inHeader || inFooterOrTail, `${what}: open fetched ${s}..${e} (header ends ${headerEnd}, footer starts ${footerStart})`);
  }
  // The footer and tail were fetched whole.
  const covered = merge(log);
  assert.ok(covered.some(([s, e]) => s <= footerStart && e >= footerStart + expected.footer_length), `${what}: footer not fetched: ${JSON.stringify(log)}`);
  assert.ok(covered.some(([s, e]) => s <= n - 8 && e === n), `${what}: tail not fetched`);
  assert.ok(file.bytesRead <= headerEnd + 9 + expected.footer_length + 8, `${what}: read ${file.bytesRead} bytes to open`);
}

/** Whether a file is short enough to be read whole at open (src/plan.rs, open_head). */
const isShort = (size) => size <= 9 + MAX_GAP + 8;

const CASES = ["valid/all_types_small", "valid/nulls", "valid/tokenized_two_tokenizers", "real/diamonds.optimized"];

for (const rel of CASES) {
  test(`${rel}: open reads only the ends, each column read one range (a short file, read whole at open: none)`, async () => {
    const { bytes, expected } = corpusFile(rel);
    const log = [];
    const reg = new TokenizerRegistry();
    const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes, log), reg);
    checkOpenReads(file, log, expected, rel);
    const short = isShort(expected.size);
    const schema = expected.schema;
    for (let g = 0; g < expected.row_groups.length; g++) {
      for (let c = 0; c < schema.length; c++) {
        const before = log.length;
        const tokenized = expected.row_groups[g].columns[c].encoding === "Tokenized";
        if (tokenized) {
          await assert.rejects(file.readColumnAsync(g, c), (e) => isApiError(e) && e.kind === "unknown_tokenizer");
        } else {
          const col = await file.readColumnAsync(g, c);
          assert.deepEqual(columnJson(col, schema[c].type), expected.row_groups[g].values[c], `rg ${g} col ${c}`);
          assert.equal(typeof col.timings.readMs, "number");
          assert.equal(col.timings.fromMemory, false);
        }
        assert.deepEqual(log.slice(before), short ? [] : [chunkRange(expected, g, c)], `rg ${g} col ${c}: ${short ? "no request: the bytes read at open hold it" : "one request, exactly the chunk"}`);
      }
    }
    assert.equal(file.requests, log.length);
    assert.equal(file.bytesRead, log.reduce((t, [s, e]) => t + e - s, 0));
    // The chunk headers it read now report raw lengths and block counts.
    file.rowGroups.forEach((rg, g) =>
      rg.columns.forEach((cm, c) => {
        assert.equal(cm.rawLength, expected.row_groups[g].columns[c].raw_length);
        assert.equal(cm.blockCount, expected.row_groups[g].columns[c].block_count);
      }),
    );
    file.free();
    reg.free();
  });
}

/** Reads a selection, checks the values, and returns the requests it made. */
async function readSelection(bytes, expected, gs, cs) {
  const log = [];
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes, log));
  const opened = log.length;
  const groups = gs ?? expected.row_groups.map((_, g) => g);
  const cols = cs ?? expected.schema.map((_, c) => c);
  const got = await file.readColumnsAsync(gs, cs);
  const picks = groups.flatMap((g) => cols.map((c) => [g, c]));
  assert.equal(got.length, picks.length);
  // Row-group-major, in the order asked.
  picks.forEach(([g, c], i) => assert.deepEqual(columnJson(got[i], expected.schema[c].type), expected.row_groups[g].values[c], `rg ${g} col ${c}`));
  const requests = log.slice(opened);
  assert.equal(file.requests, log.length);
  file.free();
  return { requests, want: requestsFor(picks.map(([g, c]) => chunkRange(expected, g, c))) };
}

// (enc_plain_lzw: 2 row groups of 39 columns, 51,727 bytes: not short, so
// its chunks are fetched.)
test("readColumnsAsync merges chunks in file order into requests (selections in file order)", async () => {
  const { bytes, expected } = corpusFile("valid/enc_plain_lzw");
  for (const [gs, cs] of [[null, null], [[0], null], [[1], null], [[0], [0, 1, 2]], [[0, 1], [3, 5, 6, 38]], [null, [0, 38]], [null, [37, 38]]]) {
    const { requests, want } = await readSelection(bytes, expected, gs, cs);
    assert.deepEqual(sortRanges(requests), want, `selection ${JSON.stringify([gs, cs])}`);
    if (gs === null && cs === null) assert.equal(want.length, 1, "a whole file's chunks are one request");
  }
});

test("readColumnsAsync fetches the chunks of any selection, in any order, each byte once", async () => {
  const { bytes, expected } = corpusFile("valid/enc_plain_lzw");
  for (const [gs, cs] of [[null, [38, 0]], [[1, 0], [10]], [[0], [38, 37]], [[1, 0], [3, 3, 2]]]) {
    const { requests, want } = await readSelection(bytes, expected, gs, cs);
    // The chunks asked for and the short gaps between them, once each.
    assert.deepEqual(merge(requests), merge(want), `selection ${JSON.stringify([gs, cs])}`);
    assert.equal(requests.reduce((t, [s, e]) => t + e - s, 0), want.reduce((t, [s, e]) => t + e - s, 0), "no byte fetched twice");
  }
});

test("a column's chunks further apart than 8 KiB are separate requests; nearer ones share one, gap and all", async () => {
  // Column 0 of two row groups: 18,495 bytes apart in enc_dict_none,
  // 6,001 in enc_affix_lzw.
  for (const [rel, far] of [["valid/enc_dict_none", true], ["valid/enc_affix_lzw", false]]) {
    const { bytes, expected } = corpusFile(rel);
    const [a, b] = [chunkRange(expected, 0, 0), chunkRange(expected, 1, 0)];
    assert.equal(b[0] - a[1] > MAX_GAP, far, `${rel}: gap ${b[0] - a[1]}`);
    const { requests } = await readSelection(bytes, expected, null, [0]);
    assert.deepEqual(requests, far ? [a, b] : [[a[0], b[1]]], rel);
  }
});

// Chunks are fetched in file order, so neighbours merge whatever order the
// selection names them in (columns [38, 0] across row groups, or [38, 37]).
test("readColumnsAsync merges neighbouring chunks whatever the selection order", async () => {
  const { bytes, expected } = corpusFile("valid/enc_plain_lzw");
  for (const [gs, cs] of [[null, [38, 0]], [[0], [38, 37]]]) {
    const { requests, want } = await readSelection(bytes, expected, gs, cs);
    assert.deepEqual(sortRanges(requests), want, `selection ${JSON.stringify([gs, cs])}`);
  }
});

test("loadChunkHeaders fetches the 18-byte header of each unread chunk, once", async () => {
  const { bytes, expected } = corpusFile("valid/nulls");
  const log = [];
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes, log));
  await file.readColumnAsync(0, 1);
  const before = log.length;
  await file.loadChunkHeaders();
  const fetched = log.slice(before);
  const want = [];
  expected.row_groups.forEach((rg, g) =>
    rg.columns.forEach((cm, c) => {
      if (!(g === 0 && c === 1)) want.push([cm.chunk_offset, cm.chunk_offset + Math.min(18, cm.byte_length)]);
    }),
  );
  // Header ranges at most 8 KiB apart share a request.
  assert.deepEqual(sortRanges(fetched), requestsFor(want));
  assert.ok(fetched.length < want.length, `${want.length} headers in ${fetched.length} requests`);
  file.rowGroups.forEach((rg, g) =>
    rg.columns.forEach((cm, c) => {
      assert.equal(cm.rawLength, expected.row_groups[g].columns[c].raw_length);
      assert.equal(cm.blockCount, expected.row_groups[g].columns[c].block_count);
    }),
  );
  const again = log.length;
  await file.loadChunkHeaders();
  assert.equal(log.length, again, "nothing left to fetch");
  file.free();
});

test("inspectChunkAsync fetches one range; synchronous reads refuse an AsyncBuffer file", async () => {
  const { bytes, expected } = corpusFile("valid/enc_dict_gzip");
  const log = [];
  const file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes, log));
  const before = log.length;
  const report = await file.inspectChunkAsync(1, 2);
  assert.deepEqual(log.slice(before), [chunkRange(expected, 1, 2)]);
  assert.equal(report.rawLength, expected.row_groups[1].columns[2].raw_length);
  assert.equal(report.blocks.length, expected.row_groups[1].columns[2].block_count);
  assert.throws(() => file.readColumn(0, 0), (e) => isApiError(e) && e.kind === "not_in_memory");
  assert.throws(() => file.readColumns(), (e) => isApiError(e) && e.kind === "not_in_memory");
  assert.throws(() => file.inspectChunk(0, 0), (e) => isApiError(e) && e.kind === "not_in_memory");
  const n = log.length;
  await assert.rejects(file.readColumnAsync(9, 0), (e) => isApiError(e) && e.kind === "out_of_range");
  await assert.rejects(file.readColumnAsync(0, 99), (e) => isApiError(e) && e.kind === "out_of_range");
  await assert.rejects(file.readColumnsAsync([0], [99]), (e) => isApiError(e) && e.kind === "out_of_range");
  assert.equal(log.length, n, "nothing fetched for chunks that do not exist");
  file.free();
});

test("fromBlob reads only the ends at open and one slice per column", async () => {
  const { bytes, expected } = corpusFile("valid/enc_affix_lzw");
  const blob = new Blob([bytes]);
  const log = [];
  // A Blob stand-in that logs each slice and delegates to the real Blob.
  const logged = { size: blob.size, type: "", slice: (s, e) => (log.push([s, e]), blob.slice(s, e)) };
  const file = await ColumnsFile.fromBlob(logged);
  checkOpenReads(file, log, expected, "blob");
  const before = log.length;
  const col = await file.readColumnAsync(1, 3);
  assert.deepEqual(log.slice(before), [chunkRange(expected, 1, 3)]);
  assert.deepEqual(columnJson(col, expected.schema[3].type), expected.row_groups[1].values[3]);
  file.free();
  // And a real Blob reads the whole file correctly.
  const real = await ColumnsFile.fromBlob(blob);
  const all = await real.readColumnsAsync();
  all.forEach((c, i) => assert.deepEqual(columnJson(c, expected.schema[i % 6].type), expected.row_groups[Math.floor(i / 6)].values[i % 6]));
  real.free();
});

test("col.timings: every stage in milliseconds, readMs only where the chunk was fetched", async () => {
  const { bytes } = corpusFile("real/diamonds.optimized");
  const stages = ["decompressMs", "decodeMs", "copyMs", "totalMs"];
  const check = (t, fetched, what) => {
    assert.deepEqual(Object.keys(t), [...(fetched ? ["readMs"] : []), ...stages, "fromMemory"], what);
    for (const k of [...(fetched ? ["readMs"] : []), ...stages]) assert.ok(Number.isFinite(t[k]) && t[k] >= 0, `${what}: ${k} ${t[k]}`);
    assert.equal(t.fromMemory, !fetched, what);
    const sum = (fetched ? t.readMs : 0) + t.decompressMs + t.decodeMs + t.copyMs;
    assert.ok(Math.abs(t.totalMs - sum) < 1e-6, `${what}: total ${t.totalMs} is the stages' sum ${sum}`);
  };
  const mem = ColumnsFile.fromBytes(bytes);
  mem.readColumns().forEach((col, i) => check(col.timings, false, `fromBytes column ${i}`));
  check(mem.readColumn(0, 1, { reuse: mem.readColumns() }).timings, false, "fromBytes with { reuse }");
  const blob = await ColumnsFile.fromBlob(new Blob([bytes]));
  (await blob.readColumnsAsync()).forEach((col, i) => check(col.timings, true, `fromBlob column ${i}`));
  check((await blob.readColumnAsync(0, 0)).timings, true, "readColumnAsync");
  mem.free();
  blob.free();
});

test("a source that fails a request holding one chunk: every kind of read says which chunk, and its first byte", async () => {
  // movielens.default: 2 row groups of 7 chunks, column 2's two chunks far
  // apart, so each is a request of its own.
  const { bytes } = corpusFile("real/movielens.default");
  const open = async () => {
    let target = null;
    const file = await ColumnsFile.fromAsyncBuffer({
      byteLength: bytes.length,
      slice: (s, e) => (target !== null && s <= target && target < e ? Promise.reject(new Error("disk error")) : bytes.slice(s, e)),
    });
    const chunk = file.rowGroups[1].columns[2];
    target = chunk.byteOffset;
    return { file, at: chunk.byteOffset };
  };
  const reads = {
    readColumnAsync: (f) => f.readColumnAsync(1, 2),
    readColumnsAsync: (f) => f.readColumnsAsync(null, [2]),
    rowGroupsAsync: async (f) => {
      for await (const _ of f.rowGroupsAsync({ columns: [2] }));
    },
    "rowGroupsAsync, scoped": async (f) => {
      for await (const _ of f.rowGroupsAsync({ columns: [2], scoped: true }));
    },
    readRowGroupScopedAsync: (f) => f.readRowGroupScopedAsync(1, () => {}, { columns: [2] }),
    loadChunkHeaders: (f) => f.loadChunkHeaders(),
  };
  for (const [name, read] of Object.entries(reads)) {
    const { file, at } = await open();
    await assert.rejects(read(file), (e) => {
      assert.equal(e.kind, "bad_source", name);
      assert.deepEqual([e.rowGroup, e.column, e.offset], [1, 2, at], `${name}: ${e.message}`);
      return true;
    });
    file.free();
  }
});

test("a short file (8 KiB and 17 bytes or less), read whole at open, is asked for nothing more: every read takes its chunks from those bytes", async () => {
  for (const rel of ["valid/all_types_small", "valid/enc_affix_zlib"]) {
    const { bytes, expected } = corpusFile(rel);
    assert.ok(isShort(bytes.length), rel);
    for (const how of ["async", "blob"]) {
      const log = [];
      let failing = false;
      const slice = (s, e) => (log.push([s, e]), failing ? Promise.reject(new Error("asked again")) : bytes.slice(s, e));
      const blob = new Blob([bytes]);
      const file = how === "async" ? await ColumnsFile.fromAsyncBuffer({ byteLength: bytes.length, slice }) : await ColumnsFile.fromBlob({ size: bytes.length, slice: (s, e) => (log.push([s, e]), failing ? null : blob.slice(s, e)) });
      assert.deepEqual(log, [[0, bytes.length]], `${rel} ${how}: one request at open`);
      failing = true; // the source fails from now on: nothing may ask it
      const all = await file.readColumnsAsync();
      const cols = expected.schema.length;
      all.forEach((col, i) => assert.deepEqual(columnJson(col, expected.schema[i % cols].type), expected.row_groups[Math.floor(i / cols)].values[i % cols], `${rel} ${how}: chunk ${i}`));
      assert.deepEqual(columnJson(await file.readColumnAsync(1, 0), expected.schema[0].type), expected.row_groups[1].values[0]);
      assert.equal((await file.inspectChunkAsync(1, 1)).rawLength, expected.row_groups[1].columns[1].raw_length);
      await file.loadChunkHeaders();
      assert.equal(await file.readRowGroupScopedAsync(0, ({ numRows }) => numRows), expected.row_groups[0].num_rows);
      for await (const { rowGroup, columns } of file.rowGroupsAsync({ columns: [0] })) assert.deepEqual(columnJson(columns[0], expected.schema[0].type), expected.row_groups[rowGroup].values[0]);
      assert.deepEqual(log, [[0, bytes.length]], `${rel} ${how}: nothing asked after the open`);
      assert.equal(file.requests, 1);
      assert.equal(file.bytesRead, bytes.length);
      // Still a file of the source's kind: the synchronous reads refuse it, and its reads are not from memory.
      assert.equal(file.inMemory, false);
      assert.throws(() => file.readColumn(0, 0), (e) => isApiError(e) && e.kind === "not_in_memory");
      assert.equal(all[0].timings.fromMemory, false);
      file.free();
    }
  }
});
