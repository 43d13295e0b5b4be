// columns-wasm/http's declarations: what they allow, and what they refuse
// (every @ts-expect-error line must be an error, or tsc fails). Compiled
// by every tsconfig here: Node (nodenext, node16 without the DOM lib),
// bundler, and the strictest options.
import { ColumnsError, ColumnsFile } from "columns-wasm";
import { asyncBufferFromUrl, type AsyncBufferFromUrlOptions, type DownloadProgress, type UrlAsyncBuffer } from "columns-wasm/http";

export async function allowed(token: string, signal: AbortSignal): Promise<number> {
  const source: UrlAsyncBuffer = await asyncBufferFromUrl("https://example.invalid/data.cols");
  const file = await ColumnsFile.fromAsyncBuffer(source);
  const options: AsyncBufferFromUrlOptions = {
    headers: { Authorization: `Bearer ${token}` },
    fetch: (url, init) => fetch(url, init),
    signal,
    limit: 64 << 20,
    onProgress: (p: DownloadProgress) => console.log(p.bytes, p.totalBytes ?? "?"),
    requestInit: { cache: "no-store", credentials: "include", redirect: "error" }, // (cache: Node's own RequestInit type has none)
  };
  const other = await asyncBufferFromUrl(new URL("https://example.invalid/x.cols"), options);
  // Options forwarded as undefined (exactOptionalPropertyTypes), the global fetch as it is.
  await asyncBufferFromUrl("x.cols", { headers: undefined, fetch: undefined, signal: null, limit: undefined, onProgress: null, requestInit: null });
  await asyncBufferFromUrl("x.cols", { fetch, headers: [["X-Key", "1"]] });
  const bytes: Uint8Array = await other.slice(0, 8);
  const whole: Uint8Array = await other.readAll({ onProgress: (p) => void p.bytes });
  const { requests, bytes: fetched }: { requests: number; bytes: number } = source.stats;
  const why: string = source.note;
  try {
    await asyncBufferFromUrl("x.cols");
  } catch (e) {
    if (e instanceof ColumnsError && (e.kind === "bad_source" || e.kind === "too_large" || e.kind === "aborted")) console.error(e.message);
  }
  return file.numRows + bytes.length + whole.length + requests + fetched + why.length + source.url.length;
}

export async function refused(): Promise<void> {
  // @ts-expect-error the URL is a string or a URL
  await asyncBufferFromUrl(42);
  // @ts-expect-error limit is a number of bytes
  await asyncBufferFromUrl("x.cols", { limit: "1 GiB" });
  // @ts-expect-error the method is the module's, not an option
  await asyncBufferFromUrl("x.cols", { requestInit: { method: "POST" } });
  // @ts-expect-error so is the body (none: GET and HEAD)
  await asyncBufferFromUrl("x.cols", { requestInit: { body: "x" } });
  // @ts-expect-error cache is one of fetch's modes
  await asyncBufferFromUrl("x.cols", { requestInit: { cache: "sometimes" } });
  // @ts-expect-error progress gives bytes, not a label
  await asyncBufferFromUrl("x.cols", { onProgress: (p: { label: string }) => p.label });
  const source = await asyncBufferFromUrl("x.cols");
  // @ts-expect-error stats are read, not replaced
  source.stats = { requests: 0, bytes: 0 };
}
