// Shared by the page tests: serves the built site (site/) from a sub-path
// with the plain static server (no COOP/COEP unless asked), the corpus and
// test data beside it, and drives Debian's Chromium with playwright-core.

import { spawn, execFileSync } from "node:child_process";
import http from "node:http";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, "../..");
export const corpus = path.join(root, "corpus");
export const shots = path.join(here, "screenshots");
export const site = path.join(root, "site");
export const { chromium } = createRequire(path.join(root, "tools/test/package.json"))("playwright-core");

export const SUBPATH = "/hosted/inspector/";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-features=AutofillServerCommunication"];

/** Builds site/ unless it is there (scripts/build-site; CI builds it in tests/e2e/run.sh). */
export function ensureSite() {
  if (!fs.existsSync(path.join(site, "index.html")) || !fs.existsSync(path.join(site, "build.json"))) {
    execFileSync(path.join(root, "scripts/build-site"), ["--no-build"], { stdio: "inherit" });
  }
}

/** Starts tools/static-server.mjs; resolves { base, origin, stop }. */
export async function serve({ isolate = false, mounts = {} } = {}) {
  ensureSite();
  const args = [path.join(root, "tools/static-server.mjs"), "--dir", site, "--prefix", SUBPATH, "--port", "0"];
  if (isolate) args.push("--isolate");
  for (const [at, dir] of Object.entries(mounts)) args.push("--mount", `${at}=${dir}`);
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: proc.stdout }).once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`static server exited with ${code}`)));
  });
  const base = /serving (\S+)/.exec(line)[1];
  return { base, origin: new URL(base).origin, stop: () => proc.exitCode === null && proc.kill() };
}

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/**
 * A local proxy that records every request sent to it in `outside` and
 * refuses it. Given to a browser context (newPage(..., { proxy })), it gets
 * every request of that context's pages, workers and workers' workers that
 * leaves this machine (loopback goes direct): a check that does
 * not depend on which requests Playwright's events report. Chromium's own
 * background traffic does not go through a context's proxy.
 */
export async function recordOutside() {
  const outside = [];
  const server = http.createServer((req, res) => {
    outside.push(req.url);
    res.writeHead(502).end();
  });
  server.on("connect", (req, sock) => {
    outside.push(`https://${req.url}`);
    sock.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { outside, proxy: { server: `http://127.0.0.1:${server.address().port}`, bypass: "127.0.0.1,localhost,[::1]" }, stop: () => server.close() };
}

/**
 * E2E_SLOW=1 (off by default): the page's deferred work runs late, to find
 * tests that read the page before it has finished drawing (races that CI
 * hits only now and then). In every page made by newPage (so openInspector
 * too): a setTimeout of 0-16 ms runs E2E_SLOW_MS (80) ms later, a
 * requestAnimationFrame callback waits that long and then a frame, and each
 * message or error event from a Web Worker the page starts reaches its
 * addEventListener listeners (engine.js) that long after it came, in order.
 * Timers the page sets for longer, the workers themselves and their own
 * workers are as they were. A test that fails only with it reads too early
 * (wait for a state only the finished drawing has, never a fixed sleep) or
 * has found a page that shows a wrong state while it works. Run:
 * E2E_SLOW=1 tests/e2e/run.sh (E2E_SLOW_MS=250 for more).
 */
const SLOW_MS = process.env.E2E_SLOW ? Number(process.env.E2E_SLOW_MS || 80) : 0;
function slowDown(ms) {
  const { setTimeout: later, clearTimeout: unlater, requestAnimationFrame: frame, cancelAnimationFrame: unframe } = window;
  window.setTimeout = function (fn, delay = 0, ...args) {
    return later.call(window, fn, Number(delay) <= 16 ? Number(delay) + ms : delay, ...args);
  };
  // A requestAnimationFrame id is the timer's; the frame's id is kept to cancel it.
  const frames = new Map();
  window.requestAnimationFrame = function (cb) {
    const id = later.call(window, () => frames.set(id, frame.call(window, (t) => (frames.delete(id), cb(t)))), ms);
    frames.set(id, null);
    return id;
  };
  window.cancelAnimationFrame = function (id) {
    if (!frames.has(id)) return;
    unlater.call(window, id);
    if (frames.get(id) !== null) unframe.call(window, frames.get(id));
    frames.delete(id);
  };
  const Base = window.Worker;
  window.Worker = class extends Base {
    addEventListener(type, fn, opts) {
      if (type !== "message" && type !== "error") return super.addEventListener(type, fn, opts);
      this.__last ??= 0;
      return super.addEventListener(type, (ev) => {
        // In the order sent: never before an earlier event's delivery.
        const at = Math.max(performance.now() + ms, this.__last);
        this.__last = at;
        later.call(window, () => (typeof fn === "function" ? fn.call(this, ev) : fn.handleEvent(ev)), at - performance.now());
      }, opts);
    }
  };
}

/**
 * E2E_CPU_THROTTLE=N (off by default): every page made by newPage (so
 * openInspector too) runs its CPU N times slower (CDP
 * Emulation.setCPUThrottlingRate), as a loaded 2-core CI machine does, to
 * expose tests that read the page a frame or a worker reply early. Unlike
 * E2E_SLOW it slows everything alike, so a test with a tight timeout may
 * fail for that alone. Run: E2E_CPU_THROTTLE=4 tests/e2e/run.sh
 */
const CPU_THROTTLE = Number(process.env.E2E_CPU_THROTTLE || 0);
async function throttle(context, page) {
  if (CPU_THROTTLE > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: CPU_THROTTLE });
}

/** A page that records console errors and any request leaving the origin. */
export async function newPage(browser, origin, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true, permissions: ["clipboard-read", "clipboard-write"], ...options });
  if (SLOW_MS) await context.addInitScript(slowDown, SLOW_MS);
  const page = await context.newPage();
  await throttle(context, page);
  const log = { errors: [], foreign: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error") log.errors.push(m.text());
  });
  page.on("pageerror", (e) => log.errors.push(`pageerror: ${e.message}`));
  page.on("request", (r) => {
    const u = r.url();
    log.requests.push(u);
    if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) log.foreign.push(u);
  });
  return { page, context, log };
}

/** What most test files start with: the site served, a browser, one page
 *  (1280 x 800 unless `pageOptions` says otherwise) loaded at the site.
 *  `close()` ends all three. */
export async function openInspector(pageOptions = {}, { mounts = {} } = {}) {
  const server = await serve({ mounts });
  let browser;
  try {
    browser = await launch();
    const { page, log } = await newPage(browser, server.origin, { viewport: { width: 1280, height: 800 }, ...pageOptions });
    await page.goto(server.base);
    return { server, browser, page, log, close: async () => { await browser.close(); server.stop(); } };
  } catch (e) {
    await browser?.close();
    server.stop();
    throw e;
  }
}

/** Opens a file through the file input, `file` a path, { name, bytes }, or
 *  an array of the input's files as playwright takes them (a tokenizer.json
 *  beside the file: the page registers it before it opens the file), and
 *  waits until the page shows it. The state is cleared first: after an
 *  earlier file it is already "ready". */
export async function dropFile(page, file) {
  await page.waitForSelector("body[data-ready='1']");
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.setInputFiles("[data-testid=file-input]", typeof file === "string" || Array.isArray(file) ? file : { name: file.name, mimeType: "application/octet-stream", buffer: Buffer.from(file.bytes) });
  await waitState(page, "ready");
}

/** Shows the SQL tab and waits until table t holds the open file. */
export async function sqlReady(page) {
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
}

/** Resolves after the page's next two animation frames: whatever the last
 *  action asked to draw in a frame is drawn. */
export const twoFrames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Waits until a grid (views/grid.js) has drawn the rows it shows: two
 *  frames first, as it draws in the animation frame after a change (new
 *  rows, a scroll, a selection) and until then shows the rows from before,
 *  none pending; then until no cell in sight is pending. */
export async function gridDrawn(page, testid = "data-grid") {
  await twoFrames(page);
  await page.waitForFunction((t) => !document.querySelector(`[data-testid=${t}] .grid-row:not([hidden]) .grid-cell[data-kind=pending]`), testid);
}

/** Waits until the SQL result's grid has drawn the rows it shows. */
export const sqlGridDrawn = (page) => gridDrawn(page, "sql-grid");

/** The SQL result's column k, top to bottom, as its cells' text, once drawn. */
export async function sqlColumn(page, k) {
  await sqlGridDrawn(page);
  return page.$$eval(`[data-testid=sql-grid] .grid-row:not([hidden]) .grid-cell[data-col="${k}"]`, (els) => els.sort((a, b) => a.dataset.row - b.dataset.row).map((e) => e.textContent));
}

/** Runs a statement in the SQL tab (open, its table loaded); resolves
 *  { state: "done" | "error", text: the summary's or the error's text }. */
export async function runSql(page, sql) {
  await page.fill("[data-testid=sql-input]", sql);
  await page.evaluate(() => (document.querySelector("[data-testid=panel-sql]").dataset.sqlState = "sent"));
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done], [data-testid=panel-sql][data-sql-state=error]", { timeout: 60_000 });
  const state = await page.getAttribute("[data-testid=panel-sql]", "data-sql-state");
  const text = await page.textContent(state === "error" ? "[data-testid=sql-error]" : "[data-testid=sql-summary]");
  return { state, text };
}

export async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.evaluate(() => {
    document.getElementById("toasts")?.replaceChildren();
  });
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
}

export async function waitState(page, state, timeout = 30_000) {
  await page.waitForSelector(`body[data-state="${state}"]`, { timeout });
}

export async function tab(page, name) {
  await page.click(`[data-testid=tab-${name}]`);
  await page.waitForSelector(`[data-testid=panel-${name}]:not([hidden])`);
}

/**
 * Runs `fn` while recording the page's main thread: every task's CPU time
 * (from a Chromium trace: the renderer main thread's RunTask thread
 * duration, which a busy machine inflates far less than wall time, though a
 * virtual machine's stolen cycles still count) and the PerformanceObserver
 * 'longtask' entries (wall time). Returns both maxima.
 */
export async function mainThreadDuring(browser, page, fn) {
  await page.evaluate(() => {
    window.__longtasks = [];
    if (!window.__ltObserver) {
      window.__ltObserver = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longtasks.push(Math.round(e.duration));
      });
      window.__ltObserver.observe({ type: "longtask" });
    }
  });
  const file = path.join(shots, `.trace-${process.pid}-${Date.now()}.json`);
  fs.mkdirSync(shots, { recursive: true });
  await browser.startTracing(page, { path: file, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  const t0 = Date.now();
  try {
    await fn();
  } finally {
    await browser.stopTracing();
  }
  const wallMs = Date.now() - t0;
  const trace = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!process.env.KEEP_TRACE) fs.rmSync(file, { force: true });
  const events = trace.traceEvents || trace;
  // The page's renderer process, and in it the thread that lays out and
  // dispatches events: the main thread (workers never do either).
  const started = events.find((e) => e.name === "TracingStartedInBrowser");
  const pids = new Set((started?.args?.data?.frames || []).filter((f) => f.isOutermostMainFrame !== false).map((f) => f.processId));
  const votes = new Map();
  for (const e of events) {
    if ((e.name === "Layout" || e.name === "UpdateLayoutTree" || e.name === "EventDispatch" || e.name === "Paint") && (pids.size === 0 || pids.has(e.pid))) {
      const k = `${e.pid}:${e.tid}`;
      votes.set(k, (votes.get(k) || 0) + 1);
    }
  }
  const main = [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
  const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && `${e.pid}:${e.tid}` === main);
  const cpu = tasks.map((e) => (e.tdur ?? e.dur) / 1000);
  const wall = tasks.map((e) => e.dur / 1000);
  const longtasks = await page.evaluate(() => window.__longtasks);
  return { tasks: tasks.length, maxCpuMs: Math.max(0, ...cpu), maxTaskWallMs: Math.max(0, ...wall), longtasks, wallMs };
}

export function loadAverage() {
  try {
    return fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  } catch {
    return "?";
  }
}

/** For a test's own file server on another origin: the CORS headers a
 *  page needs for range reads, and the bytes of `size` that request `req`
 *  asks for ({ start, end } end exclusive; the whole file without a
 *  Range header), with the status and headers to answer it. */
export function rangeAnswer(req, size) {
  const headers = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Range", "Access-Control-Expose-Headers": "Content-Range, Content-Length, Accept-Ranges", "Accept-Ranges": "bytes" };
  let start = 0;
  let last = size - 1;
  const m = /bytes=(\d*)-(\d*)/.exec(req.headers.range || "");
  if (m) {
    if (m[1] === "") start = size - Number(m[2]);
    else [start, last] = [Number(m[1]), m[2] ? Math.min(last, Number(m[2])) : last];
    headers["Content-Range"] = `bytes ${start}-${last}/${size}`;
  }
  headers["Content-Length"] = last - start + 1;
  return { status: m ? 206 : 200, headers, start, end: last + 1 };
}
