// Stop ends the requests a long read has in flight, not only its loop:
// over a URL, a Data-tab filter and a Profiles run over many row groups
// ask for several chunks ahead (a Timing run re-reading the file, one at a
// time), and before, Stop let each range request already sent download to
// its end (1.5 MB in the 3 s after Stop here). Here a server
// sends each chunk's range slowly; once Stop is clicked, the responses in
// flight must be closed by the page within moments, with little sent after
// Stop, and the next run must work (the server fast again). The same for a
// filter replaced by another while it reads, and for another file opened.
// (Bounds: at 80 KiB/s a response, 512 KiB after Stop is about a second
// of six responses going on; seen: 24-98 KiB, with CPU throttled 4x too.)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { openInspector, waitState, gridDrawn, tab, rangeAnswer } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";
import { runTiming, timingSettings } from "./timingrun.mjs";

const G = 24;
const ROWS = 131_072; // an int32 chunk of 512 KiB
// v: the row's place in its row group, mod 1000 (every row group's
// statistics 0 to 999: a filter on v prunes none of them); w: the same
// (the profiles' column, which the filter leaves unread).
const schema = [
  { name: "v", type: "int32", nullable: false },
  { name: "w", type: "int32", nullable: false },
];
const values = Array.from({ length: ROWS }, (_, i) => i % 1000);
const bytes = materialize(buildFile(schema, Array.from({ length: G }, () => ({ columns: [values, values] }))));

// Slow: a range of more than 64 KiB (a chunk, not the footer or a chunk
// header) is sent 4 KiB every 50 ms (80 KiB/s): a chunk takes 6.4 s.
let slow = false;
const PIECE = 4096;
const EVERY = 50;
let sent = 0; // bytes of slow responses written, all told
const responses = []; // { start, end, sent, closed, early }
const server = http.createServer((req, res) => {
  const { status, headers, start, end } = rangeAnswer(req, bytes.length);
  if (req.method === "OPTIONS") return res.writeHead(204, headers).end();
  res.writeHead(status, headers);
  const body = Buffer.from(bytes.subarray(start, end));
  if (req.method === "HEAD") return res.end();
  if (!slow || body.length <= 65536) return res.end(body);
  const r = { start, end, sent: 0, closed: false, early: false };
  responses.push(r);
  const timer = setInterval(() => {
    const part = body.subarray(r.sent, r.sent + PIECE);
    if (!part.length) {
      clearInterval(timer);
      return res.end();
    }
    r.sent += part.length;
    sent += part.length;
    res.write(part);
  }, EVERY);
  res.on("close", () => {
    clearInterval(timer);
    r.closed = true;
    r.early = !res.writableFinished;
  });
});

let ins;
let url;
before(async () => {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${server.address().port}/slow.cols`;
  ins = await openInspector();
  const { page } = ins;
  await page.fill("[data-testid=url-input]", url);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  // (the chunk headers read as it opens, at full speed)
  await page.waitForTimeout(500);
});
after(async () => {
  await ins?.close();
  server.closeAllConnections?.();
  server.close();
});

async function until(check, what, timeout = 30_000) {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeout) throw new Error(`waited ${timeout} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts the slow server, runs `start` (a long read), and once some of it
 * has come (`inFlight` requests at once), `stop` (its Stop clicked). Gives
 * what the responses open at Stop had still to send, what was sent after
 * Stop in the 3 s that follow (`after`; `afterOpen`, of those responses
 * only) and how soon they all closed; the server fast again.
 */
async function stopped(start, stop, inFlight = 2) {
  slow = true;
  const from = responses.length;
  const sentBefore = sent;
  await start();
  // `inFlight` chunks' requests or more in flight, and some bytes of them come.
  await until(() => responses.slice(from).filter((r) => !r.closed).length >= inFlight && sent - sentBefore > 4 * PIECE, "the read's requests");
  const open = responses.slice(from).filter((r) => !r.closed);
  const atStop = sent;
  const openAtStop = open.reduce((n, r) => n + r.sent, 0);
  const left = open.reduce((n, r) => n + (r.end - r.start - r.sent), 0);
  await stop();
  // The responses open at Stop, closed by the page before their end.
  let closedMs = null;
  const t0 = Date.now();
  try {
    await until(() => open.every((r) => r.closed), "the responses open at Stop to close", 3000);
    closedMs = Date.now() - t0;
  } catch {}
  await new Promise((r) => setTimeout(r, Math.max(0, 3000 - (Date.now() - t0))));
  slow = false;
  return { open: open.length, left, after: sent - atStop, afterOpen: open.reduce((n, r) => n + r.sent, 0) - openAtStop, closedMs, early: open.filter((r) => r.early).length, later: responses.slice(from).length - open.length };
}

/**
 * What `stopped` gave, held to the page's promise: every response open at
 * Stop closed before its end within 3 s, at most `most` bytes sent after
 * it (`after`, or with `{ openOnly }` those responses' own), and at least
 * `share` times that still unsent then.
 */
function closedSoon(r, most, share, { openOnly = false } = {}) {
  const after = openOnly ? r.afterOpen : r.after;
  assert.ok(r.closedMs !== null, `the ${r.open} responses open at Stop were not all closed 3 s after it (${r.early} closed early)`);
  assert.equal(r.early, r.open, "each closed before its end");
  assert.ok(after <= most, `${after} bytes sent after Stop (the ${r.open} responses open at it had ${r.left} to send)`);
  assert.ok(r.left >= share * after, `${after} bytes after Stop of ${r.left}`);
}

test("Stop during a Data-tab filter over a URL aborts its range requests in flight; the next filter runs", async () => {
  const { page, log } = ins;
  await tab(page, "data");
  await gridDrawn(page);
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-col]", "0");
  await page.selectOption("[data-testid=filter-op]", "<");
  await page.fill("[data-testid=filter-value]", "10");
  const r = await stopped(
    () => page.click("[data-testid=filter-apply]"),
    () => page.click("[data-testid=data-cancel]"),
  );
  console.log("filter stopped:", JSON.stringify(r));
  // At 80 KiB/s a response, what came after Stop is what was on the way
  // as the page closed them: far less than they still had to send.
  closedSoon(r, 512 * 1024, 4);
  await page.waitForSelector("[data-testid=panel-data]:not([data-busy])");

  // The same filter again, the server fast: it reads every row group.
  const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
  await page.click("[data-testid=filter-apply]");
  await page.waitForFunction((v) => {
    const p = document.querySelector("[data-testid=panel-data]");
    return p.dataset.view !== v && !p.dataset.busy;
  }, before);
  await gridDrawn(page);
  // 131,072 rows a row group: 131 whole runs of 0..999 and 0..71, ten rows < 10 in each.
  const kept = G * (131 * 10 + 10);
  assert.match(await page.textContent("[data-testid=data-status]"), new RegExp(`^${kept.toLocaleString("en-US")} of ${(G * ROWS).toLocaleString("en-US")} rows, where v < 10`));
  assert.deepEqual(log.errors, []);
});

test("Stop during a Profiles run over a URL aborts its range requests in flight; the next run counts", async () => {
  const { page, log } = ins;
  // (v's chunks are decoded and kept since the filter: w's are read)
  await tab(page, "schema");
  const r = await stopped(
    () => page.click("[data-testid=profiles-run]"),
    () => page.click("[data-testid=profiles-stop]"),
  );
  console.log("profiles stopped:", JSON.stringify(r));
  closedSoon(r, 512 * 1024, 4);

  const button = await page.waitForSelector("[data-testid=profiles-run]");
  await button.click();
  await page.waitForSelector("[data-testid=profiles-table][data-complete='1'] [data-testid=profiles-row][data-col='1'] [data-testid=profiles-max]", { timeout: 60_000 });
  for (const c of [0, 1]) {
    assert.equal(await page.textContent(`[data-testid=profiles-row][data-col='${c}'] [data-testid=profiles-min]`), "0");
    assert.equal(await page.textContent(`[data-testid=profiles-row][data-col='${c}'] [data-testid=profiles-max]`), "999");
  }
  assert.deepEqual(log.errors, []);
});

/** A Timing run (`mode`: "file", re-reading the file's chunks one at a
 *  time; "memory", downloading it whole first) stopped while its one
 *  request is in flight: that request closed at once, little sent after;
 *  the next run ends, labelled by `label`. */
async function timingStopped(mode, label) {
  const { page, log } = ins;
  await tab(page, "timing");
  await timingSettings(page, { mode });
  const r = await stopped(
    () => page.click("[data-testid=timing-run]"),
    () => page.click("[data-testid=timing-stop]"),
    1,
  );
  console.log(`timing (${mode}) stopped:`, JSON.stringify(r));
  closedSoon(r, 256 * 1024, 2);
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
  await runTiming(page);
  assert.match(await page.textContent("[data-testid=timing-run-label]"), label);
  assert.deepEqual(log.errors, []);
  return r;
}

test("Stop during a Timing run re-reading the file over a URL aborts its range request in flight; the next run ends", async () => {
  await timingStopped("file", /file/);
});

test("Stop during a Timing run From memory over a URL aborts its download of the whole file; the next run ends", async () => {
  const r = await timingStopped("memory", /memory/);
  assert.equal(r.open, 1, "one download, of the whole file");
});

/** Opens `url` (a new file, its chunks not decoded yet) and shows the Data tab with one condition v < 10 in its filter form. */
async function freshFilter(page, at) {
  await page.fill("[data-testid=url-input]", at);
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await page.waitForTimeout(500);
  await tab(page, "data");
  await gridDrawn(page);
  await page.click("[data-testid=filter-add]");
  await page.selectOption("[data-testid=filter-col]", "0");
  await page.selectOption("[data-testid=filter-op]", "<");
  await page.fill("[data-testid=filter-value]", "10");
}

test("a filter replaced by another while it reads (on another column) ends the first one's requests in flight; the second one's view comes", async () => {
  const { page, log } = ins;
  await freshFilter(page, `${url}?replaced`);
  const before = await page.getAttribute("[data-testid=panel-data]", "data-view");
  const r = await stopped(
    () => page.click("[data-testid=filter-apply]"),
    async () => {
      await page.selectOption("[data-testid=filter-col]", "1");
      await page.selectOption("[data-testid=filter-op]", "<");
      await page.fill("[data-testid=filter-value]", "10");
      await page.click("[data-testid=filter-apply]");
    },
  );
  console.log("filter replaced:", JSON.stringify(r));
  closedSoon(r, 512 * 1024, 4, { openOnly: true });
  // (its own requests sent slowly until the server was fast again)
  await page.waitForFunction((v) => {
    const p = document.querySelector("[data-testid=panel-data]");
    return p.dataset.view !== v && !p.dataset.busy;
  }, before, { timeout: 60_000 });
  await gridDrawn(page);
  assert.match(await page.textContent("[data-testid=data-status]"), new RegExp(`^${(G * 1320).toLocaleString("en-US")} of ${(G * ROWS).toLocaleString("en-US")} rows, where w < 10`));
  assert.deepEqual(log.errors, []);
});

test("opening another file while a filter reads ends the filter's requests in flight", async () => {
  const { page, log } = ins;
  await freshFilter(page, `${url}?first`);
  const r = await stopped(
    () => page.click("[data-testid=filter-apply]"),
    async () => {
      await page.fill("[data-testid=url-input]", `${url}?second`);
      await page.click("[data-testid=url-open]");
    },
  );
  console.log("another file:", JSON.stringify(r));
  closedSoon(r, 512 * 1024, 4, { openOnly: true });
  await waitState(page, "ready");
  assert.deepEqual(log.errors, []);
});
