// The built site on hosts set up wrongly: files served with the wrong
// Content-Type, the page opened without its trailing slash or from a file.
// What a person sees must name the cause, not hang or mislead.
//
//   flock /work/e2e.lock node --test --test-concurrency=1 tests/e2e/hosting.test.mjs

import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createStaticServer, listen } from "../../tools/static-server.mjs";
import { ensureSite, launch, newPage, site, SUBPATH, dropFile, tab } from "./harness.mjs";

ensureSite();
const servers = [];
let browser;
after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

/** The site served under SUBPATH with `types` (Content-Type by extension) over the usual ones; its base URL. */
async function hostWith(types = {}, headers = {}) {
  const server = createStaticServer({ mounts: { [SUBPATH]: site }, types, headers });
  servers.push(server);
  const port = await listen(server);
  return `http://127.0.0.1:${port}${SUBPATH}`;
}

async function open(base) {
  browser ??= await launch();
  const { page, context, log } = await newPage(browser, new URL(base).origin);
  await page.goto(base);
  return { page, context, log };
}

/** Opens a sample, shows the SQL tab and waits for it to fail; the error's text. */
async function sqlFailure(base) {
  const { page, context } = await open(base);
  try {
    await dropFile(page, path.join(site, "samples/all_types_small.cols"));
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=error]", { timeout: 45_000 });
    return await page.textContent("[data-testid=sql-error]");
  } finally {
    await context.close();
  }
}

test("a .wasm served as application/octet-stream: the SQL tab fails naming application/wasm, instead of compiling for ever", async () => {
  const text = await sqlFailure(await hostWith({ ".wasm": "application/octet-stream" }));
  assert.match(text, /duckdb-eh(\.[0-9a-f]{10})?\.wasm as "application\/octet-stream"/);
  assert.match(text, /must serve \.wasm files as application\/wasm/);
});

test("a .mjs served as application/octet-stream: the SQL tab says so, not that DuckDB is missing from the site", async () => {
  const text = await sqlFailure(await hostWith({ ".mjs": "application/octet-stream" }));
  assert.doesNotMatch(text, /not part of this site/);
  assert.match(text, /duckdb-browser(\.[0-9a-f]{10})?\.mjs as "application\/octet-stream"/);
  assert.match(text, /must serve \.mjs files as text\/javascript/);
});

test("DuckDB's module missing (404): the SQL tab says it is not part of this site", async () => {
  const base = await hostWith();
  const { page, context } = await open(base);
  try {
    await page.route(/\/vendor\/duckdb\/duckdb-browser(\.[0-9a-f]{10})?\.mjs$/, (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "not found" }));
    await dropFile(page, path.join(site, "samples/all_types_small.cols"));
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=error]", { timeout: 45_000 });
    const text = await page.textContent("[data-testid=sql-error]");
    assert.match(text, /not part of this site/);
    assert.match(text, /HTTP 404/);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- scripts that never run

const NOTICE = "[data-testid=boot-notice]";
const noticeShown = (page) => page.waitForSelector(NOTICE, { state: "visible", timeout: 15_000 }).then(() => page.textContent(NOTICE));

test("a working page never shows the notice for scripts that did not load, not even while its scripts are still on their way", async () => {
  const base = await hostWith();
  browser ??= await launch();
  const { page, context } = await newPage(browser, new URL(base).origin);
  try {
    // app.js held back 2 s: the page is drawn meanwhile, the notice out of sight.
    let release;
    const held = new Promise((r) => (release = r));
    await page.route("**/js/app.js", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(base, { waitUntil: "commit" });
    await page.waitForSelector(".topbar");
    assert.equal(await page.isVisible(NOTICE), false, "hidden while app.js is on its way");
    await page.waitForTimeout(1500);
    assert.equal(await page.isVisible(NOTICE), false);
    release();
    await page.waitForSelector("body[data-ready='1']");
    assert.equal(await page.$(NOTICE), null, "app.js removed it");
  } finally {
    await context.close();
  }
});

test(".js served as text/plain: after a few seconds the page says its scripts did not load, and why that may be", async () => {
  const { page, context } = await open(await hostWith({ ".js": "text/plain" }));
  try {
    const text = await noticeShown(page);
    assert.match(text, /scripts have not started/);
    assert.match(text, /text\/javascript/);
    assert.match(text, /application\/wasm/);
    assert.match(text, /file:\/\//);
    assert.match(text, /does not end in "\/"/);
  } finally {
    await context.close();
  }
});

test("the page served at its address without the trailing slash (style.css and app.js missed): the notice shows, unstyled", async () => {
  const server = createStaticServer({ mounts: { [SUBPATH.slice(0, -1)]: path.join(site, "index.html") } });
  servers.push(server);
  const base = `http://127.0.0.1:${await listen(server)}${SUBPATH.slice(0, -1)}`;
  const { page, context } = await open(base);
  try {
    assert.match(await noticeShown(page), /does not end in "\/"/);
  } finally {
    await context.close();
  }
});

test("the page opened from a file (file://): the notice shows", async () => {
  browser ??= await launch();
  const { page, context } = await newPage(browser, "file://");
  try {
    await page.goto(`file://${path.join(site, "index.html")}`);
    assert.match(await noticeShown(page), /file:\/\//);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- versioned files

test("what the page loads of the package and the vendored libraries (a file opened, SQL run) carries a content hash, and every request is answered", async () => {
  const base = await hostWith();
  browser ??= await launch();
  const { page, context } = await newPage(browser, new URL(base).origin);
  const answers = [];
  context.on("response", (r) => answers.push({ url: r.url(), status: r.status() }));
  try {
    await page.goto(base);
    await dropFile(page, path.join(site, "samples/all_types_small.cols"));
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
  } finally {
    await context.close();
  }
  const ours = answers.filter((a) => /\/(pkg|vendor)\//.test(a.url));
  for (const want of [/pkg\/columns_wasm\.[0-9a-f]{10}\.js$/, /pkg\/columns_wasm_bg\.[0-9a-f]{10}\.wasm$/, /vendor\/duckdb\/duckdb-eh\.[0-9a-f]{10}\.wasm$/, /vendor\/arrow\/arrow\.[0-9a-f]{10}\.mjs$/]) {
    assert.ok(ours.some((a) => want.test(a.url)), `${want} was loaded: ${ours.map((a) => a.url).join(", ")}`);
  }
  for (const a of ours) {
    assert.match(a.url, /\.[0-9a-f]{10}\.(js|mjs|wasm)$/, "named by its content");
    assert.equal(a.status, 200, a.url);
  }
});

// ---------------------------------------------------------------- a strict Content-Security-Policy

const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; style-src 'self'; img-src 'self'";

test("under the smallest policy www/README.md gives, the page opens a file and runs SQL with nothing refused but its own tries of new Function", async () => {
  const base = await hostWith({}, { "Content-Security-Policy": CSP });
  browser ??= await launch();
  const { page, context } = await newPage(browser, new URL(base).origin);
  const messages = [];
  page.on("console", (m) => messages.push(m.text()));
  context.on("weberror", (e) => messages.push(String(e.error())));
  try {
    await page.goto(base);
    await dropFile(page, path.join(site, "samples/all_types_small.cols"));
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
    await page.waitForTimeout(300);
  } finally {
    await context.close();
  }
  const refused = messages.filter((t) => /Content Security Policy/i.test(t) && !/Evaluating a string as JavaScript|unsafe-eval/.test(t));
  assert.deepEqual(refused, []);
});

test("a policy with Trusted Types, which the page does not support: it says it could not start, and why, instead of looking ready", async () => {
  const base = await hostWith({}, { "Content-Security-Policy": `${CSP}; require-trusted-types-for 'script'` });
  const { page, context } = await open(base);
  try {
    await page.waitForSelector("[data-testid=welcome] [data-testid=error-box]", { timeout: 15_000 });
    const text = await page.textContent("[data-testid=welcome] [data-testid=error-box]");
    assert.match(text, /could not start/);
    assert.match(text, /does not support Trusted Types/);
  } finally {
    await context.close();
  }
});

test("a .mjs served as application/octet-stream: the Arrow export says so, not that apache-arrow is missing", async () => {
  const { page, context } = await open(await hostWith({ ".mjs": "application/octet-stream" }));
  try {
    await dropFile(page, path.join(site, "samples/all_types_small.cols"));
    await tab(page, "data");
    await page.click("[data-testid=export-toggle]");
    await page.check("[data-testid=export-format-arrow]");
    await page.click("[data-testid=export-run]");
    await page.waitForFunction(() => /Export failed/.test(document.querySelector("[data-testid=export-result]")?.textContent || ""), null, { timeout: 30_000 });
    const text = await page.textContent("[data-testid=export-result]");
    assert.match(text, /arrow(\.[0-9a-f]{10})?\.mjs as "application\/octet-stream"/);
    assert.match(text, /must serve \.mjs files as text\/javascript/);
    assert.doesNotMatch(text, /is this the built site|not part of this site/);
  } finally {
    await context.close();
  }
});
