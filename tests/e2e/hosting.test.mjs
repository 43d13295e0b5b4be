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
  assert.match(text, /duckdb-eh\.wasm as "application\/octet-stream"/);
  assert.match(text, /must serve \.wasm files as application\/wasm/);
});

test("a .mjs served as application/octet-stream: the SQL tab says so, not that DuckDB is missing from the site", async () => {
  const text = await sqlFailure(await hostWith({ ".mjs": "application/octet-stream" }));
  assert.doesNotMatch(text, /not part of this site/);
  assert.match(text, /duckdb-browser\.mjs as "application\/octet-stream"/);
  assert.match(text, /must serve \.mjs files as text\/javascript/);
});

test("DuckDB's module missing (404): the SQL tab says it is not part of this site", async () => {
  const base = await hostWith();
  const { page, context } = await open(base);
  try {
    await page.route("**/vendor/duckdb/duckdb-browser.mjs", (route) => route.fulfill({ status: 404, contentType: "text/plain", body: "not found" }));
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
