// Types of columns-wasm/http: a file on a web server as an AsyncBuffer
// for ColumnsFile.fromAsyncBuffer, read with HTTP range requests. See the
// package README's "Over HTTP" section.

import type { AsyncBuffer } from "./columns_wasm.js";

/** How far a whole download has come (a server that ignores Range
 *  requests, or `readAll()`): bytes so far, and the file's size when the
 *  server said it (else null, until the last call, when all has come). */
export interface DownloadProgress {
  bytes: number;
  totalBytes: number | null;
}

/** fetch's RequestInit less what the module sets, with `cache` as the
 *  fetch standard has it: Node's own RequestInit type (@types/node,
 *  without the DOM lib) lacks it, though its fetch takes it. */
export type HttpRequestInit = Omit<RequestInit, "method" | "body" | "headers" | "signal"> & {
  cache?: "default" | "force-cache" | "no-cache" | "no-store" | "only-if-cached" | "reload" | undefined;
};

/** Options of `asyncBufferFromUrl`. A name not declared here (misspelt)
 *  is a `bad_argument` naming it, not ignored; so it is in `readAll`'s. */
export interface AsyncBufferFromUrlOptions {
  /** Sent with every request (an Authorization header, an API key). */
  headers?: RequestInit["headers"] | undefined;
  /** The fetch to use (a test's, an instrumented one): the global fetch
   *  by default, which needs a URL (absolute outside a page or worker);
   *  a fetch of your own is handed the name as given. */
  fetch?: ((url: string, init: RequestInit) => Promise<Response>) | undefined;
  /** Stops every request of this source, and a download under way:
   *  what waits on one rejects with an `aborted` ColumnsError (a read of
   *  the package's too, with that error as its `cause`). */
  signal?: AbortSignal | null | undefined;
  /** The most bytes a whole download may have (1 GiB by default): a
   *  server that ignores Range requests, or `readAll()`. Over it is a
   *  `too_large` error, before the body is read when its size is known
   *  (a read of the package's too, with that error as its `cause`). */
  limit?: number | undefined;
  /** Called as a whole download comes in, at most every 100 ms, and once
   *  when all of it has come. */
  onProgress?: ((progress: DownloadProgress) => void) | null | undefined;
  /** Other fetch options for every request (`cache`, `credentials`,
   *  `mode`, ...); method, body, headers and signal are this module's (a
   *  `bad_argument` here: `headers` and `signal` are options above). */
  requestInit?: HttpRequestInit | null | undefined;
  /** Every answer must be of the file the first was of: the same ETag
   *  (W/ aside), else, when no answer showed one, the same Last-Modified;
   *  otherwise a `bad_source` ("the file changed on the server while it
   *  was read"), as a size other than the first found always is; once a
   *  change is seen, every later slice() and readAll() fails the same way.
   *  `false` turns the version check off. Default `true`. */
  checkVersion?: boolean | undefined;
}

/** What `asyncBufferFromUrl` resolves to: an AsyncBuffer, and what it did. */
export interface UrlAsyncBuffer extends AsyncBuffer {
  readonly byteLength: number;
  /** The URL, as given. */
  readonly url: string;
  /** What came over the network so far: every range read, and a whole
   *  download as one request of all its bytes (reads served from it
   *  after that fetch nothing). Updated as reads happen. */
  readonly stats: { requests: number; bytes: number };
  /** Why the file was downloaded whole (the server ignores Range
   *  requests, or sends the file compressed, `Content-Encoding`, so that
   *  its ranges are of the compressed bytes), or "" when it is read in
   *  ranges. */
  readonly note: string;
  /** Bytes `start` to `end` (exclusive) of the file: whole numbers from 0
   *  to `byteLength`, else a `bad_argument`; empty when `end <= start`.
   *  `options.signal` (the package passes a read's) stops this slice's
   *  requests as the source's signal does; it then rejects with an
   *  `aborted` ColumnsError whose `cause` is the signal's reason. */
  slice(start: number, end: number, options?: { signal?: AbortSignal | null | undefined }): Promise<Uint8Array>;
  /** The whole file in memory, within `limit`: the copy a server that
   *  ignores Range requests already sent, else one more GET, which
   *  `signal` stops (the read then fails with kind `aborted`). */
  readAll(options?: { onProgress?: ((progress: DownloadProgress) => void) | null | undefined; signal?: AbortSignal | null | undefined }): Promise<Uint8Array>;
}

/** Opens `url` for range reads: learns its size (HEAD, else a one-byte
 *  Range probe) and resolves to an AsyncBuffer for
 *  `ColumnsFile.fromAsyncBuffer`. Rejects with a ColumnsError:
 *  `bad_source` (an HTTP status, an unreachable or CORS-blocked server,
 *  a file changed on the server; the message names the URL), `too_large` (over `limit`), `aborted`,
 *  `bad_argument`. */
export function asyncBufferFromUrl(url: string | URL, options?: AsyncBufferFromUrlOptions): Promise<UrlAsyncBuffer>;
