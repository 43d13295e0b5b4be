// Browser helpers for tests/web.rs (a wasm-bindgen snippet): load the
// shared checker, fetch corpus files from the test server (expected JSON
// gunzipped here, with DecompressionStream), and an AsyncBuffer over HTTP
// range requests.
//
// A `.js` file on purpose: wasm-bindgen-test's server sends `.mjs` snippets
// as application/octet-stream, which browsers refuse as module scripts. For
// the same reason tests/js/check.mjs is not a snippet: it is imported from
// tools/serve.mjs (project root at /, CORS *), so Node and the browser run
// the very same file.

/** The checker module (tests/js/check.mjs), imported from the test server. */
export async function loadChecker(url) {
  return await import(url);
}

async function get(url, init) {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return res;
}

export async function fetchBytes(url) {
  return new Uint8Array(await (await get(url)).arrayBuffer());
}

export async function fetchJson(url) {
  return await (await get(url)).json();
}

/** The expected JSON of a corpus file, given its URL without extension:
 *  NAME.json.gz (unpacked here), else NAME.json. */
export async function fetchExpected(stem) {
  const gz = await fetch(`${stem}.json.gz`);
  if (gz.ok) return await new Response(gz.body.pipeThrough(new DecompressionStream("gzip"))).json();
  if (gz.status !== 404) throw new Error(`GET ${stem}.json.gz: HTTP ${gz.status}`);
  return await fetchJson(`${stem}.json`);
}

/** An AsyncBuffer reading `url` with one HTTP Range request per slice;
 *  `log` records each [start, end). */
export async function httpAsyncBuffer(url, log) {
  const head = await fetch(url, { method: "HEAD" });
  if (!head.ok) throw new Error(`HEAD ${url}: HTTP ${head.status}`);
  const byteLength = Number(head.headers.get("Content-Length"));
  return {
    byteLength,
    async slice(start, end) {
      log.push([start, end]);
      if (end <= start) return new Uint8Array(0);
      const res = await get(url, { headers: { Range: `bytes=${start}-${end - 1}` } });
      if (res.status !== 206) throw new Error(`range ${start}-${end - 1} of ${url}: HTTP ${res.status}, not 206`);
      return await res.arrayBuffer();
    },
  };
}

/** Log entries as "start-end" strings, for Rust-side assertions. */
export function logText(log) {
  return log.map(([s, e]) => `${s}-${e}`).join(",");
}

/**
 * The scoped read's "fail loudly" in this browser: imports the built
 * package (`packageUrl`: pkg/columns_wasm.js on the test server, a module
 * instance of its own), reads `fileUrl` (a file of at least two row groups
 * whose column `stringColumn` holds strings) lent, and returns what went
 * wrong (an empty list when nothing did): views kept past their callback or
 * loop step must be detached (length 0, methods throw), the columns must
 * throw a `released` ColumnsError, and the package must keep working.
 */
export async function scopedDetachFailures(packageUrl, fileUrl, stringColumn) {
  const failures = [];
  const { default: init, ColumnsFile, ColumnsError } = await import(packageUrl);
  await init();
  const bytes = new Uint8Array(await (await get(fileUrl)).arrayBuffer());
  const detached = (what, a) => {
    if (a.length !== 0 || a.buffer.byteLength !== 0) failures.push(`${what}: still ${a.length} long after its scope ended`);
    try {
      a.subarray(0, 1);
      failures.push(`${what}: subarray() on it did not throw`);
    } catch (e) {
      if (!(e instanceof TypeError)) failures.push(`${what}: subarray() threw ${e}`);
    }
  };
  const released = (what, get) => {
    try {
      get();
      failures.push(`${what}: no error after its scope ended`);
    } catch (e) {
      if (!(e instanceof ColumnsError) || e.kind !== "released") failures.push(`${what}: threw ${e?.kind ?? e}, not released`);
    }
  };

  const file = ColumnsFile.fromBytes(bytes);
  let col, data, offsets, length = 0;
  file.readRowGroupScoped(0, ({ columns }) => {
    col = columns[stringColumn];
    ({ data, offsets } = col.values);
    length = data.length;
  });
  if (!(length > 0)) failures.push("the lent string column held no bytes");
  detached("readRowGroupScoped: the data array", data);
  detached("readRowGroupScoped: the offsets array", offsets);
  released("readRowGroupScoped: column.values", () => col.values);
  released("readRowGroupScoped: column.toArray()", () => col.toArray());
  // The package's own views of its memory were detached too, and remade.
  const copied = file.readColumn(1, stringColumn);
  if (copied.toArray().length !== file.rowGroups[1].numRows || file.schema.length === 0) failures.push("a copying read after a scope did not work");

  const blobFile = await ColumnsFile.fromBlob(new Blob([bytes]));
  let asyncData;
  await blobFile.readRowGroupScopedAsync(1, async ({ columns }) => {
    await new Promise((r) => setTimeout(r, 1));
    asyncData = columns[stringColumn].values.data;
    if (asyncData.length === 0) failures.push("readRowGroupScopedAsync: an empty view inside the callback");
  });
  detached("readRowGroupScopedAsync: the data array", asyncData);

  const kept = [];
  for await (const { columns } of blobFile.rowGroupsAsync({ scoped: true })) {
    for (const [i, a] of kept.entries()) detached(`rowGroupsAsync: row group ${i}'s data array at the next step`, a);
    kept.push(columns[stringColumn].values.data);
  }
  if (kept.length < 2) failures.push(`rowGroupsAsync gave ${kept.length} row groups`);
  detached("rowGroupsAsync: the last data array after the loop", kept.at(-1));
  file.free();
  blobFile.free();
  return failures;
}
