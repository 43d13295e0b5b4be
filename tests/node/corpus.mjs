// Node helpers shared by the conformance runner and the node:test suites:
// the package's Node entry, the project's corpus (corpus/), and file lookup.
// (Not a test file itself: `node --test` runs only *.test.mjs here.)

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The conformance corpus, in the project (corpus/README.md). */
export const corpusDir = path.join(projectRoot, "corpus");
export const tokenizerDir = path.join(corpusDir, "tokenizers");

const require = createRequire(import.meta.url);

/** The package's Node entry (CommonJS, pkg/node.cjs from `scripts/build`):
 *  what `require("columns-wasm")` gives, ready without init(). */
export function loadApi() {
  const pkg = path.join(projectRoot, "pkg", "node.cjs");
  if (!fs.existsSync(pkg)) throw new Error(`${pkg} is missing: run scripts/build first`);
  return require(pkg);
}

/** The expected JSON beside NAME.cols: NAME.json, else NAME.json.gz (null when neither). */
export function expectedPath(cols) {
  const stem = cols.slice(0, -".cols".length);
  return [stem + ".json", stem + ".json.gz"].find((p) => fs.existsSync(p)) ?? null;
}

/** The parsed JSON of a .json, or of a .json.gz unpacked. */
export function readJson(file) {
  const raw = fs.readFileSync(file);
  return JSON.parse((file.endsWith(".gz") ? zlib.gunzipSync(raw) : raw).toString("utf8"));
}

/** Every NAME.cols under `dir` (recursively) with a NAME.json or NAME.json.gz
 *  beside it, sorted by relative name; `.cols` files without one come back as orphans. */
export function findPairs(dir) {
  const pairs = [];
  const orphans = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".cols")) {
        const json = expectedPath(p);
        if (json) pairs.push({ name: path.relative(dir, p).split(path.sep).join("/"), cols: p, json });
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
    expected: readJson(pair.json),
    name: path.basename(pair.cols),
  };
}

/** A corpus file by its name relative to the corpus, e.g. "valid/nulls". */
export function corpusFile(rel) {
  const cols = path.join(corpusDir, rel + ".cols");
  const json = expectedPath(cols);
  if (!json) throw new Error(`no ${rel}.json or ${rel}.json.gz in ${corpusDir}`);
  return readPair({ cols, json });
}
