// The page's chunk headers read together (www/js/chunkheaders.js), in Node
// without a browser: which stretches are read, what the plan costs, and
// that each header is handed to the package once, as exactly its bytes.
// The page itself is tested in readonce.test.mjs (a Blob) and
// urlsource.test.mjs (HTTP).

import { test } from "node:test";
import assert from "node:assert/strict";
import { CHUNK_HEADER, HeldHeaders, MAX_GAP, MAX_SPAN, READ_TOGETHER_FROM, headerPlan, headerSpans } from "../../www/js/chunkheaders.js";

const chunk = (byteOffset, byteLength) => ({ byteOffset, byteLength });

test("headers at most MAX_GAP apart share a stretch; farther apart, or past MAX_SPAN, they start another; a header alone is left to the package", () => {
  const chunks = [
    chunk(5, 100), // with the next: 82 bytes apart
    chunk(105, MAX_GAP + CHUNK_HEADER), // ends its header MAX_GAP before the next
    chunk(105 + MAX_GAP + CHUNK_HEADER, 10), // a header of 10 bytes (a short chunk)
    chunk(10_000_000, 50), // alone: far from the rest
    chunk(20_000_000, 0), // empty: no header
  ];
  const spans = headerSpans(chunks);
  assert.deepEqual(spans, [{ start: 5, end: 105 + MAX_GAP + CHUNK_HEADER + 10, headers: [{ start: 5, end: 23 }, { start: 105, end: 123 }, { start: 105 + MAX_GAP + CHUNK_HEADER, end: 105 + MAX_GAP + CHUNK_HEADER + 10 }] }]);
  // One byte farther: two stretches of one header each, neither read ahead.
  const apart = headerSpans([chunk(0, 18), chunk(18 + MAX_GAP + 1, 18)]);
  assert.deepEqual(apart, []);
  // In file order whatever the footer's order.
  assert.deepEqual(headerSpans([chunk(200, 18), chunk(0, 18)]).map((s) => [s.start, s.end]), [[0, 218]]);
  // A stretch stops short of MAX_SPAN bytes.
  const step = MAX_GAP;
  const many = Array.from({ length: 300 }, (_, i) => chunk(i * step, step));
  const long = headerSpans(many);
  assert.ok(long.length > 1);
  for (const s of long) assert.ok(s.end - s.start <= MAX_SPAN, `a stretch of ${s.end - s.start} bytes`);
  assert.equal(long.reduce((a, s) => a + s.headers.length, 0), 300, "every header in one stretch");
});

test("the plan: below READ_TOGETHER_FROM chunks, one request a header; from it, one a stretch, with the bytes between headers counted", () => {
  const small = Array.from({ length: READ_TOGETHER_FROM - 1 }, (_, i) => chunk(5 + i * 100, 100));
  assert.deepEqual(headerPlan(small), { spans: [], requests: READ_TOGETHER_FROM - 1, bytes: (READ_TOGETHER_FROM - 1) * CHUNK_HEADER });
  const dense = Array.from({ length: 1000 }, (_, i) => chunk(5 + i * 100, 100));
  const plan = headerPlan(dense);
  assert.equal(plan.requests, 1);
  assert.equal(plan.bytes, 999 * 100 + CHUNK_HEADER, "from the first header's start to the last one's end");
  // Two dense runs far apart and one header alone: three requests.
  const mixed = [...dense, ...dense.map((c) => chunk(c.byteOffset + 50_000_000, 100)), chunk(90_000_000, 18)];
  assert.equal(headerPlan(mixed).requests, 3);
});

test("held headers: read by stretches, each handed out once and only for exactly its range; a short read is an error", async () => {
  const file = Uint8Array.from({ length: 1000 }, (_, i) => i & 255);
  const chunks = Array.from({ length: 10 }, (_, i) => chunk(i * 100, 100));
  const spans = headerSpans(chunks);
  const held = new HeldHeaders();
  const asked = [];
  const io = await held.readSpans(spans, async (s, e) => (asked.push([s, e]), file.slice(s, e)));
  assert.deepEqual(asked, [[0, 918]]);
  assert.deepEqual(io, { requests: 1, bytes: 918 });
  assert.equal(held.take(100, 117), null, "a range other than the header's is not answered");
  assert.deepEqual([...new Uint8Array(held.take(100, 118))], [...file.slice(100, 118)]);
  assert.equal(held.take(100, 118), null, "handed out once");
  assert.deepEqual(held.served, { requests: 1, bytes: 18 });

  // Through the Blob-like and AsyncBuffer wrappers the package is given.
  const blob = new Blob([file]);
  const viaBlob = held.blob(blob);
  assert.equal(viaBlob.size, 1000);
  assert.deepEqual([...new Uint8Array(await viaBlob.slice(200, 218).arrayBuffer())], [...file.slice(200, 218)]);
  assert.deepEqual([...new Uint8Array(await viaBlob.slice(200, 218).arrayBuffer())], [...file.slice(200, 218)], "the second time from the Blob");
  const viaBuffer = held.buffer({ byteLength: 1000, slice: async (s, e) => file.slice(s, e).fill(0) });
  assert.deepEqual([...new Uint8Array(await viaBuffer.slice(300, 318))], [...file.slice(300, 318)], "held: not the source's zeros");
  assert.deepEqual([...new Uint8Array(await viaBuffer.slice(300, 318))], Array(18).fill(0), "then from the source");
  held.clear();
  assert.equal(held.take(400, 418), null, "cleared");

  const short = new HeldHeaders();
  await assert.rejects(short.readSpans(spans, async (s, e) => file.slice(s, e - 1)), /read 917 bytes of 918 at 0/);
  const stopped = new AbortController();
  stopped.abort();
  await assert.rejects(new HeldHeaders().readSpans(spans, async (s, e) => file.slice(s, e), stopped.signal), { name: "AbortError" });
});
