// The decoding worker: owns the wasm instance, the tokenizer registry, the
// open file, the decoded chunks and the current view of the rows (filter
// and sort), so that no decoding, sorting or scanning ever runs on the
// page's thread. Requests are { id, op, args }; replies { id, ok, result |
// error } and, for long work, { id, progress }. { abort: id } asks a long
// operation to stop at its next check (between row groups or passes), and
// ends the requests it has in flight (those no other work waits for).

import { init, ColumnsFile, TokenizerRegistry, ColumnsPool } from "./columns.js";
import { openUrl, WHOLE_LIMIT } from "./urlbuffer.js";
import { headerPlan, READ_TOGETHER_FROM } from "./chunkheaders.js";
import { Held, MAX_SPAN, packageStretches, stretches } from "./stretches.js";
import { shuffle } from "./stats.js";
import { SortKeys, sortIds, sortBytes, DISTINCT_ENTRY } from "./sort.js";
import { applyCondition, applyAnyText, textColumns, rowGroupExcluded, ANY_TEXT } from "./filter.js";
import { ColumnProfile, TOP_KEPT, hasHistogram } from "./profile.js";
import { cellText, textFormat } from "./exporttext.js";
import { fmtBytes, fmtInt, plural } from "./format.js";
import { packMeta } from "./metawire.js";
import { columnLabels } from "./labels.js";
import { decodedSize, exportEstimate, EXPORT_LIMIT } from "./sizes.js";
import { CHUNK_KINDS } from "./chunkkinds.js";
import { loadArrow, arrowSchema, recordBatch, ipcStreamWriter, asUtf8 } from "./arrowdata.js";

let registry = null;
let file = null; // the file opened from a Blob or URL
let memFile = null; // the same file opened with fromBytes (timing "from memory")
// The same file opened on its source alone (Timing "from the source"): the
// package's own reads, none passing through the page's Held or answered
// from the bytes a pass of the page read ahead. A promise, once asked for.
let sourceFile = null;
let memBytes = null;
let heldAsBlob = null; // memBytes (or the HTTP download) as a Blob, made once for the SQL worker
let source = null; // { blob } or { url, http }
// Stops the open file's requests, a whole-file download under way included,
// or the open under way, when another file opens (or none stays open).
let sourceStop = null;
let rgStart = new Float64Array(1); // file row of each row group's first row, then numRows
// The footer's row groups and schema as read at open, for what never
// changes (rows, offsets, tokenizers, types): file.rowGroups and
// file.schema make every object anew on each read, which per row group of
// a long file, or per column of a wide one, adds up (a window of 128 rows
// of 4,000 columns took 18 s reading f.schema[c] per column).
let footerGroups = [];
let footerSchema = [];

// Decoded chunks, least recently used first, bounded by their decoded bytes.
const cache = new Map(); // "g:c" -> { col, size }
const inflight = new Map(); // "g:c" -> Promise
let cacheBytes = 0;
let cacheLimit = 384 * 1024 * 1024;

// Decoded sizes learnt so far, reported to the page with every answer.
const decodedSizes = new Map();
let decodedReported = 0;

// Chunks that failed to read or inspect, learnt as it happens, with the
// first bytes of each one's own header (its encoding and codec tags, which
// the footer's may contradict): reported to the page with every answer
// after a change, like the decoded sizes.
const failures = new Map(); // "g:c" -> { error, header: number[] | null }
let failuresChanged = false;
// Bytes and requests the page read itself (a failing chunk's header, the
// whole file for Timing from memory), beside the package's.
const extraIO = { bytes: 0, requests: 0 };

// The current view: row ids in display order (null = every row in file order).
let view = null;
// The most a view's computation holds at once (a filter's row list, a
// sort's keys and lists), known from the rows before it is made: as much
// as a file held whole. Over it the tab ran out of memory (a sort of 750
// million rows took 12.4 GB for 90 s, then failed).
const VIEW_LIMIT = WHOLE_LIMIT;
// A filter's rows hold 4 bytes each in the parts, 4 more in the list they make.
const FILTER_ROW_BYTES = 8;
let viewSpec = { filters: [], sort: null };

// Each operation's stop while it runs: fired by { abort: id }. Its reads
// of the source take its signal (or, shared with other work, a sharedStop
// it joined), so that a stop ends the requests in flight, not only the loop.
const jobStops = new Map(); // id -> AbortController
const ready = init().then(() => {
  registry = new TokenizerRegistry();
});

function errorInfo(e) {
  if (e && typeof e === "object") {
    return {
      kind: typeof e.kind === "string" ? e.kind : e.name === "RangeError" ? "too_large" : "internal",
      message: String(e.message ?? e),
      rowGroup: e.rowGroup ?? null,
      column: e.column ?? null,
      offset: e.offset ?? null,
    };
  }
  return { kind: "internal", message: String(e), rowGroup: null, column: null, offset: null };
}

function usage(kind, message) {
  const e = new Error(message);
  e.kind = kind;
  return e;
}

/** What ends work on a file that another file's open dropped (or an open another one overtook). */
const replaced = () => usage("cancelled", "another file was opened");

function need() {
  if (!file) throw usage("bad_argument", "no file is open");
  return file;
}

/** Bytes and reads fetched from the file so far: over HTTP what urlbuffer.js
 *  fetched (a server that ignores ranges sent the whole file once; the
 *  package's reads after that came from memory), else the package's reads. */
function fetched() {
  const f = file;
  if (!f) return { bytes: 0, requests: 0 };
  if (source?.http) return { ...source.http.stats };
  // The package counts what the page answered from bytes it read ahead
  // (counted in extraIO) as reads of its own.
  const { served } = source.held;
  const timed = source.file ?? { bytesRead: 0, requests: 0 };
  return { bytes: f.bytesRead + timed.bytesRead + extraIO.bytes - served.bytes, requests: f.requests + timed.requests + extraIO.requests - served.requests };
}

function ioCounters() {
  const io = fetched();
  const out = { bytesRead: io.bytes, requests: io.requests, note: source?.http?.note || "" };
  if (failuresChanged) {
    out.failures = [...failures];
    failuresChanged = false;
  }
  if (decodedSizes.size !== decodedReported) {
    out.decoded = [...decodedSizes];
    decodedReported = decodedSizes.size;
  }
  return out;
}

function columnBytes(col) {
  const v = col.values;
  const n = v.offsets ? v.offsets.byteLength + v.data.byteLength : v.byteLength;
  return n + (col.validity ? col.validity.byteLength : 0);
}

function summary() {
  const f = need();
  return {
    byteLength: f.byteLength,
    version: f.version,
    headerLength: f.headerLength,
    footerOffset: f.footerOffset,
    footerLength: f.footerLength,
    numRows: f.numRows,
    schema: footerSchema,
    tokenizers: f.tokenizers,
    // (Field by field in typed arrays: metawire.js.)
    packed: packMeta(footerGroups, f.layout),
    ...ioCounters(),
  };
}

/**
 * The stop of a read that several operations may wait for (a chunk in
 * flight is shared): `join(signal)` for each that waits; it fires once
 * every signal joined has, and never once one joined without a signal
 * (the grid's windows, which are not stopped).
 */
function sharedStop() {
  const stop = new AbortController();
  let waiting = 0;
  let kept = false;
  return {
    signal: stop.signal,
    join(signal) {
      if (kept || stop.signal.aborted) return;
      if (!signal) kept = true;
      else if (!signal.aborted) {
        waiting++;
        signal.addEventListener("abort", () => --waiting || kept || stop.abort(signal.reason), { once: true });
      } else if (!waiting) stop.abort(signal.reason);
    },
  };
}

/** One decoded chunk, from the cache or read now (one read per chunk at a
 *  time); `signal`: the stop of the operation that asks (see sharedStop). */
async function getColumn(g, c, signal = null) {
  const key = `${g}:${c}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.col;
  }
  const going = inflight.get(key);
  // (one stopped but not yet settled: read anew)
  if (going && !going.stop.signal.aborted) {
    going.stop.join(signal);
    return going;
  }
  // A chunk known not to read is not read again: its failure answers (one
  // that named a tokenizer goes when the tokenizer comes; one too large for
  // memory now may read later).
  const known = failures.get(key);
  if (known && known.error.kind !== "too_large") return Promise.reject(known.error);
  const f = need();
  const refusal = tokenizerRefusal(f, g, c);
  const stop = sharedStop();
  stop.join(signal);
  return reading(f, key, refusal ? Promise.reject(refusal) : f.readColumnAsync(g, c, { signal: stop.signal }), stop);
}

/** Whether chunk `cm` (the footer's) names a tokenizer not registered (`tokenizers`: the file's). */
const lacksTokenizer = (cm, tokenizers) => cm.tokenizer > 0 && !tokenizers[cm.tokenizer - 1]?.resolved;

/**
 * The error of chunk g:c when its tokenizer is not registered, else null.
 * Made here: the package looks the tokenizer up as it decodes, after it
 * has fetched the whole chunk (movielens.tokenized's titles are a third of
 * the file), and the page knows from the footer that it cannot read.
 */
function tokenizerRefusal(f, g, c) {
  const cm = footerGroups[g].columns[c];
  if (!cm.tokenizer) return null;
  const tokenizers = f.tokenizers;
  if (!lacksTokenizer(cm, tokenizers)) return null;
  const ref = tokenizers[cm.tokenizer - 1];
  return Object.assign(usage("unknown_tokenizer", `tokenizer ${ref?.digest} is not registered (row group ${g}, column ${c}, byte offset ${cm.byteOffset})`), { rowGroup: g, column: c, offset: cm.byteOffset });
}

/**
 * Row group g's chunks of `cols` (promises, in order), from the cache or
 * read now: the missing ones in one readColumnsAsync call, which fetches
 * a row group's adjacent chunks in one request where getColumn makes one
 * each. A failed call is retried in parts (readTogether), so an error
 * belongs to the chunk that has it.
 */
function getColumns(g, cols, signal = null) {
  const f = need();
  let missing = [...new Set(cols)].filter((c) => !cache.has(`${g}:${c}`) && !inflight.has(`${g}:${c}`));
  if (missing.length > 1) {
    // One failing chunk rejects the whole call after every chunk in it was
    // fetched, and the retry fetches them again: a chunk known to fail (its
    // tokenizer not registered, an encoding or codec its footer names that
    // this reader does not know, as a newer writer's, or it failed before)
    // is read alone.
    const metas = footerGroups[g].columns;
    const tokenizers = f.tokenizers;
    const unknown = (m) => m.encoding.startsWith("unknown") || m.codec.startsWith("unknown");
    const fails = (c) => failures.has(`${g}:${c}`) || lacksTokenizer(metas[c], tokenizers) || unknown(metas[c]);
    missing = missing.filter((c) => !fails(c));
  }
  if (missing.length > 1) {
    // (one stop for the call's chunks: whoever waits for any of them keeps it going)
    const stop = sharedStop();
    readTogether(f, g, missing, stop.signal).forEach((p, k) => reading(f, `${g}:${missing[k]}`, p, stop));
  }
  return cols.map((c) => getColumn(g, c, signal));
}

/**
 * Chunks `list` of row group g read together, as a promise each. The
 * package decodes a call's chunks in column order and stops at the first
 * that fails, whose error names its column: that chunk gets the error, the
 * ones before it are read again together, and the ones after it in two
 * halves, each the same way. A damaged chunk costs its neighbours one more
 * read, not a request each, and k damaged chunks among n cost about
 * n log n bytes: reading all the others again after each failure was k x n
 * (2,000 damaged chunks of 35 bytes: 14 MB in 408 requests, and counting).
 * An error that names no chunk of the call is found by reading each alone.
 * Once `signal` fires, every chunk not read gets its abort, none read again.
 */
function readTogether(f, g, list, signal) {
  const ends = new Map();
  const out = list.map((c) => new Promise((resolve, reject) => ends.set(c, { resolve, reject })));
  const read = async (part) => {
    if (part.length === 1) return f.readColumnAsync(g, part[0], { signal }).then(ends.get(part[0]).resolve, ends.get(part[0]).reject);
    let cols;
    try {
      cols = await f.readColumnsAsync([g], part, { signal });
    } catch (e) {
      if (signal.aborted) throw e;
      if (e?.rowGroup !== g || !part.includes(e.column) || !CHUNK_KINDS.has(e.kind)) return Promise.all(part.map((c) => read([c])));
      ends.get(e.column).reject(e);
      const after = part.filter((c) => c > e.column);
      const half = after.length >> 1;
      return Promise.all([part.filter((c) => c < e.column), after.slice(0, half), after.slice(half)].filter((p) => p.length).map(read));
    }
    part.forEach((c, k) => ends.get(c).resolve(cols[k]));
  };
  // (A settled promise ignores the rest: this ends only what a bug here left open.)
  read(list).catch((e) => ends.forEach(({ reject }) => reject(e)));
  return out;
}

/** Reads `spans` of the open file ahead into its source's Held
 *  (stretches.js), counted as the page's own reads; not where the whole
 *  file is here already (a server that ignored Range). A stretch that
 *  fails to read leaves its ranges to the package, whose error says why.
 *  `signal` (the operation's stop) ends its requests in flight; another
 *  file's open stops it too. */
async function readAhead(spans, { signal = null, ...options } = {}) {
  const { held, blob, http } = source;
  if (!spans.length || http?.note) return;
  const read = blob ? async (s, e) => new Uint8Array(await blob.slice(s, e).arrayBuffer()) : (s, e) => http.buffer.slice(s, e, signal ? { signal } : undefined);
  // (between stretches, either stop ends it)
  const opened = sourceStop?.signal;
  const stopped = { throwIfAborted: () => (signal?.throwIfAborted(), opened?.throwIfAborted()) };
  try {
    const io = await held.readSpans(spans, read, { signal: stopped, ...options });
    // (Over HTTP its stats count what came over the network.)
    if (blob) extraIO.requests += io.requests, extraIO.bytes += io.bytes;
  } catch {
    // The package reads those ranges itself.
  }
}

/** Where the chunks of `cols` in row group g lie, those not decoded or being read. */
function unreadRanges(g, cols, tokenizers) {
  // Not those no read will fetch now: a chunk known not to read, or one
  // whose tokenizer is not registered (the package refuses it unread).
  const refused = (c) => failures.has(`${g}:${c}`) || lacksTokenizer(footerGroups[g].columns[c], tokenizers);
  return cols
    .filter((c) => !cache.has(`${g}:${c}`) && !inflight.has(`${g}:${c}`) && !refused(c))
    .map((c) => {
      const cm = footerGroups[g].columns[c];
      return { start: cm.byteOffset, end: cm.byteOffset + cm.byteLength };
    });
}

/** The package's requests for the unread chunks of `cols` in row group g
 *  (getColumns asks for them in one call), each { start, end, ranges }:
 *  what a page's stretch holds whole, so that no request spans two
 *  stretches and goes to the source again (stretches end at MAX_SPAN, the
 *  package's requests at PACKAGE_REQUEST: a row group of 9.6 MB was read
 *  twice). */
const unreadRequests = (g, cols, tokenizers) => packageStretches(unreadRanges(g, cols, tokenizers));

/** The stretches of `requests` (unreadRequests) worth reading ahead: those that hold two chunks or more. */
const aheadSpans = (requests) => stretches(requests).filter((s) => s.ranges.reduce((n, r) => n + r.ranges.length, 0) > 1);

/** The first (up to 18) bytes of chunk g:c, its own header: from the
 *  bytes the package lately read (the chunk whose failure brought us
 *  here, most often), else from the source. */
async function headerBytes(f, g, c) {
  const cm = footerGroups[g].columns[c];
  const start = cm.byteOffset;
  const end = Math.min(start + Math.min(cm.byteLength, 18), f.byteLength);
  if (end <= start) return [];
  const recent = source.held.lately(start, end);
  if (recent) return [...recent];
  let bytes;
  if (source.blob) {
    bytes = new Uint8Array(await source.blob.slice(start, end).arrayBuffer());
    extraIO.requests++;
    extraIO.bytes += bytes.length;
  } else bytes = await source.http.buffer.slice(start, end); // counted in its stats
  return [...bytes];
}

/** Notes that chunk g:c of file f failed with e (when e is about the chunk, not the call). */
async function noteFailure(f, g, c, e) {
  const error = errorInfo(e);
  if (file !== f || !CHUNK_KINDS.has(error.kind)) return;
  const key = `${g}:${c}`;
  const known = failures.get(key);
  if (known && known.error.kind === error.kind && known.error.message === error.message) return;
  let header = known ? known.header : null;
  // A chunk refused for want of its tokenizer was not read: its header
  // (its own encoding and codec tags) is left for when it is.
  if (!header && error.kind !== "unknown_tokenizer") header = await headerBytes(f, g, c).catch(() => null);
  if (file !== f) return;
  failures.set(key, { error, header });
  failuresChanged = true;
}

/** Keeps the chunk `read` resolves to in the cache (within cacheLimit), and
 *  marks it in flight until then, with `stop` (its sharedStop). */
function reading(f, key, read, stop) {
  const p = (async () => {
    try {
      const col = await read;
      if (file !== f) return col;
      const size = columnBytes(col);
      decodedSizes.set(key, size);
      cache.set(key, { col, size });
      cacheBytes += size;
      for (const [k, v] of cache) {
        if (cacheBytes <= cacheLimit || cache.size <= 1) break;
        cache.delete(k);
        cacheBytes -= v.size;
      }
      return col;
    } catch (e) {
      const [g, c] = key.split(":").map(Number);
      await noteFailure(f, g, c, e);
      throw e;
    } finally {
      // (a read stopped may have been asked for anew meanwhile)
      if (inflight.get(key) === p) inflight.delete(key);
    }
  })();
  p.stop = stop;
  // (a read stopped, then asked for anew, is awaited by no one: not an unhandled rejection)
  p.catch(() => {});
  inflight.set(key, p);
  return p;
}

/** Row groups a pass asks for ahead of the one it is at: up to
 *  AHEAD_GROUPS while the last group's decoded chunks, that many times,
 *  hold AHEAD_BYTES at most. Over HTTP each ask the stretches read ahead
 *  do not answer is a round trip: flights-3m's date column (46 row
 *  groups) behind 40 ms of latency profiled in 1.3 s with one group asked
 *  ahead. */
const AHEAD_GROUPS = 8;
const AHEAD_BYTES = 64 * 1024 * 1024;

/**
 * Row groups 0..G-1 in turn, each as [g, its chunks of `cols` in order],
 * with the next groups' chunks already asked for (AHEAD_GROUPS): a
 * whole-file pass (filter, sort, profile) over a URL or a Blob then waits
 * on the source about once, not once per row group. `check` runs before
 * each group. `settled`: each chunk as { value } or { error }, one failing
 * chunk failing its column only. `skip` (a Uint8Array of G, or null): the
 * row groups left out, neither read nor read ahead. The stop of `check`
 * (jobControl) ends its requests in flight.
 */
async function* rowGroupsInTurn(cols, check, { settled = false, skip = null } = {}) {
  need();
  const G = footerGroups.length;
  const { signal } = check;
  const todo = [];
  for (let g = 0; g < G; g++) if (!skip?.[g]) todo.push(g);
  const ahead = chunksAhead(cols, skip, signal);
  const ask = async (g, extend = true) => {
    await ahead?.ensure(g, extend);
    return getColumns(g, cols, signal).map((p) => {
      p.catch(() => {}); // a pass stopped early never awaits it
      return p;
    });
  };
  const asked = new Map(); // g -> its chunks' promises, asked for
  let depth = 1; // (until a group's decoded size is known)
  try {
    for (let i = 0; i < todo.length; i++) {
      const g = todo[i];
      await check();
      const now = asked.get(g) ?? ask(g);
      // (asked ahead, g planned no batch: one more now, read while it is decoded)
      if (asked.delete(g)) ahead?.ensure(g);
      // Read ahead in stretches, only the groups of the batches g's
      // planned: those ahead hold no more batches than g's own.
      const until = ahead ? ahead.until : G;
      for (let k = i + 1; k < Math.min(todo.length, i + depth + 1) && todo[k] < until; k++) if (!asked.has(todo[k])) asked.set(todo[k], ask(todo[k], false));
      const chunks = await Promise.all((await now).map((p) => p.then((value) => ({ value }), (error) => ({ error }))));
      // (stopped, its reads failed for that: no chunk's error)
      if (signal?.aborted) await check();
      const size = chunks.reduce((n, r) => n + (r.value ? columnBytes(r.value) : 0), 0);
      depth = Math.max(1, Math.min(AHEAD_GROUPS, Math.floor(AHEAD_BYTES / Math.max(1, size))));
      if (!settled) for (const r of chunks) if (r.error) throw r.error;
      yield [g, settled ? chunks : chunks.map((r) => r.value)];
      ahead?.done(g);
    }
  } finally {
    ahead?.stop();
  }
}

/**
 * The chunks of `cols` in row groups `groups` (an export's block of rows),
 * as a Map "g:c" -> column: asked for at once, a row group's in one call,
 * and where there are many, read ahead in stretches (stretches.js) first.
 * One chunk read after another, an export of 5,000 small row groups took
 * 9.2 s (0.7 now). The first chunk that fails, in order, is the error.
 */
function blockChunks(groups, cols, signal = null) {
  return readingAhead(groups, cols, groups.length * cols.length >= READ_TOGETHER_FROM, signal, async () => {
    const asked = groups.map((g) => getColumns(g, cols, signal).map((p) => (p.catch(() => {}), p)));
    const chunks = new Map();
    for (const [k, g] of groups.entries()) for (const [j, c] of cols.entries()) chunks.set(`${g}:${c}`, await asked[k][j]);
    return chunks;
  });
}

/**
 * The cells of a window of rows (`ids`, their file row numbers; `groups`,
 * each row group's positions in it), column by column, each chunk asked
 * for at once (see getColumns): see `rows`.
 */
async function windowCells(f, cols, groups, ids) {
  const n = ids.length;
  for (const g of groups.keys()) for (const p of getColumns(g, cols)) p.catch(() => {});
  const columns = [];
  for (const c of cols) {
    const cells = new Array(n).fill(null);
    let error = null;
    let errors = null; // each unreadable cell's own chunk error (they name their row group and offset)
    const failed = []; // the row groups whose chunk of c did not read
    for (const [g, idx] of groups) {
      let col;
      try {
        col = await getColumn(g, c);
      } catch (e) {
        const info = errorInfo(e);
        // A failure of the source (the server, the network) is no fact of
        // the chunk: the window fails, and is asked again (grid.js), where
        // marking its cells unreadable kept them so after the server came back.
        if (!CHUNK_KINDS.has(info.kind)) throw e;
        error ??= info;
        errors ??= new Array(n).fill(null);
        failed.push(g);
        for (const i of idx) [cells[i], errors[i]] = [undefined, info];
        continue;
      }
      const v = col.values;
      const base = rgStart[g];
      for (const i of idx) {
        const r = ids[i] - base;
        if (!col.isValid(r)) cells[i] = null;
        else if (v.offsets) cells[i] = v.data.slice(v.offsets[r], v.offsets[r + 1]);
        else cells[i] = col.type === "bool" ? v[r] === 1 : v[r];
      }
    }
    columns.push({ c, type: footerSchema[c].type, cells, error, errors, failed });
  }
  return columns;
}

/**
 * `read()`, with the unread chunks of `cols` in row groups `groups` read
 * ahead in stretches first when `ahead`, and let go of once it is done:
 * the package asks for a row group's chunks in one call, so chunks of
 * many small row groups would otherwise be a request each. `signal`: the
 * operation's stop, which ends the read ahead's requests.
 */
async function readingAhead(groups, cols, ahead, signal, read) {
  const { held } = source;
  // (The file's tokenizers asked of the package once, not per row group.)
  const tokenizers = ahead ? (file?.tokenizers ?? []) : [];
  const spans = ahead ? aheadSpans(groups.flatMap((g) => unreadRequests(g, cols, tokenizers))) : [];
  await readAhead(spans, { signal });
  try {
    return await read();
  } finally {
    held.release(spans);
  }
}

/**
 * A long pass's chunks of `cols` read ahead in stretches (stretches.js),
 * for the package to take from memory: row groups in batches of at most
 * MAX_SPAN bytes of file, the next batch read while this one is decoded,
 * each released once its row groups have been handed on. Null for a short
 * pass (fewer than READ_TOGETHER_FROM chunks: one request each costs
 * little). The row groups `skip` marks are not read (nor counted).
 * `signal`: the pass's stop, which ends its requests in flight.
 */
function chunksAhead(cols, skip = null, signal = null) {
  const G = footerGroups.length;
  let groups = 0; // (those left)
  for (let g = 0; g < G; g++) if (!skip?.[g]) groups++;
  if (groups * cols.length < READ_TOGETHER_FROM) return null;
  const { held } = source; // (this file's, if another opens meanwhile)
  const batches = []; // { from, to, spans, ready }
  let until = 0;
  const plan = () => {
    const tokenizers = file?.tokenizers ?? [];
    const from = until;
    const ranges = [];
    let lo = Infinity;
    let hi = 0;
    let to = from;
    for (; to < G; to++) {
      const rs = skip?.[to] ? [] : unreadRequests(to, cols, tokenizers);
      const gLo = Math.min(lo, ...rs.map((r) => r.start));
      const gHi = Math.max(hi, ...rs.map((r) => r.end));
      if (to > from && gHi - gLo > MAX_SPAN) break;
      ranges.push(...rs);
      [lo, hi] = [gLo, gHi];
    }
    until = to;
    const spans = aheadSpans(ranges);
    batches.push({ from, to, spans, ready: readAhead(spans, { signal }) });
  };
  return {
    /** The row groups planned so far end here. */
    get until() {
      return until;
    },
    /** Reads g's batch (planned unless `extend` is false: then it is) and one batch more. */
    async ensure(g, extend = true) {
      while (extend && until <= g) plan();
      // One batch more, read while this one is decoded.
      if (extend && until < G && batches.at(-1).from <= g) plan();
      await batches.find((b) => b.from <= g && g < b.to)?.ready;
    },
    done(g) {
      while (batches.length && batches[0].to <= g + 1) held.release(batches.shift().spans);
    },
    stop() {
      for (const b of batches.splice(0)) b.ready.then(() => held.release(b.spans));
    },
  };
}

function dropFile() {
  cache.clear();
  inflight.clear();
  cacheBytes = 0;
  decodedSizes.clear();
  decodedReported = 0;
  failures.clear();
  failuresChanged = false;
  extraIO.bytes = 0;
  extraIO.requests = 0;
  view = null;
  viewSpec = { filters: [], sort: null };
  if (memFile) memFile.free();
  if (file) file.free();
  sourceFile?.then((f) => f.free(), () => {});
  memFile = null;
  sourceFile = null;
  memBytes = null;
  heldAsBlob = null;
  footerGroups = [];
  footerSchema = [];
  file = null;
  source = null;
  sourceStop?.abort();
  sourceStop = null;
}

/** The whole file's bytes, loaded once. (Kept only while its file is the
 *  one open: another opened during the load would otherwise get them.) */
async function fileBytes(post, signal = null) {
  if (memBytes) return memBytes;
  const at = source;
  const size = need().byteLength;
  if (size > WHOLE_LIMIT) throw usage("too_large", `the file is ${fmtBytes(size)} (${fmtInt(size)} bytes); loading it whole is limited to ${fmtBytes(WHOLE_LIMIT)} (${fmtInt(WHOLE_LIMIT)} bytes) here`);
  post?.({ label: `Loading the whole file (${fmtBytes(size)}) into memory…` });
  // One read of the whole file, beside the package's (over HTTP counted by
  // urlbuffer.js, which fetches nothing anew when a server that ignores
  // ranges already sent all of it).
  const bytes = at.blob ? new Uint8Array(await at.blob.arrayBuffer()) : await at.http.readAll({ onProgress: post, signal });
  if (source !== at) throw replaced();
  if (at.blob) {
    extraIO.bytes += bytes.length;
    extraIO.requests++;
  }
  return (memBytes ??= bytes);
}

/** The file opened on its own source (see sourceFile); over HTTP its reads
 *  are counted by urlbuffer.js's stats, from a Blob here (source.file). */
function getSourceFile() {
  const at = source;
  sourceFile ??= (at.blob ? ColumnsFile.fromBlob(at.blob, registry) : ColumnsFile.fromAsyncBuffer(at.http.buffer, registry)).then(
    (f) => {
      if (at.blob) at.file = f;
      return f;
    },
    (e) => {
      // A failed open is tried again by the next run, not kept.
      if (source === at) sourceFile = null;
      throw e;
    },
  );
  return sourceFile;
}

async function getMemFile(post, signal) {
  if (memFile) return memFile;
  const bytes = await fileBytes(post, signal);
  return (memFile ??= ColumnsFile.fromBytes(bytes, registry));
}

function timerResolution() {
  let best = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

/** The row group holding file row r. */
function groupOf(r) {
  let lo = 0;
  let hi = rgStart.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rgStart[mid] <= r) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const viewLength = () => (view ? view.length : need().numRows);
const viewRow = (i) => (view ? view[i] : i);

/**
 * A job's cancellation check: asked to stop, or another file opened since
 * it began (the job's file, chunks and view are gone; it must not go on
 * with the new file's). Also lets queued messages (an abort, an open) in
 * now and then.
 */
function jobControl(id) {
  const f = file;
  let last = performance.now();
  const signal = jobStops.get(id)?.signal ?? null;
  const check = async () => {
    if (performance.now() - last > 30) {
      await new Promise((r) => setTimeout(r, 0));
      last = performance.now();
    }
    if (signal?.aborted) throw usage("cancelled", "cancelled");
    if (file !== f) throw replaced();
  };
  /** The job's stop, for its reads: a stop ends their requests in flight. */
  check.signal = signal;
  return check;
}

/** Columns that cannot be read as the file stands (a missing tokenizer). */
function unreadable(f, cols) {
  const out = new Map();
  for (const c of cols) {
    for (let g = 0; g < footerGroups.length; g++) {
      const refusal = tokenizerRefusal(f, g, c);
      if (refusal) {
        out.set(c, errorInfo(refusal));
        break;
      }
    }
  }
  return out;
}

const ops = {
  async register({ bytes, name }) {
    const digest = registry.register(bytes);
    // A missing tokenizer may be this one: those chunks are tried afresh.
    for (const [k, v] of failures) if (v.error.kind === "unknown_tokenizer") failures.delete(k);
    return { digest, name, tokenizers: file ? file.tokenizers : [] };
  },

  async open({ blob, url }, post) {
    dropFile();
    // A newer open drops this one: its requests stop, and if it ends anyway
    // it neither becomes the open file nor keeps its own.
    const stop = new AbortController();
    sourceStop = stop;
    const t0 = performance.now();
    let f;
    let http = null;
    // Bytes the page reads ahead for the package (loadHeaders, whole-file passes).
    const held = new Held();
    try {
      if (blob) f = await ColumnsFile.fromBlob(held.blob(blob), registry);
      else {
        http = await openUrl(url, { signal: stop.signal, onProgress: (p) => stop.signal.aborted || post(p) });
        f = await ColumnsFile.fromAsyncBuffer(held.buffer(http.buffer), registry);
      }
    } catch (e) {
      if (stop.signal.aborted) throw replaced();
      // A whole-file download refused inside one of the package's reads: its own error.
      if (e?.cause?.kind === "too_large") throw e.cause;
      throw e;
    }
    if (stop.signal.aborted) {
      f.free();
      throw replaced();
    }
    source = blob ? { blob, held } : { url, http, held };
    file = f;
    const groups = (footerGroups = f.rowGroups);
    footerSchema = f.schema;
    rgStart = new Float64Array(groups.length + 1);
    groups.forEach((rg, g) => (rgStart[g + 1] = rgStart[g] + rg.numRows));
    const openMs = performance.now() - t0;
    const io = fetched();
    return { ...summary(), openMs, openBytes: io.bytes, openRequests: io.requests };
  },

  async close() {
    dropFile();
    return null;
  },

  /** The whole file as a Blob where this worker already holds all of it (a
   *  server that ignored Range sent it, or Timing loaded it), else null: the
   *  SQL worker reads that rather than download the file again. */
  async heldBlob() {
    need();
    // Made once: a Blob copies its bytes, and SQL loads again after a stop.
    if (!heldAsBlob) {
      const at = source;
      const bytes = memBytes ?? (at.http?.note ? await at.http.readAll() : null);
      if (source !== at) throw replaced();
      heldAsBlob ??= bytes && new Blob([bytes]);
    }
    return { blob: heldAsBlob };
  },

  async loadHeaders(args, post) {
    const f = need();
    const t0 = performance.now();
    const { held } = source;
    const chunks = footerGroups.flatMap((rg) => rg.columns);
    // Many chunks: headers close together are read in stretches and handed
    // to the package from memory (chunkheaders.js).
    const { spans } = headerPlan(chunks, { http: !source.blob });
    // How far it is: the headers within each slice the package has had
    // (from a File, one request a header where they lie far apart: 20,000
    // take seconds), said as often as any progress (PROGRESS_MS).
    const starts = Float64Array.from(chunks.filter((cm) => cm.byteLength > 0), (cm) => cm.byteOffset).sort();
    const below = (x) => {
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (starts[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    // (each header once: a chunk read meanwhile, the grid's, covers its header too)
    const seen = new Uint8Array(starts.length);
    let done = 0;
    held.onSlice = (start, end) => {
      for (let k = below(start), k1 = below(end); k < k1; k++) if (!seen[k]) (seen[k] = 1), done++;
      post({ done, total: starts.length, text: `${fmtInt(done)} of ${plural(starts.length, "chunk header")}` });
    };
    try {
      await readAhead(spans, { once: true });
      await f.loadChunkHeaders();
    } finally {
      held.onSlice = null;
      // (Headers the package did not ask for: read before, by an inspect.)
      held.release(spans);
    }
    // What the headers told, chunk by chunk (row group major): two arrays
    // of numbers (null: unknown) cost the page nothing to take, where the
    // row groups again, every chunk's object, took the 90,000 chunks of a
    // 300 x 300 file a third of a second on the page's thread.
    const groups = f.rowGroups;
    const raw = [];
    const blocks = [];
    for (const rg of groups) for (const cm of rg.columns) raw.push(cm.rawLength), blocks.push(cm.blockCount);
    return { raw, blocks, ms: performance.now() - t0, ...ioCounters() };
  },

  async info() {
    return { tokenizers: file ? file.tokenizers : [], ...ioCounters() };
  },

  /** Bounds the decoded chunks kept for the grid (bytes). */
  async setCacheLimit({ bytes }) {
    cacheLimit = bytes;
    return { cacheLimit };
  },

  async inspect({ g, c }) {
    const f = need();
    // The report reads the chunk's bytes, and so does whatever wants its
    // values now (the decoded size below, the column's profile beside this
    // view): a chunk not decoded yet is read ahead once, for all of them,
    // and held until the report is done (over HTTP each read is the whole
    // chunk again).
    const key = `${g}:${c}`;
    const cm = footerGroups[g].columns[c];
    const { held } = source;
    const spans = cache.has(key) || inflight.has(key) || failures.has(key) ? [] : [{ start: cm.byteOffset, end: cm.byteOffset + cm.byteLength, ranges: [] }];
    const ahead = readAhead(spans);
    try {
      let report;
      try {
        report = await f.inspectChunkAsync(g, c);
      } catch (e) {
        // A chunk that does not inspect: the page still shows what the
        // footer and the chunk's header bytes say of it.
        await noteFailure(f, g, c, e);
        const failure = failures.get(key);
        if (!failure || failure.error.message !== errorInfo(e).message) throw e;
        return { report: null, failure, ...ioCounters() };
      }
      if (report.error) await noteFailure(f, g, c, report.error);
      // Where the chunk's facts do not tell its decoded size (strings other
      // than Plain), a chunk that decodes is also read (from the cache when
      // the grid has it), so every view learns the size; the report does not
      // carry it, as each field costs the package's size budget.
      const facts = { ...cm, rawLength: report.rawLength };
      if (report.decoded && decodedSize(footerSchema[c].type, footerGroups[g].numRows, facts) === null) await getColumn(g, c).catch(() => {});
      const out = { ...report, error: report.error ? errorInfo(report.error) : null };
      return { report: out, failure: failures.get(key) || null, ...ioCounters() };
    } finally {
      await ahead;
      held.release(spans);
    }
  },

  /**
   * Rows start .. start + count of the current view: their file row numbers
   * and, per column, the cells (null, number, bigint, bool, or the bytes of
   * a string), or the error that column's chunk gave (the first, if
   * several row groups' did), each unreadable cell's own, and the row
   * groups whose chunk failed.
   */
  async rows({ start, count, cols }) {
    const total = viewLength();
    const end = Math.min(total, start + count);
    const n = Math.max(0, end - start);
    const ids = new Float64Array(n);
    for (let i = 0; i < n; i++) ids[i] = viewRow(start + i);
    // Which row groups this window touches.
    const groups = new Map();
    for (let i = 0; i < n; i++) {
      const g = groupOf(ids[i]);
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(i);
    }
    const f = need();
    // A window over several row groups reads their chunks ahead together.
    const columns = await readingAhead([...groups.keys()], cols, groups.size > 1, null, () => windowCells(f, cols, groups, ids));
    return { start, end, total, ids, columns, ...ioCounters() };
  },

  /**
   * Computes the view: rows passing every filter, in the order of `sort`
   * ({ c, desc } or null). Reads each involved chunk once, row group by
   * row group; reports progress and stops when aborted.
   */
  async setView({ filters = [], sort = null }, post, job) {
    const f = need();
    const check = jobControl(job);
    const t0 = performance.now();
    const G = footerGroups.length;
    let ids = null;
    let skipped = 0; // row groups the statistics ruled out
    let none = null; // (the row groups the filter keeps no row of: the sort reads none of them)
    // Columns searched by "any text column" whose chunk does not read: c -> error.
    const leftOut = new Map();
    const sortType = sort ? footerSchema[sort.c].type : null;
    /** Refuses a sort of `rows` rows whose lists would be over VIEW_LIMIT, before reading a key. */
    const sortFits = (rows, filtered) => {
      const bytes = sortBytes(sortType, rows, filtered);
      if (bytes <= VIEW_LIMIT) return;
      const most = Math.floor(VIEW_LIMIT / sortBytes(sortType, 1, filtered));
      const what = filtered ? `the filter's ${plural(rows, "row")}` : plural(rows, "row");
      throw usage("too_large", `sorting ${what} by “${footerSchema[sort.c].name}” would take ${fmtBytes(bytes)} of memory (${sortBytes(sortType, 1, filtered)} bytes a row${sortType === "string" || sortType === "bytes" ? ", its distinct values besides" : ""}), more than the ${fmtBytes(VIEW_LIMIT)} a view may take in this tab${filtered ? " (its column was not read)" : "; nothing was read"}. ${filtered ? "Narrow the filter" : "Filter the rows first"}: a sort of up to ${plural(most, "row")} fits.`);
    };
    if (sort && !filters.length) sortFits(f.numRows, false);
    // A sort of the filter's rows is checked as the filter counts them:
    // past the rows it may sort, the filter stops there, rather than read
    // on to the last row group for a sort refused after.
    const sortRow = sort ? sortBytes(sortType, 1, true) : 0;
    if (filters.length) {
      const parts = [];
      let kept = 0;
      const named = new Set(filters.map((cond) => cond.c).filter((c) => c !== ANY_TEXT));
      const searched = filters.some((cond) => cond.c === ANY_TEXT) ? textColumns(footerSchema) : [];
      const cols = [...new Set([...named, ...searched])];
      // Row groups whose footer statistics show one condition passing no
      // row of theirs (filter.js; "any text column" by every column it
      // searches): not read, none of their rows kept.
      const skip = new Uint8Array(G);
      for (let g = 0; g < G; g++) if (filters.some((cond) => rowGroupExcluded(cond, footerSchema, footerGroups[g]))) skip[g] = 1;
      for (const x of skip) skipped += x;
      none = skip.slice();
      for await (const [g, settled] of rowGroupsInTurn(cols, check, { settled: true, skip })) {
        // A column a condition names fails the view, as it always did; one
        // only searched is left out of the search, and said to be.
        const chunks = settled.map(({ value, error }, i) => {
          if (!error) return value;
          if (error.kind === "cancelled" || named.has(cols[i])) throw error;
          if (!leftOut.has(cols[i])) leftOut.set(cols[i], errorInfo(error));
          return null;
        });
        const n = footerGroups[g].numRows;
        const keep = new Uint8Array(n).fill(1);
        for (const cond of filters) {
          if (cond.c === ANY_TEXT) applyAnyText(cond, searched.map((c) => chunks[cols.indexOf(c)]), keep);
          else applyCondition(cond, chunks[cols.indexOf(cond.c)], keep);
        }
        let k = 0;
        for (let i = 0; i < n; i++) k += keep[i];
        if (sort && (kept + k) * sortRow > VIEW_LIMIT) {
          const most = Math.floor(VIEW_LIMIT / sortRow);
          throw usage("too_large", `the filter keeps ${plural(kept + k, "row")} of the first ${fmtInt(rgStart[g] + n)} (row groups 0 to ${fmtInt(g)} of ${fmtInt(G)}), more than the ${fmtInt(most)} a sort by “${footerSchema[sort.c].name}” may take in this tab (${fmtBytes(VIEW_LIMIT)}, ${sortRow} bytes a row); it stopped there, the sort's column not read. Narrow the filter: another condition, or a value that fewer rows have.`);
        }
        if ((kept + k) * FILTER_ROW_BYTES > VIEW_LIMIT) {
          const most = Math.floor(VIEW_LIMIT / FILTER_ROW_BYTES);
          throw usage("too_large", `the filter keeps ${plural(kept + k, "row")} of the first ${fmtInt(rgStart[g] + n)} (row groups 0 to ${fmtInt(g)} of ${fmtInt(G)}), more than the ${fmtInt(most)} a view may hold in this tab (${fmtBytes(VIEW_LIMIT)}, ${FILTER_ROW_BYTES} bytes a row). Narrow the filter: another condition, or a value that fewer rows have.`);
        }
        // (a list of the rows kept only: one of the row group's length held every row group's worth to the end)
        const part = new Uint32Array(k);
        const base = rgStart[g];
        for (let i = 0, j = 0; i < n; i++) if (keep[i]) part[j++] = base + i;
        parts.push(part);
        kept += k;
        if (!k) none[g] = 1;
        post({ done: g + 1, total: G, label: "filtering row group" });
      }
      ids = new Uint32Array(kept);
      let at = 0;
      for (const p of parts) {
        ids.set(p, at);
        at += p.length;
      }
    }
    if (sort) {
      if (ids) sortFits(ids.length, true);
      const keys = new SortKeys(sortType, f.numRows, ids, VIEW_LIMIT);
      for await (const [g, [col]] of rowGroupsInTurn([sort.c], check, { skip: none })) {
        keys.add(rgStart[g], col);
        if (keys.over) {
          const rows = ids ? ids.length : f.numRows;
          throw usage("too_large", `sorting ${ids ? `the filter's ${plural(rows, "row")}` : plural(rows, "row")} by “${footerSchema[sort.c].name}” would take more than the ${fmtBytes(VIEW_LIMIT)} a view may take in this tab: ${fmtBytes(keys.rowBytes)} for the rows (${sortBytes(sortType, 1, !!ids)} bytes a row), and its distinct values up to row group ${fmtInt(g)} of ${fmtInt(G)} ${fmtBytes(keys.tableBytes)} more (each its bytes and about ${DISTINCT_ENTRY} besides). ${ids ? "Narrow the filter" : "Filter the rows first"}: fewer rows hold fewer distinct values.`);
        }
        post({ done: g + 1, total: G, label: "reading sort keys of row group" });
      }
      await check();
      keys.finish();
      ids = await sortIds(keys, !!sort.desc, async (p, total) => {
        await check();
        post({ done: p + 1, total, label: "sorting, pass" });
      });
    }
    view = ids;
    viewSpec = { filters, sort };
    return { total: viewLength(), numRows: f.numRows, skipped, leftOut: [...leftOut].map(([c, error]) => ({ c, error })), ms: performance.now() - t0, ...ioCounters() };
  },

  /** Where file row `row` is in the current view (-1: filtered out). */
  async locate({ row }) {
    if (!view) return { index: row < need().numRows ? row : -1 };
    const i = view.indexOf(row);
    return { index: i };
  },

  /**
   * The profiles of columns `cols` at once, in one pass or two (values,
   * then the histograms of those that need it): a row group's chunks of
   * them read in one call, not one a column (a file of 300 columns x 300
   * row groups took 35 s column by column). A column whose chunk does not
   * read gets that error; the others count on.
   */
  async profiles({ cols, ranges = [] }, post, job) {
    const f = need();
    const check = jobControl(job);
    const t0 = performance.now();
    const G = footerGroups.length;
    const counts = cols.map((c) => new ColumnProfile(footerSchema[c].type, f.numRows));
    const errors = new Map(); // index in cols -> its error
    // A column whose footer gives a range ({ min, max }, from the page)
    // counts its histogram in the first pass over it; if the range proves
    // exact, that histogram is the one a second pass would count, and the
    // column is not read again (over HTTP, a column larger than the
    // decoded-chunk cache would be downloaded twice).
    const early = new Set(cols.flatMap((_, j) => (ranges[j] && counts[j].startHistogram(ranges[j].min, ranges[j].max) ? [j] : [])));
    // (the progress bar's length: two passes where one is foreseen)
    const twice = cols.some((c, j) => !early.has(j) && hasHistogram(footerSchema[c].type));
    const pass = async (list, step, k) => {
      for await (const [g, chunks] of rowGroupsInTurn(list.map((j) => cols[j]), check, { settled: true })) {
        chunks.forEach(({ value, error }, i) => {
          const j = list[i];
          if (error?.kind === "cancelled") throw error;
          if (errors.has(j)) return;
          if (error) errors.set(j, errorInfo(error));
          else step(counts[j], value);
        });
        post({ done: k * G + g + 1, total: k || twice ? G * 2 : G, text: `${k ? (list.length > 1 ? "histograms" : "histogram") : "values"} of row group ${fmtInt(g + 1)} of ${fmtInt(G)}` });
      }
    };
    await pass(cols.map((_, j) => j), (p, col) => (p.add(col), p.hist && p.addHistogram(col)), 0);
    const counted = (j) => early.has(j) && counts[j].rangeIs(ranges[j].min, ranges[j].max);
    const histograms = cols.map((_, j) => j).filter((j) => !errors.has(j) && !counted(j) && counts[j].startHistogram());
    if (histograms.length) await pass(histograms, (p, col) => p.addHistogram(col), 1);
    const second = new Set(histograms);
    const results = cols.map((c, j) => (errors.has(j) ? { c, error: errors.get(j) } : { c, profile: counts[j].result(TOP_KEPT), passes: second.has(j) ? 2 : 1 }));
    return { results, ms: performance.now() - t0, ...ioCounters() };
  },

  /**
   * Writes the current view's rows of `cols` as CSV, JSON or an Arrow IPC
   * stream, a block of rows at a time. With `handle` (a file the person
   * chose) each block is written to it as it is made; otherwise each block
   * becomes a Blob (the browser keeps Blob data outside the JavaScript heap
   * and pages it to disk when large) and the answer is one Blob made of
   * them, so no more than a block of text is ever held here. That Blob is
   * bounded (EXPORT_LIMIT): an export whose footer says it would take
   * more is refused before anything is read, and one that passes it as
   * it is written stops there; `picker` says whether this browser can
   * save to a chosen file instead, which the refusal then suggests.
   */
  async export({ format, cols, units = {}, handle = null, picker = false, block = 65536 }, post, job) {
    const f = need();
    const check = jobControl(job);
    const t0 = performance.now();
    const labelsAll = columnLabels(footerSchema);
    const labels = cols.map((c) => labelsAll[c]);
    const types = cols.map((c) => footerSchema[c].type);
    const colUnits = cols.map((c) => units[c] || null);
    // The rows of the view as it is now: a sort or filter applied while the
    // export runs makes a new view (never changes this one), which must not
    // change which rows are written, or their order, halfway.
    const rows = view;
    const total = rows ? rows.length : f.numRows;
    const what = `the ${format === "arrow" ? "Arrow stream" : format.toUpperCase()} of ${plural(total, "row")} × ${plural(cols.length, "column")}`;
    const instead = picker
      ? "Tick “Choose where to save” to write it straight into a file, with no such limit, or export fewer rows (a filter) or columns."
      : "This browser cannot write straight into a file you choose (it has no save picker): export fewer rows (a filter) or columns.";
    if (!handle) {
      const least = exportEstimate(footerGroups, footerSchema, cols, { format, units, labels, rows: total }).bytes;
      if (least > EXPORT_LIMIT) throw usage("too_large", `${what} would take at least ${fmtBytes(least)}, more than the ${fmtBytes(EXPORT_LIMIT)} a download may take in this tab; nothing was read. ${instead}`);
    }
    const writer = handle ? await handle.createWritable() : null;
    const parts = [];
    let bytes = 0;
    let written = 0; // rows
    const enc = new TextEncoder();
    const emit = async (chunk) => {
      const b = typeof chunk === "string" ? enc.encode(chunk) : chunk;
      bytes += b.length;
      if (writer) await writer.write(b);
      else if (bytes > EXPORT_LIMIT) throw usage("too_large", `${what} passed the ${fmtBytes(EXPORT_LIMIT)} a download may take in this tab after ${plural(written, "row")}; nothing was downloaded. ${instead}`);
      else parts.push(new Blob([b]));
    };
    let mime;
    let arrow = null;
    let fmt = null;
    try {
      if (format === "arrow") {
        const A = await loadArrow();
        const schema = arrowSchema(A, cols.map((c, k) => ({ name: labels[k], type: types[k] })));
        arrow = { A, schema, w: ipcStreamWriter(A, schema), replaced: new Set() };
        mime = "application/vnd.apache.arrow.stream";
        await emit(arrow.w.start());
      } else {
        fmt = textFormat(format, labels, types, colUnits);
        mime = fmt.mime;
        await emit(fmt.head);
      }
      for (let start = 0; start < total; start += block) {
        await check();
        const end = Math.min(total, start + block);
        const n = end - start;
        // Group the block's rows by row group, keeping their positions.
        const g0 = new Uint32Array(n);
        const local = new Uint32Array(n);
        for (let i = 0; i < n; i++) {
          const r = rows ? rows[start + i] : start + i;
          const g = groupOf(r);
          g0[i] = g;
          local[i] = r - rgStart[g];
        }
        const chunks = await blockChunks([...new Set(g0)], cols, check.signal);
        if (arrow) {
          const gathered = cols.map((c, k) => {
            const col = gatherColumn(footerSchema[c].type, n, (i) => chunks.get(`${g0[i]}:${c}`), local);
            if (col.type !== "string") return col;
            // (the schema, written first, says Utf8: bytes that are not UTF-8 cannot stay)
            const r = asUtf8(col);
            if (r.replaced) arrow.replaced.add(labels[k]);
            return r.col;
          });
          await emit(arrow.w.batch(recordBatch(arrow.A, arrow.schema, gathered)));
        } else {
          let text = "";
          const cells = new Array(cols.length);
          for (let i = 0; i < n; i++) {
            for (let k = 0; k < cols.length; k++) cells[k] = cellText(chunks.get(`${g0[i]}:${cols[k]}`), local[i], colUnits[k]);
            text += (start + i === 0 ? "" : fmt.sep) + fmt.row(cells);
            if (text.length > 1 << 22) {
              await emit(text);
              text = "";
            }
          }
          await emit(text);
        }
        written = end;
        post({ done: end, total, label: "rows written" });
      }
      await check(); // the last block's chunks were of this file too
      await emit(arrow ? arrow.w.end() : fmt.tail);
      if (writer) await writer.close();
    } catch (e) {
      if (writer) await writer.abort().catch(() => {});
      // A read that failed as another file opened (its source stopped, no file open) failed for that.
      throw file === f ? e : replaced();
    }
    const blob = writer ? null : new Blob(parts, { type: mime });
    return { blob, bytes, rows: total, ms: performance.now() - t0, mime, replaced: arrow ? [...arrow.replaced] : [], ...ioCounters() };
  },

  async timing(args, post, job) {
    const { cols: chosen, rgs, runs, warmups, mode, reuse, scope = "column", poolSize = 2 } = args;
    const check = jobControl(job);
    const f0 = need();
    const skipped = [];
    const bad = unreadable(f0, chosen);
    for (const [c, e] of bad) skipped.push({ c, error: e });
    let cols = chosen.filter((c) => !bad.has(c));
    const resolution = timerResolution();
    // (a stop ends the requests in flight: the whole file's, the reads')
    const { signal } = check;
    const f = mode === "memory" ? await getMemFile(post, signal) : await getSourceFile();
    const withStop = (options) => (signal ? { ...options, signal } : options);

    // One untimed read of every chunk first: a chunk that fails takes its
    // column out of the run (named in the answer) instead of ending it.
    for (const c of cols) {
      for (const g of rgs) {
        await check();
        try {
          if (mode === "memory") f.readColumn(g, c);
          else await f.readColumnAsync(g, c, withStop());
        } catch (e) {
          await check(); // (stopped: no chunk's failure)
          skipped.push({ c, error: errorInfo(e) });
          break;
        }
      }
    }
    cols = cols.filter((c) => !skipped.some((s) => s.c === c));
    if (!cols.length) return { mode, scope, resolution, skipped, columns: [], whole: null, ...ioCounters() };

    if (scope === "column") {
      const previous = new Map();
      const one = async (c) => {
        const agg = { wallMs: 0, readMs: 0, decompressMs: 0, decodeMs: 0, copyMs: 0, totalMs: 0, decodedBytes: 0, fromMemory: true, hasRead: false };
        const t0 = performance.now();
        for (const g of rgs) {
          const options = reuse ? { reuse: previous.get(`${g}:${c}`) } : undefined;
          const col = mode === "memory" ? f.readColumn(g, c, options) : await f.readColumnAsync(g, c, withStop(options));
          if (reuse) previous.set(`${g}:${c}`, col);
          const t = col.timings;
          agg.decompressMs += t.decompressMs;
          agg.decodeMs += t.decodeMs;
          agg.copyMs += t.copyMs;
          agg.totalMs += t.totalMs;
          if (t.readMs !== undefined) {
            agg.readMs += t.readMs;
            agg.hasRead = true;
          }
          agg.fromMemory = agg.fromMemory && t.fromMemory;
          agg.decodedBytes += columnBytes(col);
        }
        agg.wallMs = performance.now() - t0;
        return agg;
      };
      const total = warmups * cols.length + runs * cols.length;
      // The bar goes over warm-ups and runs; the text counts each apart
      // ("warm-up 3 of 15", then "run 16 of 75", not "run 16 of 90").
      const steps = { "warm-up": warmups * cols.length, run: runs * cols.length };
      const counted = { "warm-up": 0, run: 0 };
      let done = 0;
      let last = 0;
      const tick = async (label) => {
        done++;
        counted[label]++;
        await check();
        const now = performance.now();
        if (now - last > 60 || done === total) {
          last = now;
          post({ done, total, label, text: `${label} ${counted[label]} of ${steps[label]}` });
        }
      };
      for (let w = 0; w < warmups; w++) {
        for (const c of shuffle([...cols])) {
          await one(c);
          await tick("warm-up");
        }
      }
      const order = shuffle(cols.flatMap((c) => Array.from({ length: runs }, () => c)));
      const results = new Map(cols.map((c) => [c, []]));
      for (let i = 0; i < order.length; i++) {
        const r = await one(order[i]);
        r.seq = i;
        results.get(order[i]).push(r);
        await tick("run");
      }
      return { mode, scope, resolution, inMemory: f.inMemory, skipped, columns: cols.map((c) => ({ c, runs: results.get(c) })), whole: null, ...ioCounters() };
    }

    // A whole read: every chosen column of every chosen row group in one
    // call, on this thread or on a pool of workers (as bench/run times it).
    let pool = null;
    let pooled = null;
    let read;
    if (scope === "pool") {
      pool = await ColumnsPool.create(poolSize);
      const tokenizers = args.tokenizers || [];
      const input = source.blob && mode !== "memory" ? source.blob : await fileBytes(post, signal);
      pooled = await pool.open(input, { tokenizers });
      read = (options) => pooled.readColumns(rgs, cols, options);
    } else if (mode === "memory") read = async (options) => f.readColumns(rgs, cols, options);
    else read = (options) => f.readColumnsAsync(rgs, cols, withStop(options));
    try {
      let prev = null;
      const wall = [];
      let decodedBytes = 0;
      const total = warmups + runs;
      for (let i = 0; i < total; i++) {
        await check();
        const options = reuse && prev ? { reuse: prev } : undefined;
        const t0 = performance.now();
        const out = await read(options);
        const ms = performance.now() - t0;
        if (i >= warmups) wall.push({ wallMs: ms, seq: i - warmups });
        decodedBytes = out.reduce((a, col) => a + columnBytes(col), 0);
        prev = reuse ? out : null;
        post({ done: i + 1, total, label: i < warmups ? "warm-up" : "run", text: i < warmups ? `warm-up ${i + 1} of ${warmups}` : `run ${i + 1 - warmups} of ${runs}` });
      }
      return { mode, scope, poolSize: pool ? pool.size : null, resolution, skipped, columns: [], whole: { cols, runs: wall, decodedBytes }, ...ioCounters() };
    } finally {
      pooled?.close();
      pool?.terminate();
    }
  },
};

/** n rows gathered from several chunks into one column-like object. */
function gatherColumn(type, n, chunkOf, local) {
  let nulls = 0;
  const validity = new Uint8Array((n + 7) >> 3);
  const isValid = (col, r) => col.validity === null || ((col.validity[r >> 3] >> (r & 7)) & 1) === 1;
  if (type === "string" || type === "bytes") {
    let size = 0;
    for (let i = 0; i < n; i++) {
      const col = chunkOf(i);
      const r = local[i];
      if (isValid(col, r)) size += col.values.offsets[r + 1] - col.values.offsets[r];
    }
    const offsets = new Uint32Array(n + 1);
    const data = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const col = chunkOf(i);
      const r = local[i];
      if (isValid(col, r)) {
        const { offsets: o, data: d } = col.values;
        data.set(d.subarray(o[r], o[r + 1]), at);
        at += o[r + 1] - o[r];
        validity[i >> 3] |= 1 << (i & 7);
      } else nulls++;
      offsets[i + 1] = at;
    }
    return { type, length: n, nullCount: nulls, values: { offsets, data }, validity: nulls ? validity : null };
  }
  const first = chunkOf(0);
  const values = new first.values.constructor(n);
  for (let i = 0; i < n; i++) {
    const col = chunkOf(i);
    const r = local[i];
    if (isValid(col, r)) {
      values[i] = col.values[r];
      validity[i >> 3] |= 1 << (i & 7);
    } else nulls++;
  }
  return { type, length: n, nullCount: nulls, values, validity: nulls ? validity : null };
}

const PROGRESS_MS = 50;

self.onmessage = async (ev) => {
  const { id, op, args, abort } = ev.data;
  if (abort !== undefined) {
    jobStops.get(abort)?.abort();
    return;
  }
  const stop = new AbortController();
  jobStops.set(id, stop);
  // Progress at most every PROGRESS_MS: a pass over 300 row groups of 64
  // columns spent a fifth of its time drawing a message a row group.
  let posted = -Infinity;
  const post = (progress) => {
    const now = performance.now();
    if (now - posted < PROGRESS_MS) return;
    posted = now;
    self.postMessage({ id, progress });
  };
  try {
    await ready;
    if (!ops[op]) throw usage("bad_argument", `unknown operation ${op}`);
    const result = await ops[op](args || {}, post, id);
    self.postMessage({ id, ok: true, result });
  } catch (e) {
    // Stopped, whatever failed failed for that (a read aborted): cancelled.
    self.postMessage({ id, ok: false, error: errorInfo(stop.signal.aborted && e?.kind !== "cancelled" ? usage("cancelled", "cancelled") : e) });
  } finally {
    jobStops.delete(id);
  }
};

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, error: errorInfo(e) }),
);
