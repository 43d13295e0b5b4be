#!/usr/bin/env node
// A static file server for the page, the benchmarks and the page tests.
// Serves the project root at `/` (the corpus at `/corpus/`), and `../shared`
// read-only at `/shared/` when it sits beside the project (the large
// benchmark files; nothing the tests need). Supports HTTP range requests,
// because the page opens URLs piecewise. `.gz` files go out as they are
// (application/gzip, no Content-Encoding): the reader unpacks them.
//
//   node tools/serve.mjs [--port 8080] [--host 127.0.0.1] [--root www]
// Prints "serving http://HOST:PORT/" once listening.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const host = opt("host", "127.0.0.1");
const port = Number(opt("port", "8080"));
const shared = path.resolve(project, "..", "shared");

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
  ".gz": "application/gzip",
};

function resolve(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  const [base, rel] = p.startsWith("/shared/") ? [shared, p.slice("/shared/".length)] : [project, p.slice(1)];
  const full = path.resolve(base, rel);
  // No escaping the served roots with "..".
  if (full !== base && !full.startsWith(base + path.sep)) return null;
  return full;
}

const server = http.createServer((req, res) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405).end();
    return;
  }
  if (req.url === "/" || req.url.startsWith("/?")) {
    res.writeHead(302, { Location: "/www/" + req.url.slice(1) }).end();
    return;
  }
  let file = resolve(req.url);
  if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
  if (!file || !fs.existsSync(file)) {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found\n");
    return;
  }
  const size = fs.statSync(file).size;
  const headers = {
    "Content-Type": types[path.extname(file)] || "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "no-cache",
    // The page may read any byte range of a file it is pointed at.
    "Access-Control-Allow-Origin": "*",
    // Cross-origin isolation gives the page's workers a fine-grained
    // performance.now() (and SharedArrayBuffer) for timing.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges",
  };
  const range = req.headers.range && /^bytes=(\d*)-(\d*)$/.exec(req.headers.range);
  if (range) {
    let start, end;
    if (range[1] === "") {
      const n = Number(range[2]);
      start = Math.max(0, size - n);
      end = size - 1;
    } else {
      start = Number(range[1]);
      end = range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1);
    }
    if (start > end || start >= size) {
      res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
      return;
    }
    res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
    if (req.method === "HEAD") return res.end();
    fs.createReadStream(file, { start, end }).pipe(res);
    return;
  }
  res.writeHead(200, { ...headers, "Content-Length": size });
  if (req.method === "HEAD") return res.end();
  fs.createReadStream(file).pipe(res);
});

server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`serving http://${host}:${actual}/`);
});
