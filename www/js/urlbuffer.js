// A file over HTTP for the page: the package's columns-wasm/http
// (asyncBufferFromUrl: HEAD or a Range probe, a server that ignores Range
// streamed once, limits, aborts, stats) with what only the page adds: its
// limit on a file held whole, the status line's progress text, and the
// page's `cancelled` for a stop.

import { asyncBufferFromUrl } from "./columns.js";
import { fmtBytes } from "./format.js";

/** The most a file downloaded whole may be (a server that ignores Range
 *  requests, or a file loaded whole into memory): what the page holds. */
export const WHOLE_LIMIT = 1536 * 1024 * 1024;

/** What a download shows as it goes: the share when the total is known,
 *  bytes so far and of how many ("47% downloaded (1.02 of 2.17 MiB)"). */
export function downloadText(done, total) {
  if (!total) return `${fmtBytes(done)} downloaded`;
  const [a, b] = [fmtBytes(done), fmtBytes(total)];
  const unit = / \S+$/.exec(b)[0];
  // One unit for both where they share it: the line has little room.
  const so = a.endsWith(unit) ? a.slice(0, -unit.length) : a;
  return `${Math.floor((100 * done) / total)}% downloaded (${so} of ${b})`;
}

/** The package's progress { bytes, totalBytes } with the status line's label. */
const labelled = (onProgress) => onProgress && ((p) => onProgress({ label: downloadText(p.bytes, p.totalBytes), ...p }));

/** `promise`, with an abort (another file opened, or the read's own
 *  `signal`: its work stopped) as the page's `cancelled`. */
async function pageKind(url, promise, signal = null) {
  try {
    return await promise;
  } catch (e) {
    if (e?.kind !== "aborted") throw e;
    const c = new Error(`stopped reading ${url}: ${signal?.aborted ? "stopped" : "another file was opened"}`);
    c.kind = "cancelled";
    throw c;
  }
}

/**
 * Opens `url` (see the package's asyncBufferFromUrl) within `limit`;
 * `onProgress({ label, bytes, totalBytes })` as a whole download comes;
 * `signal` stops every request of this source. Gives { buffer, stats,
 * note, readAll({ onProgress, signal }) }: `stats` counts what came over the
 * network, `readAll` is the whole file (Timing from memory).
 */
export async function openUrl(url, { limit = WHOLE_LIMIT, signal, onProgress } = {}) {
  const source = await pageKind(url, asyncBufferFromUrl(url, { limit, signal, onProgress: labelled(onProgress), requestInit: { cache: "no-store" } }));
  return {
    // (a read's { signal } ends its requests in flight)
    buffer: { byteLength: source.byteLength, slice: (start, end, options) => pageKind(url, source.slice(start, end, options), options?.signal) },
    stats: source.stats,
    get note() {
      return source.note;
    },
    readAll: ({ onProgress: progress, signal } = {}) => pageKind(url, source.readAll({ onProgress: labelled(progress), signal }), signal),
  };
}
