// A static file server for the consumer pages (the project's one core,
// tools/static-server.mjs), with the headers a test asks for:
// cross-origin isolation (COOP/COEP) or not, and the Content-Type the .wasm
// is served with (a server that does not know .wasm sends something else).
import path from "node:path";
import { ISOLATION, createStaticServer, listen } from "../../../tools/static-server.mjs";

/**
 * Serves `root`; `mounts` maps URL prefixes ("/__test/corpus/") or exact
 * paths to directories or files elsewhere. Resolves to { url, close }.
 *   isolated: send COOP/COEP, so the page is crossOriginIsolated
 *   wasmType: the Content-Type of .wasm files (default application/wasm)
 */
export async function serve(root, { isolated = false, wasmType = "application/wasm", mounts = {} } = {}) {
  const server = createStaticServer({
    mounts: { "/": path.resolve(root), ...mounts },
    headers: { "Cache-Control": "no-store", ...(isolated ? ISOLATION : {}) },
    types: { ".wasm": wasmType },
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}
