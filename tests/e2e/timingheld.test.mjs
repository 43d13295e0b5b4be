// Timing a URL's file whose server ignores Range requests: the page holds
// the whole file (downloaded once when it opened), so a run "re-read from
// the file" takes its bytes from that copy. The results say so, and show
// no Stored MB/s (no run read from the server), per column and whole.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { openInspector, corpus, tab, waitState } from "./harness.mjs";
import { timingSettings, runTiming } from "./timingrun.mjs";

const FILE = path.join(corpus, "real/movielens.optimized.cols");
const size = fs.statSync(FILE).size;
let insp, data;

before(async () => {
  // Another origin, allowing the page by CORS, answering every GET with 200 and the whole file.
  data = http.createServer((req, res) => {
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Content-Range, Content-Length, Accept-Ranges" };
    if (req.method === "OPTIONS") return res.writeHead(204, { ...cors, "Access-Control-Allow-Headers": "Range", "Access-Control-Allow-Methods": "GET, HEAD" }).end();
    res.writeHead(200, { ...cors, "Content-Type": "application/octet-stream", "Content-Length": size });
    if (req.method === "HEAD") return res.end();
    fs.createReadStream(FILE).pipe(res);
  });
  await new Promise((r) => data.listen(0, "127.0.0.1", r));
  insp = await openInspector();
});

after(async () => {
  await insp?.close();
  data?.close();
});

async function runOnce(page, scope) {
  await timingSettings(page, { runs: "3", warmups: "0", scope, mode: "file" });
  await runTiming(page);
}

test("a server that ignores ranges: Re-read from the file says the bytes came from the copy in memory, with no Stored MB/s", async () => {
  const { page, log } = insp;
  await page.fill("[data-testid=url-input]", `http://127.0.0.1:${data.address().port}/movielens.optimized.cols`);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await tab(page, "timing");
  // The form says where a run "from the file" gets its bytes here.
  assert.match(await page.textContent("[data-testid=timing-form]"), /from the copy held in memory/);
  assert.doesNotMatch(await page.textContent("[data-testid=timing-estimate]"), /in all/);

  await runOnce(page, "column");
  const mode = await page.textContent("[data-testid=timing-mode-text]");
  assert.match(mode, /held in memory/);
  assert.doesNotMatch(mode, /range requests/);
  const sources = await page.$$eval("[data-testid=timing-result-row] [data-field=source]", (els) => els.map((e) => e.textContent));
  assert.ok(sources.length > 0);
  for (const s of sources) assert.equal(s, "memory (file held whole)");
  for (const s of await page.$$eval("[data-testid=timing-result-row] [data-field=mb-stored]", (els) => els.map((e) => e.textContent))) assert.equal(s, "—");

  await runOnce(page, "whole");
  const wholeMode = await page.textContent("[data-testid=timing-mode-text]");
  assert.match(wholeMode, /held in memory/);
  assert.doesNotMatch(wholeMode, /range requests/);
  assert.equal(await page.textContent("[data-testid=timing-whole-row] [data-field=mb-stored]"), "—");
  assert.deepEqual(log.errors, []);
});
