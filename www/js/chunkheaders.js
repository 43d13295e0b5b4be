// Chunk headers read together. Each chunk starts with an 18-byte header
// (its raw length and block count, FORMAT.md §3), and the package's
// loadChunkHeaders() asks its source for each one alone: never a byte it
// does not need. A file of many small chunks then costs one request per
// chunk: 20,000 Blob reads took 11 s in Chromium, and over HTTP each is a
// round trip. Where headers lie close together, the page reads the stretch
// that holds them in one request and hands each header back from memory
// when the package asks for it.

/** A chunk header's length: at most 18 bytes (less in a shorter chunk). */
export const CHUNK_HEADER = 18;

/** Headers this far apart, or closer, are read in one request (the bytes
 *  between them read and dropped): a request costs more than this many
 *  bytes from a local file, and far more over HTTP. */
export const MAX_GAP = 64 * 1024;

/** The longest stretch read at once: what a stretch holds in memory. */
export const MAX_SPAN = 8 * 1024 * 1024;

/** Below this many chunks the package reads each header alone, as it
 *  would: a few hundred requests take a fraction of a second from a local
 *  file, and each chunk is then read once in all. */
export const READ_TOGETHER_FROM = 256;

/**
 * How the headers of `chunks` (each { byteOffset, byteLength }) are read:
 * `spans`, the stretches the page reads itself (none below
 * READ_TOGETHER_FROM chunks), and the requests and bytes it takes in all,
 * the package's one request per header left alone included.
 */
export function headerPlan(chunks) {
  const spans = chunks.length >= READ_TOGETHER_FROM ? headerSpans(chunks) : [];
  const lone = chunks.filter((cm) => cm.byteLength > 0);
  let requests = lone.length;
  let bytes = lone.reduce((a, cm) => a + Math.min(cm.byteLength, CHUNK_HEADER), 0);
  for (const s of spans) {
    requests -= s.headers.length - 1;
    bytes += s.end - s.start - s.headers.reduce((a, h) => a + h.end - h.start, 0);
  }
  return { spans, requests, bytes };
}

/**
 * The stretches of the file to read for the headers of `chunks` (each
 * { byteOffset, byteLength }): neighbouring headers (in file order) at most
 * `gap` bytes apart join one stretch of at most `maxSpan` bytes. Only
 * stretches of two headers or more are given: a header alone is left to
 * the package, which reads exactly it. Each is { start, end, headers:
 * [{ start, end }] }.
 */
export function headerSpans(chunks, { gap = MAX_GAP, maxSpan = MAX_SPAN } = {}) {
  const ranges = chunks
    .filter((cm) => cm.byteLength > 0)
    .map((cm) => ({ start: cm.byteOffset, end: cm.byteOffset + Math.min(cm.byteLength, CHUNK_HEADER) }))
    .sort((a, b) => a.start - b.start);
  const spans = [];
  let span = null;
  for (const r of ranges) {
    if (span && r.start - span.end <= gap && r.end - span.start <= maxSpan) {
      span.end = Math.max(span.end, r.end);
      span.headers.push(r);
    } else {
      span = { start: r.start, end: r.end, headers: [r] };
      spans.push(span);
    }
  }
  return spans.filter((s) => s.headers.length > 1);
}

/**
 * Headers read ahead, each handed out once, when the package asks for
 * exactly its bytes. `served` counts what was handed out (requests and
 * bytes that never reached the source).
 */
export class HeldHeaders {
  #held = new Map(); // start -> ArrayBuffer of the header's bytes
  served = { requests: 0, bytes: 0 };

  /**
   * Reads every stretch of `spans` by `read(start, end)` (resolving to the
   * bytes of that range) and keeps each header's bytes; at most two
   * stretches in flight. Gives the requests and bytes it read.
   */
  async readSpans(spans, read, signal) {
    const io = { requests: 0, bytes: 0 };
    let next = 0;
    const worker = async () => {
      while (next < spans.length) {
        signal?.throwIfAborted();
        const s = spans[next++];
        const bytes = await read(s.start, s.end);
        if (bytes.byteLength !== s.end - s.start) throw new Error(`read ${bytes.byteLength} bytes of ${s.end - s.start} at ${s.start}`);
        io.requests++;
        io.bytes += bytes.byteLength;
        const view = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
        for (const h of s.headers) this.#held.set(h.start, view.slice(h.start - s.start, h.end - s.start).buffer);
      }
    };
    await Promise.all([worker(), worker()]);
    return io;
  }

  /** The bytes start .. end if held (and no longer held after), else null. */
  take(start, end) {
    const b = this.#held.get(start);
    if (!b || b.byteLength !== end - start) return null;
    this.#held.delete(start);
    this.served.requests++;
    this.served.bytes += b.byteLength;
    return b;
  }

  /** Drops whatever the package did not ask for. */
  clear() {
    this.#held.clear();
  }

  /** A Blob-like for ColumnsFile.fromBlob: `blob`, with held headers answered from memory. */
  blob(blob) {
    return {
      size: blob.size,
      slice: (start, end) => {
        const b = this.take(start, end);
        return b ? { arrayBuffer: async () => b } : blob.slice(start, end);
      },
    };
  }

  /** An AsyncBuffer for ColumnsFile.fromAsyncBuffer: `buffer`, with held headers answered from memory. */
  buffer(buffer) {
    return {
      byteLength: buffer.byteLength,
      slice: (start, end) => {
        const b = this.take(start, end);
        return b ? Promise.resolve(b) : buffer.slice(start, end);
      },
    };
  }
}
