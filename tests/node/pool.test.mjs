// columns-wasm/pool in Node (pkg/pool-node.mjs, the package's "node"
// condition): the pool on worker_threads, its files, columns and errors
// the Node build's classes. Read from bytes, a Blob and a path, every
// value checked against the corpus JSON; errors with a kind; a file's
// descriptor closed when it should be; an idle pool that nobody terminated
// lets the process end. The pool's reading is
// checked in Chromium too (tests/e2e/pool.test.mjs).
//
// What Chromium cannot show without timing, that an aborted read stops
// the workers' work, is shown here with the same pool on workers that
// count the chunk reads they start (web-worker.mjs).

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { corpusDir, corpusFile } from "./corpus.mjs";
import { columnJson, compare } from "../js/check.mjs";
import { WebWorker } from "./web-worker.mjs";
import { buildFile, materialize } from "./synth.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const api = await import(new URL("node.mjs", pkg).href);
const { ColumnsPool } = await import(new URL("pool-node.mjs", pkg).href);

const pools = [];
after(() => pools.forEach((p) => p.terminate()));

async function pool(size, Pool = ColumnsPool) {
  const p = await Pool.create(size);
  pools.push(p);
  return p;
}

const NAME = "valid/nulls"; // 4 row groups x 5 columns, nulls in each
const PATH = `${corpusDir}/${NAME}.cols`;

/** The first difference between the columns (row-group-major) and the corpus JSON, or null. */
function diff(cols, schema, rowGroups = [0, 1, 2, 3]) {
  const { expected } = corpusFile(NAME);
  let d = null;
  cols.forEach((col, k) => {
    const g = rowGroups[Math.floor(k / schema.length)], c = k % schema.length;
    d ??= compare(`${NAME} rg ${g} col ${c}`, expected.row_groups[g].values[c], columnJson(col, schema[c].type));
  });
  return d;
}

test("a Node pool of 2 reads every value exactly from bytes, a Blob, a path and a file: URL; its files and columns are the Node build's", async () => {
  const p = await pool(2);
  assert.equal(p.size, 2);
  // Called detached, create() is still Node's (the browser's would find no Web Workers).
  const { create } = ColumnsPool;
  const detached = await create(1);
  pools.push(detached);
  assert.equal(detached.size, 1);
  const bytes = corpusFile(NAME).bytes;
  const sources = { bytes, blob: new Blob([bytes]), path: PATH, url: pathToFileURL(PATH), "file: URL as a string": pathToFileURL(PATH).href };
  for (const [what, source] of Object.entries(sources)) {
    const file = await p.open(source);
    assert.ok(file.meta instanceof api.ColumnsFile, `${what}: meta is a ColumnsFile of "columns-wasm"`);
    const cols = await file.readColumns();
    assert.equal(cols.length, 4 * 5, what);
    assert.ok(cols.every((c) => c instanceof api.Column), `${what}: columns are Columns of "columns-wasm"`);
    assert.equal(diff(cols, file.meta.schema), null, what);
    file.close();
  }
});

test("Node pool errors have a kind: a missing path, a Blob Node cannot send to a thread, a chunk that fails; the pool reads on", async () => {
  const p = await pool(2);
  const kindOf = (promise) => promise.then(() => "resolved", (e) => ({ kind: e.kind, message: e.message, api: e instanceof api.ColumnsError }));
  const missing = await kindOf(p.open(`${corpusDir}/no-such-file.cols`));
  assert.equal(missing.kind, "bad_source");
  assert.match(missing.message, /no-such-file\.cols/);
  assert.ok(missing.api);
  if (typeof fs.openAsBlob === "function") {
    // A Blob backed by a file on disk (fs.openAsBlob): Node refuses to clone it.
    const fileBlob = await kindOf(p.open(await fs.openAsBlob(PATH)));
    assert.equal(fileBlob.kind, "bad_argument");
    assert.match(fileBlob.message, /open it by its path/);
  } else {
    assert.equal(typeof fs.openAsBlob, "undefined", "Node 18: no file-backed Blobs to refuse");
    assert.match(process.version, /^v18\./);
  }
  // Sources that are neither bytes, a Blob nor a path, or that throw when inspected.
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const trap = () => {
    throw new Error("trap");
  };
  for (const source of [5, null, {}, Symbol("s"), revoked, new Proxy({}, { get: trap, getPrototypeOf: trap })]) {
    const got = await kindOf(p.open(source));
    assert.equal(got.kind, "bad_argument", String(typeof source));
    assert.ok(got.api);
  }
  const http = await kindOf(p.open(new URL("https://example.invalid/a.cols")));
  assert.equal(http.kind, "bad_source", "a URL other than file: (columns-wasm/http reads those)");
  const bad = await p.open(corpusFile("invalid/codec_zstd").bytes);
  assert.equal((await kindOf(bad.readColumns([0], [0]))).kind, "unsupported_codec");
  const out = await kindOf(bad.readColumns([5]));
  assert.equal(out.kind, "out_of_range");
  const file = await p.open(PATH);
  assert.equal(diff(await file.readColumns([2], null), file.meta.schema, [2]), null);
  file.close();
});

test("a pool's read that fails in several chunks rejects with the first failing one in read order, as the other reads do, not the first worker's to answer", async () => {
  // One row group of three int64 columns, split by column over 2 workers
  // by raw size: column 2's header claims 2 GiB (corrupt_chunk at once),
  // so it is one worker's alone; the other decodes column 0 (8 MB) and
  // then fails at column 1 (its codec byte 0xa0: unsupported_codec).
  const file = buildFile(
    ["a", "b", "c"].map((name) => ({ name, type: "int64", nullable: false })),
    [{ columns: [Array.from({ length: 1_000_000 }, (_, i) => i), [1], [2]] }],
  );
  const bytes = materialize(file);
  bytes[file.chunks[0][1].start + 1] = 0xa0;
  new DataView(bytes.buffer).setUint32(file.chunks[0][2].start + 6, 0x7fffffff, true);
  const where = (e) => [e.kind, e.rowGroup, e.column];
  let want;
  try {
    api.ColumnsFile.fromBytes(bytes).readColumns();
  } catch (e) {
    want = where(e);
  }
  assert.deepEqual(want, ["unsupported_codec", 0, 1]);
  const p = await pool(2);
  const pf = await p.open(bytes);
  for (let k = 0; k < 3; k++) {
    await assert.rejects(pf.readColumns(), (e) => (assert.deepEqual(where(e), want, e.message), true));
  }
  pf.close();
});

test("a worker thread that stops on its own: what waits on it and what is asked later fails as internal, never waits for ever", async () => {
  const p = await pool(2);
  const file = await p.open(PATH);
  assert.equal(diff(await file.readColumns(), file.meta.schema), null);
  // (The internal field stands in for a thread that ends by itself: process.exit in it, a fatal error.)
  const reading = file.readColumns();
  // (a timer keeps Node's loop running meanwhile: terminate()'s promise
  // alone did not, and the loop, empty, ended the file with the test
  // pending, once in a few runs under load)
  const keep = setTimeout(() => {}, 10_000);
  await p.workers[1].thread.terminate();
  clearTimeout(keep);
  // (a value or an error, whichever the promise settles with; a sentence past 5 s)
  const within = (promise) => Promise.race([promise.then((v) => v, (e) => e), new Promise((r) => setTimeout(() => r("still waiting after 5 s"), 5000))]);
  // The read under way settles: its values, had it ended before the thread did, else the error below.
  const first = await within(reading);
  if (Array.isArray(first)) assert.equal(diff(first, file.meta.schema), null);
  else assert.equal(first?.kind, "internal", String(first));
  for (const [what, promise] of [["asked later", file.readColumns()], ["opened later", p.open(PATH)]]) {
    const e = await within(promise);
    assert.ok(e instanceof api.ColumnsError, `${what}: ${e}`);
    assert.equal(e.kind, "internal", what);
    assert.match(e.message, /pool worker failed: its thread stopped \(exit code \d+\)/, what);
  }
});

test("a file opened by its path holds one descriptor until it is closed (after its reads end) or the pool is terminated", async () => {
  // Descriptors of this process open on the file itself (threads starting
  // and ending elsewhere open and close others meanwhile).
  const real = fs.realpathSync(PATH);
  const open = (file = real) =>
    fs.readdirSync("/proc/self/fd").filter((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false; // closed since the listing
      }
    }).length;
  const p = await pool(2);
  const before = open();
  const a = await p.open(PATH);
  const b = await p.open(pathToFileURL(PATH));
  assert.equal(open(), before + 2, "one descriptor per file, whatever the number of threads");
  // Closed while a read runs: the descriptor stays until the threads answer.
  const read = a.readColumns();
  a.close();
  assert.equal(open(), before + 2);
  assert.equal((await read).length, 20);
  assert.equal(open(), before + 1);
  p.terminate();
  assert.equal(open(), before, "terminate() closes what was not closed");
  void b;
  // A file that is no columns file, opened by its path: refused, its descriptor closed.
  const q = await pool(1);
  const damaged = fs.realpathSync(`${corpusDir}/invalid/magic_kein.cols`);
  await assert.rejects(q.open(damaged), (e) => e instanceof api.ColumnsError && e.kind === corpusFile("invalid/magic_kein").expected.error);
  assert.equal(open(damaged), 0);
});

test("a read pending when the pool is terminated rejects as freed, as calls after it do (not internal, which is a bug's kind)", async () => {
  const p = await pool(2);
  const file = await p.open(PATH);
  const pending = file.readColumns();
  p.terminate();
  await assert.rejects(pending, (e) => e instanceof api.ColumnsError && e.kind === "freed" && /terminated/.test(e.message));
  await assert.rejects(file.readColumns(), (e) => e instanceof api.ColumnsError && e.kind === "freed");
});

test("a file opened by its path and then rewritten in place (same size) is refused as bad_source, never read as the file opened; a short one, read whole at open, reads those bytes", async (t) => {
  const one = (values) => materialize(buildFile([{ name: "x", type: "int32", nullable: false }], [{ columns: [values] }]));
  // 3,000 values: 12 KB, more than an open reads whole (8 KiB and 17 bytes).
  const [a, b] = [one(Array.from({ length: 3000 }, (_, i) => i)), one(Array.from({ length: 3000 }, (_, i) => 7 * i))];
  assert.equal(a.length, b.length);
  assert.ok(a.length > 8 * 1024 + 17);
  const dir = fs.mkdtempSync(`${fs.realpathSync("/tmp")}/pool-changed-`);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const path = `${dir}/x.cols`;
  fs.writeFileSync(path, a);
  const p = await pool(1);
  const file = await p.open(path);
  assert.deepEqual((await file.readColumns())[0].toArray().slice(0, 3), [0, 1, 2]);
  fs.writeFileSync(path, b);
  // (a rewrite within the file system's time step would keep its time: set one apart)
  fs.utimesSync(path, new Date(), new Date(Date.now() + 5_000));
  await assert.rejects(file.readColumns(), (e) => e instanceof api.ColumnsError && e.kind === "bad_source" && /changed after it was opened/.test(e.message));
  // Opened again, the new bytes read as they are; the pool reads on.
  const again = await p.open(path);
  assert.deepEqual((await again.readColumns())[0].toArray().slice(0, 3), [0, 7, 14]);
  // A short file is read whole by each worker's open, and its reads take their
  // chunks from those bytes: the file opened, whatever is on disk since.
  const short = `${dir}/short.cols`;
  fs.writeFileSync(short, one([1, 2, 3]));
  const small = await p.open(short);
  fs.writeFileSync(short, one([7, 8, 9]));
  fs.utimesSync(short, new Date(), new Date(Date.now() + 5_000));
  assert.deepEqual((await small.readColumns())[0].toArray(), [1, 2, 3]);
  p.terminate();
});

test("an unterminated Node pool, idle, lets the process end; while it reads, the read finishes first", () => {
  const script = `
    const { ColumnsPool } = await import(${JSON.stringify(new URL("pool-node.mjs", pkg).href)});
    const pool = await ColumnsPool.create(2);
    const file = await pool.open(${JSON.stringify(PATH)});
    // Not awaited: the threads keep the process alive until the answer.
    file.readColumns().then((cols) => console.log("read", cols.length));
  `;
  // Under flags a thread cannot take as its own (--expose-gc, a V8 flag;
  // --input-type, for the main script only): the threads start all the same.
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(out.trim(), "read 20");
});

/** Node's pool on workers that record what they are sent (web-worker.mjs). */
class Counted extends ColumnsPool {
  spawn() {
    return new WebWorker(new URL("pool-worker.js", pkg));
  }
}

test("bytes are shared with the threads through one SharedArrayBuffer, not copied for each", async () => {
  WebWorker.slow = 0;
  const p = await pool(3, Counted);
  const bytes = corpusFile(NAME).bytes;
  WebWorker.sources.length = 0;
  const file = await p.open(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  assert.equal(WebWorker.sources.length, 3);
  const [first] = WebWorker.sources;
  assert.ok(first.buffer instanceof SharedArrayBuffer, "a SharedArrayBuffer");
  assert.ok(WebWorker.sources.every((s) => s.buffer === first.buffer), "the same one for every thread");
  assert.equal(diff(await file.readColumns(), file.meta.schema), null);
  // Bytes already in a SharedArrayBuffer are shared as they are.
  WebWorker.sources.length = 0;
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  (await p.open(shared)).close();
  assert.ok(WebWorker.sources.every((s) => s.buffer === shared.buffer));
  file.close();
});

/** A file of many small chunks: 160 row groups of 2 int32 columns (row group g holds g and -g). */
const LONG = materialize(buildFile(
  [{ name: "a", type: "int32", nullable: false }, { name: "b", type: "int32", nullable: false }],
  Array.from({ length: 160 }, (_, g) => ({ offset: 5 + g * 64, columns: [[g], [-g]] })),
));

test("each worker reads its share in one call from a Blob (its chunks fetched together), in calls of at least 64 chunks from memory; exact values", async () => {
  WebWorker.slow = 0;
  const p = await pool(2, Counted);
  const bytes = corpusFile(NAME).bytes;
  const calls = () => Atomics.load(WebWorker.reads, 1);
  const chunks = () => Atomics.load(WebWorker.reads, 0);
  // valid/nulls: 4 row groups, 5 columns, split by column over 2 workers.
  for (const source of [new Blob([bytes]), bytes]) {
    const file = await p.open(source);
    const [c0, k0] = [calls(), chunks()];
    assert.equal(diff(await file.readColumns(), file.meta.schema), null);
    assert.equal(calls() - c0, 2, "one call per worker");
    assert.equal(chunks() - k0, 20, "every chunk once");
    file.close();
  }
  // 160 row groups of 2 chunks, split by row group: 80 each, from memory
  // in calls of 32 row groups (64 chunks): 3 a worker.
  const file = await p.open(LONG);
  const [c0, k0] = [calls(), chunks()];
  const cols = await file.readColumns();
  const want = Array.from({ length: 160 }, (_, g) => [g, g ? -g : 0]).flat();
  assert.deepEqual(cols.map((c) => c.values[0]), want);
  assert.equal(calls() - c0, 6);
  assert.equal(chunks() - k0, 320);
  // Handed back, every buffer is refilled (the same values again).
  const again = await file.readColumns(null, null, { reuse: cols });
  assert.deepEqual(again.map((c) => c.values[0]), want);
  assert.ok(cols.every((c) => c.values === null), "handed-back columns are emptied");
  file.close();
});

test("a { reuse } read of a long file offers each call only the spare buffers it can use, not all of them", async () => {
  // 1,000 row groups of 2 chunks, 500 a worker, read from memory in 16
  // calls each: offered every spare buffer, the calls would take ~8,500
  // wrappers a worker; offered a window of 4 a chunk, at most 4 a chunk.
  WebWorker.slow = 0;
  const p = await pool(2, Counted);
  const rows = 1000;
  const file = await p.open(materialize(buildFile(
    [{ name: "a", type: "int32", nullable: false }, { name: "b", type: "int32", nullable: false }],
    Array.from({ length: rows }, (_, g) => ({ offset: 5 + g * 64, columns: [[g], [-g]] })),
  )));
  const want = Array.from({ length: rows }, (_, g) => [g, g ? -g : 0]).flat();
  let cols = await file.readColumns();
  for (let round = 0; round < 2; round++) {
    const offered = Atomics.load(WebWorker.reads, 2);
    cols = await file.readColumns(null, null, { reuse: cols });
    assert.deepEqual(cols.map((c) => c.values[0]), want);
    const n = Atomics.load(WebWorker.reads, 2) - offered;
    assert.ok(n > 0 && n <= 4 * 2 * rows, `${n} buffers offered to refill ${2 * rows} chunks`);
  }
  file.close();
});

for (const size of [1, 2]) {
  test(`an aborted read on ${size} worker(s) stops their work at the next call, and the pool reads on`, async () => {
    // LONG's 320 chunks, each made to take 3 ms more: read from memory in
    // calls of 64 chunks (192 ms each). Aborted once the first call has
    // started (not after a fixed time: other test files share the CPU),
    // each worker finishes the call it is in and starts no other.
    WebWorker.slow = 3;
    const p = await pool(size, Counted);
    const file = await p.open(LONG);
    const started = () => Atomics.load(WebWorker.reads, 0);
    const before = started();
    const controller = new AbortController();
    const read = file.readColumns(null, null, { signal: controller.signal });
    const reason = new Error("stop");
    while (started() === before) await new Promise((r) => setTimeout(r, 1));
    controller.abort(reason);
    await assert.rejects(read, (e) => e.kind === "aborted" && e.cause === reason);
    // A read after it runs once the workers are free.
    const again = await file.readColumns([0], [0]);
    const count = started() - before - 1;
    assert.ok(count < 320, `${count} chunk reads started of 320: the workers went on after the abort`);
    assert.ok(count <= 64 * size, `${count} chunk reads started of 320: more than the call each worker was in`);
    assert.equal(again[0].values[0], 0);
    file.close();
  });
}

test("files opened from bytes and from a Blob and closed do not stay in the threads' memory (an idle thread collects after a close)", (t) => {
  // A thread that only answers messages allocates next to nothing, so V8
  // never collected it on its own: each closed file's bytes (the
  // SharedArrayBuffer the threads read, or the Blob) stayed until
  // terminate(), 20 MB a cycle here. In a process of its own: its memory
  // is what is measured, and it runs without --expose-gc (the pool's
  // threads expose V8's collector themselves) and with it (they have it).
  // The main thread collects its own garbage through the same flag, set
  // before any thread starts. A fixed mmap threshold: glibc's moving one
  // keeps freed 20 MB blocks in its heap (RSS then plateaus at some
  // hundreds of MB without a leak), which would hide what is measured.
  const script = `
    import v8 from "node:v8";
    import vm from "node:vm";
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    v8.setFlagsFromString("--no-expose-gc");
    const { ColumnsPool } = await import(${JSON.stringify(new URL("pool-node.mjs", pkg).href)});
    const { buildFile, materialize } = await import(${JSON.stringify(new URL("synth.mjs", import.meta.url).href)});
    const MB = 2 ** 20;
    // 20 MB of bytes and a small int32 column, which is what is read: the
    // threads then allocate next to nothing, as when a large file's small
    // column is read (decoding 20 MB a cycle, they collected now and then).
    const rows = 20 * 1024;
    const bytes = materialize(buildFile(
      [{ name: "b", type: "bytes", nullable: false }, { name: "n", type: "int32", nullable: false }],
      [{ columns: [Array.from({ length: rows }, (_, i) => new Uint8Array(1024).fill(i)), Array.from({ length: rows }, (_, i) => i)] }],
    ));
    const pool = await ColumnsPool.create(2);
    // A thread collects once it is idle after a close: given up to 1 s (a
    // busy machine), until no more than the test's own bytes are held. Not
    // much more: left idle for seconds, an old thread may be collected by
    // V8's memory reducer now and then, which would hide what is measured.
    const settle = async () => {
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 50));
        gc();
        if (process.memoryUsage().arrayBuffers < 1.5 * 21 * MB) break;
      }
      return process.memoryUsage();
    };
    const out = {};
    for (const kind of ["bytes", "blob"]) {
      const seen = [];
      for (let i = 0; i < 12; i++) {
        const file = await pool.open(kind === "blob" ? new Blob([bytes]) : bytes);
        const [col] = await file.readColumns([0], [1]);
        if (col.length !== rows || col.values[rows - 1] !== rows - 1) throw new Error("read wrong");
        file.close();
        if (i === 1 || i === 11) seen.push(await settle());
      }
      out[kind] = { rss: (seen[1].rss - seen[0].rss) / MB, arrayBuffers: seen[1].arrayBuffers / MB };
    }
    pool.terminate();
    console.log(JSON.stringify(out));
  `;
  for (const flags of [[], ["--expose-gc"]]) {
    const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: String(1 << 20) };
    const out = execFileSync(process.execPath, [...flags, "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000, env });
    const { bytes, blob } = JSON.parse(out);
    const say = `${flags.join(" ") || "no flags"}: ${out.trim()} (MB)`;
    t.diagnostic(say);
    // Kept, 10 cycles are 200 MB (measured: 189-205 MB of RSS, 262 MB of
    // array buffers); bounded, the array buffers are the test's own bytes,
    // and RSS moves by what the heaps and allocators keep (within 15 MB
    // either way, alone or beside the other test files; bounded at 100 for
    // a busier machine).
    assert.ok(bytes.arrayBuffers < 1.5 * 21, `array buffers held after 12 files opened from bytes and closed: ${say}`);
    assert.ok(bytes.rss < 100, `RSS grew by 10 files opened from bytes and closed: ${say}`);
    assert.ok(blob.rss < 100, `RSS grew by 10 files opened from a Blob and closed: ${say}`);
    // Node counts a Blob's bytes with array buffers, and keeps the last
    // Blob's a while without any pool (five Blobs of 20 MB made and dropped:
    // 20 MB held after collecting): the test's bytes and one Blob's.
    assert.ok(blob.arrayBuffers < 2.5 * 21, `array buffers held after 12 files opened from a Blob and closed: ${say}`);
  }
});

test("a process whose code turned V8's --expose-gc on at run time, before making a pool, keeps it on: the threads start with gc and leave the flag alone", () => {
  // The idiom of modules that want gc() without a command-line flag.
  const script = `
    const v8 = await import("node:v8");
    const vm = await import("node:vm");
    v8.setFlagsFromString("--expose-gc");
    const { ColumnsPool } = await import(${JSON.stringify(new URL("pool-node.mjs", pkg).href)});
    const pool = await ColumnsPool.create(2);
    const file = await pool.open(${JSON.stringify(PATH)});
    await file.readColumns([0], [0]);
    file.close();
    await new Promise((r) => setTimeout(r, 50));
    console.log(vm.runInNewContext("typeof gc"));
    pool.terminate();
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(out.trim(), "function");
});

test("Node's pool.open names every source it takes when it refuses one; a closed PooledFile's read says it was closed, not freed", async () => {
  const p = await pool(1);
  const names = /ColumnsPool\.open needs a file's path or file: URL, a Blob, or bytes/;
  for (const bad of [null, 5, {}]) {
    await assert.rejects(p.open(bad), (e) => e instanceof api.ColumnsError && e.kind === "bad_argument" && names.test(e.message), String(bad));
  }
  // What throws when inspected: the same words, and what it threw as the cause.
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  await assert.rejects(p.open(proxy), (e) => e.kind === "bad_argument" && names.test(e.message) && /threw when inspected/.test(e.message) && e.cause instanceof TypeError);
  const file = await p.open(PATH);
  file.close();
  await assert.rejects(file.readColumns(), (e) => e instanceof api.ColumnsError && e.kind === "freed" && /this PooledFile was closed/.test(e.message));
});
