// The entry point for browsers and bundlers: the API, plus init(), which
// fetches and compiles the .wasm beside this file (bundlers see the
// `new URL(..., import.meta.url)` below and ship the file with the app).
import * as glue from "columns-wasm-glue";
import { ColumnsError } from "./column.js";
import { initialised, isReady } from "./api.js";

export { Column, ColumnsError, ColumnsFile, ScopedColumn, TokenizerRegistry, wasmMemory, internal as __internal } from "./api.js";

let loading = null;

/**
 * Loads, compiles and instantiates the WebAssembly module, once; later
 * calls resolve at once. `input` (optional): where the module is, as
 * `{ module_or_path }` or directly: a URL or string, a Request, a Response
 * (or a promise of one), the bytes, or a compiled WebAssembly.Module.
 */
export default function init(input) {
  if (isReady()) return Promise.resolve();
  if (loading === null) {
    loading = load(input).catch((e) => {
      loading = null; // a failed load may be retried
      throw e;
    });
  }
  return loading;
}

/** init() without waiting, for a Worker that was sent the compiled module
 *  (or bytes: Chromium compiles them synchronously on a main thread only below 8 MB). */
export function initSync(input) {
  if (isReady()) return;
  let m = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input.module : input;
  try {
    if (!(m instanceof WebAssembly.Module)) m = new WebAssembly.Module(m);
  } catch (e) {
    throw failed("the bytes given to initSync() did not compile", e);
  }
  glue.initSync({ module: m });
  initialised(m);
}

async function load(input) {
  let source = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype ? input.module_or_path : input;
  try {
    source = await source;
  } catch (e) {
    throw failed("the promise given to init() rejected", e);
  }
  if (source === undefined || source === null) {
    try {
      // Written out so that bundlers (webpack, Vite) find the file and ship it.
      source = new URL("./columns_wasm_bg.wasm", import.meta.url);
    } catch (e) {
      // import.meta.url is empty where a bundler made a classic script of this module.
      throw loadFailed("cannot tell where columns_wasm_bg.wasm is (this script has no import.meta.url: bundle it as an ES module, e.g. esbuild --format=esm), or pass its URL: init({ module_or_path: url })", e);
    }
  }
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await compile(source, "the bytes given to init()");
  } else {
    let response = source;
    if (!(typeof Response === "function" && source instanceof Response)) {
      try {
        response = await fetch(source);
      } catch (e) {
        throw failed(`could not fetch ${source}`, e);
      }
    }
    module = await compileResponse(response);
  }
  // Compiled asynchronously above; instantiating a compiled module is allowed
  // synchronously on a main thread (Chromium refuses only modules over 8 MB),
  // and leaves the glue's own fetch-and-compile path out of the bundle.
  glue.initSync({ module });
  initialised(module);
}

function loadFailed(message, cause) {
  const e = new ColumnsError(`columns-wasm: ${message}`, "load_failed");
  if (cause !== undefined) e.cause = cause;
  return e;
}

/** A load_failed for an error thrown on the way, which it quotes. */
const failed = (what, e) => loadFailed(`${what}: ${e?.message ?? e}`, e);

async function compile(bytes, what) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw failed(`${what} did not compile`, e);
  }
}

/** Compiles a fetched module; streaming only when the server says
 *  application/wasm (compileStreaming refuses anything else). */
async function compileResponse(res) {
  const where = res.url || "the Response given to init()";
  if (!res.ok) throw loadFailed(`fetching ${where} failed: HTTP ${res.status} ${res.statusText}${hint()}`);
  const type = res.headers.get("Content-Type") ?? "";
  if (typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\s*(;|$)/i.test(type)) {
    try {
      return await WebAssembly.compileStreaming(res);
    } catch (e) {
      throw failed(`${where} did not compile`, e);
    }
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (!(bytes[0] === 0 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d)) {
    const start = new TextDecoder().decode(bytes.subarray(0, 16)).replace(/\s+/g, " ");
    throw loadFailed(
      `${where} is not a WebAssembly module (Content-Type ${JSON.stringify(type)}, it starts ${JSON.stringify(start)})${hint()}`,
    );
  }
  return compile(bytes, where);
}

/** What most likely went wrong when the .wasm is not where this file expects it. */
function hint() {
  // Vite before 8 pre-bundles dependencies into <cacheDir>/deps/ (node_modules/.vite by default), without their files.
  if (/\/\.vite[^/]*\/deps[^/]*\//.test(import.meta.url)) {
    return ". Vite's dev server pre-bundled columns-wasm away from its .wasm: add optimizeDeps: { exclude: [\"columns-wasm\"] } to vite.config (or use Vite 8)";
  }
  return ". Is columns_wasm_bg.wasm served beside the script that loads it? Copy it from node_modules/columns-wasm/ next to your bundle, or pass its URL: init({ module_or_path: url })";
}
