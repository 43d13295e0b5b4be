// The worker pool (pkg/pool.js) in headless Chromium: corpus files read on
// 1 and 2 workers must give exactly the corpus JSON's values, from bytes and
// from a Blob, with tokenizers handed to the workers; errors come back as
// errors with a kind.
//
//   node --test tests/e2e/          (needs pkg/ built: scripts/build web)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { flights3m } from "./flights3m.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const { chromium } = createRequire(path.join(root, "tools/test/package.json"))("playwright-core");
const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

let server, browser, page;

before(async () => {
  server = spawn(process.execPath, [path.join(root, "tools/serve.mjs"), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: server.stdout }).once("line", resolve);
    server.once("exit", () => reject(new Error("server exited")));
  });
  const base = /serving (\S+)/.exec(line)[1];
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ARGS });
  page = await browser.newPage();
  // Any same-origin page will do; the test imports the package itself.
  await page.goto(base + "www/");
  // What every test here uses in the page: the package initialised, the
  // pool, the shared checker, and fetches of corpus files.
  await page.evaluate(async () => {
    const { default: init } = await import("/pkg/columns_wasm.js");
    await init();
    const { ColumnsPool } = await import("/pkg/pool.js");
    const { columnJson, compare } = await import("/tests/js/check.mjs");
    const get = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
    // The corpus's expected values are gzipped JSON: unpacked here.
    const json = async (url) => {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
      return await new Response(res.body.pipeThrough(new DecompressionStream("gzip"))).json();
    };
    window.kit = { ColumnsPool, columnJson, compare, get, json };
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** Runs in the page: reads `files` on pools of the given sizes and compares
 *  every value with the corpus JSON through the shared checker's converter. */
async function poolRead(files, { sizes, blob = false }) {
  return page.evaluate(async ({ files, sizes, blob }) => {
    const { ColumnsPool, columnJson, compare, get, json } = window.kit;
    const tokenizers = [await get("/corpus/tokenizers/gpt2-tokenizer.json"), await get("/corpus/tokenizers/small-tokenizer.json")];
    const report = [];
    for (const size of sizes) {
      const pool = await ColumnsPool.create(size);
      for (const name of files) {
        const bytes = await get(`/corpus/${name}.cols`);
        const expected = await json(`/corpus/${name}.json.gz`);
        const file = await pool.open(blob ? new Blob([bytes]) : bytes, { tokenizers });
        const cols = await file.readColumns();
        const schema = file.meta.schema;
        let diff = null;
        cols.forEach((col, k) => {
          const g = Math.floor(k / schema.length), c = k % schema.length;
          diff ??= compare(`${name} rg ${g} col ${c}`, expected.row_groups[g].values[c], columnJson(col, schema[c].type));
        });
        report.push({ size, name, columns: cols.length, diff, workers: pool.size });
        file.close();
      }
      pool.terminate();
    }
    return report;
  }, { files, sizes, blob });
}

const FILES = ["valid/all_types_small", "valid/nulls", "valid/tokenized_two_tokenizers", "valid/blocks_lzw", "real/diamonds.default"];

test("the browser pool's classes keep their names (ColumnsPool, PooledFile), as a console or a stack shows them, though pool.js is minified", async () => {
  const names = await page.evaluate(async () => {
    const { ColumnsPool, get } = window.kit;
    const pool = await ColumnsPool.create(1);
    try {
      const file = await pool.open(await get("/corpus/valid/nulls.cols"));
      return [ColumnsPool.name, pool.constructor.name, file.constructor.name];
    } finally {
      pool.terminate();
    }
  });
  assert.deepEqual(names, ["ColumnsPool", "ColumnsPool", "PooledFile"]);
});

test("a pool of 1 and of 2 workers reads every value exactly, from bytes", async () => {
  const report = await poolRead(FILES, { sizes: [1, 2] });
  assert.equal(report.length, FILES.length * 2);
  for (const r of report) {
    assert.equal(r.diff, null, `${r.name} on ${r.workers} worker(s): ${r.diff}`);
    assert.ok(r.columns > 0);
  }
});

test("a pool reads a Blob (each worker reads only what it needs)", async () => {
  const report = await poolRead(["valid/nulls", "real/diamonds.default"], { sizes: [2], blob: true });
  for (const r of report) assert.equal(r.diff, null, `${r.name}: ${r.diff}`);
});

test("pool errors are errors with a kind, and the pool keeps working", async () => {
  const out = await page.evaluate(async () => {
    const { ColumnsPool, get } = window.kit;
    const pool = await ColumnsPool.create(2);
    const results = {};
    // A tokenized file without its tokenizers: the tokenized chunks fail.
    const tok = await pool.open(await get("/corpus/valid/tokenized_raw_counts.cols"));
    results.unknown = await tok.readColumns([0], [1]).then(() => null, (e) => ({ kind: e.kind, message: e.message }));
    results.outOfRange = await tok.readColumns([7], [0]).then(() => null, (e) => e.kind);
    // A chunk that fails to decode.
    const bad = await pool.open(await get("/corpus/invalid/codec_zstd.cols"));
    results.codec = await bad.readColumns([0], [0]).then(() => null, (e) => e.kind);
    // Still alive: a good read on the same pool.
    const good = await pool.open(await get("/corpus/valid/nulls.cols"));
    results.after = (await good.readColumns()).length;
    pool.terminate();
    return results;
  });
  assert.equal(out.unknown?.kind, "unknown_tokenizer");
  assert.match(out.unknown.message, /f6ed3d307010c244c22aeffbde05f419cf277c23e64cf98b673cac5449cfeff5/);
  assert.equal(out.outOfRange, "out_of_range");
  assert.equal(out.codec, "unsupported_codec");
  assert.equal(out.after, 4 * 5, "4 row groups × 5 columns");
});

test("a pool whose worker script does not load (pool-worker.js not copied beside pool.js): load_failed naming it, not \"undefined\"", async () => {
  await page.route("**/pkg/pool-worker.js", (route) => route.fulfill({ status: 404, body: "not here" }));
  try {
    const got = await page.evaluate(() => window.kit.ColumnsPool.create(2).then(() => "created", (e) => ({ name: e.name, kind: e.kind, message: e.message })));
    assert.deepEqual(got, { name: "ColumnsError", kind: "load_failed", message: "pool worker failed: pool-worker.js did not load" });
  } finally {
    await page.unroute("**/pkg/pool-worker.js");
  }
  // Served again, a new pool starts.
  assert.equal(await page.evaluate(async () => {
    const pool = await window.kit.ColumnsPool.create(1);
    pool.terminate();
    return pool.size;
  }), 1);
});

test("a pool read with { reuse } gives exact values, refilling the buffers it handed out", async () => {
  const out = await page.evaluate(async () => {
    const { ColumnsPool, columnJson, compare, get, json } = window.kit;
    const name = "real/diamonds.default";
    const bytes = await get(`/corpus/${name}.cols`);
    const expected = await json(`/corpus/${name}.json.gz`);
    const want = (c) => expected.row_groups[0].values[c];
    const result = { rounds: [] };
    // Buffers can't be compared across a transfer; a float64 column's
    // buffer handed back for an int32 read shows itself by its size.
    const one = await ColumnsPool.create(1);
    let file = await one.open(bytes);
    const schema = file.meta.schema;
    const f64 = schema.findIndex((s) => s.type === "float64"), i32 = schema.findIndex((s) => s.type === "int32");
    const [wide] = await file.readColumns(null, [f64]);
    const [narrow] = await file.readColumns(null, [i32], { reuse: wide });
    result.rows = narrow.length;
    result.narrowBufferBytes = narrow.values.buffer.byteLength;
    result.narrowDiff = compare("int32 column", want(i32), columnJson(narrow, "int32"));
    file.close();
    one.terminate();
    // Repeated full reads on two workers, each handing back the last.
    const two = await ColumnsPool.create(2);
    file = await two.open(bytes);
    let cols = await file.readColumns();
    for (let round = 0; round < 3; round++) {
      const previous = cols;
      cols = await file.readColumns(null, null, { reuse: cols });
      let diff = null;
      cols.forEach((col, c) => { diff ??= compare(`round ${round} col ${c}`, want(c), columnJson(col, schema[c].type)); });
      result.rounds.push({ diff, emptied: previous.every((c) => c.values === null) });
    }
    // Columns from a bigger pool handed to a smaller one: still exact.
    const single = await ColumnsPool.create(1);
    const other = await single.open(bytes);
    const fromOther = await other.readColumns(null, null, { reuse: cols });
    result.crossDiff = null;
    fromOther.forEach((col, c) => { result.crossDiff ??= compare(`cross-pool col ${c}`, want(c), columnJson(col, schema[c].type)); });
    other.close();
    single.terminate();
    file.close();
    two.terminate();
    return result;
  });
  assert.equal(out.narrowDiff, null);
  assert.equal(out.narrowBufferBytes, out.rows * 8, "the int32 column was written into the float64 column's buffer");
  assert.equal(out.crossDiff, null);
  assert.equal(out.rounds.length, 3);
  for (const r of out.rounds) {
    assert.equal(r.diff, null);
    assert.ok(r.emptied, "handed-back columns are emptied");
  }
});

test("an aborted pool read stops its worker: it finishes the call it is in and starts no other", async () => {
  // flights3m.mjs: 46 row groups x 5 columns. The worker is given all 230
  // chunks at once and reads them from memory in calls of 13 row groups (65
  // chunks); its pause every 16 ms lets the cancel in before its next call.
  // Counted, not timed (counting-worker.js: each chunk also takes 3 ms more,
  // so a call outlasts the abort's trip to the worker).
  const { file: path3m } = flights3m();
  await page.route("**/flights3m.cols", (route) => route.fulfill({ path: path3m }));
  const out = await page.evaluate(async () => {
    const { ColumnsPool, get } = window.kit;
    class Counted extends ColumnsPool {
      spawn() {
        return new Worker("/tests/e2e/counting-worker.js", { type: "module" });
      }
    }
    const pool = await Counted.create(1);
    const calls = [];
    let first;
    const started = new Promise((r) => (first = r));
    // The worker's answers to reads: the aborted one's comes when the
    // worker has stopped it, maybe after the next read's.
    let answers = 0;
    let bothAnswered;
    const answered = new Promise((r) => (bothAnswered = r));
    pool.workers[0].addEventListener("message", ({ data }) => {
      if (data.op === "counted") calls.push(data.chunks), first();
      if (data.op === "columns" || data.op === "error") ++answers === 2 && bothAnswered();
    });
    const file = await pool.open(await get("/flights3m.cols"));
    const controller = new AbortController();
    const aborted = file.readColumns(null, null, { signal: controller.signal }).then(() => "resolved", (e) => e.kind);
    await started;
    controller.abort();
    const kind = await aborted;
    const [one] = await file.readColumns([45], [1]);
    await answered;
    file.close();
    pool.terminate();
    return { kind, calls, rows: one.length };
  });
  assert.equal(out.kind, "aborted");
  assert.equal(out.rows, 3_000_000 - 45 * 65_536, "the last row group's rows");
  // (The read after may start while the aborted one pauses: its call of
  // one chunk can come anywhere in the list.)
  const ones = out.calls.filter((n) => n === 1);
  assert.deepEqual(ones, [1], `the read after the abort, one call of one chunk: ${out.calls}`);
  assert.deepEqual(out.calls.filter((n) => n !== 1), [65], `the aborted read, the call it was in and no other: ${out.calls}`);
});
