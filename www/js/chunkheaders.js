// Chunk headers read together. Each chunk starts with an 18-byte header
// (its raw length and block count, FORMAT.md §3), and the package's
// loadChunkHeaders() asks its source for each one alone. Where headers lie
// close together, the page reads the stretch that holds them in one request
// and keeps each header's bytes (stretches.js), for the package to take.

import { stretches } from "./stretches.js";

/** A chunk header's length: at most 18 bytes (less in a shorter chunk). */
export const CHUNK_HEADER = 18;

/** Below this many chunks the package reads each header alone, as it
 *  would: a few hundred requests take a fraction of a second from a local
 *  file, and each chunk is then read once in all. */
export const READ_TOGETHER_FROM = 256;

/**
 * The stretches to read for the headers of `chunks` (each { byteOffset,
 * byteLength }): those of two headers or more (a header alone is left to
 * the package, which reads exactly it). Each is { start, end, ranges }.
 */
export function headerSpans(chunks, options) {
  const ranges = chunks.filter((cm) => cm.byteLength > 0).map((cm) => ({ start: cm.byteOffset, end: cm.byteOffset + Math.min(cm.byteLength, CHUNK_HEADER) }));
  return stretches(ranges, options).filter((s) => s.ranges.length > 1);
}

/**
 * How the headers of `chunks` are read: `spans`, the stretches the page
 * reads itself (none below READ_TOGETHER_FROM chunks), and the requests
 * and bytes it takes in all, the package's one request per header left
 * alone included.
 */
export function headerPlan(chunks) {
  const spans = chunks.length >= READ_TOGETHER_FROM ? headerSpans(chunks) : [];
  const lone = chunks.filter((cm) => cm.byteLength > 0);
  let requests = lone.length;
  let bytes = lone.reduce((a, cm) => a + Math.min(cm.byteLength, CHUNK_HEADER), 0);
  for (const s of spans) {
    requests -= s.ranges.length - 1;
    bytes += s.end - s.start - s.ranges.reduce((a, r) => a + r.end - r.start, 0);
  }
  return { spans, requests, bytes };
}
