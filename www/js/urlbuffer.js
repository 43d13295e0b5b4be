// An AsyncBuffer over HTTP: { byteLength, slice(start, end) } where every
// slice is one GET with a `Range: bytes=start-(end-1)` header.

function sourceError(message) {
  const e = new Error(message);
  e.kind = "bad_source";
  return e;
}

async function httpFail(url, r, what) {
  return sourceError(`${what}: HTTP ${r.status} ${r.statusText || ""} for ${url}`.trim());
}

/**
 * Learns the size of `url` from a HEAD request, or from a one-byte Range
 * probe's Content-Range when HEAD gives no length. A server that ignores
 * Range requests is read once in full (and said so in `note`).
 * `stats` counts what came over the network: every range read, and a
 * whole-file download as one read of all its bytes (the reads served from
 * it after that fetch nothing).
 */
export async function openUrl(url) {
  let size = null;
  let ranges = false;
  let wholeP = null; // the whole file, once a server sent it all: later and concurrent reads wait for it, none downloads it again
  let note = "";
  const stats = { requests: 0, bytes: 0 };
  const IGNORED = "the server ignores Range requests, so the whole file was downloaded";
  const download = async (r) => {
    const all = new Uint8Array(await r.arrayBuffer());
    stats.requests++;
    stats.bytes += all.length;
    return all;
  };
  const takeWhole = (r) =>
    (wholeP ??= download(r).then((all) => {
      note = IGNORED;
      return all;
    }));
  try {
    const r = await fetch(url, { method: "HEAD", cache: "no-store" });
    // A 401 or 403 on HEAD may be a URL signed for GET only (S3, GCS): the probe below decides.
    if (r.status === 404 || r.status === 410) throw await httpFail(url, r, "cannot open");
    if (r.ok) {
      const len = r.headers.get("content-length");
      if (len !== null && /^\d+$/.test(len) && !r.headers.get("content-encoding")) size = Number(len);
      ranges = (r.headers.get("accept-ranges") || "").toLowerCase() === "bytes";
    }
  } catch (e) {
    if (e.kind) throw e;
    // A network or CORS failure on HEAD: try the probe below.
  }
  if (size === null || !ranges) {
    let r;
    try {
      r = await fetch(url, { headers: { Range: "bytes=0-0" }, cache: "no-store" });
    } catch (e) {
      throw sourceError(`cannot fetch ${url}: ${e.message} (a server on another origin must allow CORS and expose Content-Range)`);
    }
    if (r.status === 206) {
      const m = /\/(\d+)\s*$/.exec(r.headers.get("content-range") || "");
      await r.arrayBuffer();
      if (!m) throw sourceError(`the server answered a Range request without a readable Content-Range total (${url})`);
      size = Number(m[1]);
      ranges = true;
    } else if (r.status === 416) {
      const m = /\/(\d+)\s*$/.exec(r.headers.get("content-range") || "");
      size = m ? Number(m[1]) : 0;
      ranges = true;
    } else if (r.ok) {
      size = (await takeWhole(r)).length;
    } else throw await httpFail(url, r, "cannot open");
  }

  const buffer = {
    byteLength: size,
    async slice(start, end) {
      if (end <= start) return new Uint8Array(0);
      if (wholeP) return (await wholeP).subarray(start, end);
      const r = await fetch(url, { headers: { Range: `bytes=${start}-${end - 1}` }, cache: "no-store" });
      if (r.status === 206) {
        const buf = new Uint8Array(await r.arrayBuffer());
        stats.requests++;
        stats.bytes += buf.length;
        if (buf.length !== end - start) throw sourceError(`asked for ${end - start} bytes at ${start}, the server sent ${buf.length}`);
        return buf;
      }
      if (r.status === 200) {
        // The server ignored the range: keep the body and serve from it
        // (a read that raced this one drops its own copy of the body).
        if (wholeP) r.body?.cancel();
        const all = await takeWhole(r);
        if (all.length !== size) throw sourceError(`the file changed size while reading (${size} -> ${all.length} bytes)`);
        return all.subarray(start, end);
      }
      // (No range here: the package's message around this one names it.)
      throw await httpFail(url, r, "range request");
    },
  };
  return { buffer, stats, get note() { return note; }, async readAll() {
    if (wholeP) return wholeP;
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) throw await httpFail(url, r, "downloading");
    // Not kept for slice(): reads "from the file" stay reads over HTTP.
    return download(r);
  } };
}
