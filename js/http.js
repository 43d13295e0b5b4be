// columns-wasm/http: a file on a web server as an AsyncBuffer
// ({ byteLength, slice(start, end) }) for ColumnsFile.fromAsyncBuffer, each
// slice one GET with a Range header. What real servers do is handled here:
//   - each 206 is checked against its Content-Range (the bytes it names,
//     the file's size): a range capped shorter than asked is completed by
//     asking for the rest, a wider one is cut to the bytes asked, any other
//     (another start, a body longer or shorter than its Content-Range, a
//     multipart/byteranges body) is refused;
//   - the size comes from HEAD; when HEAD gives none (or is refused, as a
//     URL signed for GET only is), from a one-byte Range probe's
//     Content-Range total;
//   - a server that ignores Range and answers 200 with the whole body: the
//     body is streamed once (progress, a size limit checked before the
//     body when its size is known, else as the bytes come), kept, and every
//     read, concurrent ones included, is served from it;
//   - a file the server sends compressed (Content-Encoding on a 206: its
//     ranges are of the compressed bytes) is downloaded whole, decoded;
//   - a file replaced on the server while it is read (another ETag, or
//     Last-Modified date, or size than the first answer's) is refused, so
//     bytes of two files never mix, and so is every read after that;
//   - an AbortSignal stops every request and a download under way, and a
//     read's (slice(start, end, { signal }), as the package passes it)
//     stops that read's;
//   - `stats` counts what came over the network.
// Errors are ColumnsErrors (by name, as columns-wasm/arrow's): bad_source
// with the status and the URL, too_large, aborted, bad_argument.
// It needs nothing from the package at run time.

/** A whole download may be at most this many bytes unless `limit` says. */
const DEFAULT_LIMIT = 1024 * 1024 * 1024;
// Progress is reported at most this often (ms), and at the start and end.
const PROGRESS_EVERY = 100;
const IGNORED = "the server ignores Range requests, so the whole file was downloaded";
const CORS = "a server on another origin must allow CORS and expose Content-Range";
// The most requests one slice() may take from a server that sends less
// than asked: ranges capped at 1 KiB still read 1 MiB.
const MAX_PIECES = 1024;
// A browser hides an answer's Content-Range from a page on another origin
// unless the server names it so.
const EXPOSE = "a server on another origin must name it in Access-Control-Expose-Headers (Content-Range, Accept-Ranges, ETag), or a browser hides it";

class HttpError extends Error {
  constructor(message, kind, cause) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "ColumnsError";
    this.kind = kind;
    this.rowGroup = this.column = this.offset = null;
  }

  toJSON() {
    const { name, message, kind, rowGroup, column, offset } = this;
    return { name, message, kind, rowGroup, column, offset };
  }
}

const grouped = new Intl.NumberFormat("en-US");
/** "1.50 GiB (1,610,612,736 bytes)": the size in binary units, then exact. */
function sizeText(n) {
  return `${binaryUnits(n)} (${grouped.format(n)} bytes)`;
}
function binaryUnits(n) {
  const units = ["KiB", "MiB", "GiB", "TiB"];
  if (n < 1024) return `${n} B`;
  let v = n / 1024;
  let u = 0;
  for (; v >= 1024 && u < units.length - 1; u++) v /= 1024;
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)} ${units[u]}`;
}

/** A non-negative whole number from a header, or null. */
function headerNumber(text) {
  return text !== null && /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}
/** The total after the slash of a Content-Range header, or null. */
function rangeTotal(r) {
  const m = /\/(\d+)\s*$/.exec(r.headers.get("content-range") || "");
  return m ? Number(m[1]) : null;
}
/** A Content-Range header's { from, to, total } (total null for "*"), or null when there is none to read. */
function contentRange(r) {
  const m = /^\s*bytes\s+(\d+)\s*-\s*(\d+)\s*\/\s*(\d+|\*)\s*$/i.exec(r.headers.get("content-range") || "");
  if (!m || Number(m[2]) < Number(m[1])) return null;
  return { from: Number(m[1]), to: Number(m[2]), total: m[3] === "*" ? null : Number(m[3]) };
}
/**
 * Which version of the file an answer is of: its ETag (compared the weak
 * way, W/ aside: a server that compresses one answer may weaken its tag
 * while the bytes served stay the same file), else its Last-Modified. A
 * cross-origin answer shows an ETag only when the server exposes it; a
 * Last-Modified always. Either may be absent: an answer without one says
 * nothing.
 */
function versionOf(r) {
  const etag = r.headers.get("etag");
  return { etag: etag && etag.trim().replace(/^W\//, ""), modified: r.headers.get("last-modified") };
}

/** An answer's Content-Encoding when it is one fetch decodes (not identity), else null. */
function encodingOf(r) {
  const e = (r.headers.get("content-encoding") || "").trim().toLowerCase();
  return e && e !== "identity" ? e : null;
}

/** The body's length when the body will hold to it (not compressed on the way). */
function declaredLength(r) {
  return r.headers.get("content-encoding") ? null : headerNumber(r.headers.get("content-length"));
}

/**
 * A signal that fires when either of two does (either alone when the other
 * is null), and a function that stops listening to them: a read's signal
 * and the source's, which lives as long as the source (so no listener may
 * stay on it after the read).
 */
function eitherSignal(a, b) {
  if (!a || !b) return [a ?? b, () => {}];
  const both = new AbortController();
  const onA = () => both.abort(a.reason);
  const onB = () => both.abort(b.reason);
  if (a.aborted) onA();
  else if (b.aborted) onB();
  a.addEventListener("abort", onA);
  b.addEventListener("abort", onB);
  return [
    both.signal,
    () => {
      a.removeEventListener("abort", onA);
      b.removeEventListener("abort", onB);
    },
  ];
}

/** Whether `s` is an AbortSignal, or null (none). */
const isSignal = (s) => s === null || (typeof s === "object" && typeof s.aborted === "boolean" && typeof s.addEventListener === "function");

/** The options, checked: a wrong one is a bad_argument, never ignored. */
function checkOptions(url, options) {
  try {
    return readOptions(url, options);
  } catch (e) {
    if (e instanceof HttpError) throw e;
    // A Proxy whose traps throw, a revoked one, a getter that throws: what
    // was passed cannot even be looked at.
    throw new HttpError("asyncBufferFromUrl: its URL or options threw when read", "bad_argument", e);
  }
}

const OPTIONS = ["headers", "fetch", "signal", "limit", "onProgress", "requestInit", "checkVersion"];

/** A misspelt option would be ignored and its default taken in silence. */
function refuseUnknown(options, method, names) {
  for (const k of Object.keys(options ?? {})) if (!names.includes(k)) throw new HttpError(`${method} has no option ${JSON.stringify(k.slice(0, 100))}; it takes ${names.join(", ")}`, "bad_argument");
}

function readOptions(url, options) {
  const bad = (what) => new HttpError(`asyncBufferFromUrl: ${what}`, "bad_argument");
  if (typeof url !== "string" && !(typeof URL === "function" && url instanceof URL)) throw bad("the URL must be a string or a URL");
  if (options !== undefined && options !== null && typeof options !== "object") throw bad("options must be an object");
  refuseUnknown(options, "asyncBufferFromUrl", OPTIONS);
  const { headers, fetch = globalThis.fetch, signal, limit = DEFAULT_LIMIT, onProgress, requestInit, checkVersion = true } = options ?? {};
  if (typeof fetch !== "function") throw bad(options?.fetch !== undefined ? `options.fetch must be a function, not ${options.fetch === null ? "null" : `a ${typeof options.fetch}`}` : "there is no global fetch here: pass options.fetch");
  // The global fetch takes absolute URLs (in a page or worker, relative to
  // it): anything else would fail there as a network error, with a CORS hint
  // that misleads. A fetch of one's own may read other names: its call.
  if (fetch === globalThis.fetch && URL.canParse?.(String(url), globalThis.location?.href) === false) {
    throw bad(`${JSON.stringify(String(url).slice(0, 200))} is not a URL${globalThis.location ? "" : " (here it must be absolute: http://… or https://…)"}`);
  }
  if (signal != null && !isSignal(signal)) throw bad("signal must be an AbortSignal");
  if (typeof limit !== "number" || !(limit >= 0)) throw bad("limit must be a number of bytes, 0 or more");
  if (onProgress != null && typeof onProgress !== "function") throw bad("onProgress must be a function");
  if (requestInit != null && typeof requestInit !== "object") throw bad("requestInit must be an object");
  // What the module sets itself would be dropped in silence.
  const own = { method: "every request is this module's GET or HEAD", body: "every request is this module's GET or HEAD, which has none", headers: "pass options.headers", signal: "pass options.signal" };
  for (const k in own) if (requestInit?.[k] !== undefined) throw bad(`requestInit.${k} is not taken: ${own[k]}`);
  if (typeof checkVersion !== "boolean") throw bad("checkVersion must be true or false");
  let base;
  try {
    base = new Headers(headers ?? undefined);
  } catch (e) {
    throw bad(`headers are not usable as HTTP headers: ${e.message}`);
  }
  return { href: String(url), base, fetch, signal: signal ?? null, limit, onProgress: onProgress ?? null, requestInit: requestInit ?? {}, checkVersion };
}

/**
 * Opens `url` for range reads. Resolves to an AsyncBuffer with `stats`
 * ({ requests, bytes }: every range read, and a whole download as one
 * read of all its bytes), `note` (why the file was downloaded whole, or ""),
 * `url`, and `readAll()` (the whole file, in memory).
 */
export async function asyncBufferFromUrl(url, options) {
  const { href, base, fetch, signal, limit, onProgress, requestInit, checkVersion } = checkOptions(url, options);
  let size = null;
  // The size the source gave as its byteLength, once opened (while it
  // opens, a whole body's length may still decide the size).
  let opened = false;
  let ranges = false;
  let whole = null; // the whole file, once a server sent it all: later and concurrent reads wait for it
  let note = "";
  const stats = { requests: 0, bytes: 0 };

  const aborted = () => new HttpError(`stopped reading ${href}: the request was aborted`, "aborted", signal.reason);
  const checkAborted = () => {
    if (signal?.aborted) throw aborted();
  };
  // The file's version as the first answer that named one said it: every
  // later answer must be of the same, or the bytes would mix two files (a
  // dataset deployed again while it is read). An ETag seen decides; the
  // Last-Modified dates only while no answer has shown an ETag.
  const first = { etag: null, modified: null };
  // The error that found the file changed (another version or size), once
  // one did: every later slice() and readAll() fails with it, so no read
  // after that serves bytes of either file as if they were one.
  let changedError = null;
  const changed = (message) => (changedError = new HttpError(message, "bad_source"));
  const checkUnchanged = () => {
    if (changedError) throw new HttpError(changedError.message, "bad_source");
  };
  const sameVersion = (r) => {
    if (!checkVersion || !r.ok) return;
    const { etag, modified } = versionOf(r);
    const other = (what, was, now) => {
      r.body?.cancel().catch(() => {});
      return changed(`the file changed on the server while it was read (its ${what} was ${was}, now ${now}): ${href}`);
    };
    if (etag) {
      first.etag ??= etag;
      if (etag !== first.etag) throw other("ETag", first.etag, etag);
    } else if (modified && !first.etag) {
      first.modified ??= modified;
      if (modified !== first.modified) throw other("Last-Modified", first.modified, modified);
    }
  };
  const statusError = (r, what) => {
    r.body?.cancel().catch(() => {}); // an error page's body: dropped, not downloaded for nothing
    return new HttpError(`${what}: HTTP ${r.status} ${r.statusText || ""}`.trimEnd() + ` for ${href}`, "bad_source");
  };
  // (`stop`: the source's signal, or it and a read's, by eitherSignal.)
  const request = async (method, range, stop = signal) => {
    const headers = new Headers(base);
    if (range) headers.set("Range", range);
    try {
      return await fetch(href, { ...requestInit, method, headers, ...(stop ? { signal: stop } : {}) });
    } catch (e) {
      checkAborted();
      // CORS is no answer for the page's own server (down, or the network),
      // nor outside a page (Node has no CORS: its fetch says why in a cause).
      const noCors = (() => {
        try {
          return globalThis.location === undefined || new URL(href, globalThis.location.href).origin === globalThis.location.origin;
        } catch {
          return false;
        }
      })();
      const why = [e?.message ?? e, e?.cause?.message].filter((m) => typeof m === "string" && m).join(": ");
      // Node's fetch says why in a cause: a system or socket error (its
      // code: ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, ...) is the network's;
      // one without a code is fetch refusing the request itself (a file:
      // URL, a redirect that requestInit refuses, a port it blocks), where a
      // hint about the server or CORS would mislead.
      const refused = e?.cause !== null && typeof e?.cause === "object" && typeof e.cause.code !== "string";
      const hint = refused ? "" : noCors ? " (the server did not answer, or the connection broke)" : ` (${CORS})`;
      throw new HttpError(`cannot fetch ${href}: ${why}${hint}`, "bad_source", e);
    }
  };

  /**
   * A 200 answer's body, whole. Refused before any of it is read when its
   * size is known and over the limit, and as soon as the bytes pass the
   * limit when it is not. Read into one buffer when Content-Length can be
   * trusted (no Content-Encoding), else in pieces joined at the end.
   */
  const download = async (r, ignored, progress) => {
    const declared = declaredLength(r);
    const total = declared ?? size;
    const why = ignored ? "a file downloaded whole (the server ignores Range requests, so it cannot be read in parts)" : "a file read whole into memory";
    if (total !== null && total > limit) {
      r.body?.cancel().catch(() => {});
      throw new HttpError(`the file is ${sizeText(total)}, over the ${sizeText(limit)} limit on ${why}; none of it was downloaded`, "too_large");
    }
    if (!r.body) return new Uint8Array(await r.arrayBuffer());
    let buf = null;
    const parts = [];
    if (declared !== null) {
      try {
        buf = new Uint8Array(declared);
      } catch (e) {
        r.body.cancel().catch(() => {});
        throw new HttpError(`the file is ${sizeText(declared)}: there is not memory enough to hold it`, "too_large", e);
      }
    }
    const reader = r.body.getReader();
    let n = 0;
    let reported = 0;
    let last = "";
    // (`end`: every byte came, said whatever the time: with a size no one
    // said, a progress bar would otherwise stop short of the end)
    const report = (end = false) => {
      const now = Date.now();
      const p = { bytes: n, totalBytes: end ? n : total !== null && n <= total ? total : null };
      if (!progress || `${p.bytes}/${p.totalBytes}` === last || (!end && n && n !== declared && now - reported < PROGRESS_EVERY)) return;
      reported = now;
      last = `${p.bytes}/${p.totalBytes}`;
      progress(p);
    };
    report();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (n + value.length > limit) {
          throw new HttpError(`the file is over the ${sizeText(limit)} limit on ${why}; the server did not say its size, and the download was stopped after ${binaryUnits(n + value.length)}`, "too_large");
        }
        if (buf) {
          if (n + value.length > buf.length) throw new HttpError(`the server sent more than the ${grouped.format(declared)} bytes of its Content-Length (${href})`, "bad_source");
          buf.set(value, n);
        } else parts.push(value);
        n += value.length;
        report();
      }
    } catch (e) {
      reader.cancel().catch(() => {});
      checkAborted();
      if (e instanceof HttpError) throw e;
      throw new HttpError(`downloading ${href} failed after ${binaryUnits(n)}: ${e?.message ?? e}`, "bad_source", e);
    }
    if (buf && n !== declared) throw new HttpError(`the download ended after ${grouped.format(n)} of its ${grouped.format(declared)} bytes (${href})`, "bad_source");
    report(true);
    if (buf) return buf;
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
  /** A whole body said to be of another size than the file's (once opened): refused before it is read. */
  const sizedAsFile = (r) => {
    const declared = declaredLength(r);
    if (!opened || declared === null || declared === size) return;
    r.body?.cancel().catch(() => {});
    throw sizeChanged(declared);
  };
  // (`readSignal`: the signal of the read whose request this body answers.)
  const keepWhole = (r, why = IGNORED, readSignal = null) => {
    if (whole) return whole;
    // Only a body of the file's size is kept: one of another (the file
    // replaced by a server that now ignores Range) is refused, counted as
    // what came, and never served.
    sizedAsFile(r);
    const p = download(r, true, onProgress).then((all) => {
      counted(all);
      if (opened && all.length !== size) throw sizeChanged(all.length);
      note = why;
      return all;
    });
    // A download that failed (a connection reset) is not kept: the next
    // read asks again, or one bad moment would spoil the source for good.
    p.catch(() => {
      if (whole === p) whole = null;
    });
    // Stopped by the read that asked for it, not by the source's signal:
    // reads that were waiting for it ask again.
    p.stopped = () => readSignal?.aborted && !signal?.aborted;
    whole = p;
    return p;
  };
  /** The whole file when a server sent it all (waiting for it while it comes), else null. */
  const wholeKept = async () => {
    for (let w; (w = whole); ) {
      try {
        return await w;
      } catch (e) {
        if (!w.stopped()) throw e;
      }
    }
    return null;
  };

  // One range asked, several parts sent: HTTP forbids it, and their framing is no part of the file.
  const refuseMultipart = (r) => {
    if (!/^\s*multipart\/byteranges/i.test(r.headers.get("content-type") || "")) return;
    r.body?.cancel().catch(() => {});
    throw new HttpError(`the server answered one range with a multipart/byteranges body, which this does not read (${href})`, "bad_source");
  };
  // Whether the size is HEAD's alone, no GET having confirmed it yet: then
  // another total may as well be a server whose HEAD does not describe what
  // its GETs send (another representation, a CDN's stale copy).
  let headSizeOnly = false;
  const sizeChanged = (total) =>
    changed(
      headSizeOnly
        ? `the file changed size on the server while it was read (${size} -> ${total} bytes), or the server's HEAD, which gave ${size} bytes, does not describe what its GETs send (${href})`
        : `the file changed size on the server while it was read (${size} -> ${total} bytes, ${href})`,
    );
  /**
   * The bytes from `at` (up to `end`) a 206 answer holds, checked against
   * its Content-Range: the total must be the size, the body as long as the
   * range it names, and that range must hold byte `at` (it may start before
   * it, or stop short of `end`). { bytes, received }: the bytes wanted, and
   * how many came.
   */
  const rangeAnswer = async (r, at, end) => {
    refuseMultipart(r);
    // A compressed range is, by HTTP, a range of the compressed file, which
    // fetch then decodes: its lengths no longer agree, and it is refused by
    // what it is. (A server that compresses each range's own bytes is
    // readable: its lengths agree.)
    const encoding = encodingOf(r);
    const refuse = (message, cause) =>
      new HttpError(encoding ? `the server compressed a range (Content-Encoding: ${encoding}): its bytes are those of the compressed file, not of the file; serve it without compression (${href})` : message, "bad_source", cause);
    let buf;
    try {
      buf = new Uint8Array(await r.arrayBuffer());
    } catch (e) {
      checkAborted();
      throw refuse(`reading the answer from ${href} failed: ${e?.message ?? e}`, e);
    }
    const range = contentRange(r);
    if (!range) {
      // No Content-Range this code can see: the body must be the bytes asked, all of them.
      if (buf.length !== end - at) throw refuse(`asked for ${end - at} bytes at ${at}, the server sent ${buf.length} without a readable Content-Range (${href})`);
      return { bytes: buf, received: buf.length };
    }
    if (range.total !== null && range.total !== size) throw encoding ? refuse() : sizeChanged(range.total);
    if (range.total !== null) headSizeOnly = false;
    const named = `bytes ${range.from}-${range.to}/${range.total ?? "*"}`;
    if (buf.length !== range.to - range.from + 1) throw refuse(`the server sent ${buf.length} bytes in an answer whose Content-Range is ${named} (${href})`);
    if (range.from > at) throw new HttpError(`asked for bytes from ${at}, the server sent them from ${range.from} (${href})`, "bad_source");
    if (range.to < at) throw new HttpError(`asked for bytes from ${at}, the server sent ${named} (${href})`, "bad_source");
    return { bytes: buf.subarray(at - range.from, Math.min(range.to + 1, end) - range.from), received: buf.length };
  };

  // HEAD: the size, and whether ranges are served. A network or CORS
  // failure of HEAD alone leaves it to the probe.
  let head = null;
  try {
    head = await request("HEAD");
  } catch (e) {
    if (e.kind !== "bad_source") throw e;
  }
  // A 401 or 403 may be a URL signed for GET only (S3, GCS): the probe decides.
  if (head && (head.status === 404 || head.status === 410)) throw statusError(head, "cannot open");
  if (head?.ok) {
    sameVersion(head);
    size = declaredLength(head);
    ranges = (head.headers.get("accept-ranges") || "").trim().toLowerCase() === "bytes";
  }
  checkAborted();
  // A HEAD of length 0 is as likely a server's habit as an empty file: the
  // probe decides.
  headSizeOnly = size !== null && size > 0 && ranges;
  if (!headSizeOnly) {
    const r = await request("GET", "bytes=0-0");
    sameVersion(r);
    if (r.status === 206 && encodingOf(r)) {
      // Stored compressed (an object store's Content-Encoding): its ranges
      // are of the compressed bytes, while a whole GET is decoded by fetch.
      r.body?.cancel().catch(() => {});
      const all = await request("GET");
      if (!all.ok) throw statusError(all, "downloading");
      sameVersion(all);
      size = (await keepWhole(all, `the server sends the file compressed (Content-Encoding: ${encodingOf(r)}), so its ranges are of the compressed bytes: the file was downloaded whole`)).length;
    } else if (r.status === 206) {
      refuseMultipart(r);
      const range = r.headers.get("content-range");
      const total = rangeTotal(r);
      await r.arrayBuffer().catch(() => {});
      if (range === null) throw new HttpError(`the server answered a Range request (206) with no Content-Range header that can be read here: ${EXPOSE} (${href})`, "bad_source");
      if (total === null) throw new HttpError(`the server answered a Range request without the file's size (Content-Range: ${range}) (${href})`, "bad_source");
      size = total;
    } else if (r.status === 416) {
      size = rangeTotal(r) ?? 0; // an empty file
    } else if (r.ok) {
      size = (await keepWhole(r)).length;
    } else throw statusError(r, "cannot open");
  }

  /** Bytes `start` to `end` of the file, asked with `stop` (the source's
   *  signal, or it and a read's: `readSignal`). */
  const readRange = async (start, end, stop, readSignal) => {
    const kept = await wholeKept();
    if (kept) return kept.subarray(start, end);
    // A server may send less than asked (ranges capped at some size): the
    // rest is asked for from where its answer stopped, until all is here.
    let out = null;
    for (let at = start; at < end; ) {
      const r = await request("GET", `bytes=${at}-${end - 1}`, stop);
      sameVersion(r);
      if (r.status === 200) {
        // The range was ignored: keep this body and serve every read from
        // it (a read that raced this one drops its own copy, and waits for
        // that one; asks again if that one's read stopped it).
        if (!whole) return (await keepWhole(r, IGNORED, readSignal)).subarray(start, end);
        r.body?.cancel().catch(() => {});
        const all = await wholeKept();
        if (all) return all.subarray(start, end);
        continue;
      }
      if (r.status === 416) {
        const total = rangeTotal(r);
        if (total !== null && total !== size) throw sizeChanged(total);
      }
      // (The package's message around this one names the bytes.)
      if (r.status !== 206) throw statusError(r, "range request");
      const part = await rangeAnswer(r, at, end);
      stats.requests++;
      stats.bytes += part.received;
      if (at === start && part.bytes.length === end - start) return part.bytes;
      // Answers this short would take too many requests for the rest.
      const left = end - at - part.bytes.length;
      if (left > MAX_PIECES * part.bytes.length) {
        throw new HttpError(`the server sent ${part.bytes.length} bytes of the ${end - at} asked for from ${at}: at that size, the other ${left} would take more than ${MAX_PIECES} requests (${href})`, "bad_source");
      }
      out ??= new Uint8Array(end - start);
      out.set(part.bytes, at - start);
      at += part.bytes.length;
    }
    return out;
  };

  // A read's own signal (slice's, readAll's) stops its requests too, as the
  // source's does; it fired, the read fails as aborted.
  const withReadSignal = async (readSignal, read) => {
    const readAborted = () => new HttpError(`stopped reading ${href}: the read was aborted`, "aborted", readSignal.reason);
    if (readSignal?.aborted) throw readAborted();
    const [stop, release] = eitherSignal(signal, readSignal);
    try {
      return await read(stop);
    } catch (e) {
      if (readSignal?.aborted && !signal?.aborted) throw readAborted();
      throw e;
    } finally {
      release();
    }
  };

  // Past 2^53 - 1, a size (and the byte positions in it) cannot be a
  // number exactly: it would be rounded, and the file read at guesses.
  if (size > Number.MAX_SAFE_INTEGER) {
    throw new HttpError(`the server gives the file's size as more than ${grouped.format(Number.MAX_SAFE_INTEGER)} bytes (2^53 - 1), the most a byte position can be exactly here (${href})`, "bad_source");
  }
  opened = true;
  return {
    byteLength: size,
    url: href,
    stats,
    get note() {
      return note;
    },
    async slice(start, end, options) {
      // The package asks for whole bytes of the file; so must anyone else.
      if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end > size) {
        const shown = (x) => (typeof x === "number" ? x : typeof x);
        throw new HttpError(`slice(start, end) takes byte positions, whole numbers from 0 to the file's ${size}; got ${shown(start)} and ${shown(end)} (${href})`, "bad_argument");
      }
      // A read's own signal (the package passes it): it stops this slice's
      // requests too, as the source's signal does.
      let readSignal;
      try {
        readSignal = options?.signal ?? null;
      } catch (e) {
        throw new HttpError(`slice(start, end, options): its options threw when read (${href})`, "bad_argument", e);
      }
      if (!isSignal(readSignal)) throw new HttpError(`slice(start, end, { signal }): signal must be an AbortSignal (${href})`, "bad_argument");
      checkUnchanged();
      if (!(end > start)) return new Uint8Array(0);
      return withReadSignal(readSignal, (stop) => readRange(start, end, stop, readSignal));
    },
    /** The whole file in one Uint8Array, within the limit: the download the
     *  server already sent whole, else one GET not kept for slice(). */
    async readAll(options) {
      const bad = (what, cause) => new HttpError(`readAll: ${what}`, "bad_argument", cause);
      if (options != null && typeof options !== "object") throw bad("options must be an object");
      let progress, readSignal;
      try {
        refuseUnknown(options, "readAll", ["onProgress", "signal"]);
        progress = options?.onProgress ?? null;
        readSignal = options?.signal ?? null;
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw bad("its options threw when read", e);
      }
      if (progress !== null && typeof progress !== "function") throw bad("options.onProgress must be a function");
      if (!isSignal(readSignal)) throw bad("options.signal must be an AbortSignal");
      checkUnchanged();
      return withReadSignal(readSignal, async (stop) => {
        const kept = await wholeKept();
        if (kept) return kept;
        checkAborted();
        const r = await request("GET", undefined, stop);
        if (!r.ok) throw statusError(r, "downloading");
        sameVersion(r);
        sizedAsFile(r);
        const all = counted(await download(r, false, progress ?? null));
        if (all.length !== size) throw sizeChanged(all.length);
        return all;
      });
    },
  };
}
