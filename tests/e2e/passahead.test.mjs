// A whole-file pass (here a column's profile) over a URL asks for several
// row groups ahead of the one it counts while they are small (worker.js,
// AHEAD_GROUPS): over HTTP each row group's chunk is a round trip, and
// with one asked ahead a pass waited on latency once a row group. Seen
// here as the requests for the file that are open at once, behind a proxy
// that holds every response of the file for 150 ms.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { serve, launch, newPage, waitState, tab, runSql, sqlColumn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const G = 20;
const ROWS = 3000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "passahead-"));
let server, browser, proxy, origin;
const open = { now: 0, most: 0, total: 0 };

before(async () => {
  const schema = [
    { name: "v", type: "int64", nullable: false },
    { name: "w", type: "int32", nullable: false },
  ];
  const groups = Array.from({ length: G }, (_, k) => ({ columns: [Array.from({ length: ROWS }, (_, i) => BigInt(k * ROWS + i)), Array.from({ length: ROWS }, (_, i) => i % 7)] }));
  fs.writeFileSync(path.join(dir, "ahead.cols"), materialize(buildFile(schema, groups)));
  // Four row groups of 65,536 rows: four batches of the SQL tab's load.
  const wide = Array.from({ length: 4 }, (_, k) => ({ columns: [Array.from({ length: 65_536 }, (_, i) => (k * 65_536 + i) % 1000)] }));
  fs.writeFileSync(path.join(dir, "batches.cols"), materialize(buildFile(schema.slice(1), wide)));
  server = await serve({ mounts: { "/made/": dir } });
  const target = new URL(server.origin);
  proxy = http.createServer((req, res) => {
    const counted = req.url.startsWith("/made/");
    if (counted) {
      open.now++;
      open.total++;
      open.most = Math.max(open.most, open.now);
    }
    setTimeout(
      () => {
        const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
          res.writeHead(r.statusCode, r.headers);
          r.pipe(res);
          r.on("end", () => counted && open.now--);
        });
        up.on("error", () => res.destroy());
        req.pipe(up);
      },
      counted ? 150 : 0,
    );
  });
  await new Promise((r) => proxy.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${proxy.address().port}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  proxy?.close();
  server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test(`a profile over a URL keeps several of its ${G} row groups' requests open at once, and no more than 1 + 8`, async () => {
  const { page, log } = await newPage(browser, origin);
  try {
    await page.goto(`${origin}${new URL(server.base).pathname}?url=${encodeURIComponent("/made/ahead.cols")}&tab=schema`);
    await waitState(page, "ready", 60_000);
    await page.waitForFunction(() => document.querySelector("[data-testid=io-counter]")?.dataset.requests !== undefined);
    // The open and the chunk headers done: only the profile's reads from here.
    await page.waitForTimeout(500);
    assert.equal(open.now, 0, "nothing of the file still being read");
    Object.assign(open, { most: 0, total: 0 });
    await tab(page, "detail");
    await page.waitForSelector("[data-testid=profile][data-state=done][data-col='0']", { timeout: 60_000 });
    assert.match(await page.textContent("[data-testid=profile-min]"), /^0 footer: 0 ✓ agree$/);
    assert.match(await page.textContent("[data-testid=profile-max]"), new RegExp(`^${G * ROWS - 1} footer: ${G * ROWS - 1} ✓ agree$`));
    assert.ok(open.total >= G, `${open.total} requests for ${G} chunks`);
    assert.ok(open.most >= 4, `at most ${open.most} requests open at once`);
    assert.ok(open.most <= 9, `${open.most} requests open at once`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.close();
  }
});

test("the SQL tab's load over a URL reads its next batches of row groups while one goes into DuckDB", async () => {
  const { page, log } = await newPage(browser, origin);
  try {
    await page.goto(`${origin}${new URL(server.base).pathname}?url=${encodeURIComponent("/made/batches.cols")}&tab=schema`);
    await waitState(page, "ready", 60_000);
    await page.waitForTimeout(500);
    assert.equal(open.now, 0, "nothing of the file still being read");
    Object.assign(open, { most: 0, total: 0 });
    await tab(page, "sql");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 180_000 });
    assert.ok(open.total >= 4, `${open.total} requests for 4 batches`);
    // (the SQL worker's own open keeps 2 open at once; its batches, 3)
    assert.ok(open.most === 3, `${open.most} requests open at once`);
    assert.equal((await runSql(page, "SELECT count(*)::VARCHAR, sum(w)::VARCHAR FROM t")).state, "done");
    // 262,144 rows of i % 1000: 262 whole runs of 0..999 (499,500 each) and 0..143.
    assert.deepEqual([await sqlColumn(page, 0), await sqlColumn(page, 1)], [["262144"], [String(262 * 499_500 + (143 * 144) / 2)]]);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.close();
  }
});
