// Ranges of a file read together, then handed to the package from memory.
// The package merges into one request only ranges at most 8 KiB apart
// (packageRequests, below). A file whose chunks lie farther apart than
// that but close together, many of them, then costs a request a chunk
// header, and a request a chunk where the page reads chunk by chunk
// (1,000s of Blob reads take seconds in Chromium; over HTTP each is a
// round trip). Where the ranges a job will ask for lie close together, the
// page reads the stretch that holds them in one request and answers the
// package's slices from it: chunk headers when a file opens
// (chunkheaders.js), a column's chunks in a pass over every row group
// (worker.js).

/** The package's own rule for its requests (src/plan.rs, MAX_GAP and
 *  MAX_REQUEST): ranges asked for in one call, in file order, at most this
 *  far apart share one request of at most PACKAGE_REQUEST bytes. */
export const PACKAGE_GAP = 8 * 1024;
export const PACKAGE_REQUEST = 32 * 1024 * 1024;

/** Ranges this far apart, or closer, are read in one request (the bytes
 *  between them read and dropped): a request costs more than this many
 *  bytes from a local file, and far more over HTTP. */
export const MAX_GAP = 64 * 1024;

/** The longest stretch read at once: what a stretch holds in memory. */
export const MAX_SPAN = 8 * 1024 * 1024;

/** Bytes of the slices lately read from the source that a Held keeps, and
 *  the largest slice it keeps: a read again soon after (a call read again
 *  without the chunk that failed in it, a chunk's report after its values,
 *  the header of a chunk that failed) is answered from them. A larger
 *  slice would push out all the others. */
export const RECENT_MAX = 16 * 1024 * 1024;
export const RECENT_SLICE = 4 * 1024 * 1024;
/** And at most this many slices: each slice asked for looks through them
 *  (90,000 small slices, one a chunk header, took 10.9 s with no count
 *  bound); a read again comes soon after the first. */
export const RECENT_COUNT = 64;

/**
 * `ranges` (each { start, end }) grouped into stretches: in file order,
 * neighbours at most `gap` bytes apart join one stretch of at most
 * `maxSpan` bytes (a range longer than that is a stretch alone). Each is
 * { start, end, ranges }.
 */
export function stretches(ranges, { gap = MAX_GAP, maxSpan = MAX_SPAN } = {}) {
  const out = [];
  let span = null;
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    if (span && r.start - span.end <= gap && Math.max(span.end, r.end) - span.start <= maxSpan) {
      span.end = Math.max(span.end, r.end);
      span.ranges.push(r);
    } else {
      span = { start: r.start, end: r.end, ranges: [r] };
      out.push(span);
    }
  }
  return out;
}

/** The requests the package makes for `ranges` asked for in one call
 *  (each { start, end }), by its rule above, each with the ranges it
 *  holds: { start, end, ranges }. */
export const packageStretches = (ranges) => stretches(ranges, { gap: PACKAGE_GAP, maxSpan: PACKAGE_REQUEST });

/** packageStretches as { start, end } only. */
export function packageRequests(ranges) {
  return packageStretches(ranges).map(({ start, end }) => ({ start, end }));
}

/**
 * Bytes read ahead, answering the package's slices that fall inside them.
 * A stretch kept whole answers any slice within it until released; one
 * kept as its ranges answers each range once, asked for exactly (chunk
 * headers: the package's requests for them kept, not the stretch). The
 * slices lately read from the source for the package are kept too, and
 * answer a slice inside one. `served` counts what was answered from
 * memory: requests and bytes the package counts as its own reads but that
 * never reached the source.
 */
export class Held {
  #entries = []; // { start, end, bytes: Uint8Array, once }, by start
  // Stretches asked for and not here yet: a slice inside one waits for it
  // (two readers of a chunk held for both, asking at once), then is
  // answered from it or, if it never came, from the source.
  #coming = new Set(); // { start, end, arrived: Promise, arrive() }
  served = { requests: 0, bytes: 0 };
  /** Called with (start, end) as each slice the package asked for is answered (held or read): how far a read of many slices is. */
  onSlice = null;
  // The slices lately read from the source, oldest first: RECENT_COUNT
  // slices and RECENT_MAX bytes at most.
  #recent = []; // { start, end, bytes: Uint8Array }
  #recentBytes = 0;

  /** Keeps the slice at `start` (bytes: an ArrayBuffer or view, read from
   *  the source, never written to by the package) among the recent ones. */
  #keep(start, bytes) {
    const view = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
    if (view.length === 0 || view.length > RECENT_SLICE) return;
    this.#recent.push({ start, end: start + view.length, bytes: view });
    this.#recentBytes += view.length;
    while (this.#recentBytes > RECENT_MAX || this.#recent.length > RECENT_COUNT) this.#recentBytes -= this.#recent.shift().bytes.length;
  }

  /** The bytes start .. end (a Uint8Array of their own) from a slice lately read from the source, or null. */
  lately(start, end) {
    for (let k = this.#recent.length - 1; k >= 0; k--) {
      const r = this.#recent[k];
      if (r.start <= start && end <= r.end && start < end) return r.bytes.slice(start - r.start, end - r.start);
    }
    return null;
  }

  /**
   * Reads every stretch of `spans` by `read(start, end)` (resolving to the
   * bytes of that range), at most two in flight, and keeps it whole or, with
   * `{ once: true }`, as its ranges. Gives the requests and bytes it read.
   * `signal` (anything with throwIfAborted) is checked before each stretch.
   */
  async readSpans(spans, read, { signal, once = false } = {}) {
    const io = { requests: 0, bytes: 0 };
    const coming = spans.map(({ start, end }) => {
      const c = { start, end };
      c.arrived = new Promise((resolve) => (c.arrive = resolve));
      return c;
    });
    for (const c of coming) this.#coming.add(c);
    const arrived = (c) => {
      this.#coming.delete(c);
      c.arrive();
    };
    let next = 0;
    const reader = async () => {
      while (next < spans.length) {
        signal?.throwIfAborted();
        const k = next++;
        const s = spans[k];
        try {
          const bytes = await read(s.start, s.end);
          if (bytes.byteLength !== s.end - s.start) throw new Error(`read ${bytes.byteLength} bytes of ${s.end - s.start} at ${s.start}`);
          io.requests++;
          io.bytes += bytes.byteLength;
          const view = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
          if (once) for (const r of s.ranges) this.#add({ start: r.start, end: r.end, bytes: view.slice(r.start - s.start, r.end - s.start), once });
          else this.#add({ start: s.start, end: s.end, bytes: view, once });
        } finally {
          arrived(coming[k]);
        }
      }
    };
    // Both readers to their end (after one fails, the other may still be
    // reading a stretch whose slices wait for it), then the first failure.
    const ends = await Promise.allSettled([reader(), reader()]);
    // (Stretches never read, after an abort or a failure: their waiters go to the source.)
    coming.forEach(arrived);
    const failed = ends.find((x) => x.status === "rejected");
    if (failed) throw failed.reason;
    return io;
  }

  /** The bytes start .. end: held, or on their way, or lately read, or null. */
  #answer(start, end) {
    const b = this.take(start, end);
    if (b) return b;
    for (const c of this.#coming) if (c.start <= start && end <= c.end) return c.arrived.then(() => this.take(start, end));
    const recent = this.lately(start, end);
    if (!recent) return null;
    this.served.requests++;
    this.served.bytes += end - start;
    return recent.buffer;
  }

  #add(entry) {
    const k = this.#after(entry.start);
    this.#entries.splice(k, 0, entry);
  }

  /** The index of the first entry that starts after `at`. */
  #after(at) {
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#entries[mid].start <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The bytes start .. end (an ArrayBuffer of their own) if held, else null. */
  take(start, end) {
    const k = this.#after(start) - 1;
    const e = this.#entries[k];
    if (!e || end > e.end || end <= start) return null;
    if (e.once) {
      if (e.start !== start || e.end !== end) return null;
      this.#entries.splice(k, 1);
    }
    this.served.requests++;
    this.served.bytes += end - start;
    return e.bytes.slice(start - e.start, end - e.start).buffer;
  }

  /** Drops whatever is held of `spans`, whole or as ranges. */
  release(spans) {
    for (const s of spans) {
      const lo = this.#after(s.start - 1);
      this.#entries.splice(lo, this.#after(s.end - 1) - lo);
    }
  }

  /** Drops everything held. */
  clear() {
    this.#entries = [];
  }

  /** Bytes held now. */
  get heldBytes() {
    return this.#entries.reduce((a, e) => a + e.bytes.byteLength, 0);
  }

  /** A Blob-like for ColumnsFile.fromBlob: `blob`, with held bytes answered from memory. */
  blob(blob) {
    return {
      size: blob.size,
      slice: (start, end) => {
        const b = this.#answer(start, end);
        return {
          arrayBuffer: async () => {
            let bytes = await b;
            if (!bytes) {
              bytes = await blob.slice(start, end).arrayBuffer();
              this.#keep(start, bytes);
            }
            this.onSlice?.(start, end);
            return bytes;
          },
        };
      },
    };
  }

  /** An AsyncBuffer for ColumnsFile.fromAsyncBuffer: `buffer`, with held
   *  bytes answered from memory (the rest read with the slice's options:
   *  a read's { signal } ends its requests). */
  buffer(buffer) {
    return {
      byteLength: buffer.byteLength,
      slice: async (start, end, options) => {
        let bytes = await this.#answer(start, end);
        if (!bytes) {
          bytes = await buffer.slice(start, end, options);
          this.#keep(start, bytes);
        }
        this.onSlice?.(start, end);
        return bytes;
      },
    };
  }
}
