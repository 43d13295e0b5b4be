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
