// Ranges read together (www/js/stretches.js) and the chunk headers' plan
// (www/js/chunkheaders.js), in Node without a browser: which stretches are
// read, what the plan costs, that the page's model of the package's
// requests is the package's (its loadChunkHeaders() on real files), that
// each of those is handed to the package once, as exactly its bytes, and a
// stretch kept whole answers any slice within it until released. The page itself: readonce.test.mjs (a Blob),
// urlsource.test.mjs (HTTP), longfile.test.mjs (passes over every row group).

import { test } from "node:test";
import assert from "node:assert/strict";
import { CHUNK_HEADER, HEADER_READ_FACTOR, READ_TOGETHER_FROM, headerPlan, headerSpans } from "../../www/js/chunkheaders.js";
import { Held, MAX_GAP, MAX_SPAN, PACKAGE_GAP, RECENT_COUNT, RECENT_MAX, RECENT_SLICE, packageRequests, stretches } from "../../www/js/stretches.js";
import { memoryAsyncBuffer } from "../js/check.mjs";
import { loadApi } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const chunk = (byteOffset, byteLength) => ({ byteOffset, byteLength });

test("headers the package reads in one request are one range of a stretch; requests at most MAX_GAP apart share a stretch; farther apart, or past MAX_SPAN, they start another; a request alone is left to the package", () => {
  const third = 105 + MAX_GAP + CHUNK_HEADER;
  const chunks = [
    chunk(5, 100), // with the next: 82 bytes apart, one request of the package's
    chunk(105, MAX_GAP + CHUNK_HEADER), // ends its header MAX_GAP before the next
    chunk(third, 10), // a header of 10 bytes (a short chunk)
    chunk(10_000_000, 50), // alone: far from the rest
    chunk(20_000_000, 0), // empty: no header
  ];
  const spans = headerSpans(chunks);
  assert.deepEqual(spans, [{ start: 5, end: third + 10, ranges: [{ start: 5, end: 123 }, { start: third, end: third + 10 }] }]);
  // One byte farther: two stretches of one request each, neither read ahead.
  const apart = headerSpans([chunk(0, 18), chunk(18 + MAX_GAP + 1, 18)]);
  assert.deepEqual(apart, []);
  // Headers the package reads together alone: nothing for the page to do.
  assert.deepEqual(headerSpans(Array.from({ length: 10 }, (_, i) => chunk(i * 100, 100))), []);
  // In file order whatever the footer's order.
  assert.deepEqual(headerSpans([chunk(PACKAGE_GAP * 2, 18), chunk(0, 18)]).map((s) => [s.start, s.end]), [[0, PACKAGE_GAP * 2 + 18]]);
  // A stretch stops short of MAX_SPAN bytes.
  const step = MAX_GAP;
  const many = Array.from({ length: 300 }, (_, i) => chunk(i * step, step));
  const long = headerSpans(many);
  assert.ok(long.length > 1);
  for (const s of long) assert.ok(s.end - s.start <= MAX_SPAN, `a stretch of ${s.end - s.start} bytes`);
  assert.equal(long.reduce((a, s) => a + s.ranges.length, 0), 300, "every header in one stretch");
});

test("the plan over HTTP: the package's requests, fewer where the page reads a stretch (from READ_TOGETHER_FROM chunks), the bytes between counted", () => {
  const http = { http: true };
  // Headers 100 bytes apart: the package reads them in one request.
  const small = Array.from({ length: READ_TOGETHER_FROM - 1 }, (_, i) => chunk(5 + i * 100, 100));
  assert.deepEqual(headerPlan(small, http), { spans: [], requests: 1, bytes: (READ_TOGETHER_FROM - 2) * 100 + CHUNK_HEADER });
  // 10,000 bytes apart (more than PACKAGE_GAP): a request a header, unless
  // the page reads them together.
  const spaced = (n) => Array.from({ length: n }, (_, i) => chunk(5 + i * 10_000, 10_000));
  assert.deepEqual(headerPlan(spaced(READ_TOGETHER_FROM - 1), http), { spans: [], requests: READ_TOGETHER_FROM - 1, bytes: (READ_TOGETHER_FROM - 1) * CHUNK_HEADER });
  const plan = headerPlan(spaced(500), http);
  assert.equal(plan.requests, 1);
  assert.equal(plan.bytes, 499 * 10_000 + CHUNK_HEADER, "from the first header's start to the last one's end");
  assert.equal(plan.spans[0].ranges.length, 500);
  // Two such runs far apart and one header alone: three requests.
  const mixed = [...spaced(500), ...spaced(500).map((c) => chunk(c.byteOffset + 50_000_000, 100)), chunk(90_000_000, 18)];
  assert.equal(headerPlan(mixed, http).requests, 3);
});

test("the plan from a local File: the bytes between headers come from a budget of HEADER_READ_FACTOR times the headers' bytes, the closest headers joined first", () => {
  // 10,000 bytes apart: joining two costs 9,982 bytes; the budget of
  // 500 headers (3 x 9,000 bytes) joins two gaps, and the rest are a read a header.
  const spaced = Array.from({ length: 500 }, (_, i) => chunk(5 + i * 10_000, 10_000));
  const sp = headerPlan(spaced);
  assert.equal(sp.requests, 498);
  assert.equal(sp.bytes, 500 * CHUNK_HEADER + 2 * 9_982);
  assert.ok(sp.bytes <= HEADER_READ_FACTOR * 500 * CHUNK_HEADER);
  // Pairs 30 bytes apart (12 between their headers), pairs 20,000 bytes apart: the package's own requests count against the budget.
  const pairs = Array.from({ length: 400 }, (_, i) => [chunk(i * 20_000, 30), chunk(i * 20_000 + 30, 19_970)]).flat();
  const local = headerPlan(pairs);
  assert.ok(local.bytes <= HEADER_READ_FACTOR * 800 * CHUNK_HEADER, `${local.bytes} bytes`);
  // (The package joins each pair itself, 8 KiB apart at most; the page joins a pair or two more.)
  assert.ok(local.requests >= 398 && local.requests <= 400, `${local.requests} requests`);
  // Gaps of 14,000 to 21,000 bytes: the smallest are taken, and the bytes stay within the budget.
  const mixed = Array.from({ length: 3000 }, (_, i) => chunk(i * 20_000 + (i % 7) * 1000, 100));
  const need = 3000 * CHUNK_HEADER;
  const m = headerPlan(mixed);
  assert.ok(m.bytes <= HEADER_READ_FACTOR * need, `${m.bytes} bytes for ${need} of headers`);
  assert.ok(m.requests < 3000, `${m.requests} requests: the closest joined`);
  // Over HTTP the same file is read in a few long stretches.
  assert.ok(headerPlan(mixed, { http: true }).requests < 10);
});

test("the page's model of the package's header requests is what loadChunkHeaders() asks its source for", async () => {
  const { ColumnsFile } = loadApi();
  const schema = [{ name: "n", type: "int32", nullable: false }, { name: "s", type: "string", nullable: false }];
  // Row groups whose chunks are 60 bytes to 30 KB long: headers closer and
  // farther apart than PACKAGE_GAP, in runs.
  const sizes = [3, 3, 3, 2000, 3, 3, 900, 900, 5000, 3, 3, 3, 3, 2500, 2500, 3];
  const groups = sizes.map((n, g) => ({ columns: [Array.from({ length: n }, (_, i) => i + g), Array.from({ length: n }, (_, i) => `v${(i * 7 + g) % 1000}`)] }));
  let at = 5;
  const laid = [];
  for (const g of groups) {
    const one = buildFile(schema, [{ ...g, offset: at }]);
    laid.push({ ...g, offset: at });
    at = one.chunks[0].at(-1).end;
  }
  const bytes = materialize(buildFile(schema, laid));
  const log = [];
  const f = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes, log));
  try {
    const chunks = f.rowGroups.flatMap((rg) => rg.columns);
    const model = packageRequests(chunks.map((cm) => ({ start: cm.byteOffset, end: cm.byteOffset + Math.min(cm.byteLength, CHUNK_HEADER) })));
    assert.ok(model.length > 1 && model.length < chunks.length, `${model.length} requests for ${chunks.length} headers: some merged, not all`);
    const before = log.length;
    await f.loadChunkHeaders();
    assert.deepEqual(log.slice(before).map(([s, e]) => ({ start: s, end: e })), model);
  } finally {
    f.free();
  }
});

test("held headers: read by stretches, each of the package's requests handed out once and only for exactly its range; a short read is an error", async () => {
  // Chunks 10,000 bytes apart: a request each from the package, one stretch here.
  const file = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 13) & 255);
  const chunks = Array.from({ length: 10 }, (_, i) => chunk(i * 10_000, 10_000));
  const spans = headerSpans(chunks);
  const held = new Held();
  const asked = [];
  const io = await held.readSpans(spans, async (s, e) => (asked.push([s, e]), file.slice(s, e)), { once: true });
  assert.deepEqual(asked, [[0, 90_018]]);
  assert.deepEqual(io, { requests: 1, bytes: 90_018 });
  assert.equal(held.take(10_000, 10_017), null, "a range other than the header's is not answered");
  assert.deepEqual([...new Uint8Array(held.take(10_000, 10_018))], [...file.slice(10_000, 10_018)]);
  assert.equal(held.take(10_000, 10_018), null, "handed out once");
  assert.deepEqual(held.served, { requests: 1, bytes: 18 });

  // Through the Blob-like and AsyncBuffer wrappers the package is given.
  const blob = new Blob([file]);
  const viaBlob = held.blob(blob);
  assert.equal(viaBlob.size, 100_000);
  assert.deepEqual([...new Uint8Array(await viaBlob.slice(20_000, 20_018).arrayBuffer())], [...file.slice(20_000, 20_018)]);
  assert.deepEqual([...new Uint8Array(await viaBlob.slice(20_000, 20_018).arrayBuffer())], [...file.slice(20_000, 20_018)], "the second time from the Blob");
  const viaBuffer = held.buffer({ byteLength: 100_000, slice: async (s, e) => file.slice(s, e).fill(0) });
  assert.deepEqual([...new Uint8Array(await viaBuffer.slice(30_000, 30_018))], [...file.slice(30_000, 30_018)], "held: not the source's zeros");
  assert.deepEqual([...new Uint8Array(await viaBuffer.slice(30_000, 30_018))], Array(18).fill(0), "then from the source");
  held.clear();
  assert.equal(held.take(40_000, 40_018), null, "cleared");

  const short = new Held();
  await assert.rejects(short.readSpans(spans, async (s, e) => file.slice(s, e - 1)), /read 90017 bytes of 90018 at 0/);
  const stopped = new AbortController();
  stopped.abort();
  await assert.rejects(new Held().readSpans(spans, async (s, e) => file.slice(s, e), { signal: stopped.signal }), { name: "AbortError" });
});

test("a stretch kept whole answers every slice inside it, as often as asked, until it is released; slices across its end go to the source", async () => {
  const file = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 255);
  // Two stretches: 100-400 and 3000-3300 (a gap of 2,600 bytes, more than allowed here).
  const spans = stretches([{ start: 100, end: 200 }, { start: 250, end: 400 }, { start: 3000, end: 3100 }, { start: 3200, end: 3300 }], { gap: 1000 });
  assert.deepEqual(spans.map((s) => [s.start, s.end, s.ranges.length]), [[100, 400, 2], [3000, 3300, 2]]);
  const held = new Held();
  assert.deepEqual(await held.readSpans(spans, async (s, e) => file.slice(s, e)), { requests: 2, bytes: 600 });
  assert.equal(held.heldBytes, 600);
  const at = (s, e) => {
    const b = held.take(s, e);
    return b && [...new Uint8Array(b)];
  };
  assert.deepEqual(at(100, 200), [...file.slice(100, 200)]);
  assert.deepEqual(at(120, 380), [...file.slice(120, 380)], "any slice within, the gap's bytes included");
  assert.deepEqual(at(3000, 3300), [...file.slice(3000, 3300)]);
  assert.equal(held.take(350, 450), null, "past the stretch's end");
  assert.equal(held.take(50, 150), null, "before its start");
  assert.equal(held.take(1000, 1100), null, "between stretches");
  held.release([spans[0]]);
  assert.equal(held.take(100, 200), null, "released");
  assert.deepEqual(at(3000, 3010), [...file.slice(3000, 3010)], "the other stretch stays");
  assert.equal(held.heldBytes, 300);
  held.clear();
  assert.equal(held.heldBytes, 0);
  // A range longer than a stretch may be is a stretch of its own.
  assert.deepEqual(stretches([{ start: 0, end: 10 }, { start: 10, end: MAX_SPAN + 20 }]).map((s) => s.ranges.length), [1, 1]);
});

test("a slice inside a stretch still being read waits for it and is answered from it; one whose stretch fails goes to the source; one outside goes at once", async () => {
  const file = Uint8Array.from({ length: 5000 }, (_, i) => (i * 13) & 255);
  const fromSource = [];
  const blob = { size: file.length, slice: (s, e) => (fromSource.push([s, e]), { arrayBuffer: async () => file.slice(s, e).buffer }) };
  const held = new Held();
  const source = held.blob(blob);
  // Two stretches read by hand: the first arrives when let go, the second fails.
  let letGo;
  const gate = new Promise((r) => (letGo = r));
  const reading = held.readSpans([{ start: 100, end: 900, ranges: [] }, { start: 2000, end: 2500, ranges: [] }], async (s, e) => {
    if (s === 2000) throw new Error("the source failed");
    await gate;
    return file.slice(s, e);
  }).catch((e) => e);
  const inside = source.slice(200, 300).arrayBuffer();
  const outside = source.slice(1000, 1100).arrayBuffer();
  const failed = source.slice(2100, 2200).arrayBuffer();
  assert.deepEqual([...new Uint8Array(await outside)], [...file.slice(1000, 1100)]);
  assert.deepEqual([...new Uint8Array(await failed)], [...file.slice(2100, 2200)]);
  assert.deepEqual(fromSource, [[1000, 1100], [2100, 2200]], "the slice inside the first stretch waits for it");
  letGo();
  assert.deepEqual([...new Uint8Array(await inside)], [...file.slice(200, 300)]);
  assert.deepEqual(fromSource, [[1000, 1100], [2100, 2200]], "and is answered from it");
  assert.equal((await reading).message, "the source failed");
  assert.deepEqual(held.served, { requests: 1, bytes: 100 });
  // Nothing is waited for once the reads are over.
  held.release([{ start: 100, end: 900 }]);
  assert.deepEqual([...new Uint8Array(await source.slice(200, 300).arrayBuffer())], [...file.slice(200, 300)]);
  assert.deepEqual(fromSource.at(-1), [200, 300]);
});

test("slices lately read from the source answer a slice inside one of them; the latest RECENT_COUNT slices and RECENT_MAX bytes are kept, none of a slice over RECENT_SLICE", async () => {
  const file = Uint8Array.from({ length: 50_000 }, (_, i) => (i * 17 + 5) & 255);
  const fromSource = [];
  const blob = { size: file.length, slice: (s, e) => (fromSource.push([s, e]), { arrayBuffer: async () => file.slice(s, e).buffer }) };
  const held = new Held();
  const source = held.blob(blob);
  const get = async (s, e) => [...new Uint8Array(await source.slice(s, e).arrayBuffer())];
  assert.deepEqual(await get(1000, 5000), [...file.slice(1000, 5000)]);
  assert.deepEqual(await get(1200, 1300), [...file.slice(1200, 1300)], "inside it");
  assert.deepEqual(await get(1000, 5000), [...file.slice(1000, 5000)], "all of it");
  assert.deepEqual(fromSource, [[1000, 5000]]);
  assert.deepEqual(held.served, { requests: 2, bytes: 4100 });
  await get(4900, 5100); // across its end: from the source
  assert.deepEqual(fromSource.at(-1), [4900, 5100]);
  // lately(): what the page itself looks up (a failed chunk's header), not counted as served.
  assert.deepEqual([...held.lately(2000, 2018)], [...file.slice(2000, 2018)]);
  assert.equal(held.lately(5050, 5200), null);
  assert.equal(held.lately(100, 200), null);
  assert.deepEqual(held.served, { requests: 2, bytes: 4100 });
  // Through an AsyncBuffer too.
  const viaBuffer = new Held();
  const reads = [];
  const buffer = viaBuffer.buffer({ byteLength: file.length, slice: async (s, e) => (reads.push([s, e]), file.slice(s, e)) });
  await buffer.slice(0, 100);
  assert.deepEqual([...new Uint8Array(await buffer.slice(10, 20))], [...file.slice(10, 20)]);
  assert.deepEqual(reads, [[0, 100]]);
  // Bounded: past RECENT_MAX bytes the oldest go; a slice over RECENT_SLICE is not kept.
  const big = new Held();
  let asked = 0;
  const huge = big.blob({ size: 2 * RECENT_MAX, slice: (s, e) => (asked++, { arrayBuffer: async () => new ArrayBuffer(e - s) }) });
  await huge.slice(0, RECENT_SLICE + 1).arrayBuffer();
  await huge.slice(0, 10).arrayBuffer();
  assert.equal(asked, 2, "a slice over RECENT_SLICE is not kept");
  const piece = RECENT_MAX / 4;
  for (let k = 0; k < 5; k++) await huge.slice(k * piece, (k + 1) * piece).arrayBuffer();
  asked = 0;
  for (let k = 1; k < 5; k++) await huge.slice(k * piece + 10, k * piece + 20).arrayBuffer();
  assert.equal(asked, 0, "the latest four of five pieces of RECENT_MAX / 4 stay");
  await huge.slice(10, 20).arrayBuffer();
  assert.equal(asked, 1, "the oldest went");
  // And at most RECENT_COUNT slices, however small.
  const many = new Held();
  let fetched = 0;
  const small = many.blob({ size: 1e6, slice: (s, e) => (fetched++, { arrayBuffer: async () => new ArrayBuffer(e - s) }) });
  for (let k = 0; k <= RECENT_COUNT; k++) await small.slice(k * 100, k * 100 + 18).arrayBuffer();
  fetched = 0;
  await small.slice(100, 118).arrayBuffer();
  assert.equal(fetched, 0, "the second slice stays");
  await small.slice(0, 18).arrayBuffer();
  assert.equal(fetched, 1, "the first went, past RECENT_COUNT slices");
});
