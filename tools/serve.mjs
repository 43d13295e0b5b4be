#!/usr/bin/env node
// The project's server for tests and benchmarks (tests/run-js.sh, bench/run,
// tests/e2e/pool.test.mjs): the project root at `/` (the corpus at
// `/corpus/`, the package at `/pkg/`), and `../shared` read-only at
// `/shared/` (the large benchmark files). Cross-origin isolated, so pages
// get fine timers and SharedArrayBuffer; CORS open, so the wasm-bindgen test
// runner's page (another origin) can fetch the corpus. `.gz` files go out as
// they are (application/gzip, no Content-Encoding): the reader unpacks them.
// The inspector page is served by scripts/serve (tools/static-server.mjs).
//
//   node tools/serve.mjs [--port 8080] [--host 127.0.0.1]
// Prints "serving http://HOST:PORT/" once listening.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { ISOLATION, cliOptions, createStaticServer, listen } from "./static-server.mjs";

const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { host, port } = cliOptions();
const server = createStaticServer({
  mounts: { "/": project, "/shared/": path.resolve(project, "..", "shared") },
  headers: {
    ...ISOLATION,
    // Another origin's page may read any byte range of these files.
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges",
  },
  types: { ".gz": "application/gzip", ".ts": "text/plain; charset=utf-8" },
});
const actual = await listen(server, { host, port });
console.log(`serving http://${host}:${actual}/`);
