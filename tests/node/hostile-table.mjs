#!/usr/bin/env node
// Runs every case of hostile-cases.mjs in its own Node process against a
// built package directory (its node.cjs, or an older nodejs-target
// columns_wasm.js) and prints a markdown table of what
// happened (a trap or an uncaught exception ends the process; a hang is
// cut after a timeout), and whether the same instance still worked after.
//   node tests/node/hostile-table.mjs [package dir, default pkg] [--timeout 30]
// Used for issue 12's before/after table: run it against main's package
// and against this one.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cases, context, outcome } from "./hostile-cases.mjs";

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const pkg = path.resolve(args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--"))) ?? "pkg");

if (args.includes("--case")) {
  const [call, expect, run, check] = cases[Number(opt("--case"))];
  const entry = ["node.cjs", "columns_wasm.js"].map((f) => path.join(pkg, f)).find((f) => fs.existsSync(f));
  const api = createRequire(import.meta.url)(entry);
  const ctx = context(api);
  let line;
  try {
    const result = await run(ctx);
    line = expect === "ok" ? (check(result, ctx) ? "ok" : "ok, but the result is wrong") : "succeeded (no error)";
  } catch (e) {
    line = outcome(e);
  }
  try {
    await ctx.stillWorks();
    line += " | works";
  } catch (e) {
    line += ` | broken: ${outcome(e)}`;
  }
  console.log(line);
  process.exit(0);
}

const timeout = Number(opt("--timeout", 30)) * 1000;
console.log(`| call | what happened (${path.basename(pkg)}) | instance after |\n|---|---|---|`);
cases.forEach(([call], i) => {
  const r = spawnSync(process.execPath, [self, pkg, "--case", String(i)], { encoding: "utf8", timeout, maxBuffer: 1 << 24 });
  let cell;
  if (r.error?.code === "ETIMEDOUT") cell = `never settled (killed after ${timeout / 1000} s) | -`;
  else if (r.status === 0 && r.stdout.trim()) cell = r.stdout.trim().split("\n").pop();
  else {
    const err = (r.stderr || "").split("\n").find((l) => /Error|unreachable|abort/i.test(l)) ?? `exit ${r.status ?? r.signal}`;
    cell = `process died: ${err.trim().slice(0, 90)} | -`;
  }
  console.log(`| \`${call}\` | ${cell.replaceAll("|", "\\|").replace(" \\| ", " | ")} |`);
});
