// The worker pool (pkg/pool.js with its real pool-worker.js) in Node, its
// workers on worker_threads behind a Web Worker stand-in (web-worker.mjs)
// that counts the chunk reads the workers start. What Chromium cannot show
// without timing: an aborted read stops the workers' work. The pool's
// reading is checked in Chromium too (tests/e2e/pool.test.mjs).

import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { corpusFile } from "./corpus.mjs";
import { columnJson, compare } from "../js/check.mjs";
import { WebWorker } from "./web-worker.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
// The browser build, which pool.js imports as ./columns_wasm.js.
const browser = await import(new URL("columns_wasm.js", pkg).href);
browser.initSync({ module: fs.readFileSync(new URL("columns_wasm_bg.wasm", pkg)) });
globalThis.Worker = WebWorker;
const { ColumnsPool } = await import(new URL("pool.js", pkg).href);

const pools = [];
after(() => pools.forEach((p) => p.terminate()));

async function pool(size, slow = 0) {
  WebWorker.slow = slow;
  const p = await ColumnsPool.create(size);
  pools.push(p);
  return p;
}

const started = () => Atomics.load(WebWorker.reads, 0);

/** Every column of `file` (a PooledFile over `name`) against the corpus JSON. */
function diff(name, cols, schema) {
  const { expected } = corpusFile(name);
  let d = null;
  cols.forEach((col, k) => {
    const g = Math.floor(k / schema.length), c = k % schema.length;
    d ??= compare(`${name} rg ${g} col ${c}`, expected.row_groups[g].values[c], columnJson(col, schema[c].type));
  });
  return d;
}

test("a pool of 2 reads every value of a file exactly (its workers on threads here)", async () => {
  const p = await pool(2);
  const file = await p.open(corpusFile("valid/nulls").bytes);
  const cols = await file.readColumns();
  assert.equal(cols.length, 4 * 5);
  assert.equal(diff("valid/nulls", cols, file.meta.schema), null);
  file.close();
});

for (const size of [1, 2]) {
  test(`an aborted read on ${size} worker(s) stops their work at the next chunk, and the pool reads on`, async () => {
    // Each chunk read takes 40 ms more: the 20 chunks of valid/nulls, 800
    // ms of work; stopping at the next chunk after the abort, the workers
    // start a few.
    const p = await pool(size, 40);
    const file = await p.open(corpusFile("valid/nulls").bytes);
    const before = started();
    const controller = new AbortController();
    const read = file.readColumns(null, null, { signal: controller.signal });
    const reason = new Error("stop");
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(read, (e) => e.kind === "aborted" && e.cause === reason);
    // What the workers still do arrives in the next few ms; a read after it
    // shows they are free (it waits behind whatever they still run).
    const t0 = performance.now();
    const again = await file.readColumns([0], [0]);
    const waited = performance.now() - t0;
    const count = started() - before - 1;
    assert.ok(count < 20, `${count} chunk reads started of 20: the workers went on after the abort`);
    assert.ok(count <= 2 * size + 2, `${count} chunk reads started of 20 (abort after 50 ms at 40 ms each)`);
    assert.ok(waited < 400, `the read after the abort waited ${waited.toFixed(0)} ms behind the aborted one`);
    assert.equal(again.length, 1);
    assert.equal(diff("valid/nulls", again, file.meta.schema.slice(0, 1)), null);
    file.close();
  });
}
