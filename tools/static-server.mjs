#!/usr/bin/env node
// A plain static file server for the built inspector site (site/): what any
// static host does, and nothing more. GET and HEAD, byte ranges (the page
// reads files by URL piecewise), a directory's index.html, 404 otherwise.
// Cross-origin isolation headers (COOP/COEP) only with --isolate, so the
// page can be tried both ways.
//
//   node tools/static-server.mjs [--dir site] [--prefix /a/sub/path/] [--port 8080]
//        [--host 127.0.0.1] [--isolate] [--mount /data/=DIR ...]
//
// --prefix serves --dir under that path only (a host's sub-path); --mount
// adds further directories at other paths (test data beside the site).
// Prints "serving http://HOST:PORT/PREFIX" once listening.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const host = opt("host", "127.0.0.1");
const port = Number(opt("port", "8080"));
const isolate = args.includes("--isolate");
let prefix = opt("prefix", "/");
if (!prefix.startsWith("/")) prefix = `/${prefix}`;
if (!prefix.endsWith("/")) prefix += "/";

// Longest path first, so /a/b/ wins over /a/.
const mounts = [[prefix, path.resolve(opt("dir", "site"))]];
args.forEach((a, i) => {
  if (a === "--mount" && args[i + 1]) {
    const [at, dir] = args[i + 1].split("=");
    mounts.push([at.endsWith("/") ? at : `${at}/`, path.resolve(dir)]);
  }
});
mounts.sort((a, b) => b[0].length - a[0].length);

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
};

function resolve(urlPath) {
  let p;
  try {
    p = decodeURIComponent(urlPath.split("?")[0]);
  } catch {
    return null;
  }
  for (const [at, dir] of mounts) {
    if (p === at.slice(0, -1)) return { redirect: at };
    if (!p.startsWith(at)) continue;
    const full = path.resolve(dir, p.slice(at.length));
    if (full !== dir && !full.startsWith(dir + path.sep)) return null; // no ".." out of the root
    return { file: full };
  }
  return null;
}

const server = http.createServer((req, res) => {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405).end();
    return;
  }
  const headers = { "Accept-Ranges": "bytes", "Cache-Control": "no-cache" };
  if (isolate) {
    headers["Cross-Origin-Opener-Policy"] = "same-origin";
    headers["Cross-Origin-Embedder-Policy"] = "require-corp";
    headers["Cross-Origin-Resource-Policy"] = "same-origin";
  }
  const r = resolve(req.url);
  if (r?.redirect) {
    const q = req.url.indexOf("?");
    res.writeHead(301, { Location: r.redirect + (q >= 0 ? req.url.slice(q) : "") }).end();
    return;
  }
  let file = r?.file;
  if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, "index.html");
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, { ...headers, "Content-Type": "text/plain" }).end("not found\n");
    return;
  }
  const size = fs.statSync(file).size;
  headers["Content-Type"] = types[path.extname(file)] || "application/octet-stream";
  const range = req.headers.range && /^bytes=(\d*)-(\d*)$/.exec(req.headers.range);
  if (range && (range[1] !== "" || range[2] !== "")) {
    let start, end;
    if (range[1] === "") {
      start = Math.max(0, size - Number(range[2]));
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
  console.log(`serving http://${host}:${server.address().port}${prefix}`);
});
