// columns-wasm/http (pkg/http.js, from js/http.js) against a local server
// that behaves as real ones do: ranges honoured, HEAD without a length or
// refused, Range ignored (200 and the whole body, sized or not, fast or
// slow), 404, a login wanted on every request. Then a corpus file read
// through it, every value against its JSON.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { columnJson } from "../js/check.mjs";
import { corpusDir, corpusFile, loadApi, projectRoot } from "./corpus.mjs";

const { ColumnsFile, ColumnsError } = loadApi();
const { asyncBufferFromUrl } = await import(pathToFileURL(path.join(projectRoot, "pkg", "http.js")).href);

const NAME = "real/diamonds.optimized";
const BODY = fs.readFileSync(path.join(corpusDir, `${NAME}.cols`));
const size = BODY.length;
const BIG = 4 << 20; // an unsized body of 4 MiB, in 64 KiB pieces
const seen = []; // { mode, method, range, auth }
const bodies = []; // whole bodies sent piece by piece: { mode, sent, closedEarly }
let server;
let base;
/** The validators of the "versioned" server's answers: { head, get } headers, and a Content-Range total other than the size. */
let version = { head: {}, get: {} };
/** How the "custom" server answers, set by a test: (req, res) => void. */
let custom = null;

/** Sends `total` bytes of `body` (repeated) in `piece`-sized writes every `ms`. */
function trickle(res, mode, total, piece, ms) {
  const d = { mode, sent: 0, closed: false, closedEarly: false };
  bodies.push(d);
  const timer = setInterval(() => {
    if (d.sent >= total) {
      clearInterval(timer);
      return res.end();
    }
    const n = Math.min(piece, total - d.sent);
    const part = Buffer.alloc(n);
    for (let i = 0; i < n; i++) part[i] = BODY[(d.sent + i) % size];
    d.sent += n;
    res.write(part);
  }, ms);
  res.on("close", () => {
    clearInterval(timer);
    d.closed = true;
    d.closedEarly = !res.writableFinished;
  });
}

function ranged(req, res, headers = {}) {
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
  if (!m) return res.writeHead(200, { "Content-Length": size, ...headers }).end(BODY);
  const [s, e] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
  if (s >= size) return res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
  res.writeHead(206, { "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1, ...headers }).end(BODY.subarray(s, e + 1));
}

before(async () => {
  server = http.createServer((req, res) => {
    const mode = req.url.split("/")[1];
    seen.push({ mode, method: req.method, range: req.headers.range ?? null, auth: req.headers.authorization ?? null, extra: req.headers["x-extra"] ?? null });
    const head = req.method === "HEAD";
    switch (mode) {
      case "ranges": // a static host: HEAD says the size and Accept-Ranges
        if (head) return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
        return ranged(req, res, { "Accept-Ranges": "bytes" });
      case "nohead": // HEAD refused (405), ranged GETs work
        if (head) return res.writeHead(405).end();
        return ranged(req, res);
      case "ignore": // Range ignored: 200 with the whole body; HEAD says the size
        if (head) return res.writeHead(200, { "Content-Length": size }).end();
        return res.writeHead(200, { "Content-Length": size }).end(BODY);
      case "ignoreclaims": // claims Accept-Ranges on HEAD, then sends 200 to every range
        if (head) return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
        return res.writeHead(200, { "Content-Length": size }).end(BODY);
      case "unsized": // Range ignored, no size anywhere, 4 MiB in pieces
        if (head) return res.writeHead(405).end();
        res.writeHead(200, { "Content-Type": "application/octet-stream" });
        return trickle(res, mode, BIG, 65536, 2);
      case "slow": // Range ignored, sized, slow
        if (head) return res.writeHead(200, { "Content-Length": size }).end();
        res.writeHead(200, { "Content-Length": size });
        return trickle(res, mode, size, 16384, 15);
      case "versioned": // ranges honoured, with the validators `version` says for each method (a test changes them)
        if (head) return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes", ...version.head }).end();
        if (version.total !== undefined && req.headers.range) {
          const [, s0, e0] = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range);
          const chunk = BODY.subarray(Number(s0), Number(e0) + 1);
          return res.writeHead(206, { "Content-Range": `bytes ${s0}-${Number(s0) + chunk.length - 1}/${version.total}`, "Content-Length": chunk.length, ...version.get }).end(chunk);
        }
        return ranged(req, res, version.get);
      case "auth": // every request needs the login
        if (req.headers.authorization !== "Bearer t0ken") return res.writeHead(401).end();
        if (head) return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
        return ranged(req, res);
      case "custom": // what the test at hand sets
        return custom(req, res);
      default:
        return res.writeHead(404, "Not Found").end("no such file");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  server.closeAllConnections?.();
  server.close();
});

async function until(check, what, timeout = 5000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeout) throw new Error(`waited ${timeout} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every value of the file read through `source`, against the corpus JSON. */
async function checkValues(source) {
  const { expected } = corpusFile(NAME);
  const file = await ColumnsFile.fromAsyncBuffer(source);
  try {
    assert.equal(file.numRows, expected.row_groups.reduce((n, rg) => n + rg.num_rows, 0));
    const cols = await file.readColumnsAsync();
    let k = 0;
    expected.row_groups.forEach((rg, g) => {
      expected.schema.forEach((s, c) => {
        assert.deepEqual(columnJson(cols[k++], s.type, `${g}:${c}`), rg.values[c], `row group ${g}, column ${c}`);
      });
    });
    assert.equal(k, cols.length);
  } finally {
    file.free();
  }
}

const isColumnsError = (kind, re) => (e) => {
  assert.ok(e instanceof ColumnsError, `a ColumnsError: ${e?.name}: ${e?.message}`);
  assert.equal(e.kind, kind, e.message);
  if (re) assert.match(e.message, re);
  assert.deepEqual(Object.keys(e.toJSON()).sort(), ["column", "kind", "message", "name", "offset", "rowGroup"]);
  assert.equal(e.rowGroup, null);
  return true;
};

test("ranges honoured: size from HEAD, no probe, each read one ranged GET; every value equals the corpus JSON", async () => {
  seen.length = 0;
  const source = await asyncBufferFromUrl(`${base}/ranges/${NAME}.cols`);
  assert.equal(source.byteLength, size);
  assert.equal(source.note, "");
  assert.deepEqual(seen.map((r) => r.method), ["HEAD"], "opening asks HEAD alone");
  await checkValues(source);
  const gets = seen.filter((r) => r.method === "GET");
  assert.ok(gets.length >= 2 && gets.every((r) => /^bytes=\d+-\d+$/.test(r.range)), JSON.stringify(gets));
  assert.equal(source.stats.requests, gets.length);
  const asked = gets.reduce((n, r) => n + Number(/-(\d+)$/.exec(r.range)[1]) - Number(/=(\d+)/.exec(r.range)[1]) + 1, 0);
  assert.equal(source.stats.bytes, asked, "stats.bytes is what the ranges asked for");
  assert.deepEqual(await source.slice(0, 4), new Uint8Array(BODY.subarray(0, 4)));
  assert.deepEqual(await source.slice(7, 7), new Uint8Array(0));
});

test("HEAD refused or without a length: the size comes from a one-byte Range probe", async () => {
  seen.length = 0;
  const source = await asyncBufferFromUrl(`${base}/nohead/x.cols`);
  assert.equal(source.byteLength, size);
  assert.deepEqual(seen.map((r) => [r.method, r.range]), [["HEAD", null], ["GET", "bytes=0-0"]]);
  assert.deepEqual(source.stats, { requests: 0, bytes: 0 }, "the probe is not counted");
  await checkValues(source);
});

for (const mode of ["ignore", "ignoreclaims"]) {
  test(`a server that ignores Range (${mode === "ignore" ? "no Accept-Ranges" : "claims Accept-Ranges, then 200"}): downloaded once, every read served from it`, async () => {
    seen.length = 0;
    const progress = [];
    const source = await asyncBufferFromUrl(`${base}/${mode}/x.cols`, { onProgress: (p) => progress.push(p) });
    assert.equal(source.byteLength, size);
    // Concurrent reads wait for the one download.
    const parts = await Promise.all([source.slice(0, 10), source.slice(size - 8, size), source.slice(100, 200)]);
    assert.deepEqual(parts[1], new Uint8Array(BODY.subarray(size - 8)));
    await checkValues(source);
    assert.equal(seen.filter((r) => r.method === "GET").length, mode === "ignore" ? 1 : 3, JSON.stringify(seen));
    assert.deepEqual(source.stats, { requests: 1, bytes: size });
    assert.match(source.note, /ignores Range requests/);
    assert.ok(progress.length >= 1 && progress.at(-1).bytes === size && progress.at(-1).totalBytes === size, JSON.stringify(progress));
    assert.equal(await source.readAll(), await source.readAll(), "readAll gives the kept copy");
  });
}

test("a slow whole download reports growing progress and its total", async () => {
  const progress = [];
  const source = await asyncBufferFromUrl(`${base}/slow/x.cols`, { onProgress: (p) => progress.push(p) });
  assert.equal(source.byteLength, size);
  const bytes = progress.map((p) => p.bytes);
  assert.ok(new Set(bytes).size >= 3, `steps: ${bytes}`);
  for (let i = 1; i < bytes.length; i++) assert.ok(bytes[i] >= bytes[i - 1], `growing: ${bytes}`);
  assert.ok(progress.every((p) => p.totalBytes === size));
  assert.equal(bytes.at(-1), size);
});

test("404: bad_source naming the status and the URL, at HEAD", async () => {
  const url = `${base}/missing/x.cols`;
  seen.length = 0;
  await assert.rejects(asyncBufferFromUrl(url), isColumnsError("bad_source", /HTTP 404 Not Found for http:\/\/127\.0\.0\.1:\d+\/missing\/x\.cols/));
  assert.deepEqual(seen.map((r) => r.method), ["HEAD"], "a 404 on HEAD ends it: no probe");
});

test("a server that cannot be reached: bad_source saying why (Node's fetch puts it in a cause), no CORS hint outside a page, the fetch failure as cause", async () => {
  const closed = http.createServer();
  await new Promise((r) => closed.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${closed.address().port}/x.cols`;
  await new Promise((r) => closed.close(r));
  await assert.rejects(asyncBufferFromUrl(url), (e) => {
    isColumnsError("bad_source", /cannot fetch .*x\.cols: fetch failed: connect ECONNREFUSED .*\(the server did not answer, or the connection broke\)$/)(e);
    assert.doesNotMatch(e.message, /CORS/);
    assert.ok(e.cause instanceof Error);
    return true;
  });
});

test("what fetch itself refuses (a scheme it does not implement, a redirect that requestInit refuses, a port it blocks) says why without a hint about the server; requestInit's method, body, headers or signal are a bad_argument, not dropped in silence", async () => {
  const noHint = (re) => (e) => {
    isColumnsError("bad_source", re)(e);
    assert.doesNotMatch(e.message, /did not answer|CORS/);
    return true;
  };
  await assert.rejects(asyncBufferFromUrl("file:///x.cols"), noHint(/^cannot fetch file:\/\/\/x\.cols: fetch failed: .+$/));
  await assert.rejects(asyncBufferFromUrl("http://127.0.0.1:1/x.cols"), noHint(/^cannot fetch http:\/\/127\.0\.0\.1:1\/x\.cols: fetch failed: bad port$/));
  custom = (req, res) => res.writeHead(302, { Location: "/ranges/x.cols" }).end();
  await assert.rejects(asyncBufferFromUrl(`${base}/custom/x.cols`, { requestInit: { redirect: "error" } }), noHint(/fetch failed: .*redirect/));
  for (const [key, value, re] of [
    ["method", "POST", /requestInit\.method is not taken: every request is this module's GET or HEAD$/],
    ["body", "x", /requestInit\.body is not taken: every request is this module's GET or HEAD, which has none$/],
    ["headers", { Authorization: "x" }, /requestInit\.headers is not taken: pass options\.headers$/],
    ["signal", new AbortController().signal, /requestInit\.signal is not taken: pass options\.signal$/],
  ]) {
    await assert.rejects(asyncBufferFromUrl(`${base}/ranges/x.cols`, { requestInit: { [key]: value } }), isColumnsError("bad_argument", re));
  }
  // Left undefined, they are not there.
  assert.equal((await asyncBufferFromUrl(`${base}/ranges/x.cols`, { requestInit: { method: undefined, cache: "no-store" } })).byteLength, size);
});

test("a size past 2^53 - 1 (Content-Length, or a Content-Range total) is refused at opening, naming the URL: it cannot be a number exactly", async () => {
  const huge = "9007199254740993"; // 2^53 + 1: as a number, 2^53
  custom = (req, res) => res.writeHead(200, { "Content-Length": huge, "Accept-Ranges": "bytes" }).end();
  const tooBig = isColumnsError("bad_source", /the server gives the file's size as more than 9,007,199,254,740,991 bytes \(2\^53 - 1\).*custom\/x\.cols/);
  await assert.rejects(asyncBufferFromUrl(`${base}/custom/x.cols`), tooBig);
  custom = (req, res) => (req.method === "HEAD" ? res.writeHead(405).end() : res.writeHead(206, { "Content-Range": `bytes 0-0/${huge}`, "Content-Length": 1 }).end("x"));
  await assert.rejects(asyncBufferFromUrl(`${base}/custom/x.cols`), tooBig);
  // 2^53 - 1 itself is a size (if not a file anyone serves).
  custom = (req, res) => res.writeHead(200, { "Content-Length": String(Number.MAX_SAFE_INTEGER), "Accept-Ranges": "bytes" }).end();
  assert.equal((await asyncBufferFromUrl(`${base}/custom/x.cols`)).byteLength, Number.MAX_SAFE_INTEGER);
});

test("over the limit: too_large before the body when the size is known, as the bytes pass it when not", async () => {
  bodies.length = 0;
  await assert.rejects(asyncBufferFromUrl(`${base}/ignore/x.cols`, { limit: 1000 }), isColumnsError("too_large", /over the 1000 B \(1,000 bytes\) limit.*ignores Range requests.*none of it was downloaded/));
  await assert.rejects(asyncBufferFromUrl(`${base}/unsized/x.cols`, { limit: 1 << 20 }), isColumnsError("too_large", /over the 1\.00 MiB \(1,048,576 bytes\) limit.*did not say its size/));
  await until(() => bodies.length === 1 && bodies[0].closed, "the client to close the unsized body");
  assert.ok(bodies[0].closedEarly && bodies[0].sent < BIG, `${bodies[0].sent} of ${BIG} bytes sent`);
  // Within the limit it opens (an unsized body, joined from its pieces).
  const source = await asyncBufferFromUrl(`${base}/unsized/x.cols`, { limit: BIG });
  assert.equal(source.byteLength, BIG);
  assert.deepEqual(await source.slice(size, size + 3), new Uint8Array(BODY.subarray(0, 3)));
  // readAll of a ranged file keeps to the limit too.
  const ranged = await asyncBufferFromUrl(`${base}/ranges/x.cols`, { limit: 1000 });
  await assert.rejects(ranged.readAll(), isColumnsError("too_large", /limit on a file read whole/));
  assert.deepEqual(await (await asyncBufferFromUrl(`${base}/ranges/x.cols`)).readAll(), new Uint8Array(BODY));
  // readAll's one option, by name: another is refused, not ignored.
  await assert.rejects((await asyncBufferFromUrl(`${base}/ranges/x.cols`)).readAll({ onprogress: () => {} }), isColumnsError("bad_argument", /^readAll has no option "onprogress"; it takes onProgress, signal$/));
});

test("abort: before opening, during a whole download (its connection closed), and a later read", async () => {
  const early = new AbortController();
  early.abort();
  await assert.rejects(asyncBufferFromUrl(`${base}/ranges/x.cols`, { signal: early.signal }), isColumnsError("aborted"));

  bodies.length = 0;
  const stop = new AbortController();
  const opening = asyncBufferFromUrl(`${base}/slow/x.cols`, { signal: stop.signal, onProgress: (p) => p.bytes > 0 && stop.abort(new Error("enough")) });
  await assert.rejects(opening, (e) => {
    isColumnsError("aborted", /stopped reading/)(e);
    assert.equal(e.cause?.message, "enough", "cause is the signal's reason");
    return true;
  });
  await until(() => bodies.length === 1 && bodies[0].closed, "the slow body's connection to close");
  assert.ok(bodies[0].closedEarly && bodies[0].sent < size, `${bodies[0].sent} of ${size} bytes sent`);

  const later = new AbortController();
  const source = await asyncBufferFromUrl(`${base}/ranges/x.cols`, { signal: later.signal });
  later.abort();
  await assert.rejects(source.slice(0, 10), isColumnsError("aborted"));
});

test("the source's signal fired, or its limit passed, inside the package's reads: the package's error has that kind (aborted, too_large), not bad_source, with the read's place and this error as cause; a long URL is named whole", async () => {
  const url = `${base}/custom/x.cols?${"k=v&".repeat(150)}end`; // 600 characters and more of query
  // Opened over ranges; then every request stalls (headers and body never sent) until the source's signal fires.
  const stalled = [];
  custom = host((req, res) => ranged(req, res));
  const stop = new AbortController();
  const source = await asyncBufferFromUrl(url, { signal: stop.signal });
  const file = await ColumnsFile.fromAsyncBuffer(source);
  try {
    custom = (req, res) => stalled.push(res);
    const reading = file.readColumnsAsync();
    await until(() => stalled.length > 0, "a read's request");
    stop.abort(new Error("took too long"));
    await assert.rejects(reading, (e) => {
      assert.ok(e instanceof ColumnsError);
      assert.equal(e.kind, "aborted", e.message);
      assert.equal(typeof e.offset, "number", "the read's place");
      assert.ok(e.message.includes(url), `the whole URL in: ${e.message}`);
      isColumnsError("aborted", /stopped reading .*the request was aborted/)(e.cause);
      assert.equal(e.cause.cause?.message, "took too long");
      return true;
    });
  } finally {
    file.free();
    for (const res of stalled) res.destroy();
  }
  // So at opening: the signal fires while fromAsyncBuffer reads the footer.
  custom = (req, res) => (req.method === "HEAD" ? res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end() : stalled.push(res));
  const late = new AbortController();
  const opening = ColumnsFile.fromAsyncBuffer(await asyncBufferFromUrl(url, { signal: late.signal }));
  await until(() => stalled.length > 0, "the open's request");
  late.abort(new Error("later"));
  await assert.rejects(opening, (e) => e.kind === "aborted" && e.cause?.kind === "aborted" && e.message.includes(url));
  for (const res of stalled) res.destroy();
  // A server that says it serves ranges, then sends the whole file (over `limit`) to the open's first range.
  await assert.rejects(ColumnsFile.fromAsyncBuffer(await asyncBufferFromUrl(`${base}/ignoreclaims/x.cols`, { limit: 1000 })), (e) => {
    assert.equal(e.kind, "too_large", e.message);
    isColumnsError("too_large", /over the .* limit on a file downloaded whole/)(e.cause);
    return true;
  });
});

test("a read's own signal (the package passes it as slice(start, end, { signal })) stops that read's requests: their connections closed, a reader waiting for a whole download it did not start asks again, and no listener stays on the source's signal", async () => {
  const url = `${base}/custom/x.cols`;
  // Opened over ranges; then every range stalls after its first bytes.
  custom = host((req, res) => ranged(req, res));
  const listening = new Set(); // the source's signal's abort listeners (fetch adds its own to a signal it is given alone)
  const sourceStop = new AbortController();
  const add = sourceStop.signal.addEventListener.bind(sourceStop.signal);
  const remove = sourceStop.signal.removeEventListener.bind(sourceStop.signal);
  sourceStop.signal.addEventListener = (type, f, o) => (listening.add(f), add(type, f, o));
  sourceStop.signal.removeEventListener = (type, f, o) => (listening.delete(f), remove(type, f, o));
  const source = await asyncBufferFromUrl(url, { signal: sourceStop.signal });
  const file = await ColumnsFile.fromAsyncBuffer(source);
  const stalled = [];
  custom = host((req, res, s, e) => {
    const d = { closed: false };
    stalled.push(d);
    res.on("close", () => (d.closed = true));
    res.writeHead(206, { "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 }).write(BODY.subarray(s, s + 1));
  });
  // Those there now are fetch's own from opening (Node 18's undici lets
  // them go later, at its own pace): only listeners added after count.
  const fetchers = new Set(listening);
  try {
    const stop = new AbortController();
    const reading = file.readColumnsAsync(null, null, { signal: stop.signal });
    await until(() => stalled.length > 0, "a read's request");
    const reason = new Error("read timeout");
    stop.abort(reason);
    await assert.rejects(reading, (e) => e.kind === "aborted" && e.cause === reason);
    await until(() => stalled.every((d) => d.closed), "the read's requests to be closed");
    // slice() itself: an aborted ColumnsError, the signal's reason as cause.
    stalled.length = 0;
    const one = new AbortController();
    const slicing = source.slice(0, 1000, { signal: one.signal });
    await until(() => stalled.length === 1, "the slice's request");
    one.abort(reason);
    await assert.rejects(slicing, (e) => isColumnsError("aborted", /stopped reading .*custom\/x\.cols: the read was aborted/)(e) && e.cause === reason);
    await until(() => stalled[0].closed, "the slice's request to be closed");
    await assert.rejects(source.slice(0, 10, { signal: one.signal }), isColumnsError("aborted"));
    assert.deepEqual([...listening].filter((f) => !fetchers.has(f)), [], "no listener left on the source's signal");
    await assert.rejects(source.slice(0, 10, { signal: "stop" }), isColumnsError("bad_argument", /signal must be an AbortSignal/));
  } finally {
    file.free();
  }
  // A server that now ignores Range, slowly: the whole body a stopped read started is not kept, and a
  // read that was waiting for it asks again and gets its bytes.
  custom = (req, res) => {
    res.writeHead(200, { "Content-Length": size });
    trickle(res, "custom", size, 16384, 15);
  };
  bodies.length = 0;
  const first = new AbortController();
  const started = source.slice(0, 10, { signal: first.signal });
  await until(() => bodies.length === 1 && bodies[0].sent > 65536, "the whole download to be under way");
  const waiting = source.slice(100, 200);
  first.abort(new Error("enough"));
  await assert.rejects(started, isColumnsError("aborted"));
  assert.deepEqual(await waiting, new Uint8Array(BODY.subarray(100, 200)));
  assert.ok(bodies[0].closedEarly, "the stopped download's connection was closed");
  assert.equal(bodies.length, 2, "the waiting read asked again");
  assert.deepEqual(await source.slice(0, 10), new Uint8Array(BODY.subarray(0, 10)), "served from the second download");
  assert.equal(bodies.length, 2);
});

test("readAll's signal stops its download: an aborted ColumnsError with the reason as cause, its connection closed; a later readAll gets the whole file", async () => {
  const url = `${base}/custom/x.cols`;
  // Ranges at once; the whole file (readAll's GET) slowly.
  custom = (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
    if (asked(req)) return ranged(req, res);
    res.writeHead(200, { "Content-Length": size });
    trickle(res, "custom", size, 16384, 15);
  };
  const source = await asyncBufferFromUrl(url);
  await assert.rejects(source.readAll({ signal: "stop" }), isColumnsError("bad_argument", /^readAll: options\.signal must be an AbortSignal$/));
  const early = new AbortController();
  early.abort();
  await assert.rejects(source.readAll({ signal: early.signal }), isColumnsError("aborted"));
  bodies.length = 0;
  const stop = new AbortController();
  const reason = new Error("enough");
  const reading = source.readAll({ signal: stop.signal });
  await until(() => bodies.length === 1 && bodies[0].sent > 65536, "the download to be under way");
  stop.abort(reason);
  await assert.rejects(reading, (e) => isColumnsError("aborted", /stopped reading .*custom\/x\.cols: the read was aborted/)(e) && e.cause === reason);
  await until(() => bodies[0].closed, "the download's connection to be closed");
  assert.ok(bodies[0].closedEarly, "closed before the whole file was sent");
  assert.deepEqual(await source.readAll({ signal: new AbortController().signal }), new Uint8Array(BODY));
});

test("headers go with every request (HEAD, probe, reads); requestInit and an injected fetch are used", async () => {
  await assert.rejects(asyncBufferFromUrl(`${base}/auth/x.cols`), isColumnsError("bad_source", /HTTP 401/));
  seen.length = 0;
  const calls = [];
  const fetch = (url, init) => {
    calls.push([url, init.method, init.cache]);
    return globalThis.fetch(url, init);
  };
  const headers = { Authorization: "Bearer t0ken", "X-Extra": "1" };
  const source = await asyncBufferFromUrl(new URL(`${base}/auth/x.cols`), { headers, fetch, requestInit: { cache: "no-store" } });
  await checkValues(source);
  assert.ok(seen.length >= 3 && seen.every((r) => r.auth === "Bearer t0ken" && r.extra === "1"), JSON.stringify(seen));
  assert.equal(calls.length, seen.length, "every request went through the given fetch");
  assert.ok(calls.every(([url, , cache]) => url === `${base}/auth/x.cols` && cache === "no-store"));
  assert.equal(source.url, `${base}/auth/x.cols`);
  // The caller's headers object is not changed by the Range header.
  assert.deepEqual(Object.keys(headers), ["Authorization", "X-Extra"]);
});

test("bad arguments are bad_argument ColumnsErrors (rejections, never throws)", async () => {
  const url = `${base}/ranges/x.cols`;
  for (const [args, re] of [
    [[42], /URL must be a string/],
    [[url, "x"], /options must be an object/],
    [[url, { limit: -1 }], /limit/],
    [[url, { limit: "5" }], /limit/],
    [[url, { onProgress: 1 }], /onProgress/],
    [[url, { signal: {} }], /signal/],
    // (an object that only looks like one: without addEventListener, a read would fail on it)
    [[url, { signal: { aborted: false } }], /signal must be an AbortSignal/],
    // (named as the option it is, not as a missing global fetch: Node has one)
    [[url, { fetch: "no" }], /options\.fetch must be a function, not a string$/],
    [[url, { fetch: null }], /options\.fetch must be a function, not null$/],
    [[url, { headers: [["bad header", "x"]] }], /headers/],
    // A misspelt name, never ignored: named, with the names it takes.
    [[url, { header: {} }], /^asyncBufferFromUrl has no option "header"; it takes headers, fetch, signal, limit, onProgress, requestInit, checkVersion$/],
    [[url, { onprogress: undefined }], /has no option "onprogress"/],
  ]) {
    const p = asyncBufferFromUrl(...args);
    assert.ok(p instanceof Promise);
    await assert.rejects(p, isColumnsError("bad_argument", re), JSON.stringify(args));
  }
});

test("a file replaced on the server while it is read: bad_source naming the change and the URL, never bytes of two files", async () => {
  const url = `${base}/versioned/x.cols`;
  const changed = (what) => isColumnsError("bad_source", new RegExp(`the file changed (on the server|size on the server) while it was read.*${what}.*versioned/x\\.cols`));
  const cases = [
    // [what the first answers say, what the later ones say, what the message names]
    [{ ETag: '"v1"' }, { ETag: '"v2"' }, 'ETag was "v1", now "v2"'],
    [{ "Last-Modified": "Mon, 01 Dec 2026 10:00:00 GMT" }, { "Last-Modified": "Fri, 05 Dec 2026 02:00:00 GMT" }, "Last-Modified was Mon, 01 Dec 2026"],
    [{ ETag: 'W/"v1"' }, { ETag: 'W/"v2"' }, 'ETag was "v1", now "v2"'],
  ];
  for (const [before, later, what] of cases) {
    version = { head: before, get: before };
    const source = await asyncBufferFromUrl(url);
    const file = await ColumnsFile.fromAsyncBuffer(source);
    try {
      assert.deepEqual(await source.slice(0, 4), new Uint8Array(BODY.subarray(0, 4)), "the same file reads");
      version = { head: later, get: later };
      await assert.rejects(source.slice(0, 4), changed(what));
      // Through the package: its bad_source, with this one as the cause.
      await assert.rejects(file.readColumnsAsync(), (e) => e.kind === "bad_source" && changed(what)(e.cause));
    } finally {
      file.free();
    }
  }
  // Same size in HEAD, another in a range's Content-Range: the file was replaced by a longer one.
  version = { head: {}, get: {}, total: size + 10 };
  const source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(0, 4), changed(`${size} -> ${size + 10} bytes`));
  // A whole read (readAll) is checked too.
  version = { head: { ETag: '"a"' }, get: { ETag: '"b"' } };
  await assert.rejects((await asyncBufferFromUrl(url)).readAll(), changed('ETag was "a", now "b"'));
});

test("one file served with its validators as they come: reads fine (a weakened ETag, an ETag that decides over dates, answers without any), and checkVersion: false reads past a change", async () => {
  const url = `${base}/versioned/x.cols`;
  const same = [
    // compression on HEAD weakens the tag; the ranges carry the strong one
    { head: { ETag: 'W/"v1"' }, get: { ETag: '"v1"' } },
    // an ETag seen decides: dates that differ between edge servers do not matter
    { head: { ETag: '"v1"', "Last-Modified": "Mon, 01 Dec 2026 10:00:00 GMT" }, get: { ETag: '"v1"', "Last-Modified": "Mon, 01 Dec 2026 10:00:01 GMT" } },
    // an answer without validators says nothing
    { head: { ETag: '"v1"' }, get: {} },
    { head: {}, get: {} },
    { head: { "Last-Modified": "Mon, 01 Dec 2026 10:00:00 GMT" }, get: { "Last-Modified": "Mon, 01 Dec 2026 10:00:00 GMT" } },
  ];
  for (const v of same) {
    version = v;
    await checkValues(await asyncBufferFromUrl(url));
  }
  version = { head: { ETag: '"v1"' }, get: { ETag: '"v2"' } };
  await checkValues(await asyncBufferFromUrl(url, { checkVersion: false }));
  await assert.rejects(asyncBufferFromUrl(url, { checkVersion: "no" }), isColumnsError("bad_argument", /checkVersion/));
  version = { head: {}, get: {} };
});

// Servers that answer ranges otherwise than asked. `answer206` sends a 206
// with the Content-Range and body given; `asked` is the range of a request.
const asked = (req) => {
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
  return m && [Number(m[1]), Math.min(Number(m[2]), size - 1)];
};
function answer206(res, contentRange, body, headers = {}) {
  res.writeHead(206, { "Content-Range": contentRange, "Content-Length": body.length, ...headers }).end(body);
}
/** A static host (HEAD sized, Accept-Ranges) whose ranged answers `ranges(req, res, s, e)` sends; a GET without Range gets the file. */
const host = (ranges) => (req, res) => {
  if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
  const r = asked(req);
  if (!r) return res.writeHead(200, { "Content-Length": size }).end(BODY);
  return ranges(req, res, ...r);
};

test("a 206 of other bytes than asked: another start refused; a capped range completed by more requests; a wider range cut to the bytes asked", async () => {
  const url = `${base}/custom/x.cols`;
  custom = host((req, res, s, e) => answer206(res, `bytes ${s + 1}-${e + 1}/${size}`, BODY.subarray(s + 1, e + 2)));
  let source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(100, 200), isColumnsError("bad_source", /asked for bytes from 100, the server sent them from 101 .*custom\/x\.cols/));
  // A server that caps every range at 100 bytes: the rest is asked for, from where the answer stopped.
  custom = host((req, res, s, e) => {
    const to = Math.min(e, s + 99);
    answer206(res, `bytes ${s}-${to}/${size}`, BODY.subarray(s, to + 1));
  });
  seen.length = 0;
  source = await asyncBufferFromUrl(url);
  assert.deepEqual(await source.slice(1000, 1250), new Uint8Array(BODY.subarray(1000, 1250)));
  assert.deepEqual(seen.filter((r) => r.method === "GET").map((r) => r.range), ["bytes=1000-1249", "bytes=1100-1249", "bytes=1200-1249"]);
  assert.deepEqual(source.stats, { requests: 3, bytes: 250 });
  // Capped at 4 KiB, the whole file reads (its 380 KB read in 93 requests).
  custom = host((req, res, s, e) => {
    const to = Math.min(e, s + 4095);
    answer206(res, `bytes ${s}-${to}/${size}`, BODY.subarray(s, to + 1));
  });
  source = await asyncBufferFromUrl(url);
  await checkValues(source);
  assert.ok(source.stats.requests > 90, `${source.stats.requests} requests`);
  // A range that starts before the one asked and ends after it (a cache's block): the bytes asked, from where they are in it.
  custom = host((req, res, s, e) => {
    const [from, to] = [Math.max(0, s - 7), Math.min(size - 1, e + 9)];
    answer206(res, `bytes ${from}-${to}/${size}`, BODY.subarray(from, to + 1));
  });
  source = await asyncBufferFromUrl(url);
  assert.deepEqual(await source.slice(1000, 1250), new Uint8Array(BODY.subarray(1000, 1250)));
  await checkValues(source);
  // Ranges capped so short that the rest would take over 1,024 more
  // requests: refused after the first, naming the size sent (not 22,000
  // requests of 16 bytes for a file of 1.8 MB).
  custom = host((req, res, s, e) => {
    const to = Math.min(e, s + 15);
    answer206(res, `bytes ${s}-${to}/${size}`, BODY.subarray(s, to + 1));
  });
  seen.length = 0;
  source = await asyncBufferFromUrl(url);
  assert.deepEqual(await source.slice(0, 16 * 1025), new Uint8Array(BODY.subarray(0, 16 * 1025)), "1,025 requests of 16 bytes: allowed");
  const asked = seen.length;
  await assert.rejects(source.slice(0, 16 * 1026), isColumnsError("bad_source", /the server sent 16 bytes of the 16416 asked for from 0: at that size, the other 16400 would take more than 1024 requests .*custom\/x\.cols/));
  assert.equal(seen.length, asked + 1, "one request before the refusal");
  // One that ends before it starts the bytes asked: refused.
  custom = host((req, res, s) => answer206(res, `bytes 0-${s - 1}/${size}`, BODY.subarray(0, s)));
  source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(100, 200), isColumnsError("bad_source", new RegExp(`asked for bytes from 100, the server sent bytes 0-99/${size} `)));
});

test("a 206 whose body is shorter or longer than its Content-Range says, or cut off: bad_source naming both, never those bytes", async () => {
  const url = `${base}/custom/x.cols`;
  for (const [delta, what] of [[-1, "9"], [1, "11"]]) {
    custom = host((req, res, s, e) => answer206(res, `bytes ${s}-${e}/${size}`, BODY.subarray(s, e + 1 + delta)));
    const source = await asyncBufferFromUrl(url);
    await assert.rejects(source.slice(100, 110), isColumnsError("bad_source", new RegExp(`the server sent ${what} bytes in an answer whose Content-Range is bytes 100-109/${size} .*custom/x\\.cols`)));
  }
  // Content-Length says 10, 5 bytes come, then the connection closes.
  custom = host((req, res, s, e) => {
    res.writeHead(206, { "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 });
    res.write(BODY.subarray(s, s + 5));
    setTimeout(() => res.destroy(), 20);
  });
  const source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(100, 110), isColumnsError("bad_source", /reading the answer from .*custom\/x\.cols failed/));
});

test("416 Range Not Satisfiable: an empty file at opening; mid-read, the file shrank (its new size named), or the status and URL", async () => {
  const url = `${base}/custom/x.cols`;
  custom = (req, res) => (req.method === "HEAD" ? res.writeHead(405).end() : res.writeHead(416, { "Content-Range": "bytes */0" }).end());
  assert.equal((await asyncBufferFromUrl(url)).byteLength, 0);
  custom = host((req, res) => res.writeHead(416, { "Content-Range": "bytes */100" }).end());
  let source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(500, 600), isColumnsError("bad_source", new RegExp(`the file changed size on the server while it was read \\(${size} -> 100 bytes.*custom/x\\.cols`)));
  custom = host((req, res) => res.writeHead(416).end());
  source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(500, 600), isColumnsError("bad_source", /HTTP 416 Range Not Satisfiable for .*custom\/x\.cols/));
});

test("a multipart/byteranges answer to one range: bad_source naming it, at opening and at a read", async () => {
  const url = `${base}/custom/x.cols`;
  const multipart = (req, res, s, e) => {
    const body = Buffer.concat([Buffer.from(`--XYZ\r\nContent-Type: application/octet-stream\r\nContent-Range: bytes ${s}-${e}/${size}\r\n\r\n`), BODY.subarray(s, e + 1), Buffer.from("\r\n--XYZ--\r\n")]);
    res.writeHead(206, { "Content-Type": "multipart/byteranges; boundary=XYZ", "Content-Length": body.length }).end(body);
  };
  custom = host(multipart);
  const source = await asyncBufferFromUrl(url);
  await assert.rejects(source.slice(100, 110), isColumnsError("bad_source", /multipart\/byteranges.*custom\/x\.cols/));
  custom = (req, res) => (req.method === "HEAD" ? res.writeHead(405).end() : multipart(req, res, ...asked(req)));
  await assert.rejects(asyncBufferFromUrl(url), isColumnsError("bad_source", /multipart\/byteranges.*custom\/x\.cols/));
});

// What a browser shows of an answer from another origin that names no
// Access-Control-Expose-Headers: the CORS-safelisted headers alone.
const SAFELISTED = ["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"];
const crossOriginFetch = async (url, init) => {
  const r = await globalThis.fetch(url, init);
  const headers = new Headers();
  for (const k of SAFELISTED) if (r.headers.has(k)) headers.set(k, r.headers.get(k));
  return new Response(r.body, { status: r.status, statusText: r.statusText, headers });
};

test("another origin without Access-Control-Expose-Headers (Content-Range unseen): bad_source saying which header to expose", async () => {
  for (const mode of ["ranges", "nohead"]) {
    await assert.rejects(
      asyncBufferFromUrl(`${base}/${mode}/x.cols`, { fetch: crossOriginFetch }),
      isColumnsError("bad_source", new RegExp(`Content-Range.*Access-Control-Expose-Headers.*${mode}/x\\.cols`)),
    );
  }
});

test("Content-Encoding: gzip on ranges: a file stored compressed is downloaded whole (fetch decodes it); a compressed range is refused naming it; a range compressed on its own reads", async () => {
  const url = `${base}/custom/x.cols`;
  const Z = zlib.gzipSync(BODY);
  const gz = { "Content-Encoding": "gzip" };
  // As an object store with the file stored gzip-encoded: every answer is of the compressed bytes, Range or not.
  custom = (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": Z.length, "Accept-Ranges": "bytes", ...gz }).end();
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
    if (!m) return res.writeHead(200, { "Content-Length": Z.length, ...gz }).end(Z);
    const [s, e] = [Number(m[1]), Math.min(Number(m[2]), Z.length - 1)];
    answer206(res, `bytes ${s}-${e}/${Z.length}`, Z.subarray(s, e + 1), gz);
  };
  seen.length = 0;
  const source = await asyncBufferFromUrl(url);
  assert.equal(source.byteLength, size);
  assert.match(source.note, /Content-Encoding: gzip/);
  await checkValues(source);
  assert.deepEqual(seen.map((r) => [r.method, r.range]), [["HEAD", null], ["GET", "bytes=0-0"], ["GET", null]]);
  // HEAD says the file's own size; the ranges come compressed, their Content-Range of the compressed bytes.
  custom = host((req, res, s, e) => {
    const to = Math.min(e, Z.length - 1);
    answer206(res, `bytes ${s}-${to}/${Z.length}`, Z.subarray(s, to + 1), gz);
  });
  await assert.rejects((await asyncBufferFromUrl(url)).slice(0, 100), isColumnsError("bad_source", /compressed.*Content-Encoding: gzip.*custom\/x\.cols/));
  // Each range's bytes compressed on their own, its Content-Range of the file's: fetch gives back those bytes.
  custom = host((req, res, s, e) => answer206(res, `bytes ${s}-${e}/${size}`, zlib.gzipSync(BODY.subarray(s, e + 1)), gz));
  await checkValues(await asyncBufferFromUrl(url));
});

test("HEAD's Content-Length other than the GETs' total: refused naming both, and HEAD as a cause, when HEAD decided the size; the probe's total decides when there is one", async () => {
  const url = `${base}/custom/x.cols`;
  const headSays = (headers) => (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": size + 5, ...headers }).end();
    return ranged(req, res);
  };
  custom = headSays({ "Accept-Ranges": "bytes" });
  const source = await asyncBufferFromUrl(url);
  assert.equal(source.byteLength, size + 5);
  await assert.rejects(source.slice(0, 10), isColumnsError("bad_source", new RegExp(`\\(${size + 5} -> ${size} bytes\\), or the server's HEAD, which gave ${size + 5} bytes, does not describe what its GETs send .*custom/x\\.cols`)));
  custom = headSays({});
  await checkValues(await asyncBufferFromUrl(url));
});

test("readAll of a file whose whole GET is another size than the ranges said: bad_source, not those bytes", async () => {
  const url = `${base}/custom/x.cols`;
  custom = (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
    if (req.headers.range) return ranged(req, res);
    res.writeHead(200, { "Content-Length": size - 3 }).end(BODY.subarray(0, size - 3));
  };
  const source = await asyncBufferFromUrl(url);
  assert.deepEqual(await source.slice(0, 4), new Uint8Array(BODY.subarray(0, 4)));
  await assert.rejects(source.readAll(), isColumnsError("bad_source", new RegExp(`the file changed size on the server while it was read \\(${size} -> ${size - 3} bytes.*custom/x\\.cols`)));
});

test("a 200 to a Range request mid-read, after 206s: the body is kept and every later read served from it", async () => {
  const url = `${base}/custom/x.cols`;
  let ranges = 0;
  custom = host((req, res, s, e) => (++ranges <= 2 ? ranged(req, res) : res.writeHead(200, { "Content-Length": size }).end(BODY)));
  seen.length = 0;
  const source = await asyncBufferFromUrl(url);
  assert.deepEqual(await source.slice(0, 10), new Uint8Array(BODY.subarray(0, 10)));
  assert.deepEqual(await source.slice(size - 10, size), new Uint8Array(BODY.subarray(size - 10)));
  assert.equal(source.note, "");
  assert.deepEqual(await source.slice(100, 200), new Uint8Array(BODY.subarray(100, 200)));
  assert.match(source.note, /ignores Range requests/);
  await checkValues(source);
  assert.equal(seen.filter((r) => r.method === "GET").length, 3, "no request after the whole body came");
  assert.deepEqual(source.stats, { requests: 3, bytes: 20 + size });
});

test("a file replaced mid-read by one of another size, by a server that then ignores Range (200, the whole body): refused, that body never kept nor served, and every later slice() and readAll() refused the same way", async () => {
  const url = `${base}/custom/x.cols`;
  const other = Buffer.concat([BODY, Buffer.alloc(1000, 7)]); // file B: another size, no validators
  for (const sized of [true, false]) {
    custom = host((req, res) => ranged(req, res));
    const source = await asyncBufferFromUrl(url);
    const file = await ColumnsFile.fromAsyncBuffer(source);
    try {
      assert.deepEqual(await source.slice(0, 4), new Uint8Array(BODY.subarray(0, 4)));
      const before = source.stats.bytes;
      // From now on: file B, every request answered 200 with its whole body (sized, or chunked).
      custom = (req, res) => {
        if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": other.length }).end();
        res.writeHead(200, sized ? { "Content-Length": other.length } : {}).end(other);
      };
      const changedSize = isColumnsError("bad_source", new RegExp(`the file changed size on the server while it was read \\(${size} -> ${other.length} bytes.*custom/x\\.cols`));
      await assert.rejects(source.slice(100, 200), changedSize);
      if (sized) assert.equal(source.stats.bytes, before, "a body said to be of another size is not downloaded");
      // Later reads: refused as the first, never B's bytes (before, B's body was kept and served).
      await assert.rejects(source.slice(0, 16), changedSize);
      await assert.rejects(source.readAll(), changedSize);
      await assert.rejects(file.readColumnsAsync(), (e) => e.kind === "bad_source" && changedSize(e.cause));
      await assert.rejects(file.readColumnsAsync(), (e) => e.kind === "bad_source" && changedSize(e.cause));
      assert.equal(source.note, "", "nothing was kept as the whole file");
      // Even once the server serves file A again: the change was seen, and the source stays refused.
      custom = host((req, res) => ranged(req, res));
      await assert.rejects(source.slice(0, 4), changedSize);
    } finally {
      file.free();
    }
  }
  // A version change is as final: the same ETag again later does not make the source readable.
  version = { head: { ETag: '"v1"' }, get: { ETag: '"v1"' } };
  const source = await asyncBufferFromUrl(`${base}/versioned/x.cols`);
  version = { head: { ETag: '"v2"' }, get: { ETag: '"v2"' } };
  const changedTag = isColumnsError("bad_source", /the file changed on the server while it was read \(its ETag was "v1", now "v2"\)/);
  await assert.rejects(source.slice(0, 4), changedTag);
  version = { head: { ETag: '"v1"' }, get: { ETag: '"v1"' } };
  await assert.rejects(source.slice(0, 4), changedTag);
  await assert.rejects(source.readAll(), changedTag);
  version = { head: {}, get: {} };
});

test("redirects: every request follows them, and the final URL's answers are what is read and checked", async () => {
  const url = `${base}/custom/x.cols`;
  for (const to of ["ranges", "nohead", "ignore"]) {
    custom = (req, res) => res.writeHead(302, { Location: `/${to}/x.cols` }).end();
    seen.length = 0;
    const source = await asyncBufferFromUrl(url);
    assert.equal(source.byteLength, size);
    await checkValues(source);
    assert.equal(source.url, url);
    assert.ok(seen.filter((r) => r.mode === to).length >= 2, JSON.stringify(seen));
  }
  // Redirected later to a file of another size than the one opened: refused.
  custom = (req, res) => res.writeHead(302, { Location: "/ranges/x.cols" }).end();
  const source = await asyncBufferFromUrl(url);
  custom = (req, res) => res.writeHead(302, { Location: "/versioned/x.cols" }).end();
  version = { head: {}, get: {}, total: size - 1 };
  await assert.rejects(source.slice(0, 4), isColumnsError("bad_source", new RegExp(`${size} -> ${size - 1} bytes`)));
  version = { head: {}, get: {} };
  // One that loops: bad_source with the URL, as any fetch failure.
  custom = (req, res) => res.writeHead(302, { Location: "/custom/x.cols" }).end();
  await assert.rejects(asyncBufferFromUrl(url), isColumnsError("bad_source", /custom\/x\.cols/));
});

test("a zero-length file and a one-byte file (the probe's size), by HEAD, by the probe, and from a server that ignores Range", async () => {
  const url = `${base}/custom/x.cols`;
  for (const n of [0, 1]) {
    const body = BODY.subarray(0, n);
    const serve = (headAnswer, rangesHonoured) => (req, res) => {
      if (req.method === "HEAD") return headAnswer(res);
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m || !rangesHonoured) return res.writeHead(200, { "Content-Length": n }).end(body);
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), n - 1)];
      if (s >= n) return res.writeHead(416, { "Content-Range": `bytes */${n}` }).end();
      answer206(res, `bytes ${s}-${e}/${n}`, body.subarray(s, e + 1));
    };
    for (const [what, answer] of [
      ["HEAD with Accept-Ranges", serve((res) => res.writeHead(200, { "Content-Length": n, "Accept-Ranges": "bytes" }).end(), true)],
      ["the probe", serve((res) => res.writeHead(405).end(), true)],
      ["Range ignored", serve((res) => res.writeHead(200, { "Content-Length": n }).end(), false)],
    ]) {
      custom = answer;
      const source = await asyncBufferFromUrl(url);
      assert.equal(source.byteLength, n, `${n} bytes, ${what}`);
      assert.deepEqual(await source.slice(0, n), new Uint8Array(body), `${n} bytes, ${what}`);
      assert.deepEqual(await source.readAll(), new Uint8Array(body), `${n} bytes, ${what}`);
      // Not a columns file: the package says so, as for any source that short.
      await assert.rejects(ColumnsFile.fromAsyncBuffer(source), (e) => e instanceof ColumnsError && e.kind === "truncated");
    }
  }
});

test("a HEAD of Content-Length 0 (a server's habit, not the file) is checked by the probe: the file's real size, every value", async () => {
  custom = (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": 0, "Accept-Ranges": "bytes" }).end();
    return ranged(req, res, { "Accept-Ranges": "bytes" });
  };
  seen.length = 0;
  const source = await asyncBufferFromUrl(`${base}/custom/x.cols`);
  assert.equal(source.byteLength, size);
  assert.deepEqual(seen.map((r) => `${r.method} ${r.range}`), ["HEAD null", "GET bytes=0-0"]);
  await checkValues(source);
});

test("an error status with a long body (a 503 page, a 403 from a signed URL): its body is dropped and its connection closed, at opening and at a read", async () => {
  const url = `${base}/custom/x.cols`;
  const errorPage = (res) => {
    res.writeHead(503, { "Content-Type": "text/html" });
    trickle(res, "error", BIG, 65536, 2);
  };
  bodies.length = 0;
  custom = (req, res) => (req.method === "HEAD" ? res.writeHead(405).end() : errorPage(res));
  await assert.rejects(asyncBufferFromUrl(url), isColumnsError("bad_source", /HTTP 503/));
  custom = host((req, res) => errorPage(res));
  await assert.rejects((await asyncBufferFromUrl(url)).slice(0, 10), isColumnsError("bad_source", /HTTP 503/));
  await until(() => bodies.length === 2 && bodies.every((b) => b.closed), "the error bodies' connections to close");
  assert.ok(bodies.every((b) => b.closedEarly), JSON.stringify(bodies));
});

test("a URL or options that throw when read (a Proxy whose traps throw, a revoked Proxy, a getter) are a bad_argument ColumnsError, with what was thrown as its cause", async () => {
  const url = `${base}/ranges/x.cols`;
  const boom = new Error("trap");
  const trap = () => { throw boom; };
  const throwing = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  for (const args of [[throwing], [revocable.proxy], [url, throwing], [url, revocable.proxy], [url, { get signal() { return trap(); } }], [url, { get headers() { return trap(); } }]]) {
    await assert.rejects(asyncBufferFromUrl(...args), (e) => isColumnsError("bad_argument", /^asyncBufferFromUrl: its URL or options threw when read$/)(e) && e.cause !== undefined);
  }
  await assert.rejects(asyncBufferFromUrl(url, { get signal() { return trap(); } }), (e) => e.cause === boom);
});

test("a whole download cut off (a connection reset) is not kept: the next read asks again, and reads", async () => {
  // HEAD claims ranges; every GET answers 200 with the whole body, the first cut off.
  let gets = 0;
  custom = (req, res) => {
    if (req.method === "HEAD") return res.writeHead(200, { "Content-Length": size, "Accept-Ranges": "bytes" }).end();
    res.writeHead(200, { "Content-Length": size });
    if (++gets > 1) return res.end(BODY);
    res.write(BODY.subarray(0, 1000));
    setTimeout(() => res.destroy(), 20);
  };
  const source = await asyncBufferFromUrl(`${base}/custom/x.cols`);
  await assert.rejects(source.slice(0, 10), isColumnsError("bad_source", /failed after 1000 B/));
  assert.deepEqual(await source.slice(0, 10), new Uint8Array(BODY.subarray(0, 10)));
  assert.equal(gets, 2, "asked again once");
  await checkValues(source);
  assert.equal(gets, 2, "the second download kept for every later read");
});

test("onProgress: the end of a download of no stated size is said, with its total", async () => {
  const progress = [];
  const source = await asyncBufferFromUrl(`${base}/unsized/x.cols`, { limit: BIG, onProgress: (p) => progress.push(p) });
  assert.equal(source.byteLength, BIG);
  assert.deepEqual(progress.at(-1), { bytes: BIG, totalBytes: BIG }, JSON.stringify(progress));
  assert.ok(progress.slice(0, -1).every((p) => p.totalBytes === null && p.bytes < BIG), JSON.stringify(progress));
});

test("a URL that is not one: bad_argument naming it (no request, no CORS hint); a fetch of one's own may take any name", async () => {
  seen.length = 0;
  await assert.rejects(asyncBufferFromUrl("not a url"), isColumnsError("bad_argument", /^asyncBufferFromUrl: "not a url" is not a URL \(here it must be absolute/));
  await assert.rejects(asyncBufferFromUrl("/ranges/x.cols"), isColumnsError("bad_argument", /is not a URL/));
  assert.equal(seen.length, 0);
  const fetch = (name, init) => globalThis.fetch(`${base}/ranges/${name}`, init);
  const source = await asyncBufferFromUrl("x.cols", { fetch });
  assert.equal(source.byteLength, size);
  assert.equal(seen.length, 1);
});
