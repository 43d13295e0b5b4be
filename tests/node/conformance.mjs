#!/usr/bin/env node
// Conformance runner for the JS API (nodejs package) over any directory of
// `columns` files with expected JSON (NAME.cols beside NAME.json or NAME.json.gz),
// mirroring the native runner:
//   node tests/node/conformance.mjs [--corpus <dir>] [--tokenizers <dir>] [--mode bytes|async|blob]
// The defaults are the project's corpus/ and corpus/tokenizers/.
// One line per file (`pass NAME` / `FAIL NAME: why`), then `N passed, M failed`;
// exits non-zero on any failure or when no file was checked.

import fs from "node:fs";
import process from "node:process";
import { checkFile } from "../js/check.mjs";
import { corpusDir, findPairs, loadApi, loadTokenizers, readPair, tokenizerDir as defaultTokenizers } from "./corpus.mjs";

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : undefined;
};
const corpus = opt("corpus") ?? corpusDir;
const tokenizerDir = opt("tokenizers") ?? defaultTokenizers;
const mode = opt("mode") ?? "bytes";
if (!corpus || !tokenizerDir || !["bytes", "async", "blob"].includes(mode)) {
  console.error("usage: node tests/node/conformance.mjs [--corpus <dir>] [--tokenizers <dir>] [--mode bytes|async|blob]");
  process.exit(2);
}

for (const [flag, dir] of [["--corpus", corpus], ["--tokenizers", tokenizerDir]]) {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(`${flag} ${dir}: not a directory`);
    process.exit(2);
  }
}

const api = loadApi();
const tokenizers = loadTokenizers(api, tokenizerDir);
const { pairs, orphans } = findPairs(corpus);
for (const o of orphans) console.log(`skip ${o} (no expected JSON beside it; not counted)`);
let passed = 0;
let failed = 0;
for (const pair of pairs) {
  let why;
  try {
    const { bytes, expected, name } = readPair(pair);
    why = await checkFile({ ...api, bytes, expected, tokenizers, name, mode });
  } catch (e) {
    why = `runner error: ${e?.message ?? e}`;
  }
  if (why === null) {
    passed++;
    console.log(`pass ${pair.name}`);
  } else {
    failed++;
    console.log(`FAIL ${pair.name}: ${why}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
