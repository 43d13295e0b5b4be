// Opening by URL from servers that do not do what the page hopes: one that
// ignores Range requests (answers 200 with the whole body, with or without
// claiming Accept-Ranges), one that answers with errors. "Read so far" and
// "Opened in" must say what came over the network.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { corpus, openInspector, tab, waitState } from "./harness.mjs";

const FILE = path.join(corpus, "real/diamonds.default.cols");
const size = fs.statSync(FILE).size;
let insp, data, dataBase;
const seen = [];
const held = [];

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
    if (mode === "fails") return res.writeHead(500, { ...cors, "Content-Type": "text/html" }).end("<h1>Internal Server Error</h1>");
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
  for (const res of held) res.destroy();
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

test("a URL that fails says why and what to do: no file there, a failing server, no CORS", async () => {
  const { page } = insp;
  const cases = [
    [`${insp.server.origin}/nothing/here.cols`, /HTTP 404/, /no file at this address.*check the URL/i],
    [`${dataBase}/fails/x.cols`, /HTTP 500/, /server failed to answer: try again/i],
    [`${dataBase}/private/x.cols`, /Failed to fetch/, /Access-Control-Allow-Origin \(CORS\)/],
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
  // A reload or a shared link shows what is on screen, not the file that was stopped.
  assert.equal(page.url(), address);
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
