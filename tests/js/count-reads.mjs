// A test hook on ColumnsFile's readColumnsAsync, for the worker pool's
// tests in Node (tests/node/web-worker-scope.mjs) and in Chromium
// (tests/e2e/counting-worker.js): each call that starts work (its signal
// not aborted) is reported as { chunks, reuse } before it runs, and made
// to take `slowMs()` ms a chunk more, so a test can count work instead of
// timing it.

export function countReads(ColumnsFile, report, slowMs) {
  const read = ColumnsFile.prototype.readColumnsAsync;
  ColumnsFile.prototype.readColumnsAsync = function (rowGroups, columns, options) {
    if (!options?.signal?.aborted) {
      const chunks = rowGroups.length * columns.length;
      report({ chunks, reuse: options?.reuse?.length ?? 0 });
      const until = performance.now() + slowMs() * chunks;
      while (performance.now() < until);
    }
    return read.call(this, rowGroups, columns, options);
  };
}
