// Shared by the Arrow tests: the package (as tests/node/corpus.mjs loads it),
// the adapter (pkg/arrow.js as shipped, or js/arrow.js) and the pinned
// apache-arrow from this folder's node_modules (run.sh installs them). The
// adapter imports "apache-arrow" by name, as it does from inside the
// installed package, so it is copied here (.lib/, git-ignored) where that
// name resolves to this folder's copy.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadApi, projectRoot } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

export * from "../node/corpus.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
if (!fs.existsSync(path.join(here, "node_modules", "apache-arrow"))) {
  throw new Error(`${here}/node_modules is missing: run tests/arrow/run.sh (it runs npm ci)`);
}

// The adapter as shipped (pkg/arrow.js, bundled by scripts/build) when the
// package has one, else its source. Copy, then rename: test files run in
// parallel processes, and a reader must never see a half-written file.
const shipped = path.join(projectRoot, "pkg", "arrow.js");
export const adapterSource = fs.existsSync(shipped) ? shipped : path.join(projectRoot, "js", "arrow.js");
const lib = path.join(here, ".lib");
fs.mkdirSync(lib, { recursive: true });
const tmp = path.join(lib, `arrow.${process.pid}.tmp`);
fs.copyFileSync(adapterSource, tmp);
fs.renameSync(tmp, path.join(lib, "arrow.js"));
// Its build for require(), where the package has one (scripts/build makes it).
const shippedCjs = path.join(projectRoot, "pkg", "arrow.cjs");
if (fs.existsSync(shippedCjs)) {
  fs.copyFileSync(shippedCjs, tmp);
  fs.renameSync(tmp, path.join(lib, "arrow.cjs"));
}

/** What `import "columns-wasm"` gives in Node: pkg/node.mjs. */
export const packageEntry = path.join(projectRoot, "pkg", "node.mjs");
/** What `require("columns-wasm")` gives in Node: pkg/node.cjs. */
export const packageRequireEntry = path.join(projectRoot, "pkg", "node.cjs");
/** The package's declarations, which js/arrow.d.ts imports as ./columns_wasm.js. */
export const packageTypes = path.join(projectRoot, "pkg", "columns_wasm.d.ts");

export const adapter = await import(pathToFileURL(path.join(lib, "arrow.js")).href);
export const arrow = await import("apache-arrow");
export const api = loadApi();

/** A Column around arrays made here, by the package's internal maker (the
 *  pool's: `new Column()` is refused, columns come from reads). */
export function makeColumn(type, length, nullCount, values, validity) {
  return api.__internal.columnFromParts(type, length, nullCount, values, validity);
}

/**
 * A file whose names repeat, as comparison.cols's i, i, f, s, s do, plus an
 * "i_1" of its own that the renaming must step around; two row groups,
 * nulls in both string columns. Written by tests/node/synth.mjs (from
 * FORMAT.md), so it needs nothing beside the project.
 */
export function duplicateNamesFile() {
  const schema = [
    { name: "i", type: "int64", nullable: false },
    { name: "i", type: "int64", nullable: false },
    { name: "f", type: "int32", nullable: false },
    { name: "s", type: "string", nullable: true },
    { name: "s", type: "string", nullable: true },
    { name: "i_1", type: "int32", nullable: false },
  ];
  const group = (from, n) => {
    const rows = Array.from({ length: n }, (_, k) => from + k);
    return [
      rows.map((r) => r * 7),
      rows.map((r) => 1_000_000_007 * (r % 13) - r),
      rows.map((r) => (r % 5) - 2),
      rows.map((r) => (r % 4 === 0 ? null : `customer-${r % 9}@example.com`)),
      rows.map((r) => (r % 3 === 0 ? null : `id-${r}-suffix`)),
      rows.map((r) => r % 2),
    ];
  };
  const file = buildFile(schema, [{ offset: 5, columns: group(0, 300) }, { offset: 20_000, columns: group(300, 200) }]);
  return { bytes: materialize(file), names: schema.map((c) => c.name) };
}
