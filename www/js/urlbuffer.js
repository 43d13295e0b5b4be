// An AsyncBuffer over HTTP: { byteLength, slice(start, end) } where every
// slice is one GET with a `Range: bytes=start-(end-1)` header.

import { fmtBytes, fmtInt } from "./format.js";

/** The most a file downloaded whole may be (a server that ignores Range
 *  requests, or a file loaded whole into memory): what the page holds. */
export const WHOLE_LIMIT = 1536 * 1024 * 1024;

// A download's progress at most this often (ms).
const PROGRESS_EVERY = 100;

function sourceError(message) {
  const e = new Error(message);
  e.kind = "bad_source";
  return e;
}

function kindError(kind, message) {
  const e = new Error(message);
  e.kind = kind;
  return e;
}

async function httpFail(url, r, what) {
  return sourceError(`${what}: HTTP ${r.status} ${r.statusText || ""} for ${url}`.trim());
}

const sizeText = (n) => `${fmtBytes(n)} (${fmtInt(n)} bytes)`;

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

/**
 * Learns the size of `url` from a HEAD request, or from a one-byte Range
 * probe's Content-Range when HEAD gives no length. A server that ignores
 * Range requests is read once in full (and said so in `note`), streamed
 * with `onProgress({ label, bytes, totalBytes })` as it comes, and refused
 * (`too_large`) past `limit` bytes: before any of it is downloaded when
 * its size is known, else as soon as the bytes pass the limit.
 * `stats` counts what came over the network: every range read, and a
 * whole-file download as one read of all its bytes (the reads served from
 * it after that fetch nothing).
 * `signal` stops every request of this source, a download under way
 * included (another file opened): what waits on one fails as `cancelled`.
 */
export async function openUrl(url, { limit = WHOLE_LIMIT, signal, onProgress } = {}) {
  let size = null;
  let ranges = false;
  let wholeP = null; // the whole file, once a server sent it all: later and concurrent reads wait for it, none downloads it again
  let note = "";
  const stats = { requests: 0, bytes: 0 };
  const IGNORED = "the server ignores Range requests, so the whole file was downloaded";
  const stopped = () => kindError("cancelled", `stopped reading ${url}: another file was opened`);
  const checkStopped = () => {
    if (signal?.aborted) throw stopped();
  };
  const get = (init) => fetch(url, { cache: "no-store", signal, ...init });

  /**
   * A 200 answer's body, whole. Refused before any of it is read when its
   * Content-Length (or HEAD's) says it is over the limit, and as soon as the
   * bytes read pass the limit when neither says. Read into one buffer of
   * Content-Length bytes when that can be trusted (no Content-Encoding: the
   * browser then holds the body to it), else piece by piece, joined at the end.
   */
  const download = async (r, { ignored, progress }) => {
    const cl = r.headers.get("content-length");
    const declared = cl !== null && /^\d+$/.test(cl) && !r.headers.get("content-encoding") ? Number(cl) : null;
    const total = declared ?? size;
    const why = ignored ? "a file downloaded whole (the server ignores Range requests, so it cannot be read in parts)" : "a file loaded whole into memory";
    if (total !== null && total > limit) {
      r.body?.cancel().catch(() => {});
      throw kindError("too_large", `the file is ${sizeText(total)}, over the ${sizeText(limit)} limit on ${why}; none of it was downloaded`);
    }
    if (!r.body) return new Uint8Array(0);
    let buf = null;
    const parts = [];
    if (declared !== null) {
      try {
        buf = new Uint8Array(declared);
      } catch {
        r.body.cancel().catch(() => {});
        throw kindError("too_large", `the file is ${sizeText(declared)}: this tab cannot hold it in memory`);
      }
    }
    const reader = r.body.getReader();
    let n = 0;
    let shown = 0;
    const report = () => {
      const now = Date.now();
      if (n && n !== declared && now - shown < PROGRESS_EVERY) return;
      shown = now;
      const of = total !== null && n <= total ? total : null;
      progress?.({ label: downloadText(n, of), bytes: n, totalBytes: of });
    };
    report();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (n + value.length > limit) {
          throw kindError("too_large", `the file is over the ${sizeText(limit)} limit on ${why}; the server did not say its size, and the download was stopped after ${fmtBytes(n + value.length)}`);
        }
        if (buf) {
          if (n + value.length > buf.length) throw sourceError(`the server sent more than the ${fmtInt(declared)} bytes of its Content-Length (${url})`);
          buf.set(value, n);
        } else parts.push(value);
        n += value.length;
        report();
      }
    } catch (e) {
      reader.cancel().catch(() => {});
      if (signal?.aborted) throw stopped();
      if (e.kind) throw e;
      throw sourceError(`downloading ${url} failed after ${fmtBytes(n)}: ${e.message}`);
    }
    if (buf) {
      if (n !== declared) throw sourceError(`the download ended after ${fmtInt(n)} of its ${fmtInt(declared)} bytes (${url})`);
      return buf;
    }
    const all = new Uint8Array(n);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    return all;
  };
  const counted = (all) => {
    stats.requests++;
    stats.bytes += all.length;
    return all;
  };
  const takeWhole = (r) =>
    (wholeP ??= download(r, { ignored: true, progress: onProgress }).then((all) => {
      note = IGNORED;
      return counted(all);
    }));
  try {
    const r = await get({ method: "HEAD" });
    // A 401 or 403 on HEAD may be a URL signed for GET only (S3, GCS): the probe below decides.
    if (r.status === 404 || r.status === 410) throw await httpFail(url, r, "cannot open");
    if (r.ok) {
      const len = r.headers.get("content-length");
      if (len !== null && /^\d+$/.test(len) && !r.headers.get("content-encoding")) size = Number(len);
      ranges = (r.headers.get("accept-ranges") || "").toLowerCase() === "bytes";
    }
  } catch (e) {
    if (e.kind) throw e;
    // A network or CORS failure on HEAD: try the probe below.
  }
  checkStopped();
  if (size === null || !ranges) {
    let r;
    try {
      r = await get({ headers: { Range: "bytes=0-0" } });
    } catch (e) {
      checkStopped();
      throw sourceError(`cannot fetch ${url}: ${e.message} (a server on another origin must allow CORS and expose Content-Range)`);
    }
    if (r.status === 206) {
      const m = /\/(\d+)\s*$/.exec(r.headers.get("content-range") || "");
      await r.arrayBuffer();
      if (!m) throw sourceError(`the server answered a Range request without a readable Content-Range total (${url})`);
      size = Number(m[1]);
      ranges = true;
    } else if (r.status === 416) {
      const m = /\/(\d+)\s*$/.exec(r.headers.get("content-range") || "");
      size = m ? Number(m[1]) : 0;
      ranges = true;
    } else if (r.ok) {
      size = (await takeWhole(r)).length;
    } else throw await httpFail(url, r, "cannot open");
  }

  const buffer = {
    byteLength: size,
    async slice(start, end) {
      if (end <= start) return new Uint8Array(0);
      if (wholeP) return (await wholeP).subarray(start, end);
      let r;
      try {
        r = await get({ headers: { Range: `bytes=${start}-${end - 1}` } });
      } catch (e) {
        checkStopped();
        throw e;
      }
      if (r.status === 206) {
        const buf = new Uint8Array(await r.arrayBuffer());
        stats.requests++;
        stats.bytes += buf.length;
        if (buf.length !== end - start) throw sourceError(`asked for ${end - start} bytes at ${start}, the server sent ${buf.length}`);
        return buf;
      }
      if (r.status === 200) {
        // The server ignored the range: keep the body and serve from it
        // (a read that raced this one drops its own copy of the body).
        if (wholeP) r.body?.cancel();
        const all = await takeWhole(r);
        if (all.length !== size) throw sourceError(`the file changed size while reading (${size} -> ${all.length} bytes)`);
        return all.subarray(start, end);
      }
      // (No range here: the package's message around this one names it.)
      throw await httpFail(url, r, "range request");
    },
  };
  return {
    buffer,
    stats,
    get note() {
      return note;
    },
    /** The whole file (Timing from memory), with its own progress. */
    async readAll({ onProgress: progress } = {}) {
      if (wholeP) return wholeP;
      const r = await get({});
      if (!r.ok) throw await httpFail(url, r, "downloading");
      // Not kept for slice(): reads "from the file" stay reads over HTTP.
      return counted(await download(r, { ignored: false, progress }));
    },
  };
}
