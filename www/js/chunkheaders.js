// Chunk headers read together. Each chunk starts with an 18-byte header
// (its raw length and block count, FORMAT.md §3), and the package's
// loadChunkHeaders() asks its source for them, headers at most 8 KiB apart
// in one request (packageRequests in stretches.js). Where its requests lie
// close together, the page reads the stretch that holds them in one
// request and keeps each of the package's requests' bytes (stretches.js),
// for the package to take.

import { packageRequests, stretches } from "./stretches.js";

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

/**
 * How the headers of `chunks` are read: `spans`, the stretches the page
 * reads itself (none below READ_TOGETHER_FROM chunks), and the requests
 * and bytes it takes in all, the package's own requests outside them
 * included.
 */
export function headerPlan(chunks) {
  const asked = headerRequests(chunks);
  const spans = chunks.length >= READ_TOGETHER_FROM ? spansOf(asked) : [];
  let requests = asked.length;
  let bytes = asked.reduce((a, r) => a + r.end - r.start, 0);
  for (const s of spans) {
    requests -= s.ranges.length - 1;
    bytes += s.end - s.start - s.ranges.reduce((a, r) => a + r.end - r.start, 0);
  }
  return { spans, requests, bytes };
}
