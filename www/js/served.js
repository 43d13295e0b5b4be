// Why a file of the site did not load, from what the server says of it: a
// failed import() or a WebAssembly compile gives only a bare TypeError, the
// same for a file that is missing and for one served with the wrong
// Content-Type. Asked only after (or, for the .wasm, beside) the load.

// The MIME types a browser runs a module from (HTML's JavaScript MIME types).
const JS_TYPE = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript))$/;

/** { status, type } the server gives for `url` (HEAD, else a GET whose body
 *  is dropped), or null when it cannot be asked. */
export async function served(url) {
  for (const method of ["HEAD", "GET"]) {
    let res;
    try {
      res = await fetch(url, { method, cache: "no-store" });
    } catch {
      return null;
    }
    res.body?.cancel().catch(() => {});
    if (method === "HEAD" && (res.status === 405 || res.status === 501)) continue;
    return { status: res.status, missing: res.status === 404 || res.status === 410, type: (res.headers.get("content-type") || "").split(";")[0].trim().toLowerCase() };
  }
  return null;
}

const where = (url) => {
  try {
    return new URL(url).pathname;
  } catch {
    return String(url);
  }
};

/** What is wrong with a module at `url` as served: { missing, message } or
 *  null when the server sends it as it should (the cause is elsewhere). */
export async function moduleTrouble(url) {
  const s = await served(url);
  if (!s) return null;
  if (s.missing) return { missing: true, message: `${where(url)} is missing from this site (HTTP ${s.status})` };
  if (s.status < 200 || s.status > 299) return { missing: false, message: `the server answered HTTP ${s.status} for ${where(url)}` };
  if (!JS_TYPE.test(s.type)) {
    const ext = /\.(\w+)$/.exec(where(url))?.[1] ?? "js";
    return { missing: false, message: `the server sends ${where(url)} as ${s.type ? `"${s.type}"` : "no Content-Type"}, and a browser runs a JavaScript module only when it is served as JavaScript: the host must serve .${ext} files as text/javascript` };
  }
  return null;
}

/** The same for a WebAssembly module, which browsers compile only from
 *  application/wasm. */
export async function wasmTrouble(url) {
  const s = await served(url);
  if (!s) return null;
  if (s.missing) return { missing: true, message: `${where(url)} is missing from this site (HTTP ${s.status})` };
  if (s.status < 200 || s.status > 299) return { missing: false, message: `the server answered HTTP ${s.status} for ${where(url)}` };
  if (s.type !== "application/wasm") return { missing: false, message: `the server sends ${where(url)} as ${s.type ? `"${s.type}"` : "no Content-Type"}, and browsers compile WebAssembly only when it is served as application/wasm: the host must serve .wasm files as application/wasm` };
  return null;
}

/** The first trouble among `urls` (modules), or null. */
export async function firstModuleTrouble(urls) {
  for (const u of urls) {
    const t = await moduleTrouble(u);
    if (t) return t;
  }
  return null;
}
