// Shared by the Arrow tests: the package (as tests/node/corpus.mjs loads it),
// the adapter js/arrow.js and the pinned apache-arrow from this folder's
// node_modules (run.sh installs them). The adapter imports "apache-arrow"
// by name, as it will from inside the installed package, so it is copied
// here (.lib/, git-ignored) where that name resolves to this folder's copy.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadApi, projectRoot } from "../node/corpus.mjs";

export * from "../node/corpus.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
if (!fs.existsSync(path.join(here, "node_modules", "apache-arrow"))) {
  throw new Error(`${here}/node_modules is missing: run tests/arrow/run.sh (it runs npm ci)`);
}

// Copy, then rename: test files run in parallel processes, and a reader
// must never see a half-written file.
const lib = path.join(here, ".lib");
fs.mkdirSync(lib, { recursive: true });
const tmp = path.join(lib, `arrow.${process.pid}.tmp`);
fs.copyFileSync(path.join(projectRoot, "js", "arrow.js"), tmp);
fs.renameSync(tmp, path.join(lib, "arrow.js"));

/** What `import "columns-wasm"` gives in Node: pkg/node.mjs (one package
 *  for every target) or, before that layout, the nodejs build in pkg-node/. */
export const packageEntry = [path.join(projectRoot, "pkg", "node.mjs"), path.join(projectRoot, "pkg-node", "columns_wasm.js")].find((f) => fs.existsSync(f));
/** The package's declarations, which js/arrow.d.ts imports as ./columns_wasm.js. */
export const packageTypes = path.join(projectRoot, "pkg", "columns_wasm.d.ts");

export const adapter = await import(pathToFileURL(path.join(lib, "arrow.js")).href);
export const arrow = await import("apache-arrow");
export const api = loadApi();
