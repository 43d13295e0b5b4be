#!/usr/bin/env node
// A plain static file server: what any static host does, and nothing more.
// GET and HEAD, byte ranges (the page and the package read files by URL
// piecewise), a directory's index.html, 404 otherwise. One core for every
// server the project runs: the built site (scripts/serve, tests/e2e), the
// project root for tests and benchmarks (tools/serve.mjs), the consumer
// test pages (tests/consumers/lib/server.mjs).
//
//   node tools/static-server.mjs [--dir site] [--prefix /a/sub/path/] [--port 8080]
//        [--host 127.0.0.1] [--isolate] [--mount /data/=DIR ...]
//
// --prefix serves --dir under that path only (a host's sub-path); --mount
// adds further directories at other paths (test data beside the site).
// Cross-origin isolation headers (COOP/COEP) only with --isolate, so the
// page can be tried both ways.
// Prints "serving http://HOST:PORT/PREFIX" once listening.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
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

/** The headers that make a page cross-origin isolated (fine timers, SharedArrayBuffer). */
export const ISOLATION = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp", "Cross-Origin-Resource-Policy": "same-origin" };

/**
 * An http.Server (not yet listening) for `mounts`: { "/url/prefix/": dir,
 * "/exact/path": file }, the longest prefix winning. A prefix asked for
 * without its slash is redirected to it.
 *   headers: sent with every answer (e.g. ISOLATION, CORS)
 *   types:   Content-Type by extension, over the defaults
 */
export function createStaticServer({ mounts, headers = {}, types = {} }) {
  const table = Object.entries(mounts)
    .map(([at, target]) => [at, path.resolve(target)])
    .sort((a, b) => b[0].length - a[0].length);
  const typeOf = (file) => ({ ...TYPES, ...types })[path.extname(file)] || "application/octet-stream";

  function resolve(urlPath) {
    let p;
    try {
      p = decodeURIComponent(urlPath.split("?")[0]);
    } catch {
      return null;
    }
    for (const [at, target] of table) {
      if (!at.endsWith("/")) {
        if (p === at) return { file: target };
        continue;
      }
      if (p === at.slice(0, -1)) return { redirect: at };
      if (!p.startsWith(at)) continue;
      const full = path.resolve(target, p.slice(at.length));
      if (full !== target && !full.startsWith(target + path.sep)) return null; // no ".." out of the root
      return { file: full };
    }
    return null;
  }

  return http.createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405).end();
      return;
    }
    const common = { "Accept-Ranges": "bytes", "Cache-Control": "no-cache", ...headers };
    const r = resolve(req.url);
    if (r?.redirect) {
      const q = req.url.indexOf("?");
      res.writeHead(301, { Location: r.redirect + (q >= 0 ? req.url.slice(q) : "") }).end();
      return;
    }
    let file = r?.file;
    if (file && fs.existsSync(file) && fs.statSync(file).isDirectory()) {
      // As hosts do: a directory's page is at its path with a slash, so its relative links resolve inside it.
      const [p, q = null] = req.url.split(/\?(.*)/s);
      if (!p.endsWith("/")) {
        res.writeHead(301, { Location: `${p}/${q === null ? "" : `?${q}`}` }).end();
        return;
      }
      file = path.join(file, "index.html");
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, { ...common, "Content-Type": "text/plain" }).end("not found\n");
      return;
    }
    const size = fs.statSync(file).size;
    const out = { ...common, "Content-Type": typeOf(file) };
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
        res.writeHead(416, { ...out, "Content-Range": `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { ...out, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
      if (req.method === "HEAD") return res.end();
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { ...out, "Content-Length": size });
    if (req.method === "HEAD" || size === 0) return res.end();
    fs.createReadStream(file).pipe(res);
  });
}

/** Listens on host:port (0: any free port); resolves the port. */
export function listen(server, { host = "127.0.0.1", port = 0 } = {}) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server.address().port));
  });
}

/** The command-line options both server commands take: --port, --host. */
export function cliOptions(args = process.argv.slice(2)) {
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
  };
  return { opt, host: opt("host", "127.0.0.1"), port: Number(opt("port", "8080")) };
}

async function main() {
  const args = process.argv.slice(2);
  const { opt, host, port } = cliOptions(args);
  let prefix = opt("prefix", "/");
  if (!prefix.startsWith("/")) prefix = `/${prefix}`;
  if (!prefix.endsWith("/")) prefix += "/";
  const mounts = { [prefix]: opt("dir", "site") };
  args.forEach((a, i) => {
    if (a === "--mount" && args[i + 1]) {
      const [at, dir] = args[i + 1].split("=");
      mounts[at.endsWith("/") ? at : `${at}/`] = dir;
    }
  });
  const server = createStaticServer({ mounts, headers: args.includes("--isolate") ? ISOLATION : {} });
  const actual = await listen(server, { host, port });
  console.log(`serving http://${host}:${actual}${prefix}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
