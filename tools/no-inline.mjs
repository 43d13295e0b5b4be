#!/usr/bin/env node
// Checks that every `--no-inline=PATTERN` given to wasm-opt in Cargo.toml
// still names a function of the module cargo built (its name section,
// before wasm-opt strips it): wasm-opt ignores a pattern that matches
// nothing, so a renamed function would silently be inlined again.
//   node tools/no-inline.mjs   (after scripts/build)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readName, readU32 } from "./names.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const toml = fs.readFileSync(path.join(root, "Cargo.toml"), "utf8");
const patterns = [...toml.matchAll(/"--no-inline=([^"]+)"/g)].map((m) => m[1]);
const wasmPath = path.join(root, "target/wasm32-unknown-unknown/release/columns_wasm.wasm");
const names = functionNames(fs.readFileSync(wasmPath));
if (names.length === 0) throw new Error(`${wasmPath} has no function names`);

// wasm-opt's wildcard: `*` matches any run of characters, `?` any one.
const matcher = (p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
let failed = false;
for (const p of patterns) {
  const hits = names.filter((n) => matcher(p).test(n));
  console.log(`--no-inline=${p}: ${hits.length ? hits.join(", ") : "NO FUNCTION"}`);
  if (hits.length === 0) failed = true;
}
if (failed) {
  console.error("a --no-inline pattern in Cargo.toml names no function: update it to the function's new path");
  process.exit(1);
}

/** A legacy-mangled Rust path (`_ZN` (length, segment)* `E`) as wasm-bindgen
 *  writes it, `a::b::h0123`; other names as they are. */
function demangle(name) {
  const m = /^_ZN((?:\d+.+?)+)E$/.exec(name);
  if (!m) return name;
  const parts = [];
  for (let rest = m[1]; rest; ) {
    const len = /^\d+/.exec(rest);
    if (!len) return name;
    const n = Number(len[0]);
    parts.push(rest.slice(len[0].length, len[0].length + n));
    rest = rest.slice(len[0].length + n);
  }
  return parts.join("::");
}

/** The names in a module's name section (subsection 1: function names). */
function functionNames(b) {
  const at = { i: 8 };
  const out = [];
  while (at.i < b.length) {
    const id = b[at.i++];
    const end = readU32(b, at) + at.i;
    if (id === 0 && readName(b, at) === "name") {
      while (at.i < end) {
        const sub = b[at.i++];
        const subEnd = readU32(b, at) + at.i;
        if (sub === 1) {
          for (let k = readU32(b, at); k > 0; k--) {
            readU32(b, at);
            out.push(demangle(readName(b, at)));
          }
        }
        at.i = subEnd;
      }
    }
    at.i = end;
  }
  return out;
}
