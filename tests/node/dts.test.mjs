// The package README says the .d.ts files are the whole reference, each
// name with its comment: every exported declaration of every shipped .d.ts
// has a doc comment right above it (or above the overloads it opens).

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./corpus.mjs";

const pkg = path.join(projectRoot, "pkg");
const files = fs.readdirSync(pkg).filter((f) => /\.d\.c?ts$/.test(f));

test("every exported name of the shipped .d.ts files has a doc comment", () => {
  assert.ok(files.length >= 6, `only ${files.join(", ")}`);
  const bare = [];
  let seen = 0;
  for (const f of files) {
    const lines = fs.readFileSync(path.join(pkg, f), "utf8").split("\n");
    lines.forEach((line, i) => {
      const m = /^export (?:default |declare )*(?:type|interface|class|function|const) (\w+)/.exec(line);
      if (!m) return;
      seen++;
      // Overloads of one function share the comment above the first.
      let k = i - 1;
      while (k >= 0 && lines[k].startsWith(`export function ${m[1]}(`)) k--;
      if (!/\*\/\s*$/.test(lines[k] ?? "")) bare.push(`${f}:${i + 1} ${m[1]}`);
    });
  }
  assert.ok(seen > 40, `only ${seen} exported names found`);
  assert.deepEqual(bare, []);
});
