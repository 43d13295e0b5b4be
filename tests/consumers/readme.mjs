// The package README's snippets are the consumer tests' code: every code
// block of npm/README.md is preceded by `<!-- test: file, ... -->` naming
// the fixture files (under tests/consumers/) that contain it, line for line
// (indentation and blank lines aside), and those files are what the
// consumer tests run. The exceptions are the install lines.
//   node tests/consumers/readme.mjs   (prints "ok" or every drift)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const readmePath = path.resolve(here, "../../npm/README.md");
const UNTESTED = new Set(["npm install columns-wasm", "npm install columns-wasm apache-arrow"]);

const norm = (text) => text.split("\n").map((l) => l.trim()).filter((l) => l !== "");

/** Problems with the README's snippets; none when every one is in its files. */
export function checkReadme(readme = fs.readFileSync(readmePath, "utf8")) {
  const problems = [];
  const lines = readme.split("\n");
  let blocks = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) {
      problems.push(`line ${i + 1}: a code block that never ends`);
      break;
    }
    const code = lines.slice(i + 1, end).join("\n");
    const where = `README line ${i + 1} (${norm(code)[0] ?? "empty"})`;
    blocks++;
    let prev = i - 1;
    while (prev >= 0 && lines[prev].trim() === "") prev--;
    const marker = /^<!-- test: (.+) -->$/.exec(lines[prev] ?? "");
    if (!marker) {
      if (!UNTESTED.has(code.trim())) problems.push(`${where}: no <!-- test: file --> line before it`);
    } else {
      const want = norm(code);
      for (const rel of marker[1].split(",").map((f) => f.trim())) {
        const file = path.join(here, rel);
        if (!fs.existsSync(file)) {
          problems.push(`${where}: ${rel} does not exist`);
          continue;
        }
        const have = norm(fs.readFileSync(file, "utf8"));
        const found = have.some((_, k) => want.every((w, j) => have[k + j] === w));
        if (!found) problems.push(`${where}: not in ${rel} as written`);
      }
    }
    i = end;
  }
  if (blocks === 0) problems.push("no code blocks found");
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkReadme();
  console.log(problems.length ? problems.join("\n") : "ok");
  process.exitCode = problems.length ? 1 : 0;
}
