// A static file server for the consumer pages, with the headers a test asks
// for: cross-origin isolation (COOP/COEP) or not, and the Content-Type the
// .wasm is served with (a server that does not know .wasm sends something else).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".cols": "application/octet-stream",
};

/**
 * Serves `root`; `mounts` maps URL prefixes ("/__test/corpus/") or exact
 * paths to directories or files elsewhere. Resolves to { url, close }.
 *   isolated: send COOP/COEP, so the page is crossOriginIsolated
 *   wasmType: the Content-Type of .wasm files (default application/wasm)
 * Answers HEAD and single-range requests.
 */
export function serve(root, { isolated = false, wasmType = "application/wasm", mounts = {} } = {}) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = null;
    for (const [prefix, target] of Object.entries(mounts)) {
      if (urlPath === prefix) file = target;
      else if (prefix.endsWith("/") && urlPath.startsWith(prefix)) file = path.join(target, urlPath.slice(prefix.length));
      if (file) break;
    }
    file ??= path.join(root, urlPath);
    if (file.endsWith(path.sep) || (fs.existsSync(file) && fs.statSync(file).isDirectory())) file = path.join(file, "index.html");
    if (!fs.existsSync(file)) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const ext = path.extname(file);
    const headers = { "Content-Type": ext === ".wasm" ? wasmType : TYPES[ext] ?? "application/octet-stream", "Cache-Control": "no-store" };
    if (isolated) {
      headers["Cross-Origin-Opener-Policy"] = "same-origin";
      headers["Cross-Origin-Embedder-Policy"] = "require-corp";
    }
    // Range requests (the README's HTTP example reads files piecewise).
    const size = fs.statSync(file).size;
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    const [start, end] = range ? [Number(range[1]), Math.min(Number(range[2]), size - 1)] : [0, size - 1];
    headers["Content-Length"] = String(Math.max(0, end - start + 1));
    headers["Accept-Ranges"] = "bytes";
    if (range) headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD" || size === 0) res.end();
    else fs.createReadStream(file, { start, end }).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
