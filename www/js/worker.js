// The decoding worker: owns the wasm instance, the tokenizer registry and
// the open file, so decoding never blocks the page. Requests are
// { id, op, args }; replies { id, ok, result | error } and, for long work,
// { id, progress }.

import init, { ColumnsFile, TokenizerRegistry } from "/pkg/columns_wasm.js";
import { openUrl } from "./urlbuffer.js";
import { shuffle } from "./stats.js";

let registry = null;
let file = null; // the file opened from a Blob or URL
let memFile = null; // the same file opened with fromBytes (timing "from memory")
let source = null; // { blob } or { url, http }
const cache = new Map(); // "g:c" -> Column (LRU by insertion order)
let cacheBytes = 0;
const CACHE_LIMIT = 256 * 1024 * 1024;
const MEMORY_LIMIT = 1536 * 1024 * 1024;

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

function need() {
  if (!file) throw usage("bad_argument", "no file is open");
  return file;
}

function ioCounters() {
  const f = file;
  if (!f) return { bytesRead: 0, requests: 0 };
  return { bytesRead: f.bytesRead, requests: f.requests, note: source?.http?.note || "" };
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
    schema: f.schema,
    tokenizers: f.tokenizers,
    rowGroups: f.rowGroups,
    layout: f.layout,
    ...ioCounters(),
  };
}

async function getColumn(g, c) {
  const key = `${g}:${c}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const col = await need().readColumnAsync(g, c);
  const size = columnBytes(col);
  cache.set(key, { col, size });
  cacheBytes += size;
  for (const [k, v] of cache) {
    if (cacheBytes <= CACHE_LIMIT || cache.size <= 1) break;
    cache.delete(k);
    cacheBytes -= v.size;
  }
  return { col, size };
}

function dropFile() {
  cache.clear();
  cacheBytes = 0;
  if (memFile) memFile.free();
  if (file) file.free();
  memFile = null;
  file = null;
  source = null;
}

async function getMemFile(post) {
  if (memFile) return memFile;
  const size = need().byteLength;
  if (size > MEMORY_LIMIT) throw usage("too_large", `the file is ${size} bytes; "from memory" timing loads it whole and is limited to ${MEMORY_LIMIT} bytes here`);
  post({ label: `Loading the whole file (${size} bytes) into memory…` });
  const bytes = source.blob ? new Uint8Array(await source.blob.arrayBuffer()) : await source.http.readAll();
  memFile = ColumnsFile.fromBytes(bytes, registry);
  return memFile;
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

const ops = {
  async register({ bytes, name }) {
    const digest = registry.register(bytes);
    return { digest, name, tokenizers: file ? file.tokenizers : [] };
  },

  async open({ blob, url }) {
    dropFile();
    const t0 = performance.now();
    let f;
    if (blob) {
      f = await ColumnsFile.fromBlob(blob, registry);
      source = { blob };
    } else {
      const http = await openUrl(url);
      f = await ColumnsFile.fromAsyncBuffer(http.buffer, registry);
      source = { url, http };
    }
    file = f;
    const openMs = performance.now() - t0;
    return { ...summary(), openMs, openBytes: f.bytesRead, openRequests: f.requests };
  },

  async close() {
    dropFile();
    return null;
  },

  async loadHeaders() {
    const f = need();
    const t0 = performance.now();
    await f.loadChunkHeaders();
    return { rowGroups: f.rowGroups, ms: performance.now() - t0, ...ioCounters() };
  },

  async info() {
    return { tokenizers: file ? file.tokenizers : [], ...ioCounters() };
  },

  async inspect({ g, c }) {
    const report = await need().inspectChunkAsync(g, c);
    const out = { ...report, error: report.error ? errorInfo(report.error) : null };
    return { report: out, ...ioCounters() };
  },

  async preview({ g, cols, start, count }) {
    const f = need();
    const numRows = f.rowGroups[g]?.numRows ?? 0;
    const end = Math.min(numRows, start + count);
    const columns = [];
    for (const c of cols) {
      try {
        const { col } = await getColumn(g, c);
        const cells = new Array(Math.max(0, end - start));
        const v = col.values;
        for (let i = start; i < end; i++) {
          if (!col.isValid(i)) cells[i - start] = null;
          else if (v.offsets) cells[i - start] = v.data.slice(v.offsets[i], v.offsets[i + 1]);
          else cells[i - start] = col.type === "bool" ? v[i] === 1 : v[i];
        }
        columns.push({ c, type: col.type, nullCount: col.nullCount, cells, timings: col.timings });
      } catch (e) {
        columns.push({ c, error: errorInfo(e) });
      }
    }
    return { g, start, end, numRows, columns, ...ioCounters() };
  },

  async timing({ cols, rgs, runs, warmups, mode, reuse }, post) {
    const f = mode === "memory" ? await getMemFile(post) : need();
    const resolution = timerResolution();
    // With `reuse`, each read hands back the previous read of the same chunk.
    const previous = new Map();
    const one = async (c) => {
      const agg = { wallMs: 0, readMs: 0, decompressMs: 0, decodeMs: 0, copyMs: 0, totalMs: 0, decodedBytes: 0, fromMemory: true, hasRead: false };
      const t0 = performance.now();
      for (const g of rgs) {
        const options = reuse ? { reuse: previous.get(`${g}:${c}`) } : undefined;
        const col = mode === "memory" ? f.readColumn(g, c, options) : await f.readColumnAsync(g, c, options);
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
    let done = 0;
    let last = 0;
    const tick = (label) => {
      done++;
      const now = performance.now();
      if (now - last > 60 || done === total) {
        last = now;
        post({ done, total, label });
      }
    };
    for (let w = 0; w < warmups; w++) {
      for (const c of shuffle([...cols])) {
        await one(c);
        tick("warm-up");
      }
    }
    const order = shuffle(cols.flatMap((c) => Array.from({ length: runs }, () => c)));
    const results = new Map(cols.map((c) => [c, []]));
    for (let i = 0; i < order.length; i++) {
      const c = order[i];
      const r = await one(c);
      r.seq = i;
      results.get(c).push(r);
      tick("run");
    }
    return {
      mode,
      resolution,
      inMemory: f.inMemory,
      columns: cols.map((c) => ({ c, runs: results.get(c) })),
      ...ioCounters(),
    };
  },
};

self.onmessage = async (ev) => {
  const { id, op, args } = ev.data;
  const post = (progress) => self.postMessage({ id, progress });
  try {
    await ready;
    if (!ops[op]) throw usage("bad_argument", `unknown operation ${op}`);
    const result = await ops[op](args || {}, post);
    self.postMessage({ id, ok: true, result });
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorInfo(e) });
  }
};

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, error: errorInfo(e) }),
);
