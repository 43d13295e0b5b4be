// A ColumnsPool worker for pool.test.mjs that says what it reads: each
// chunk read the package's worker starts (pool-worker.js, the same module
// instance) is posted to the page as { op: "counted", chunks } before it
// runs, and made to take `slow` ms a chunk more, so a test can count work
// instead of timing it. The pool ignores messages with no job.
import { ColumnsFile } from "/pkg/columns_wasm.js";
import "/pkg/pool-worker.js";

const SLOW_MS = 3;
const read = ColumnsFile.prototype.readColumnsAsync;
ColumnsFile.prototype.readColumnsAsync = function (rowGroups, columns, options) {
  // A call refused at once (its signal aborted) starts no work.
  if (!options?.signal?.aborted) {
    const chunks = rowGroups.length * columns.length;
    self.postMessage({ op: "counted", chunks });
    const until = performance.now() + SLOW_MS * chunks;
    while (performance.now() < until);
  }
  return read.call(this, rowGroups, columns, options);
};
