// Chunk headers read together. Each chunk starts with an 18-byte header
// (its raw length and block count, FORMAT.md §3), and the package's
// loadChunkHeaders() asks its source for them, headers at most 8 KiB apart
// in one request (packageRequests in stretches.js). Where its requests lie
// close together, the page reads the stretch that holds them in one
// request and keeps each of the package's requests' bytes (stretches.js),
// for the package to take.
//
// How close is "close" depends on the source. Over HTTP a request costs a
// round trip: requests up to MAX_GAP apart share a stretch, and a URL file
// whose headers would cost many requests or bytes opens without them
// (app.js). From a local File a read costs little, and a stretch's bytes
// between the headers are read for nothing: an 8.39 GiB file of 165,600
// chunks, most under 64 KiB, read 3.90 GiB for its 3 MB of headers. So
// there the bytes between are spent from a budget, HEADER_READ_FACTOR times
// the headers' own bytes, the smallest gaps first (each saves a read).

import { MAX_GAP, MAX_SPAN, packageRequests, stretches } from "./stretches.js";

/** A chunk header's length: at most 18 bytes (less in a shorter chunk). */
export const CHUNK_HEADER = 18;

/** Below this many chunks the package reads the headers alone, as it
 *  would: a few hundred requests take a fraction of a second from a local
 *  file, and each chunk is then read once in all. */
export const READ_TOGETHER_FROM = 256;

/** The requests loadChunkHeaders() makes for the headers of `chunks`. */
function headerRequests(chunks) {
  return packageRequests(chunks.filter((cm) => cm.byteLength > 0).map((cm) => ({ start: cm.byteOffset, end: cm.byteOffset + Math.min(cm.byteLength, CHUNK_HEADER) })));
}

/**
 * The stretches to read for the headers of `chunks` (each { byteOffset,
 * byteLength }): those that hold two or more of the package's requests
 * (one alone is left to the package, which reads exactly it). Each is
 * { start, end, ranges }, its ranges the package's requests.
 */
export function headerSpans(chunks, options) {
  return spansOf(headerRequests(chunks), options);
}

const spansOf = (asked, options) => stretches(asked, options).filter((s) => s.ranges.length > 1);

/** From a local File, the bytes read for the headers stay within this
 *  many times the headers' own bytes (the package's requests included). */
export const HEADER_READ_FACTOR = 4;

/**
 * The stretches to read from a local File for the package's requests
 * `asked` (in file order): neighbours joined, the closest first, while all
 * that is read, the package's requests and the bytes between those joined,
 * stays within HEADER_READ_FACTOR times the headers' bytes (`need`), none
 * farther apart than MAX_GAP and no stretch over MAX_SPAN. Only those that
 * join two requests or more.
 */
function budgetSpans(asked, need) {
  if (asked.length < 2) return [];
  const gaps = [];
  for (let k = 0; k + 1 < asked.length; k++) gaps.push(asked[k + 1].start - asked[k].end);
  const order = gaps.map((_, k) => k).sort((a, b) => gaps[a] - gaps[b]);
  const join = new Uint8Array(gaps.length);
  let budget = HEADER_READ_FACTOR * need - asked.reduce((a, r) => a + r.end - r.start, 0);
  for (const k of order) {
    if (gaps[k] > budget || gaps[k] > MAX_GAP) break;
    budget -= gaps[k];
    join[k] = 1;
  }
  const out = [];
  let span = { start: asked[0].start, end: asked[0].end, ranges: [asked[0]] };
  for (let k = 1; k < asked.length; k++) {
    const r = asked[k];
    if (join[k - 1] && r.end - span.start <= MAX_SPAN) {
      span.end = r.end;
      span.ranges.push(r);
    } else {
      out.push(span);
      span = { start: r.start, end: r.end, ranges: [r] };
    }
  }
  out.push(span);
  return out.filter((x) => x.ranges.length > 1);
}

/**
 * How the headers of `chunks` are read: `spans`, the stretches the page
 * reads itself (none below READ_TOGETHER_FROM chunks), and the requests
 * and bytes it takes in all, the package's own requests outside them
 * included. `http`: over HTTP (stretches up to MAX_GAP apart), else from a
 * local File (within the HEADER_READ_FACTOR budget).
 */
export function headerPlan(chunks, { http = false } = {}) {
  const asked = headerRequests(chunks);
  const need = chunks.reduce((a, cm) => a + Math.min(cm.byteLength, CHUNK_HEADER), 0);
  const spans = chunks.length < READ_TOGETHER_FROM ? [] : http ? spansOf(asked) : budgetSpans(asked, need);
  let requests = asked.length;
  let bytes = asked.reduce((a, r) => a + r.end - r.start, 0);
  for (const s of spans) {
    requests -= s.ranges.length - 1;
    bytes += s.end - s.start - s.ranges.reduce((a, r) => a + r.end - r.start, 0);
  }
  return { spans, requests, bytes };
}
