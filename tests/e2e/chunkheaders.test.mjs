// Ranges read together (www/js/stretches.js) and the chunk headers' plan
// (www/js/chunkheaders.js), in Node without a browser: which stretches are
// read, what the plan costs, that a header is handed to the package once,
// as exactly its bytes, and a stretch kept whole answers any slice within
// it until released. The page itself: readonce.test.mjs (a Blob),
// urlsource.test.mjs (HTTP), longfile.test.mjs (passes over every row group).

import { test } from "node:test";
import assert from "node:assert/strict";
import { CHUNK_HEADER, READ_TOGETHER_FROM, headerPlan, headerSpans } from "../../www/js/chunkheaders.js";
import { Held, MAX_GAP, MAX_SPAN, stretches } from "../../www/js/stretches.js";

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
  assert.deepEqual(spans, [{ start: 5, end: 105 + MAX_GAP + CHUNK_HEADER + 10, ranges: [{ start: 5, end: 23 }, { start: 105, end: 123 }, { start: 105 + MAX_GAP + CHUNK_HEADER, end: 105 + MAX_GAP + CHUNK_HEADER + 10 }] }]);
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
  assert.equal(long.reduce((a, s) => a + s.ranges.length, 0), 300, "every header in one stretch");
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
  const held = new Held();
  const asked = [];
  const io = await held.readSpans(spans, async (s, e) => (asked.push([s, e]), file.slice(s, e)), { once: true });
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

  const short = new Held();
  await assert.rejects(short.readSpans(spans, async (s, e) => file.slice(s, e - 1)), /read 917 bytes of 918 at 0/);
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
