// Hostile and careless calls at the package's API (issue 12): wrong types,
// NaN, huge and sparse arrays, detached buffers, sources that lie, throw,
// hang or hand back detached buffers, and sizes up to what the machine can
// hold (multi-GiB files are sparse: only their headers, chunk headers and
// footer exist; everything else is computed per slice()).
//
// Each case names the call, the error kinds it may end in (or "ok" with a
// check of the result), and runs against a context made by `context(api)`.
// tests/node/hostile.test.mjs runs them and checks that afterwards the same
// file and registry still read correctly; tests/node/hostile-table.mjs runs
// each in its own process against a given package, for a before/after table.
// (Not a test file itself.)

import fs from "node:fs";
import path from "node:path";
import { columnJson } from "../js/check.mjs";
import { corpusFile, tokenizerDir } from "./corpus.mjs";
import { encodeFooter, encodedChunk, footerClaiming, oneChunkFile, u32s } from "./synth.mjs";

const GiB = 2 ** 30;
const MiB = 2 ** 20;

// ---- a large synthetic file: int64 Plain chunks, codec None --------------

/** Rows per chunk of the large files: 8,000,000 data bytes, so four chunks
 *  (plus their 26-byte headers) fit in one 32 MiB request. */
export const BIG_ROWS = 1_000_000;
const CHUNK_HEAD = 26;
const CHUNK_LEN = CHUNK_HEAD + 8 * BIG_ROWS;

function u32(v) {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
}

function chunkHeader(rows) {
  const n = 8 * rows;
  const h = new Uint8Array(CHUNK_HEAD);
  h.set([1, 0]); // Plain, codec None
  [0, n, n, 1, n, n].forEach((v, i) => h.set(u32(v), 2 + 4 * i)); // bitmap, raw, data, blocks, block raw, block stored
  return h;
}

/** A version 1 file of about `size` bytes: one int64 column, one row group
 *  per chunk of BIG_ROWS rows, chunks back to back from byte 5. Returns its
 *  segments (header, chunk headers, footer + tail); every other byte is
 *  `fill(position)`. */
export function bigFile(size) {
  const groups = Math.max(1, Math.floor((size - 5 - 4096) / CHUNK_LEN));
  const segments = [{ start: 0, bytes: Uint8Array.of(0x41, 0x42, 0x43, 0x44, 1) }];
  const rowGroups = [];
  for (let g = 0; g < groups; g++) {
    const start = 5 + g * CHUNK_LEN;
    segments.push({ start, bytes: chunkHeader(BIG_ROWS) });
    rowGroups.push({ numRows: BIG_ROWS, byteOffset: start, columns: [{ byteLength: CHUNK_LEN, encoding: 1 }] });
  }
  const footer = encodeFooter({ schema: [{ name: "v", type: 5, nullable: false }], rowGroups });
  const end = 5 + groups * CHUNK_LEN;
  const tail = new Uint8Array(footer.length + 8);
  tail.set(footer);
  tail.set(u32(footer.length), footer.length);
  tail.set([0x41, 0x42, 0x43, 0x44], footer.length + 4);
  segments.push({ start: end, bytes: tail });
  return { size: end + tail.length, groups, segments, chunkStart: (g) => 5 + g * CHUNK_LEN };
}

/** The filler byte at a position of a sparse file (period 251, prime to 8,
 *  so every value of a chunk depends on where it sits). */
export const fill = (p) => p % 251;

/** The bytes start..end of a big file, computed. */
function bigBytes(file, start, end, filled) {
  const out = new Uint8Array(end - start);
  if (filled) {
    let v = start % 251;
    for (let i = 0; i < out.length; i++) {
      out[i] = v;
      v = v === 250 ? 0 : v + 1;
    }
  }
  for (const s of file.segments) {
    const a = Math.max(start, s.start);
    const b = Math.min(end, s.start + s.bytes.length);
    if (a < b) out.set(s.bytes.subarray(a - s.start, b - s.start), a - start);
  }
  return out;
}

/** Value `row` of row group `g` of a big file whose data is `fill`ed. */
export function bigValue(file, g, row) {
  const at = file.chunkStart(g) + CHUNK_HEAD + 8 * row;
  let v = 0n;
  for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(fill(at + i));
  return BigInt.asIntN(64, v);
}

/** Checks rows 0, 1, the middle and the last of a big file's column. */
export function checkBigColumn(file, g, col, filled = true) {
  if (col.type !== "int64" || col.length !== BIG_ROWS) throw new Error(`rg ${g}: ${col.type} x ${col.length}`);
  for (const r of [0, 1, BIG_ROWS >> 1, BIG_ROWS - 1]) {
    const want = filled ? bigValue(file, g, r) : 0n;
    if (col.values[r] !== want) throw new Error(`rg ${g} row ${r}: ${col.values[r]}, expected ${want}`);
  }
}

/**
 * An AsyncBuffer over a big file that resolves each slice() on a later
 * macrotask and records what was asked: every request, and the most bytes
 * and requests outstanding at once. `onSlice(n)` runs at the n-th call.
 */
export function bigSource(file, { onSlice = () => {} } = {}) {
  const stats = { requests: [], outstanding: 0, outstandingBytes: 0, maxOutstanding: 0, maxOutstandingBytes: 0 };
  return {
    stats,
    byteLength: file.size,
    slice(start, end) {
      stats.requests.push([start, end]);
      onSlice(stats.requests.length);
      stats.outstanding++;
      stats.outstandingBytes += end - start;
      stats.maxOutstanding = Math.max(stats.maxOutstanding, stats.outstanding);
      stats.maxOutstandingBytes = Math.max(stats.maxOutstandingBytes, stats.outstandingBytes);
      return new Promise((resolve, reject) =>
        setImmediate(() => {
          stats.outstanding--;
          stats.outstandingBytes -= end - start;
          try {
            resolve(bigBytes(file, start, end, true));
          } catch (e) {
            reject(e);
          }
        }),
      );
    },
  };
}

/** A whole big file in one (mostly untouched, so mostly unbacked) buffer. */
export function bigBuffer(file) {
  const out = new Uint8Array(file.size);
  for (const s of file.segments) out.set(s.bytes, s.start);
  return out;
}

// ---- the context: a good file, a registry, and a check that both still work

const GOOD = "valid/nulls";
const CHECK = [3, 3]; // row group 3 (1000 rows), column 3 (uint16 with nulls at the edges)

function detachedBuffer(bytes) {
  const b = bytes.slice().buffer;
  structuredClone(b, { transfer: [b] });
  return b;
}

/** A source over `bytes` whose slice() is `slice(start, end, bytes)`. */
const sourceWith = (bytes, slice) => ({ byteLength: bytes.length, slice: (s, e) => slice(s, e, bytes) });

export function context(api) {
  const good = corpusFile(GOOD);
  const file = api.ColumnsFile.fromBytes(good.bytes);
  const registry = new api.TokenizerRegistry();
  const tokenizer = new Uint8Array(fs.readFileSync(path.join(tokenizerDir, "small-tokenizer.json")));
  const checkColumn = (col) => {
    const [g, c] = CHECK;
    const got = JSON.stringify(columnJson(col, good.expected.schema[c].type));
    const want = JSON.stringify(good.expected.row_groups[g].values[c]);
    if (got !== want) throw new Error(`column ${g},${c} reads wrong: ${got.slice(0, 80)}`);
  };
  return {
    api,
    good,
    file,
    registry,
    tokenizer,
    checkColumn,
    /** The same file and registry still work after whatever was thrown at them. */
    async stillWorks() {
      checkColumn(file.readColumn(...CHECK));
      checkColumn((await file.readColumnsAsync([CHECK[0]], [CHECK[1]]))[0]);
      const digest = registry.register(tokenizer);
      if (!registry.has(digest)) throw new Error("the registry lost a tokenizer");
    },
  };
}

// ---- the cases ------------------------------------------------------------

const sync = (f) => async (ctx) => f(ctx);

/** [call as written, expected kinds or "ok", run(ctx) -> result, check(result, ctx)?] */
export const cases = [
  // Index arguments: checked before any work, the product bounded by the file's chunk count.
  ["readColumns(Array(70000).fill(0), Array(70000).fill(0))", ["bad_argument"], sync(({ file }) => file.readColumns(Array(70000).fill(0), Array(70000).fill(0)))],
  ["readColumns(new Array(1e8))", ["bad_argument"], sync(({ file }) => file.readColumns(new Array(1e8)))],
  ["readColumnsAsync(new Array(1e8))", ["bad_argument"], ({ file }) => file.readColumnsAsync(new Array(1e8))],
  ["readColumns([0, , 1]) (a hole)", ["bad_argument"], sync(({ file }) => file.readColumns([0, , 1]))], // eslint-disable-line no-sparse-arrays
  ["readColumns([NaN])", ["out_of_range"], sync(({ file }) => file.readColumns([NaN]))],
  ["readColumns([-1])", ["out_of_range"], sync(({ file }) => file.readColumns([-1]))],
  ["readColumns([0.5])", ["out_of_range"], sync(({ file }) => file.readColumns([0.5]))],
  ["readColumns([2 ** 32])", ["out_of_range"], sync(({ file }) => file.readColumns([2 ** 32]))],
  ["readColumns([Infinity])", ["out_of_range"], sync(({ file }) => file.readColumns([Infinity]))],
  ['readColumns(["0"])', ["bad_argument"], sync(({ file }) => file.readColumns(["0"]))],
  ["readColumns([0n])", ["bad_argument"], sync(({ file }) => file.readColumns([0n]))],
  ["readColumns([null])", ["bad_argument"], sync(({ file }) => file.readColumns([null]))],
  ["readColumns(5)", ["bad_argument"], sync(({ file }) => file.readColumns(5))],
  ['readColumns("01")', ["bad_argument"], sync(({ file }) => file.readColumns("01"))],
  ["readColumns({ length: 2, 0: 0, 1: 1 })", ["bad_argument"], sync(({ file }) => file.readColumns({ length: 2, 0: 0, 1: 1 }))],
  ["readColumns(array with a throwing index getter)", ["bad_argument"], sync(({ file }) => {
    const a = [0, 1];
    Object.defineProperty(a, 1, { get() { throw new Error("getter"); } });
    return file.readColumns(a);
  })],
  ["readColumns(revoked Proxy)", ["bad_argument"], sync(({ file }) => {
    const { proxy, revoke } = Proxy.revocable([0], {});
    revoke();
    return file.readColumns(proxy);
  })],
  ["readColumns([0, 0, 0, 0], [3, 3]) (repeats, within the counts)", "ok", sync(({ file }) => file.readColumns([0, 0, 0, 0], [3, 3])), (cols) => cols.length === 8],
  ['readColumn("3", 3)', ["bad_argument"], sync(({ file }) => file.readColumn("3", 3))],
  ["readColumn(undefined, 0)", ["bad_argument"], sync(({ file }) => file.readColumn(undefined, 0))],
  ["readColumn(NaN, 0)", ["out_of_range"], sync(({ file }) => file.readColumn(NaN, 0))],
  ["readColumn(1n, 0)", ["bad_argument"], sync(({ file }) => file.readColumn(1n, 0))],
  ["readColumn(Symbol(), 0)", ["bad_argument"], sync(({ file }) => file.readColumn(Symbol("x"), 0))],
  ["readColumn({ valueOf() { throw } }, 0)", ["bad_argument"], sync(({ file }) => file.readColumn({ valueOf() { throw new Error("valueOf"); } }, 0))],
  ["readColumnAsync(0, 2 ** 53)", ["out_of_range"], ({ file }) => file.readColumnAsync(0, 2 ** 53)],
  ["inspectChunk(null, 0)", ["bad_argument"], sync(({ file }) => file.inspectChunk(null, 0))],
  ["readColumn(0, 0, 5) (options not an object)", ["bad_argument"], sync(({ file }) => file.readColumn(0, 0, 5))],
  ["readColumn(0, 0, { reuse: throwing getter })", ["bad_argument"], sync(({ file }) => file.readColumn(0, 0, { get reuse() { throw new Error("reuse"); } }))],
  ["readColumnAsync(0, 0, { signal: {} })", ["bad_argument"], ({ file }) => file.readColumnAsync(0, 0, { signal: {} })],
  // Options of the wrong type are refused, not ignored: `{ reuse: "x" }`
  // silently reading into fresh memory would hide the caller's mistake.
  ...[["1", 1], ['"true"', "true"], ["0", 0]].map(([what, v]) => [
    `readColumn(0, 0, { boolBits: ${what} })`, ["bad_argument"], sync(({ file }) => file.readColumn(0, 0, { boolBits: v })),
  ]),
  ...[['"x"', "x"], ["5", 5], ["false", false], ["{}", {}], ["[column, {}]", "mixed"]].map(([what, v]) => [
    `readColumns(null, null, { reuse: ${what} })`, ["bad_argument"], sync(({ file }) => file.readColumns(null, null, { reuse: v === "mixed" ? [file.readColumn(0, 0), {}] : v })),
  ]),
  ['readColumnsAsync(null, null, { reuse: "x" })', ["bad_argument"], ({ file }) => file.readColumnsAsync(null, null, { reuse: "x" })],
  ...[["1", 1], ['"yes"', "yes"]].map(([what, v]) => [
    `rowGroupsAsync({ scoped: ${what} })`, ["bad_argument"], ({ file }) => file.rowGroupsAsync({ scoped: v }).next(),
  ]),
  ["readColumnsAsync(null, null, { signal: throwing getter })", ["bad_argument"], ({ file }) => file.readColumnsAsync(null, null, { get signal() { throw new Error("signal"); } })],

  // The scoped read and streaming: the same checks on their arguments.
  ["readRowGroupScoped(0, cb, { columns: new Array(1e8) })", ["bad_argument"], sync(({ file }) => file.readRowGroupScoped(0, () => {}, { columns: new Array(1e8) }))],
  ["readRowGroupScoped(NaN, cb)", ["out_of_range"], sync(({ file }) => file.readRowGroupScoped(NaN, () => {}))],
  ['readRowGroupScoped("0", cb)', ["bad_argument"], sync(({ file }) => file.readRowGroupScoped("0", () => {}))],
  ['readRowGroupScoped(0, "cb")', ["bad_argument"], sync(({ file }) => file.readRowGroupScoped(0, "cb"))],
  ["readRowGroupScoped(0, cb, { columns: throwing getter })", ["bad_argument"], sync(({ file }) => file.readRowGroupScoped(0, () => {}, { get columns() { throw new Error("columns"); } }))],
  ["readRowGroupScoped(0, cb, { columns: [0, 1] with a throwing index getter })", ["bad_argument"], sync(({ file }) => {
    const a = [0, 1];
    Object.defineProperty(a, 1, { get() { throw new Error("getter"); } });
    return file.readRowGroupScoped(0, () => {}, { columns: a });
  })],
  ["readRowGroupScoped(0, cb, { columns: a getter that reads the file scoped })", ["bad_argument", "busy"], sync(({ file }) => {
    const a = [0];
    Object.defineProperty(a, 0, { get: () => file.readRowGroupScoped(1, () => 0) });
    return file.readRowGroupScoped(0, () => {}, { columns: a });
  })],
  ["readRowGroupScoped inside its own callback", ["busy"], sync(({ file }) => file.readRowGroupScoped(0, () => file.readRowGroupScoped(1, () => {})))],
  ["readRowGroupScopedAsync(0, cb, { signal: {} })", ["bad_argument"], ({ file }) => file.readRowGroupScopedAsync(0, () => {}, { signal: {} })],
  ["rowGroupsAsync({ columns: new Array(1e8) })", ["bad_argument"], ({ file }) => file.rowGroupsAsync({ columns: new Array(1e8) }).next()],
  ["rowGroupsAsync({ rowGroups: [0, , 1] }) (a hole)", ["bad_argument"], ({ file }) => file.rowGroupsAsync({ rowGroups: [0, , 1] }).next()], // eslint-disable-line no-sparse-arrays
  ...[["NaN", NaN], ["-1", -1], ["0.5", 0.5], ["Infinity", Infinity], ['"1"', "1"], ["1n", 1n]].map(([what, v]) => [
    `rowGroupsAsync({ readAhead: ${what} })`, ["bad_argument"], ({ file }) => file.rowGroupsAsync({ readAhead: v }).next(),
  ]),
  ["rowGroupsAsync({ scoped: throwing getter })", ["bad_argument"], ({ file }) => file.rowGroupsAsync({ get scoped() { throw new Error("scoped"); } }).next()],
  ["rowGroupsAsync({ signal: {} })", ["bad_argument"], ({ file }) => file.rowGroupsAsync({ signal: {} }).next()],
  ["rowGroupsAsync(), slice() gives one byte too few at the second row group", ["truncated"], async ({ api, good }) => {
    let calls = 0;
    const f = await api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => b.slice(s, ++calls > 3 ? e - 1 : e)));
    for await (const _ of f.rowGroupsAsync({ readAhead: 1 })) {
      // the first row group reads; the next request comes back short
    }
  }],
  ["rowGroupsAsync(), slice() never settles, aborted by { signal }; then the file streams", "ok", async ({ api, good }) => {
    let hang = false;
    const f = await api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => (hang ? new Promise(() => {}) : b.slice(s, e))));
    hang = true;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const kind = await f.rowGroupsAsync({ signal: ac.signal, scoped: true }).next().then(() => "resolved", (e) => e.kind);
    hang = false;
    let n = 0;
    for await (const _ of f.rowGroupsAsync()) n++;
    return [kind, n];
  }, ([kind, n]) => kind === "aborted" && n === 4],

  // fromBytes: any ArrayBuffer or view, nothing else; the bytes stay in JS.
  ...[["null", null], ["undefined", undefined], ['"abc"', "abc"], ["123", 123], ["{}", {}], ["[65, 66, 67, 68]", [65, 66, 67, 68]]].map(([what, v]) => [
    `fromBytes(${what})`, ["bad_argument"], sync(({ api }) => api.ColumnsFile.fromBytes(v)),
  ]),
  ["fromBytes(revoked Proxy)", ["bad_argument"], sync(({ api }) => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return api.ColumnsFile.fromBytes(proxy);
  })],
  ["fromBytes({ get constructor() { throw } })", ["bad_argument"], sync(({ api }) => api.ColumnsFile.fromBytes({ get constructor() { throw new Error("constructor"); } }))],
  ["fromBytes(detached ArrayBuffer)", ["bad_argument"], sync(({ api, good }) => api.ColumnsFile.fromBytes(detachedBuffer(good.bytes)))],
  ["fromBytes(ArrayBuffer)", "ok", sync(({ api, good }) => api.ColumnsFile.fromBytes(good.bytes.slice().buffer)), (f, ctx) => (ctx.checkColumn(f.readColumn(3, 3)), true)],
  ["fromBytes(DataView)", "ok", sync(({ api, good }) => api.ColumnsFile.fromBytes(new DataView(good.bytes.slice().buffer))), (f, ctx) => (ctx.checkColumn(f.readColumn(3, 3)), true)],
  ["fromBytes(bytes), then its buffer detached, then readColumn", ["bad_source"], sync(({ api, good }) => {
    const bytes = good.bytes.slice();
    const f = api.ColumnsFile.fromBytes(bytes);
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
    return f.readColumn(3, 3);
  })],
  // Sizes at wasm32's edges (a 32-bit usize): each ran into a wrapped sum
  // or a reservation sized by a count in the wasm build only.
  ["a Dict chunk of one 65,537-byte entry x 65,535 values (u32::MAX bytes, one short of 4 GiB)", ["too_large"], sync(({ api }) => {
    const [L, N] = [65537, 65535];
    const stream = new Uint8Array(20 + L).fill(97);
    stream.set(u32s(N, 1, 0, 1, 0)); // n, D, W; the entries' count and first offset
    return api.ColumnsFile.fromBytes(oneChunkFile("string", N, encodedChunk(4, stream))).readColumn(0, 0);
  })],
  ["an Affix chunk of a 65,537-byte prefix x 65,535 empty middles (u32::MAX bytes)", ["too_large"], sync(({ api }) => {
    const [L, N] = [65537, 65535];
    const stream = new Uint8Array(8 + L + 4 * N);
    stream.set(u32s(L));
    stream.fill(112, 4, 4 + L); // the prefix; then a 0-byte suffix and N 0-length middles
    return api.ColumnsFile.fromBytes(oneChunkFile("string", N, encodedChunk(6, stream))).readColumn(0, 0);
  })],
  ["a footer whose Schema slice claims 2^27 elements (within its 134 MB), the first invalid", ["corrupt_footer"], sync(({ api }) => {
    const before = api.wasmMemory().buffer.byteLength;
    try {
      return api.ColumnsFile.fromBytes(footerClaiming(2 ** 27));
    } finally {
      // Not 2 GB reserved for the claim (the file itself is copied in).
      const grew = api.wasmMemory().buffer.byteLength - before;
      if (grew > 512 * MiB) throw new Error(`wasm memory grew by ${grew} bytes`);
    }
  })],
  ["fromBytes(a valid 2.5 GB file), read a column", "ok", sync(({ api }) => {
    const big = bigFile(2.5e9);
    const before = api.wasmMemory().buffer.byteLength;
    const f = api.ColumnsFile.fromBytes(bigBuffer(big));
    const col = f.readColumn(big.groups - 1, 0);
    checkBigColumn(big, big.groups - 1, col, false);
    return api.wasmMemory().buffer.byteLength - before;
  }), (grew) => grew < 64 * MiB],
  ["fromBytes(3 MB-class file) x 7,000 without free()", "ok", sync(({ api }) => {
    const { bytes } = corpusFile("real/diamonds.default");
    const before = api.wasmMemory().buffer.byteLength;
    for (let i = 0; i < 7000; i++) api.ColumnsFile.fromBytes(bytes);
    return api.wasmMemory().buffer.byteLength - before;
  }), (grew) => grew < 64 * MiB],

  // TokenizerRegistry.register: any bytes, size checked before copying.
  ["register(ArrayBuffer)", "ok", sync(({ registry, tokenizer }) => [registry.register(tokenizer.slice().buffer), registry.register(tokenizer)]), ([a, b]) => a === b && /^[0-9a-f]{64}$/.test(a)],
  ["register(DataView)", "ok", sync(({ registry, tokenizer }) => [registry.register(new DataView(tokenizer.slice().buffer)), registry.register(tokenizer)]), ([a, b]) => a === b],
  ...[["null", null], ["undefined", undefined], ['"{}"', "{}"], ["123", 123], ["{}", {}]].map(([what, v]) => [
    `register(${what})`, ["bad_argument"], sync(({ registry }) => registry.register(v)),
  ]),
  ["register(revoked Proxy)", ["bad_argument"], sync(({ registry }) => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return registry.register(proxy);
  })],
  ["register(detached ArrayBuffer)", ["bad_argument"], sync(({ registry, tokenizer }) => registry.register(detachedBuffer(tokenizer)))],
  ["register(1.2 GB)", ["too_large"], sync(({ registry }) => registry.register(new Uint8Array(1.2e9)))],
  ["register(2.5 GB)", ["too_large"], sync(({ registry }) => registry.register(new Uint8Array(2.5e9)))],
  ["has(123)", ["bad_argument"], sync(({ registry }) => registry.has(123))],
  ['has("f".repeat(1e7))', "ok", sync(({ registry }) => registry.has("f".repeat(1e7))), (r) => r === false],

  // Sources.
  ...[["null", null], ["undefined", undefined], ["5", 5]].map(([what, v]) => [
    `fromAsyncBuffer(${what})`, ["bad_source"], ({ api }) => api.ColumnsFile.fromAsyncBuffer(v),
  ]),
  ["fromAsyncBuffer(revoked Proxy)", ["bad_source"], ({ api }) => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return api.ColumnsFile.fromAsyncBuffer(proxy);
  }],
  ["fromBlob(null)", ["bad_source"], ({ api }) => api.ColumnsFile.fromBlob(null)],
  ["fromBlob({})", ["bad_source"], ({ api }) => api.ColumnsFile.fromBlob({})],
  ["fromAsyncBuffer({ get byteLength() { throw } })", ["bad_source"], ({ api, good }) =>
    api.ColumnsFile.fromAsyncBuffer({ get byteLength() { throw new Error("byteLength"); }, slice: (s, e) => good.bytes.slice(s, e) })],
  ...[["NaN", NaN], ["-1", -1], ['"300"', "300"], ["2 ** 60", 2 ** 60]].map(([what, v]) => [
    `fromAsyncBuffer({ byteLength: ${what} })`, ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer({ byteLength: v, slice: (s, e) => good.bytes.slice(s, e) }),
  ]),
  ["slice() resolves to a detached ArrayBuffer (open)", ["bad_source"], ({ api, good }) =>
    api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => Promise.resolve(detachedBuffer(b.subarray(s, e)))))],
  ["slice() resolves to a detached ArrayBuffer (read)", ["bad_source"], async ({ api, good }) => {
    let detach = false;
    const f = await api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => (detach ? detachedBuffer(b.subarray(s, e)) : b.slice(s, e))));
    detach = true;
    return f.readColumnsAsync();
  }],
  ["slice() gives a Uint8Array over a detached buffer", ["bad_source"], ({ api, good }) =>
    api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => {
      const v = b.slice(s, e);
      structuredClone(v.buffer, { transfer: [v.buffer] });
      return v;
    }))],
  ["slice() gives one byte too many", ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => new Uint8Array(e - s + 1)))],
  ["slice() gives one byte too few", ["truncated"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => b.slice(s, e - 1)))],
  ...[['"bytes"', "bytes"], ["42", 42], ["null", null], ["{}", {}], ["[1, 2]", [1, 2]]].map(([what, v]) => [
    `slice() gives ${what}`, ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => v)),
  ]),
  ["slice() rejects", ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => Promise.reject(new Error("gone"))))],
  ["slice() rejects with a 256 MB message", ["bad_source"], ({ api, good }) =>
    api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => Promise.reject(new Error("x".repeat(2 ** 28)))))],
  ["slice() throws synchronously", ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => { throw new Error("sync"); }))],
  ["slice() gives a thenable whose then() throws", ["bad_source"], ({ api, good }) =>
    api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => ({ then() { throw new Error("then"); } })))],
  ["slice is not a function", ["bad_source"], ({ api, good }) => api.ColumnsFile.fromAsyncBuffer({ byteLength: good.bytes.length, slice: 7 })],
  ["Blob whose arrayBuffer() rejects (read)", ["bad_source"], async ({ api, good }) => {
    let fail = false;
    class FlakyBlob extends Blob {
      slice(...a) {
        const part = super.slice(...a);
        if (fail) part.arrayBuffer = () => Promise.reject(new Error("NotReadableError"));
        return part;
      }
    }
    const f = await api.ColumnsFile.fromBlob(new FlakyBlob([good.bytes]));
    fail = true;
    return f.readColumnAsync(3, 3);
  }],
  ["Blob whose arrayBuffer() throws synchronously", ["bad_source"], ({ api, good }) => {
    class BadBlob extends Blob {
      slice(...a) {
        const part = super.slice(...a);
        part.arrayBuffer = () => { throw new Error("sync"); };
        return part;
      }
    }
    return api.ColumnsFile.fromBlob(new BadBlob([good.bytes]));
  }],
  ["slice() never settles, open aborted by { signal }", ["aborted"], ({ api, good }) => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("user gave up")), 20);
    return api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, () => new Promise(() => {})), null, { signal: ac.signal });
  }],
  ["slice() never settles, read aborted by { signal }; then the file reads", "ok", async ({ api, good, checkColumn }) => {
    let hang = false;
    const f = await api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => (hang ? new Promise(() => {}) : b.slice(s, e))));
    hang = true;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const kinds = [];
    for (const read of [() => f.readColumnAsync(3, 3, { signal: ac.signal }), () => f.readColumnsAsync(null, null, { signal: ac.signal }), () => f.inspectChunkAsync(0, 0, { signal: ac.signal }), () => f.loadChunkHeaders({ signal: ac.signal })]) {
      kinds.push(await read().then(() => "resolved", (e) => e.kind));
    }
    hang = false;
    checkColumn(await f.readColumnAsync(3, 3));
    return kinds;
  }, (kinds) => kinds.every((k) => k === "aborted")],
  ["a read with an already aborted signal calls no slice()", "ok", async ({ api, good }) => {
    const calls = [];
    const f = await api.ColumnsFile.fromAsyncBuffer(sourceWith(good.bytes, (s, e, b) => (calls.push([s, e]), b.slice(s, e))));
    const before = calls.length;
    const kind = await f.readColumnAsync(3, 3, { signal: AbortSignal.abort() }).then(() => "resolved", (e) => e.kind);
    return [kind, calls.length - before];
  }, ([kind, calls]) => kind === "aborted" && calls === 0],

  // Sizes: a whole-file read of a multi-GiB file is capped, windowed requests.
  ...[2.5, 6].map((gib) => [
    `readColumnsAsync() on a ${gib} GiB AsyncBuffer (aborted after 12 requests)`, "ok", async ({ api }) => {
      const big = bigFile(gib * GiB);
      const ac = new AbortController();
      const src = bigSource(big, { onSlice: (n) => n === 12 && ac.abort() });
      const f = await api.ColumnsFile.fromAsyncBuffer(src);
      const opened = src.stats.requests.length;
      const before = api.wasmMemory().buffer.byteLength;
      const kind = await f.readColumnsAsync(null, null, { signal: ac.signal }).then(() => "resolved", (e) => e.kind);
      const grew = api.wasmMemory().buffer.byteLength - before;
      const requests = src.stats.requests.slice(opened);
      const stats = { ...src.stats };
      // The instance still reads (a chunk near the end, its values checked).
      checkBigColumn(big, big.groups - 2, await f.readColumnAsync(big.groups - 2, 0));
      return { kind, grew, requests, stats };
    }, ({ kind, grew, requests, stats }) =>
      kind === "aborted" && grew < 128 * MiB && requests.every(([s, e]) => e - s <= 32 * MiB) &&
      stats.maxOutstandingBytes <= 64 * MiB && stats.maxOutstanding <= 8,
  ]),
  // Streaming: a 6 GiB file (750 row groups of 8 MB decoded), lent, 40 row
  // groups then break; a 160 MB file to the end, copied, readAhead 16 MiB.
  ["rowGroupsAsync({ scoped: true }) over a 6 GiB AsyncBuffer: 40 row groups, then break", "ok", async ({ api }) => {
    const big = bigFile(6 * GiB);
    const src = bigSource(big);
    const f = await api.ColumnsFile.fromAsyncBuffer(src);
    const opened = src.stats.requests.length;
    const before = api.wasmMemory().buffer.byteLength;
    let n = 0;
    for await (const { rowGroup, columns } of f.rowGroupsAsync({ scoped: true })) {
      checkBigColumn(big, rowGroup, columns[0]);
      if (++n === 40) break;
    }
    const grew = api.wasmMemory().buffer.byteLength - before;
    const asked = src.stats.requests.length;
    await new Promise((r) => setTimeout(r, 20));
    const requests = src.stats.requests.slice(opened);
    return { n, grew, requests, later: src.stats.requests.length - asked, stats: { ...src.stats } };
  }, ({ n, grew, requests, later, stats }) =>
    n === 40 && later === 0 && grew < 3 * 8 * BIG_ROWS && requests.every(([s, e]) => e - s <= 32 * MiB) &&
    requests.length <= 40 / 4 + 2 && stats.maxOutstandingBytes <= 64 * MiB],
  ["rowGroupsAsync({ readAhead: 16 MiB }) of a 160 MB file, to the end", "ok", async ({ api }) => {
    const big = bigFile(160e6);
    const src = bigSource(big);
    const f = await api.ColumnsFile.fromAsyncBuffer(src);
    const opened = src.stats.requests.length;
    let n = 0;
    for await (const { rowGroup, columns } of f.rowGroupsAsync({ readAhead: 16 * MiB })) {
      if (rowGroup !== n++) throw new Error(`row group ${rowGroup} came ${n}th`);
      checkBigColumn(big, rowGroup, columns[0]);
    }
    const requests = src.stats.requests.slice(opened);
    const fetched = requests.reduce((t, [s, e]) => t + e - s, 0);
    return { n, groups: big.groups, requests, fetched, stats: src.stats };
  }, ({ n, groups, requests, fetched, stats }) =>
    n === groups && requests.every(([s, e]) => e - s <= 16 * MiB) && fetched === groups * CHUNK_LEN && stats.maxOutstandingBytes <= 16 * MiB],
  ["readColumnsAsync() of a 160 MB file, to the end", "ok", async ({ api }) => {
    const big = bigFile(160e6);
    const src = bigSource(big);
    const f = await api.ColumnsFile.fromAsyncBuffer(src);
    const opened = src.stats.requests.length;
    const cols = await f.readColumnsAsync();
    cols.forEach((c, g) => checkBigColumn(big, g, c));
    const requests = src.stats.requests.slice(opened);
    const fetched = requests.reduce((t, [s, e]) => t + e - s, 0);
    return { n: cols.length, groups: big.groups, requests, fetched, stats: src.stats };
  }, ({ n, groups, requests, fetched, stats }) =>
    n === groups && requests.every(([s, e]) => e - s <= 32 * MiB) && requests.length === Math.ceil(groups / 4) &&
    fetched === groups * CHUNK_LEN && stats.maxOutstandingBytes <= 64 * MiB],
];

/** What a thrown value is, in one line. */
export function outcome(e) {
  if (e instanceof WebAssembly.RuntimeError) return `trap: RuntimeError: ${e.message}`;
  if (e && e.name === "ColumnsError") return `ColumnsError ${e.kind}`;
  if (e instanceof Error) return `${e.name} without a kind: ${e.message.slice(0, 70)}`;
  return `threw ${typeof e}: ${String(e).slice(0, 60)}`;
}
