// Opening a file reads each chunk once while the decoded-chunk cache can
// hold it, even when some chunks of a row group cannot be read (a tokenizer
// not registered): "Read so far" then stays within the file's size plus
// what is read twice by design: each chunk's 18-byte header (loadHeaders,
// for the tables, before the chunk itself is read) and, for a chunk that
// fails before the package reads it (a tokenizer missing), its header once
// more (the worker's headerBytes, for the error's detail; a chunk that
// fails once read has its header in the slices the worker lately read). A damaged chunk found by a shared call costs the chunks beside
// it one more read together.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openInspector, dropFile, waitState, tab, corpus } from "./harness.mjs";
import { loadApi } from "../node/corpus.mjs";
import { buildFile, materialize, withFooter, TYPES } from "../node/synth.mjs";
import { packageRequests } from "../../www/js/stretches.js";

let ins;

before(async () => {
  ins = await openInspector({}, { mounts: { "/corpus/": corpus } });
});

after(async () => {
  await ins?.close();
});

const CHUNK_HEADER = 18;
const file = (rel, mimeType = "application/octet-stream") => ({ name: path.basename(rel), mimeType, buffer: fs.readFileSync(path.join(corpus, rel)) });

/**
 * The most a page that reads each region once may read of corpus file
 * `rel` with `tokenizers` registered: the whole file and every chunk's
 * header again. `unreadable`: the bytes of the chunks that cannot be read
 * (a tokenizer missing), which the page leaves unread until it comes.
 */
function bound(rel, tokenizers = []) {
  const { ColumnsFile, TokenizerRegistry } = loadApi();
  const registry = new TokenizerRegistry();
  for (const t of tokenizers) registry.register(fs.readFileSync(path.join(corpus, t)));
  const f = ColumnsFile.fromBytes(fs.readFileSync(path.join(corpus, rel)), registry);
  try {
    const chunks = f.rowGroups.flatMap((rg) => rg.columns);
    const failing = chunks.filter((cm) => cm.tokenizer && !f.tokenizers[cm.tokenizer - 1].resolved);
    const header = (cm) => Math.min(CHUNK_HEADER, cm.byteLength);
    const headers = chunks.reduce((a, cm) => a + header(cm), 0);
    return {
      size: f.byteLength,
      headers,
      open: f.headerLength + f.footerLength + 8,
      limit: f.byteLength + headers,
      unreadable: failing.reduce((a, cm) => a + cm.byteLength, 0),
    };
  } finally {
    f.free();
    registry.free();
  }
}

test("a window across a row group larger than a stretch (8 MiB): the page reads ahead whole package requests only, so none spans two stretches and is read again", async () => {
  const { page, log } = ins;
  // Row group 0 is one row, row group 1 600,000 (four 2.4 MB chunks): the
  // first rows shown span both, and the page reads their chunks ahead in
  // stretches of at most 8 MiB. The package asks for row group 1's four
  // chunks in one request of 9.6 MB: a stretch that ended inside it (rows
  // 0 and the first three chunks of 1, say) left the request to the source.
  const n = 600_000;
  let x = 1;
  const noise = () => Array.from({ length: n }, () => (x = (Math.imul(x, 1103515245) + 12345) | 0));
  const schema = ["a", "b", "c", "d"].map((name) => ({ name, type: "int32", nullable: false }));
  const small = buildFile(schema, [{ offset: 5, columns: [[1], [2], [3], [4]] }]);
  const built = buildFile(schema, [{ offset: 5, columns: [[1], [2], [3], [4]] }, { offset: small.footerStart, columns: [noise(), noise(), noise(), noise()] }]);
  assert.ok(built.rowGroups[1].columns.reduce((a, m) => a + m.byteLength, 0) > 9_000_000);
  await page.setInputFiles("[data-testid=file-input]", [{ name: "big-group.cols", mimeType: "application/octet-stream", buffer: Buffer.from(materialize(built)) }]);
  await waitState(page, "ready");
  const read = await settled(page);
  assert.equal(await page.textContent("[data-testid=data-grid] .grid-row[data-file-row='0'] .grid-cell[data-col='3']"), "4");
  // The file once; the chunks' headers once more, in the package's
  // requests for them (loadHeaders: row group 0's four 30-byte chunks in
  // one, whole); what the open reads past the file's header (the first 9
  // bytes: a version 2 header's length would follow the 5 of version 1's).
  // Row group 1 read again would be 9.6 MB more.
  const headers = headerBytes(built);
  const opened = await openedBytes(page);
  const limit = built.size + (opened - (5 + built.footerLength + 8)) + headers;
  assert.ok(read <= limit, `read ${read} bytes of a ${built.size}-byte file (limit ${limit})`);
  assert.deepEqual(log.errors, []);
});

const counter = (page) => page.$eval("[data-testid=io-counter]", (e) => Number(e.dataset.bytes));

/** The Data tab's first rows shown, nothing pending, and the counter still for a second. */
async function settled(page) {
  await tab(page, "data");
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-file-row='0']", { timeout: 60_000 });
  await page.waitForFunction(() => !document.querySelector("[data-testid=data-grid] .grid-row:not([hidden]) .grid-cell[data-kind=pending]"), null, { timeout: 60_000 });
  let last = await counter(page);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await counter(page);
    if (now === last) return now;
    last = now;
  }
}

async function openedBytes(page) {
  return Number(await page.getAttribute("[data-testid=fact-open] [data-open-bytes]", "data-open-bytes"));
}

test("the tokenized sample with only its small tokenizer: chunks beside the unreadable ones are read once, the unreadable ones not at all", async () => {
  const { page, log } = ins;
  const rel = "valid/tokenized_two_tokenizers.cols";
  const b = bound(rel, ["tokenizers/small-tokenizer.json"]);
  // The samples' flow: the small tokenizer is supplied, GPT-2's is not.
  await dropFile(page, [file("tokenizers/small-tokenizer.json", "application/json"), file(rel)]);
  assert.equal(await openedBytes(page), b.open, "opening reads the header, the footer and the tail, once each");
  const read = await settled(page);
  assert.ok(await page.$("[data-testid=data-grid] .grid-cell[data-kind=error]"), "the GPT-2 columns show as unreadable");
  assert.ok(read <= b.limit - b.unreadable, `read ${read} bytes of a ${b.size}-byte file (+${b.headers} of chunk headers read again, -${b.unreadable} of GPT-2 chunks left unread): some chunks were read twice, or the unreadable ones read`);
  assert.deepEqual(log.errors, []);
});

test("movielens.tokenized opened, then its tokenizer supplied: each chunk read once, title only once it can be decoded", async () => {
  const { page, log } = ins;
  const rel = "real/movielens.tokenized.cols";
  const b = bound(rel);
  await page.setInputFiles("[data-testid=file-input]", [file(rel)]);
  await page.waitForFunction(() => document.querySelector("[data-testid=file-name]")?.textContent === "movielens.tokenized.cols");
  await waitState(page, "ready");
  assert.equal(await openedBytes(page), b.open);
  const before = await settled(page);
  assert.ok(await page.$("[data-testid=data-grid] .grid-cell[data-kind=error]"), "title shows as unreadable");
  // The title chunks, which cannot be decoded yet, are not read at all.
  assert.ok(before <= b.limit - b.unreadable, `read ${before} bytes of a ${b.size}-byte file (+${b.headers} of chunk headers read again, -${b.unreadable} of title chunks not read) before the tokenizer came`);

  await page.setInputFiles("[data-testid=file-input]", [file("tokenizers/gpt2-tokenizer.json", "application/json")]);
  await page.waitForFunction(() => !document.querySelector("[data-testid=data-grid] .grid-cell[data-kind=error]"), null, { timeout: 60_000 });
  const after = await settled(page);
  // The title chunks read now, once.
  assert.ok(after <= b.limit, `read ${after} bytes of a ${b.size}-byte file (+${b.headers} of chunk headers) with the tokenizer`);
  assert.deepEqual(log.errors, []);
});

/** One row group of four int32 columns, 4,000 rows (16 KB a chunk);
 *  column 1's block says one byte more than its stored size can give
 *  (corrupt_chunk), which only reading the chunk finds. */
function oneDamaged() {
  const n = 4000;
  const built = buildFile(
    ["a", "b", "c", "d"].map((name) => ({ name, type: "int32", nullable: false })),
    [{ offset: 5, columns: [0, 1, 2, 3].map((c) => Array.from({ length: n }, (_, i) => i * 4 + c)) }],
  );
  const bytes = materialize(built);
  bytes[built.chunks[0][1].start + 22] += 1; // the block's raw length (after the 18-byte header and its stored length)
  return { built, bytes };
}

/** One row group of `n` int32 columns, every chunk's header naming an encoding no reader knows. */
function allDamaged(n) {
  const built = buildFile(
    Array.from({ length: n }, (_, c) => ({ name: `c${c}`, type: "int32", nullable: false })),
    [{ offset: 5, columns: Array.from({ length: n }, (_, c) => [c, c + 1, c + 2]) }],
  );
  const bytes = materialize(built);
  for (const r of built.chunks[0]) bytes[r.start] = 99;
  return { built, bytes };
}

/** What the chunk headers' requests (loadHeaders) read of `built`, by the package's rule. */
const headerBytes = (built) => packageRequests(built.chunks.flat().map((r) => ({ start: r.start, end: r.start + Math.min(CHUNK_HEADER, r.end - r.start) }))).reduce((a, r) => a + r.end - r.start, 0);

/** Runs `fn` with the worker's memory of the slices lately read (Held's
 *  RECENT_MAX) switched off: what the page reads again is then counted. */
async function withoutRecent(page, fn) {
  await page.route("**/js/stretches.js", async (route) => {
    const res = await route.fetch();
    const body = await res.text();
    assert.match(body, /export const RECENT_MAX = [^;]+;/);
    await route.fulfill({ response: res, body: body.replace(/export const RECENT_MAX = [^;]+;/, "export const RECENT_MAX = 0;") });
  });
  try {
    await page.reload();
    await fn();
  } finally {
    await page.unroute("**/js/stretches.js");
    await page.reload();
  }
}

test("a damaged chunk among others of its row group: the others are read once more at most together, not one request each", () => withoutRecent(ins.page, async () => {
  const { page, log } = ins;
  const { built, bytes } = oneDamaged();
  const chunkBytes = built.chunks[0].map((r) => r.end - r.start);
  await page.setInputFiles("[data-testid=file-input]", [{ name: "damaged-b.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(page, "ready");
  const read = await settled(page);
  // Row 1 as shown: a, c and d read; b does not.
  const row1 = await page.$$eval("[data-testid=data-grid] .grid-cell[data-row='1']", (tds) => tds.map((td) => (td.dataset.kind === "error" ? "error" : td.textContent)));
  assert.deepEqual(row1, ["4", "error", "6", "7"]);
  // Once for the shared call, which fails, then the three good chunks in
  // one more call; headers (loadHeaders, and without the memory of recent
  // slices the failing chunk's once more).
  const headers = chunkBytes.reduce((a, b) => a + Math.min(CHUNK_HEADER, b), 0) + CHUNK_HEADER;
  // The open reads the file's first 9 bytes (a version 2 header's length
  // would follow the 5 of version 1's): 4 bytes of chunk a, read again.
  const opened = await openedBytes(page);
  const limit = built.size + (opened - (5 + built.footerLength + 8)) + chunkBytes[0] + chunkBytes[2] + chunkBytes[3] + headers;
  assert.ok(read <= limit, `read ${read} bytes of a ${built.size}-byte file: more than once more for the good chunks (limit ${limit})`);
  assert.deepEqual(log.errors, []);
}));

test("a file of 2,000 row groups: the page's worker builds the footer's row groups once an open, not again for each chunk shown, filter or profile", async () => {
  // file.rowGroups makes every row group's object anew on each read (31 ms
  // for 2,000 row groups in Node): a read per chunk inspected or per pass
  // adds up. The worker's columns.js is served with that getter counting
  // its reads in the worker's global scope.
  const { page, log } = ins;
  await page.route("**/js/columns.js", async (route) => {
    const res = await route.fetch();
    const text = await res.text();
    // The package's file as columns.js names it (content-hashed by build-site).
    const entry = text.match(/from "(\.\.\/pkg\/columns_wasm\.[0-9a-f]+\.js)"/)?.[1];
    assert.ok(entry, "columns.js imports the package's hashed entry");
    const counting = `
import { ColumnsFile as Counted } from "${entry}";
{
  let proto = Counted.prototype;
  let d;
  while (proto && !(d = Object.getOwnPropertyDescriptor(proto, "rowGroups"))) proto = Object.getPrototypeOf(proto);
  Object.defineProperty(proto, "rowGroups", { ...d, get() { globalThis.rowGroupsBuilt = (globalThis.rowGroupsBuilt ?? 0) + 1; return d.get.call(this); } });
}
`;
    await route.fulfill({ response: res, body: text + counting });
  });
  try {
    await page.reload();
    const G = 2000;
    const built = buildFile(
      [{ name: "n", type: "int32", nullable: false }, { name: "word", type: "string", nullable: false }],
      Array.from({ length: G }, (_, g) => ({ offset: 5 + g * 200, columns: [[g, g + 1], [`w${g}`, `v${g}`]] })),
    );
    await page.setInputFiles("[data-testid=file-input]", [{ name: "long.cols", mimeType: "application/octet-stream", buffer: Buffer.from(materialize(built)) }]);
    await waitState(page, "ready");
    const worker = page.workers().find((w) => w.url().endsWith("/js/worker.js"));
    assert.ok(worker, `the page's worker among ${page.workers().map((w) => w.url())}`);
    const builds = () => worker.evaluate(() => globalThis.rowGroupsBuilt ?? 0);
    const profiled = () => page.waitForSelector("[data-testid=profile][data-state=done]", { timeout: 60_000 });
    await tab(page, "detail");
    await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=detail-encoding]");
    await profiled();
    const opened = await builds();
    // Other chunks in Column detail (each inspected, each column profiled), then a filter.
    for (const [g, c] of [[1500, 1], [1999, 0], [7, 1]]) {
      // 2,000 row groups: the row group is a number box.
      await page.fill("[data-testid=detail-rg]", String(g));
      await page.press("[data-testid=detail-rg]", "Enter");
      await page.selectOption("[data-testid=detail-col]", String(c));
      await page.waitForFunction(([g, c]) => document.querySelector("[data-testid=detail-rg]")?.value === String(g) && document.querySelector("[data-testid=detail-col]")?.value === String(c) && document.querySelector("[data-testid=panel-detail] [data-testid=detail-encoding]"), [g, c]);
      await profiled();
    }
    await tab(page, "data");
    await page.click("[data-testid=filter-add]");
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-col]", "0");
    await page.selectOption("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-op]", ">");
    await page.fill("[data-testid=filter-row] >> nth=0 >> [data-testid=filter-value]", "1990");
    await page.click("[data-testid=filter-apply]");
    // Rows of n > 1990: 1990's second row (1991) and both rows of 1991 .. 1999.
    await page.waitForFunction(() => document.querySelector("[data-testid=data-status]")?.dataset.total === "19", null, { timeout: 60_000 });
    const after = await builds();
    assert.ok(opened >= 1 && opened <= 3, `${opened} builds of the row groups to open the file and show its first chunk (the open's own, the chunk headers' once they are read)`);
    assert.equal(after - opened, 0, `${after - opened} more builds of the row groups for three more chunks shown and a filter`);
    assert.deepEqual(log.errors, []);
  } finally {
    await page.unroute("**/js/columns.js");
  }
});

for (const [G, step, how] of [
  [2000, 200, "about 60 bytes apart: the package reads them in one request"],
  [300, 8300, "8,300 bytes apart: from a local File each of the package's requests is read alone (chunkheaders.js joins only what its budget of 4 times the headers' bytes allows), not the 2.5 MB between them"],
]) {
  test(`a file of ${G} row groups dropped: its ${2 * G} chunk headers (${how.split(":")[0]}) come in a few reads, not one each, and every encoded size is the chunk's own`, async () => {
    // The chunks are ${how}.
    const { page, log } = ins;
    const built = buildFile(
      [{ name: "n", type: "int32", nullable: false }, { name: "word", type: "string", nullable: true }],
      Array.from({ length: G }, (_, g) => ({ offset: 5 + g * step, columns: [Array.from({ length: 1 + (g % 5) }, (_, i) => g + i), Array.from({ length: 1 + (g % 5) }, (_, i) => (i === 1 ? null : "w".repeat(g % 13)))] })),
    );
    const bytes = materialize(built);
    const { ColumnsFile } = loadApi();
    const f = ColumnsFile.fromBytes(bytes);
    const want = [0, 1].map((c) => f.rowGroups.reduce((a, rg) => a + rg.columns[c].rawLength, 0));
    f.free();
    await page.setInputFiles("[data-testid=file-input]", [{ name: "dense.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
    await waitState(page, "ready");
    await tab(page, "schema");
    await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
    const raw = await page.$$eval("[data-testid=schema-row] [data-field=raw] span", (spans) => spans.map((s) => s.title));
    assert.deepEqual(raw.map((t) => Number(t.replace(/\D/g, ""))), want, `encoded sizes shown: ${raw}`);
    const requests = Number(await page.getAttribute("[data-testid=io-counter]", "data-requests"));
    if (step < 8192) assert.ok(requests < 100, `${requests} reads for a file of ${2 * G} chunks`);
    else {
      // A read a row group's headers at most (and the few of the views'
      // passes); their bytes: bigfiles.test.mjs.
      assert.ok(requests <= G + 50, `${requests} reads for a file of ${2 * G} chunks`);
    }
    assert.deepEqual(log.errors, []);
  });
}

test("a row group of 200 columns whose every chunk is damaged: read in about n log n bytes, not n squared, and 5 error boxes, the rest behind one line", () => withoutRecent(ins.page, async () => {
  const { page, log } = ins;
  const n = 200;
  const { built, bytes } = allDamaged(n);
  const chunks = built.chunks[0].reduce((a, r) => a + r.end - r.start, 0);
  await page.setInputFiles("[data-testid=file-input]", [{ name: "all-damaged.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(page, "ready");
  const read = await settled(page);
  // Each chunk read in the first call, then in halves: at most log2(n) + 2
  // times over (n squared over 2 when the rest was read again after each);
  // headers twice more (loadHeaders, and each failure's detail without the
  // memory of recent slices); the footer and tail once.
  const limit = built.size + chunks * (Math.ceil(Math.log2(n)) + 2) + 2 * CHUNK_HEADER * n;
  assert.ok(read <= limit, `read ${read} bytes of a ${built.size}-byte file (limit ${limit})`);
  assert.equal(await page.$$eval("[data-testid=column-error]", (bs) => bs.length), 5);
  assert.equal(await page.textContent("[data-testid=column-errors-more] > summary"), "195 more columns cannot be read");
  await page.click("[data-testid=column-errors-more] > summary");
  // (The boxes are drawn on the toggle event, which comes after the click.)
  await page.waitForFunction((n) => document.querySelectorAll("[data-testid=column-error]").length >= n, n);
  const kinds = await page.$$eval("[data-testid=column-error]", (bs) => bs.map((b) => b.dataset.kind));
  assert.deepEqual(kinds, Array(n).fill("unsupported_encoding"), "every column's box, once opened");
  assert.deepEqual(log.errors, []);
}));

test("with the slices lately read kept (Held's RECENT_MAX), a call read again after a damaged chunk reads nothing again: one damaged chunk of four, every chunk of 200", async () => {
  const { page, log } = ins;
  for (const [name, { built, bytes }] of [["damaged-b.cols", oneDamaged()], ["all-damaged.cols", allDamaged(200)]]) {
    await page.setInputFiles("[data-testid=file-input]", [{ name, mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
    await page.waitForFunction((name) => document.querySelector("[data-testid=file-name]")?.textContent === name, name);
    await waitState(page, "ready");
    const read = await settled(page);
    // The file once; the headers' requests (loadHeaders); what the open
    // reads past the file's header (its first 9 bytes).
    const limit = built.size + (await openedBytes(page)) - (5 + built.footerLength + 8) + headerBytes(built);
    assert.ok(read <= limit, `${name}: read ${read} bytes of a ${built.size}-byte file (limit ${limit})`);
    assert.ok(await page.$("[data-testid=data-grid] .grid-cell[data-kind=error]"), `${name}: the damaged chunks show as unreadable`);
  }
  assert.deepEqual(log.errors, []);
});

test("a newer writer's file, every chunk in an encoding its footer names and this reader does not know: each chunk read once, alone", async () => {
  const { page, log } = ins;
  const n = 300;
  const schema = Array.from({ length: n }, (_, c) => ({ name: `c${c}`, type: "int32", nullable: false }));
  const built = buildFile(schema, [{ offset: 5, columns: Array.from({ length: n }, (_, c) => [c, c + 1, c + 2]) }]);
  let bytes = materialize(built);
  for (const r of built.chunks[0]) bytes[r.start] = 8; // encoding 8, in each chunk's header and in the footer
  const rowGroups = built.rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map((m) => ({ ...m, encoding: 8 })) }));
  bytes = withFooter(bytes, built.footerStart, { schema: schema.map((s) => ({ name: s.name, type: TYPES.int32, nullable: false })), rowGroups });
  await page.setInputFiles("[data-testid=file-input]", [{ name: "encoding-8.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(page, "ready");
  const read = await settled(page);
  // The file once; the chunks once more, as loadHeaders reads headers this
  // close together in requests that span them. A failure's detail takes
  // the chunk's header from the bytes the package just read (Held.lately),
  // not from a read of its own.
  const chunks = built.chunks[0].reduce((a, r) => a + r.end - r.start, 0);
  const limit = bytes.length + chunks;
  assert.ok(read <= limit, `read ${read} bytes of a ${bytes.length}-byte file (limit ${limit})`);
  // The open's three reads, loadHeaders' one and each chunk's own; each
  // header read again for the failure's detail would make it 2n.
  const requests = Number(await page.getAttribute("[data-testid=io-counter]", "data-requests"));
  assert.ok(requests <= n + 8, `${requests} reads for ${n} chunks`);
  const kinds = await page.$$eval("[data-testid=data-grid] .grid-row[data-row='0'] .grid-cell[data-col]:not(.grid-rowno)", (cs) => cs.map((c) => c.dataset.kind));
  assert.ok(kinds.length > 3 && kinds.every((k) => k === "error"), `row 0's cells are unreadable: ${kinds}`);
  assert.deepEqual(log.errors, []);
});

test("over HTTP, a chunk refused for want of its tokenizer costs no request of its own (its header is not fetched for the error)", () => withoutRecent(ins.page, async () => {
  const { page, log } = ins;
  const rel = "real/movielens.tokenized.cols";
  const { ColumnsFile } = loadApi();
  const f = ColumnsFile.fromBytes(fs.readFileSync(path.join(corpus, rel)));
  const titles = f.rowGroups.map((rg) => rg.columns.find((cm) => cm.tokenizer > 0).byteOffset);
  f.free();
  const asked = [];
  const log206 = (req) => {
    const m = /bytes=(\d+)-(\d+)/.exec(req.headers().range || "");
    if (req.url().endsWith(rel) && m) asked.push({ start: Number(m[1]), end: Number(m[2]) + 1 });
  };
  page.on("request", log206);
  try {
    await page.fill("[data-testid=url-input]", `/corpus/${rel}`);
    await page.evaluate(() => (document.body.dataset.state = ""));
    await page.click("[data-testid=url-open]");
    await waitState(page, "ready");
    const opened = asked.length;
    await settled(page);
    await page.waitForSelector("[data-testid=data-grid] .grid-cell[data-kind=error]");
    const after = asked.slice(opened);
    const onTitle = after.filter((r) => titles.some((t) => r.start <= t && t < r.end));
    assert.deepEqual(onTitle, [], `after the open, requests over a title chunk's start: ${JSON.stringify(onTitle)}`);
  } finally {
    page.off("request", log206);
  }
  assert.deepEqual(log.errors, []);
}));
