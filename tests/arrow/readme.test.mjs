// Every ```js snippet of js/arrow.md (the package README's Arrow section)
// runs as written, as a Node ES module (as CommonJS when it requires the
// package), with "columns-wasm" and "columns-wasm/arrow" meaning the built
// package and the adapter (its ES module or its require() build), in a
// folder holding diamonds.cols; what it prints must be what the snippet's
// `// →` comments say.

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { corpusDir, packageEntry, packageRequireEntry, projectRoot } from "./support.mjs";

const md = fs.readFileSync(path.join(projectRoot, "js", "arrow.md"), "utf8");
const snippets = [...md.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
const lib = path.join(import.meta.dirname, ".lib");
const arrowUrl = pathToFileURL(path.join(lib, "arrow.js")).href;
const pkgUrl = pathToFileURL(packageEntry).href;

test("arrow.md has its snippets", () => {
  assert.ok(snippets.length >= 4, `${snippets.length} snippets`);
});

snippets.forEach((code, k) => {
  const first = code.split("\n").find((l) => l.startsWith("const ") || l.startsWith("//")) ?? "";
  test(`arrow.md snippet ${k + 1} (${first.slice(0, 60)}) runs and prints what it says`, () => {
    const expected = [...code.matchAll(/console\.log\(.*\);\s*\/\/ → (.*)$/gm)].map((m) => m[1]);
    assert.ok(expected.length > 0, "the snippet shows what it prints");
    const commonjs = code.includes('require("columns-wasm');
    const runnable = commonjs
      ? code.replaceAll('require("columns-wasm/arrow")', `require(${JSON.stringify(path.join(lib, "arrow.cjs"))})`).replaceAll('require("columns-wasm")', `require(${JSON.stringify(packageRequireEntry)})`)
      : code.replaceAll('from "columns-wasm/arrow"', `from "${arrowUrl}"`).replaceAll('from "columns-wasm"', `from "${pkgUrl}"`);
    assert.notEqual(runnable, code, "the snippet imports the package");
    // Beside the adapter's copy, so "apache-arrow" and DuckDB resolve from this folder.
    const script = path.join(lib, `readme-${process.pid}-${k}.${commonjs ? "cjs" : "mjs"}`);
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "arrow-readme-"));
    try {
      fs.writeFileSync(script, runnable);
      fs.copyFileSync(path.join(corpusDir, "real", "diamonds.default.cols"), path.join(cwd, "diamonds.cols"));
      const out = execFileSync(process.execPath, [script], { cwd, encoding: "utf8" });
      assert.deepEqual(out.trimEnd().split("\n"), expected);
    } finally {
      fs.rmSync(script, { force: true });
      fs.rmSync(cwd, { recursive: true });
    }
  });
});
