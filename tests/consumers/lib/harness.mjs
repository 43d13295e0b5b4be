// What every consumer test shares: which corpus files it reads, what the
// README's snippets must print for them, and a headless Chromium that loads
// a consumer's page and checks it.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { corpusDir, projectRoot } from "../../node/corpus.mjs";

export { corpusDir, projectRoot };
export const consumersDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The file the README's snippets read as `data.cols`: several row groups, nulls. */
export const DATA = "valid/nulls";
/** Files every consumer checks value by value against their corpus JSON (tests/js/check.mjs). */
export const CHECKED = ["valid/all_types_small", "valid/nulls", "valid/enc_dict_flate"];

export const corpusPath = (rel, ext) => path.join(corpusDir, `${rel}.${ext}`);

/** A corpus file's expected JSON, parsed (NAME.json, or NAME.json.gz). */
export function readExpected(rel) {
  const plain = corpusPath(rel, "json");
  if (fs.existsSync(plain)) return JSON.parse(fs.readFileSync(plain, "utf8"));
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(plain + ".gz")).toString("utf8"));
}

/** What `for (const col of file.readColumns()) console.log(col.type, col.length, col.nullCount)`
 *  prints for a corpus file, from its JSON: one line per chunk, row-group-major. */
export function expectedLines(rel = DATA) {
  const json = readExpected(rel);
  const lines = [];
  for (const rg of json.row_groups) {
    rg.columns.forEach((c, i) => lines.push(`${json.schema[i].type} ${rg.num_rows} ${c.null_count}`));
  }
  return lines;
}

/** Test files a page needs, by URL path: the data file, the checked corpus files, the checker. */
export function testMounts() {
  return {
    "/data.cols": corpusPath(DATA, "cols"),
    "/__test/check.mjs": path.join(projectRoot, "tests/js/check.mjs"),
    "/__test/corpus/": corpusDir,
  };
}

/** Copies what testMounts() serves into `dir` (for servers we do not run: Vite's). */
export function copyTestFiles(dir) {
  for (const [url, src] of Object.entries(testMounts())) {
    const files = url.endsWith("/") ? CHECKED.map((rel) => [`${url}${rel}.cols`, path.join(src, `${rel}.cols`)]) : [[url, src]];
    for (const [u, s] of files) {
      const dest = path.join(dir, u);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(s, dest);
    }
  }
}

let browserPromise = null;
/** One headless Chromium for the whole run (Debian's, driven by playwright-core from tools/). */
export function browser() {
  browserPromise ??= (async () => {
    // playwright-core: in tools/test/ where the test tools are apart, else tools/.
    const tools = ["tools/test/package.json", "tools/package.json"].map((p) => path.join(projectRoot, p)).find((p) => fs.existsSync(p));
    const { chromium } = createRequire(tools)("playwright-core");
    return chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  })();
  return browserPromise;
}

export async function closeBrowser() {
  if (browserPromise) await (await browserPromise).close();
  browserPromise = null;
}

/** Normalises a console message as Node would print its arguments: strings as they are, numbers and arrays as JSON. */
async function consoleLine(msg) {
  try {
    const args = await Promise.all(msg.args().map((a) => a.jsonValue()));
    return args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
  } catch {
    return msg.text();
  }
}

/** Whether `got` is the blocks concatenated in some order (the pool, a
 *  worker and the main snippet print concurrently, each block in order). */
function isBlocksInSomeOrder(got, blocks) {
  if (blocks.length === 0) return got.length === 0;
  return blocks.some((b, i) => {
    const head = got.slice(0, b.length);
    return JSON.stringify(head) === JSON.stringify(b) && isBlocksInSomeOrder(got.slice(b.length), blocks.filter((_, j) => j !== i));
  });
}

/**
 * Loads `url` and waits for the page's snippets to finish (the page sets
 * `globalThis.columnsWasm` to the API it imported, after them). Then checks:
 * what the snippets printed (`blocks` of console lines, each block in order,
 * the blocks in any order; lines of Vite's and webpack's own ignored), every
 * value of the CHECKED files read through that API (fromBytes and fromBlob),
 * and, with `pool`, the same files read through its ColumnsPool; with
 * `edges`, the failures the page listed in globalThis.columnsWasmEdges;
 * with `http`, the same files opened by URL through the page's
 * columns-wasm/http (`asyncBufferFromUrl`, which it must have imported).
 * `expectError`: the page must instead fail with an error matching it.
 * Resolves to { failures, facts }.
 */
export async function checkPage(url, { blocks = [], pool = false, edges = false, http = false, expectError = null, timeout = 60000 } = {}) {
  const b = await browser();
  const context = await b.newContext();
  const page = await context.newPage();
  const printed = [];
  const errors = [];
  let pageFailed;
  const failedOnce = new Promise((resolve) => (pageFailed = resolve));
  // An uncaught error keeps its kind this way (Playwright's pageerror has only name and message).
  await page.addInitScript(() => {
    const note = (e) => {
      globalThis.columnsWasmError ??= `${e?.kind ?? "(no kind)"}: ${e?.name}: ${e?.message ?? e}`;
    };
    addEventListener("error", (ev) => note(ev.error));
    addEventListener("unhandledrejection", (ev) => note(ev.reason));
  });
  page.on("console", (msg) => {
    if (msg.type() === "log") printed.push(consoleLine(msg));
    // Failed requests are reported below, with their URL.
    else if (msg.type() === "error" && !expectError && !msg.text().startsWith("Failed to load resource")) errors.push(`console.error: ${msg.text()}`);
  });
  page.on("response", (res) => {
    if (res.status() >= 400 && !expectError && !res.url().endsWith("/favicon.ico")) errors.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  page.on("pageerror", (e) => {
    setTimeout(async () => pageFailed((await page.evaluate(() => globalThis.columnsWasmError).catch(() => null)) ?? `${e.name}: ${e.message}`), 0);
    if (!expectError) errors.push(`page error: ${e.name}: ${e.message}`);
  });
  const failures = [];
  const facts = {};
  const total = blocks.reduce((n, b) => n + b.length, 0);
  try {
    await page.goto(url);
    const outcome = await Promise.race([
      page.waitForFunction(() => globalThis.columnsWasm !== undefined, null, { timeout }).then(() => null),
      failedOnce,
    ]);
    facts.crossOriginIsolated = await page.evaluate(() => globalThis.crossOriginIsolated);
    if (expectError) {
      if (outcome === null) failures.push(`expected an error matching ${expectError}, the page worked`);
      else if (!expectError.test(outcome)) failures.push(`wrong error: ${outcome}`);
      return { failures, facts };
    }
    if (outcome !== null) return { failures, facts }; // reported with the page errors
    // A worker's lines may come after the page's last line ran.
    for (let waited = 0; printed.length < total && waited < timeout; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const got = (await Promise.all(printed)).filter((l) => !l.startsWith("[vite]") && !l.startsWith("[webpack"));
    if (!isBlocksInSomeOrder(got, blocks)) {
      failures.push(`printed ${got.length} lines, expected ${blocks.length} blocks of ${blocks.map((b) => b.length).join(", ")} lines: ${JSON.stringify(got.slice(0, 4))}, expected ${JSON.stringify(blocks[0]?.slice(0, 4))}`);
    }
    if (edges) failures.push(...(await page.evaluate(() => globalThis.columnsWasmEdges ?? ["the page listed no edge results"])));
    const report = await page.evaluate(
      async ({ files, pool, http }) => {
        const { checkFile, columnJson, compare } = await import("/__test/check.mjs");
        const api = globalThis.columnsWasm;
        const out = [];
        if (http && typeof api.asyncBufferFromUrl !== "function") out.push("the page did not import asyncBufferFromUrl from columns-wasm/http");
        for (const [name, expected] of files) {
          if (http && typeof api.asyncBufferFromUrl === "function") {
            // By URL: HEAD, then one range request per read, every value
            // compared; a short file (8 KiB and 17 bytes or less) is read
            // whole by its open, and its reads ask for nothing more.
            try {
              const source = await api.asyncBufferFromUrl(`/__test/corpus/${name}.cols`);
              const file = await api.ColumnsFile.fromAsyncBuffer(source);
              const cols = await file.readColumnsAsync();
              let k = 0;
              expected.row_groups.forEach((rg, g) =>
                rg.columns.forEach((_, c) => {
                  const d = compare(`http ${name} rg ${g} col ${c}`, rg.values[c], columnJson(cols[k++], expected.schema[c].type));
                  if (d) out.push(d);
                }),
              );
              const short = source.byteLength <= 8 * 1024 + 17;
              if (!(short ? source.stats.requests === 1 : source.stats.requests >= 2) || source.note !== "") out.push(`http ${name}: stats ${JSON.stringify(source.stats)}, note ${JSON.stringify(source.note)}`);
              file.free();
            } catch (e) {
              out.push(`http ${name}: ${e?.kind ?? "(no kind)"}: ${e?.message ?? e}`);
            }
          }
          const bytes = new Uint8Array(await (await fetch(`/__test/corpus/${name}.cols`)).arrayBuffer());
          for (const mode of ["bytes", "blob"]) {
            const why = await checkFile({ ...api, bytes, expected, name: `${name.split("/").pop()}.cols`, mode });
            if (why !== null) out.push(`${name} (${mode}): ${why}`);
          }
          if (pool) {
            const p = await api.ColumnsPool.create(2);
            const file = await p.open(bytes);
            const cols = await file.readColumns();
            let k = 0;
            expected.row_groups.forEach((rg, g) =>
              rg.columns.forEach((_, c) => {
                const d = compare(`pool ${name} rg ${g} col ${c}`, rg.values[c], columnJson(cols[k++], expected.schema[c].type));
                if (d) out.push(d);
              }),
            );
            // { boolBits } through the pool: bool columns come packed, the same bits.
            const packed = await file.readColumns(null, null, { boolBits: true });
            packed.forEach((col, i) => {
              if (col.type !== "bool") return;
              const want = Array.from(cols[i].boolBitmap());
              if (col.boolBits !== true || JSON.stringify(Array.from(col.values)) !== JSON.stringify(want)) out.push(`pool ${name} chunk ${i}: { boolBits: true } gave other bits`);
            });
            file.close();
            p.terminate();
          }
        }
        return out;
      },
      { files: CHECKED.map((rel) => [rel, readExpected(rel)]), pool, http },
    );
    failures.push(...report);
  } catch (e) {
    failures.push(`${e.message.split("\n")[0]}`);
  } finally {
    failures.push(...errors);
    await context.close();
  }
  return { failures, facts };
}
