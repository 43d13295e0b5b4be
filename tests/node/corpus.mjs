// Node helpers shared by the conformance runner and the node:test suites:
// the package's Node entry, the shared corpus beside the project, and file lookup.
// (Not a test file itself: `node --test` runs only *.test.mjs here.)

import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The shared corpus: always `../shared` relative to the project root. */
export const corpusDir = path.resolve(projectRoot, "..", "shared", "corpus");
export const tokenizerDir = path.join(corpusDir, "tokenizers");

const require = createRequire(import.meta.url);

/** The package's Node entry (CommonJS, pkg/node.cjs from `scripts/build`):
 *  what `require("columns-wasm")` gives, ready without init(). */
export function loadApi() {
  const pkg = path.join(projectRoot, "pkg", "node.cjs");
  if (!fs.existsSync(pkg)) throw new Error(`${pkg} is missing: run scripts/build first`);
  return require(pkg);
}

/** Every NAME.cols under `dir` (recursively) with a NAME.json beside it,
 *  sorted by relative name; `.cols` files without one come back as orphans. */
export function findPairs(dir) {
  const pairs = [];
  const orphans = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".cols")) {
        const json = p.slice(0, -".cols".length) + ".json";
        if (fs.existsSync(json)) pairs.push({ name: path.relative(dir, p).split(path.sep).join("/"), cols: p, json });
        else orphans.push(p);
      }
    }
  };
  walk(dir);
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  orphans.sort();
  return { pairs, orphans };
}

/** The bytes of every `*.json` in `dir` that registers as a tokenizer, sorted by name. */
export function loadTokenizers(api, dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, f)));
    const probe = new api.TokenizerRegistry();
    try {
      probe.register(bytes);
      out.push(bytes);
    } catch {
      // not a tokenizer.json: skipped, as the native runner does
    } finally {
      probe.free();
    }
  }
  return out;
}

export function readPair(pair) {
  return {
    bytes: new Uint8Array(fs.readFileSync(pair.cols)),
    expected: JSON.parse(fs.readFileSync(pair.json, "utf8")),
    name: path.basename(pair.cols),
  };
}

/** A corpus file by its name relative to the corpus, e.g. "valid/nulls". */
export function corpusFile(rel) {
  return readPair({ cols: path.join(corpusDir, rel + ".cols"), json: path.join(corpusDir, rel + ".json") });
}
