#!/usr/bin/env node
// Checks that every `--no-inline=PATTERN` given to wasm-opt in Cargo.toml
// still names a function of the module cargo built (its name section,
// before wasm-opt strips it): wasm-opt ignores a pattern that matches
// nothing, so a renamed function would silently be inlined again.
//   node tools/no-inline.mjs   (after scripts/build)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
  let p = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    let x;
    do {
      x = b[p++];
      r += (x & 0x7f) * 2 ** s;
      s += 7;
    } while (x & 0x80);
    return r;
  };
  const out = [];
  while (p < b.length) {
    const id = b[p++];
    const len = leb();
    const end = p + len;
    if (id === 0) {
      const n = leb();
      const section = b.subarray(p, p + n).toString();
      p += n;
      while (section === "name" && p < end) {
        const sub = b[p++];
        const subEnd = leb() + p;
        if (sub === 1) {
          for (let k = leb(); k > 0; k--) {
            leb();
            const l = leb();
            out.push(demangle(b.subarray(p, p + l).toString()));
            p += l;
          }
        }
        p = subEnd;
      }
    }
    p = end;
  }
  return out;
}
