// A ColumnsPool worker for pool.test.mjs that says what it reads: each
// chunk read the package's worker starts (pool-worker.js, the same module
// instance) is posted to the page as { op: "counted", chunks } before it
// runs, and made to take 3 ms a chunk more (tests/js/count-reads.mjs).
// The pool ignores messages with no job.
import { ColumnsFile } from "/pkg/columns_wasm.js";
import "/pkg/pool-worker.js";
import { countReads } from "/tests/js/count-reads.mjs";

countReads(ColumnsFile, ({ chunks }) => self.postMessage({ op: "counted", chunks }), () => 3);
