// Opening by URL from servers that do not do what the page hopes: one that
// ignores Range requests (answers 200 with the whole body, with or without
// claiming Accept-Ranges, slowly, without its size, or 2 GiB of it), one
// that answers with errors. "Read so far" and "Opened in" must say what came
// over the network; a whole download shows its progress, a file over the
// page's limit is refused before it is downloaded, and opening another file
// stops a download under way.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { corpus, gridDrawn, openInspector, site, tab, waitState } from "./harness.mjs";
import { loadApi } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const FILE = path.join(corpus, "real/diamonds.default.cols");
const size = fs.statSync(FILE).size;
const BODY = fs.readFileSync(FILE);
// 2,000 row groups of two small chunks each: 4,000 chunk headers close together.
const DENSE = Buffer.from(materialize(buildFile(
  [{ name: "n", type: "int32", nullable: false }, { name: "word", type: "string", nullable: false }],
  Array.from({ length: 2000 }, (_, g) => ({ offset: 5 + g * 200, columns: [[g, g + 1], ["w".repeat(g % 17), "x"]] })),
)));
// 86 row groups of three small chunks, 8,300 bytes apart: 258 chunk
// headers, a row group's in one request of the package's, the row groups'
// too far apart for it to merge (8 KiB), close enough for the page's
// stretch (64 KiB).
const SPACED = Buffer.from(materialize(buildFile(
  [{ name: "n", type: "int32", nullable: false }, { name: "word", type: "string", nullable: false }, { name: "k", type: "int32", nullable: false }],
  Array.from({ length: 86 }, (_, g) => ({ offset: 5 + g * 8300, columns: [[g, g + 1], ["w".repeat(g % 17), "x"], [g, -g]] })),
)));
const footerOf = (bytes) => {
  const f = loadApi().ColumnsFile.fromBytes(bytes);
  try {
    return f.footerOffset;
  } finally {
    f.free();
  }
};
const DENSE_FOOTER = footerOf(DENSE);
const SPACED_FOOTER = footerOf(SPACED);
let refused = 0; // "failonce" requests answered 503
let serverDown = false; // "down": the chunks' ranges answered 500
const HUGE = 2 ** 31; // 2 GiB: over the page's 1.5 GiB limit on a file held whole
let insp, data, dataBase;
const seen = [];
const held = [];
// Bodies sent a piece at a time: how much went out, and whether the client
// closed the connection before the end.
const downloads = [];
const live = new Set();

/** Sends `next()`'s pieces every `ms` (after `delay`) until it gives none; counted in `downloads`. */
function pieces(req, res, mode, ms, next, delay = 0) {
  const d = { mode, sent: 0, closed: false, closedEarly: false };
  downloads.push(d);
  live.add(res);
  let timer;
  const wait = setTimeout(() => {
    timer = setInterval(() => {
      const part = next(d.sent);
      if (!part) {
        clearInterval(timer);
        return res.end();
      }
      d.sent += part.length;
      res.write(part);
    }, ms);
  }, delay);
  res.on("close", () => {
    clearTimeout(wait);
    clearInterval(timer);
    live.delete(res);
    d.closed = true;
    d.closedEarly = !res.writableFinished;
  });
}

async function until(check, what, timeout = 10_000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeout) throw new Error(`waited ${timeout} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(async () => {
  // Another origin than the page's, allowing it by CORS, as a data host would.
  data = http.createServer((req, res) => {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Content-Range, Content-Length, Accept-Ranges" };
    if (req.method === "OPTIONS") return res.writeHead(204, { ...cors, "Access-Control-Allow-Headers": "Range", "Access-Control-Allow-Methods": "GET, HEAD" }).end();
    const mode = req.url.split("/")[1];
    seen.push({ mode, method: req.method, range: req.headers.range || null });
    if (mode === "signed") {
      // As a URL signed for GET only (S3, GCS): HEAD is refused, ranged GETs work.
      if (req.method === "HEAD") return res.writeHead(403, cors).end();
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m) return res.writeHead(403, cors).end();
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
      res.writeHead(206, { ...cors, "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 });
      return fs.createReadStream(FILE, { start: s, end: e }).pipe(res);
    }
    if (mode === "dense" || mode === "failonce") {
      // DENSE, with ranges, as a plain static server serves it;
      // "failonce" serves SPACED, and answers 503 to the first range of
      // 64 KiB or more among the chunks (the page's stretch of chunk
      // headers), as a server briefly overloaded does.
      const [body, footer] = mode === "dense" ? [DENSE, DENSE_FOOTER] : [SPACED, SPACED_FOOTER];
      const n = body.length;
      if (req.method === "HEAD") return res.writeHead(200, { ...cors, "Content-Length": n, "Accept-Ranges": "bytes" }).end();
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m) return res.writeHead(200, { ...cors, "Content-Length": n }).end(body);
      if (mode === "failonce" && !refused && Number(m[2]) - Number(m[1]) >= 65536 && Number(m[1]) < footer) return refused++, res.writeHead(503, cors).end();
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), n - 1)];
      return res.writeHead(206, { ...cors, "Content-Range": `bytes ${s}-${e}/${n}`, "Content-Length": e - s + 1 }).end(body.subarray(s, e + 1));
    }
    if (mode === "down") {
      // Ranges served for the file's tail (its footer) and short ones (the
      // chunks' headers, read as it opens); the rest 500 while `serverDown`.
      if (req.method === "HEAD") return res.writeHead(200, { ...cors, "Content-Length": size, "Accept-Ranges": "bytes" }).end();
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m || (serverDown && Number(m[1]) < size - 4096 && Number(m[2]) - Number(m[1]) > 64)) return res.writeHead(500, cors).end();
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
      res.writeHead(206, { ...cors, "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 });
      return fs.createReadStream(FILE, { start: s, end: e }).pipe(res);
    }
    if (mode === "late503") {
      // Ranges served for the file's tail (its footer), 503 for anything before.
      if (req.method === "HEAD") return res.writeHead(200, { ...cors, "Content-Length": size, "Accept-Ranges": "bytes" }).end();
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m || Number(m[1]) < size - 4096) return res.writeHead(503, cors).end();
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
      res.writeHead(206, { ...cors, "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 });
      return fs.createReadStream(FILE, { start: s, end: e }).pipe(res);
    }
    if (mode === "hold") return held.push(res); // answers when the test ends
    if (mode === "slow" || mode === "unsized" || mode === "trickle") {
      // Ranges ignored, the file sent in pieces: "slow" 64 KiB every 150 ms,
      // "unsized" the same without a Content-Length (HEAD's or GET's),
      // "trickle" 8 KiB every 100 ms (8 s in all).
      res.writeHead(200, { ...cors, "Content-Type": "application/octet-stream", ...(mode === "unsized" ? {} : { "Content-Length": size }) });
      if (req.method === "HEAD") return res.end();
      const n = mode === "trickle" ? 8192 : 65536;
      return pieces(req, res, mode, mode === "trickle" ? 100 : 150, (at) => (at < size ? BODY.subarray(at, at + n) : null));
    }
    if (mode === "huge" || mode === "hugeclaims") {
      // A 2 GiB file, ranges ignored ("hugeclaims" says Accept-Ranges, as
      // "claims" does): its body starts 300 ms after the headers, 64 KiB every 50 ms.
      res.writeHead(200, { ...cors, "Content-Type": "application/octet-stream", "Content-Length": HUGE, ...(mode === "hugeclaims" ? { "Accept-Ranges": "bytes" } : {}) });
      if (req.method === "HEAD") return res.end();
      res.flushHeaders();
      const zeros = Buffer.alloc(65536);
      return pieces(req, res, mode, 50, (at) => (at < HUGE ? zeros : null), 300);
    }
    if (mode === "endless") {
      // 16 MiB without a Content-Length, ranges ignored, 64 KiB every 10 ms.
      res.writeHead(200, { ...cors, "Content-Type": "application/octet-stream" });
      if (req.method === "HEAD") return res.end();
      const zeros = Buffer.alloc(65536);
      return pieces(req, res, mode, 10, (at) => (at < 16 << 20 ? zeros : null));
    }
    if (mode === "fails") return res.writeHead(500, { ...cors, "Content-Type": "text/html" }).end("<h1>Internal Server Error</h1>");
    if (mode === "unexposed") {
      // CORS allowed, no Access-Control-Expose-Headers: the browser hides Content-Range and Accept-Ranges from the page.
      const allow = { "Access-Control-Allow-Origin": "*" };
      if (req.method === "HEAD") return res.writeHead(200, { ...allow, "Content-Length": size, "Accept-Ranges": "bytes" }).end();
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range || "");
      if (!m) return res.writeHead(200, { ...allow, "Content-Length": size }).end(BODY);
      const [s, e] = [Number(m[1]), Math.min(Number(m[2]), size - 1)];
      return res.writeHead(206, { ...allow, "Content-Range": `bytes ${s}-${e}/${size}`, "Content-Length": e - s + 1 }).end(BODY.subarray(s, e + 1));
    }
    if (mode === "private") return res.writeHead(200, { "Content-Length": size }).end(); // no CORS headers: the browser keeps it from the page
    // "plain": no ranges, and says so by omission; "claims": says Accept-Ranges, ignores them.
    const headers = { ...cors, "Content-Type": "application/octet-stream", "Content-Length": size, ...(mode === "claims" ? { "Accept-Ranges": "bytes" } : {}) };
    res.writeHead(200, headers);
    if (req.method === "HEAD") return res.end();
    fs.createReadStream(FILE).pipe(res);
  });
  await new Promise((r) => data.listen(0, "127.0.0.1", r));
  dataBase = `http://127.0.0.1:${data.address().port}`;
  insp = await openInspector();
});

after(async () => {
  for (const res of [...held, ...live]) res.destroy();
  await insp?.close();
  data?.close();
});

const counter = () => insp.page.$eval("[data-testid=io-counter]", (e) => ({ bytes: Number(e.dataset.bytes), requests: Number(e.dataset.requests), text: e.textContent }));

for (const mode of ["plain", "claims"]) {
  test(`a server that ignores ranges (${mode === "plain" ? "no Accept-Ranges" : "Accept-Ranges: bytes, then 200"}): Read so far is the whole file in one read, and stays so`, async () => {
    const { page } = insp;
    seen.length = 0;
    await page.fill("[data-testid=url-input]", `${dataBase}/${mode}/diamonds.default.cols`);
    await page.click("[data-testid=url-open]");
    await waitState(page, "ready");
    assert.match(await page.textContent("#facts"), /ignores Range requests/);
    // (the line under the file's name says so too, not "read with HTTP range requests")
    assert.equal(await page.textContent("#facts .file-title .muted"), "URL, downloaded whole (the server ignores Range requests)");
    const opened = await counter();
    assert.deepEqual([opened.bytes, opened.requests], [size, 1], `Read so far after opening: ${opened.text}`);
    assert.equal(Number(await page.getAttribute("[data-open-bytes]", "data-open-bytes")), size);
    assert.equal(Number(await page.getAttribute("[data-open-bytes]", "data-open-requests")), 1);
    // Rows come from the downloaded copy: nothing more is fetched or counted.
    await tab(page, "data");
    await page.waitForSelector("[data-testid=data-grid] .grid-cell[role=gridcell]");
    await page.waitForFunction(() => !document.querySelector("[data-testid=data-grid] .grid-cell[data-kind=pending]"));
    const after = await counter();
    assert.deepEqual([after.bytes, after.requests], [size, 1], `Read so far after the Data tab: ${after.text}`);
    assert.ok(seen.filter((r) => r.method === "GET").length <= 2, `GETs: ${JSON.stringify(seen)}`);
    await tab(page, "schema");
  });
}

test("a server that ignores ranges: the SQL tab loads table t from the page's download, fetching nothing again", async () => {
  const { page } = insp;
  await page.fill("[data-testid=url-input]", `${dataBase}/plain/diamonds.default.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  seen.length = 0;
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
  assert.match(await page.textContent("[data-testid=sql-state]"), /Table t: 53,940 rows × 10 columns/);
  assert.deepEqual(seen, [], "requests while table t loaded");
  const after = await counter();
  assert.deepEqual([after.bytes, after.requests], [size, 1], `Read so far after the SQL load: ${after.text}`);
  await tab(page, "schema");
});

test("a URL that fails says why and what to do: no file there, a failing server, no CORS, Content-Range not exposed", async () => {
  const { page } = insp;
  const cases = [
    [`${insp.server.origin}/nothing/here.cols`, /HTTP 404/, /no file at this address.*check the URL/i],
    [`${dataBase}/fails/x.cols`, /HTTP 500/, /server failed to answer: try again/i],
    [`${dataBase}/private/x.cols`, /Failed to fetch/, /Access-Control-Allow-Origin \(CORS\)/],
    [`${dataBase}/unexposed/x.cols`, /no Content-Range header that can be read here.*Access-Control-Expose-Headers/, /must also send Access-Control-Expose-Headers: Content-Range/],
  ];
  for (const [url, message, hint] of cases) {
    await page.fill("[data-testid=url-input]", url);
    await page.click("[data-testid=url-open]");
    await waitState(page, "error");
    assert.equal(await page.getAttribute("[data-testid=open-error]", "data-kind"), "bad_source");
    assert.match(await page.textContent("[data-testid=open-error] [data-testid=error-message]"), message);
    assert.match(await page.textContent("[data-testid=open-error] [data-testid=error-hint]"), hint, url);
    // The next one must be seen to change the state again.
    await page.evaluate(() => (document.body.dataset.state = ""));
  }
});

test("an open stopped with Cancel leaves the address saying the file still shown", async () => {
  const { page } = insp;
  const shown = `${dataBase}/plain/diamonds.default.cols`;
  await page.fill("[data-testid=url-input]", shown);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  const address = page.url();
  assert.equal(new URL(address).searchParams.get("url"), shown);
  await page.fill("[data-testid=url-input]", `${dataBase}/hold/zipcodes.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "opening");
  await page.waitForFunction(() => !document.querySelector("[data-testid=cancel-button]").disabled);
  await page.click("[data-testid=cancel-button]");
  await waitState(page, "ready");
  assert.equal(await page.textContent("[data-testid=file-name]"), "diamonds.default.cols");
  // A reload or a shared link shows what is on screen, not the file that was stopped; the field too.
  assert.equal(page.url(), address);
  assert.equal(await page.inputValue("[data-testid=url-input]"), shown);
});

test("at 390 px, a URL with a long file name that fails keeps its error box within the window", async () => {
  const { page } = insp;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.fill("[data-testid=url-input]", `${insp.server.origin}/gone/${"a_long_file_name_without_spaces_".repeat(5)}.cols`);
    await page.click("[data-testid=url-open]");
    await waitState(page, "error");
    const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
    assert.ok(scrollWidth <= width, `the page is ${scrollWidth} px wide in a ${width} px window`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => (document.body.dataset.state = ""));
  }
});

test("a URL signed for GET only (HEAD refused with 403) opens with range requests", async () => {
  const { page } = insp;
  await page.fill("[data-testid=url-input]", `${dataBase}/signed/diamonds.default.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  assert.equal((await page.textContent("[data-testid=fact-rows]")).trim(), "53,940");
  const opened = await counter();
  assert.ok(opened.bytes < 4096, `opening read ${opened.text}`);
});

test("a range read that fails names its bytes once, in the package's words", async () => {
  const { page } = insp;
  await page.fill("[data-testid=url-input]", `${dataBase}/late503/diamonds.default.cols`);
  await page.click("[data-testid=url-open]");
  await page.waitForFunction(() => /HTTP 503/.test(document.body.innerText), null, { timeout: 30_000 });
  const text = await page.evaluate(() => document.body.innerText);
  const line = text.split("\n").find((l) => /HTTP 503/.test(l));
  assert.match(line, /reading bytes \d+\.\.\d+ from the source failed/);
  assert.equal(line.match(/bytes/g).length, 1, line);
});

test("a server down a moment while the Data tab reads (500): the rows wait with its error, not marked unreadable, and come once it is back and the grid moves", async () => {
  const { page } = insp;
  serverDown = true;
  await page.fill("[data-testid=url-input]", `${dataBase}/down/diamonds.default.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await tab(page, "data");
  await page.waitForSelector("[data-testid=data-grid] .grid-cell[data-kind=error]", { timeout: 30_000 });
  assert.match(await page.getAttribute("[data-testid=data-grid] .grid-cell[data-kind=error]", "title"), /HTTP 500.*moving in the grid asks again/);
  assert.equal(await page.$$eval("[data-testid=data-grid] .v-error", (es) => es.length), 0, "no cell marked unreadable");
  serverDown = false;
  await page.waitForTimeout(2100);
  await page.focus("[data-testid=data-grid]");
  await page.keyboard.press("ArrowDown");
  await gridDrawn(page);
  await page.waitForFunction(() => !document.querySelector("[data-testid=data-grid] .grid-cell[data-kind=error]"), null, { timeout: 30_000 });
  assert.equal(await page.$$eval("[data-testid=data-grid] .v-error", (es) => es.length), 0);
  assert.equal(await page.textContent("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col='0']"), "0.23", "diamonds' first carat");
});

/** Every text the status line shows from now on, with the page's state then. */
const recordStatus = (page) =>
  page.evaluate(() => {
    window.__statusLog = [];
    window.__statusObserver?.disconnect();
    const el = document.getElementById("status-text");
    window.__statusObserver = new MutationObserver(() => window.__statusLog.push({ text: el.textContent, state: document.body.dataset.state }));
    window.__statusObserver.observe(el, { childList: true, characterData: true, subtree: true });
  });

const UNIT = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
/** "224 KiB" in bytes; "224" takes the unit of `of` ("224 of 636 KiB"). */
const bytesOf = (t, of = "") => {
  const m = /^([\d.]+)(?: (B|KiB|MiB|GiB))?$/.exec(t);
  const unit = m?.[2] ?? / (\S+)$/.exec(of)?.[1];
  return m && UNIT[unit] ? Number(m[1]) * UNIT[unit] : NaN;
};

for (const mode of ["slow", "unsized"]) {
  test(`a server that ignores ranges and sends the file slowly${mode === "unsized" ? ", without its size" : ""}: the status line shows the download growing, then the file opens`, async () => {
    const { page } = insp;
    downloads.length = 0;
    await recordStatus(page);
    await page.fill("[data-testid=url-input]", `${dataBase}/${mode}/diamonds.default.cols`);
    await page.click("[data-testid=url-open]");
    await waitState(page, "ready");
    assert.equal((await page.textContent("[data-testid=fact-rows]")).trim(), "53,940");
    assert.match(await page.textContent("#facts"), /ignores Range requests/);
    const opened = await counter();
    assert.deepEqual([opened.bytes, opened.requests], [size, 1], `Read so far after opening: ${opened.text}`);
    const log = await page.evaluate(() => window.__statusLog);
    const shown = log.filter((e) => /downloaded/.test(e.text));
    const re = mode === "slow" ? /^Opening diamonds\.default\.cols: (\d+)% downloaded \((.+) of (.+)\)$/ : /^Opening diamonds\.default\.cols: (.+) downloaded$/;
    const sized = /^Opening diamonds\.default\.cols: (\d+)% downloaded \((.+) of (.+)\)$/;
    const got = shown.map((e, i) => {
      // (no size said: the last step, all of it come, knows it)
      if (mode === "unsized" && i === shown.length - 1 && sized.test(e.text)) {
        const [, pct, , total] = sized.exec(e.text);
        assert.equal(pct, "100", e.text);
        assert.ok(Math.abs(bytesOf(total) - size) < size / 100, e.text);
        return size;
      }
      const m = re.exec(e.text);
      assert.ok(m, `status line: ${e.text}`);
      assert.equal(e.state, "opening", `shown before the file opened: ${e.text}`);
      if (mode === "unsized") return bytesOf(m[1]);
      assert.ok(Math.abs(bytesOf(m[3]) - size) < size / 100, `the total is the file's size: ${e.text}`);
      assert.ok(Math.abs((100 * bytesOf(m[2], m[3])) / size - Number(m[1])) <= 1, `the share is the bytes': ${e.text}`);
      return bytesOf(m[2], m[3]);
    });
    const distinct = [...new Set(got)];
    assert.ok(distinct.length >= 3, `at least three steps of progress: ${JSON.stringify(shown.map((e) => e.text))}`);
    for (let i = 1; i < distinct.length; i++) assert.ok(distinct[i] > distinct[i - 1], `growing: ${distinct.join(", ")}`);
    assert.ok(distinct.at(-1) <= size);
    assert.equal(await page.textContent("#status-text"), "", "the status line is empty once open");
  });
}

for (const mode of ["huge", "hugeclaims"]) {
  test(`a 2 GiB file from a server that ignores ranges (${mode === "huge" ? "no Accept-Ranges" : "claims Accept-Ranges"}) is refused as too_large, naming its size and the limit, before its body comes`, async () => {
    const { page } = insp;
    downloads.length = 0;
    await page.evaluate(() => (document.body.dataset.state = ""));
    await page.fill("[data-testid=url-input]", `${dataBase}/${mode}/big.cols`);
    await page.click("[data-testid=url-open]");
    await waitState(page, "error");
    assert.equal(await page.getAttribute("[data-testid=open-error]", "data-kind"), "too_large");
    const message = await page.textContent("[data-testid=open-error] [data-testid=error-message]");
    assert.match(message, /2\.00 GiB \(2,147,483,648 bytes\)/, message);
    assert.match(message, /1\.50 GiB \(1,610,612,736 bytes\) limit/, message);
    assert.match(await page.textContent("[data-testid=open-error] [data-testid=error-hint]"), /Range requests/);
    // The server's side: every GET of the body was closed by the page, next to nothing sent.
    assert.ok(downloads.length >= 1, `GETs: ${JSON.stringify(seen.filter((r) => r.mode === mode))}`);
    await until(() => downloads.every((d) => d.closed), "the page to close the body's connection", 5_000);
    for (const d of downloads) {
      assert.ok(d.closedEarly, "closed before the end");
      assert.ok(d.sent <= 1 << 20, `${d.sent} bytes of the body went out`);
    }
    await page.evaluate(() => (document.body.dataset.state = ""));
  });
}

test("without a size, a whole download stops as soon as it passes the limit (urlbuffer.js in Node, its limit set to 1 MiB)", async () => {
  // The built site's copy, which imports the package's columns-wasm/http from site/pkg/.
  const { openUrl } = await import(pathToFileURL(path.join(site, "js/urlbuffer.js")).href);
  downloads.length = 0;
  await assert.rejects(openUrl(`${dataBase}/endless/x.cols`, { limit: 1 << 20 }), (e) => {
    assert.equal(e.kind, "too_large", e.message);
    assert.match(e.message, /over the 1\.00 MiB \(1,048,576 bytes\) limit/);
    assert.match(e.message, /ignores Range requests/);
    return true;
  });
  await until(() => downloads.length && downloads.every((d) => d.closed), "the client to close the connection", 5_000);
  for (const d of downloads) assert.ok(d.closedEarly && d.sent < 8 << 20, `${d.sent} of 16 MiB sent`);
});

test("opening another file stops the whole download of the one still opening", async () => {
  const { page } = insp;
  downloads.length = 0;
  await page.fill("[data-testid=url-input]", `${dataBase}/trickle/first.cols`);
  await page.click("[data-testid=url-open]");
  await until(() => downloads.length === 1 && downloads[0].sent >= 32768, "the first download to be under way");
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.fill("[data-testid=url-input]", `${dataBase}/signed/second.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  assert.equal(await page.textContent("[data-testid=file-name]"), "second.cols");
  const [first] = downloads;
  await until(() => first.closed, "the first download's connection to close", 3_000);
  assert.ok(first.closedEarly && first.sent < size, `the first download sent ${first.sent} of ${size} bytes`);
  // What is shown stays the second file's.
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(await page.textContent("[data-testid=file-name]"), "second.cols");
  assert.equal(await page.textContent("#status-text"), "");
});

/**
 * Opens the data server's `mode` file (DENSE or SPACED; in the Schema tab:
 * the Data tab would rightly read rows) and gives the encoded sizes the
 * schema table shows (exact bytes) beside what the package reads from the
 * bytes.
 */
async function openDense(mode) {
  const { page } = insp;
  const { ColumnsFile } = loadApi();
  const f = ColumnsFile.fromBytes(mode === "dense" ? DENSE : SPACED);
  const want = f.schema.map((_, c) => f.rowGroups.reduce((a, rg) => a + rg.columns[c].rawLength, 0));
  f.free();
  if (await page.isVisible("[data-testid=tab-schema]")) await tab(page, "schema");
  seen.length = 0;
  refused = 0;
  await page.fill("[data-testid=url-input]", `${dataBase}/${mode}/dense.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready", 120_000);
  await tab(page, "schema");
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  const deferred = (await page.$("[data-testid=headers-deferred]")) !== null;
  const titles = await page.$$eval("[data-testid=schema-row] [data-field=raw] span", (spans) => spans.map((s) => s.title));
  return { deferred, shown: titles.map((t) => Number(t.replace(/\D/g, ""))), want };
}

test("a URL file of 4,000 chunks whose headers lie close together opens with them, in a few range requests, and shows every encoded size", async () => {
  const { deferred, shown, want } = await openDense("dense");
  assert.equal(deferred, false, "the headers were read when the file opened");
  assert.deepEqual(shown, want);
  const ranges = seen.filter((r) => r.mode === "dense" && r.range);
  assert.ok(ranges.length <= 8, `${ranges.length} range requests: ${ranges.map((r) => r.range)}`);
  assert.deepEqual(insp.log.errors, []);
});

test("a stretch of chunk headers the server fails (503): the package reads the headers itself, and every encoded size shows", async () => {
  const { deferred, shown, want } = await openDense("failonce");
  assert.equal(refused, 1, "the stretch was asked for, and failed");
  assert.equal(deferred, false, "the headers were read");
  assert.deepEqual(shown, want);
  assert.deepEqual(insp.log.errors, []);
});

/** Row group 0's chunks of BODY, each [start, end). */
function firstGroupChunks() {
  const f = loadApi().ColumnsFile.fromBytes(BODY);
  try {
    return f.rowGroups[0].columns.map((cm) => [cm.byteOffset, cm.byteOffset + cm.byteLength]);
  } finally {
    f.free();
  }
}

/** Opens BODY by its signed URL, what the server saw forgotten first. */
async function openSigned(page) {
  seen.length = 0;
  await page.fill("[data-testid=url-input]", `${dataBase}/signed/diamonds.default.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
}

/** How many GETs the server saw whose range holds the whole of [start, end). */
const askedFor = ([start, end]) => seen.filter((r) => r.method === "GET" && r.range).map((r) => r.range.match(/\d+/g).map(Number)).filter(([s, e]) => s <= start && end - 1 <= e).length;

test("Column detail over HTTP, after the Data tab decoded the chunk, asks the server for it no more: the report is read from the worker's memory of recent slices", async () => {
  const { page } = insp;
  const chunk = firstGroupChunks()[1];
  await openSigned(page);
  await tab(page, "data");
  await gridDrawn(page);
  const asked = () => askedFor(chunk);
  assert.equal(asked(), 1, `the Data tab's read of row group 0: ${JSON.stringify(seen.map((r) => r.range))}`);
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector("[data-testid=detail-chunk]");
  await page.waitForSelector("[data-testid=profile][data-state=done] [data-testid=profile-lengths]", { timeout: 30_000 });
  assert.match(await page.textContent(".detail-title"), /row group 0 /);
  assert.equal(asked(), 1, `ranges asked: ${JSON.stringify(seen.map((r) => r.range))}`);
  await tab(page, "schema");
});

test("Column detail over HTTP asks the server for its chunk once, for the report and the column's profile", async () => {
  const { page } = insp;
  const chunks = firstGroupChunks();
  await openSigned(page);
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector("[data-testid=profile][data-state=done] [data-testid=profile-lengths]", { timeout: 30_000 });
  await page.waitForSelector("[data-testid=detail-chunk]");
  // The GETs whose range holds a whole chunk, for columns 0 (shown first)
  // and 1: one each (its header alone is read apart, for the tables).
  assert.deepEqual([askedFor(chunks[0]), askedFor(chunks[1])], [1, 1], `ranges asked: ${JSON.stringify(seen.map((r) => r.range))}`);
  await tab(page, "schema");
});

test("a read of the page's own server that breaks off says so, without the CORS hint meant for other origins", async () => {
  const { page } = insp;
  await page.fill("[data-testid=url-input]", "samples/diamonds.optimized.cols");
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  // Every range of the file's body dropped from here on (its tail and headers came with the open).
  await page.route("**/samples/diamonds.optimized.cols", (route) => {
    const m = /^bytes=(\d+)-(\d+)$/.exec(route.request().headers().range || "");
    return m && Number(m[2]) - Number(m[1]) > 64 ? route.abort("connectionreset") : route.continue();
  });
  try {
    await tab(page, "data");
    await page.waitForSelector("[data-testid=data-grid] .grid-cell[data-kind=error]", { timeout: 30_000 });
    const why = await page.getAttribute("[data-testid=data-grid] .grid-cell[data-kind=error]", "title");
    assert.match(why, /the server did not answer, or the connection broke/);
    assert.doesNotMatch(why, /CORS/);
  } finally {
    await page.unroute("**/samples/diamonds.optimized.cols");
  }
});
