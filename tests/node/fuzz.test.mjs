// (c) A deterministic mutation pass through the JS API. Thousands of damaged
// variants of several corpus files (bit flips, byte overwrites, truncations
// and cut-outs at every interesting offset, 4-byte length fields set to
// extreme values) are opened and every column read. Each open and read must
// either succeed with a well-formed column or throw an Error carrying a
// documented string `kind`. A trap (WebAssembly.RuntimeError, e.g.
// "unreachable" from a panic) or any other throw fails the test, naming the
// variant so it can be reproduced. Afterwards a known-good file must still
// read correctly: the instance survived.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { checkFile, columnJson, describeThrown, isApiError, memoryAsyncBuffer } from "../js/check.mjs";
import { corpusFile, loadApi, tokenizerDir } from "./corpus.mjs";

const { ColumnsFile, TokenizerRegistry } = loadApi();
const tokenizers = ["gpt2-tokenizer.json", "small-tokenizer.json"].map((f) => new Uint8Array(fs.readFileSync(path.join(tokenizerDir, f))));
const registry = new TokenizerRegistry();
for (const t of tokenizers) registry.register(t);

const FILES = [
  "valid/all_types_small",
  "valid/nulls",
  "valid/enc_dict_lzw",
  "valid/enc_affix_gzip",
  "valid/enc_offsetbytes_flate",
  "valid/enc_delta_zlib",
  "valid/enc_rlebitpack_none",
  "valid/enc_plain_flate",
  "valid/blocks_zlib",
  "valid/footer_reordered_extra_fields",
  "valid/footer_without_tokenizer_field",
  "valid/tokenized_two_tokenizers",
  "valid/tokenized_special_tokens",
  "valid/tokenized_remap_deltas",
  "valid/tokenized_bits_offsets",
  "valid/zero_rows",
  "valid/no_row_groups",
];

/** xorshift32: a small deterministic PRNG. */
function prng(seed) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  return { next, below: (n) => next() % n, pick: (a) => a[next() % a.length] };
}

/** Offsets where the file's structure changes: header fields, every chunk's
 *  header fields, block boundaries, bitmap and data start, footer and tail. */
function interestingOffsets(bytes) {
  const file = ColumnsFile.fromBytes(bytes, registry);
  const set = new Set([0, 1, 4, 5, 8, 9, bytes.length - 8, bytes.length - 4, bytes.length]);
  const fields = [[bytes.length - 8, "footer length"]];
  if (file.version === 2) {
    fields.push([5, "tokenizer count"]);
    for (let i = 0; i <= file.tokenizers.length; i++) set.add(9 + 32 * i);
  }
  for (const r of file.layout) {
    set.add(r.start);
    set.add(r.end);
  }
  file.rowGroups.forEach((rg, g) => {
    rg.columns.forEach((cm, c) => {
      const at = cm.byteOffset;
      for (const d of [1, 2, 6, 10, 14, 18]) set.add(at + d);
      fields.push([at + 2, "null bitmap length"], [at + 6, "raw length"], [at + 10, "data length"], [at + 14, "block count"]);
      const report = file.inspectChunk(g, c);
      report.blocks.forEach((b, i) => {
        fields.push([at + 18 + 8 * i, `block ${i} raw length`], [at + 22 + 8 * i, `block ${i} stored length`]);
        set.add(b.offset);
        set.add(b.offset + b.storedLength);
      });
      const dataStart = at + 18 + 8 * report.blocks.length + report.nullBitmapLength;
      set.add(at + 18 + 8 * report.blocks.length);
      set.add(dataStart);
      // Uncompressed streams keep their encodings' own length fields in the
      // file (dict sizes, offsets, tokenized counts, string lengths...).
      if (report.codec === "None") {
        for (let d = 0; d < 24; d += 2) if (dataStart + d + 4 <= at + cm.byteLength) fields.push([dataStart + d, `stream +${d}`]);
      }
    });
  });
  file.free();
  const offsets = [...set].filter((o) => o >= 0 && o <= bytes.length).sort((a, b) => a - b);
  return { offsets, fields: fields.filter(([o]) => o >= 0 && o + 4 <= bytes.length) };
}

/** Every damaged variant of `bytes`, as [description, bytes]. */
function* variants(bytes, rand) {
  const { offsets, fields } = interestingOffsets(bytes);
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const footerLen = view.getUint32(n - 8, true);
  const footerStart = n - 8 - footerLen;
  const footerAndTail = bytes.slice(footerStart);
  // Truncations at every interesting offset (and next to it in the header,
  // the footer's edges and the tail).
  for (const o of offsets) {
    const near = o < 48 || Math.abs(o - footerStart) < 2 || o > n - 16;
    for (const at of near ? [o - 1, o, o + 1] : [o]) {
      if (at < 0 || at >= n) continue;
      yield ["truncate", `truncate to ${at}`, () => bytes.slice(0, at)];
      // Cut short but with the original footer and tail re-appended: the
      // footer now points past the data, or at the wrong bytes.
      if (at < footerStart) {
        yield ["truncate", `truncate to ${at} + original footer`, () => {
          const cut = new Uint8Array(at + footerAndTail.length);
          cut.set(bytes.subarray(0, at));
          cut.set(footerAndTail, at);
          return cut;
        }];
      }
    }
  }
  // Cut-outs between interesting offsets: every later byte shifts.
  for (let i = 0; i + 1 < offsets.length; i += 2) {
    const [a, b] = [offsets[i], offsets[Math.min(i + 1 + rand.below(3), offsets.length - 1)]];
    if (b > a && b < n) {
      yield ["cut", `cut out [${a}, ${b})`, () => {
        const v = new Uint8Array(n - (b - a));
        v.set(bytes.subarray(0, a));
        v.set(bytes.subarray(b), a);
        return v;
      }];
    }
  }
  // 4-byte length fields set to extremes.
  for (const [at, what] of fields) {
    const orig = view.getUint32(at, true);
    for (const value of [0, 1, 0xffffffff, 0x80000000, (orig + 1) >>> 0]) {
      if (value === orig) continue;
      yield [at < 9 || at >= n - 8 ? "header" : "field", `${what} at ${at} = 0x${value.toString(16)}`, () => {
        const v = bytes.slice();
        new DataView(v.buffer).setUint32(at, value, true);
        return v;
      }];
    }
  }
  // Header bytes, and footer bytes (about 120 per file, evenly spread), set to special values.
  const step = Math.max(1, Math.floor(footerLen / 120));
  const targets = [...Array(Math.min(n, 9)).keys()];
  for (let o = footerStart; o < n - 8; o += step) targets.push(o);
  for (const o of targets) {
    for (const value of [0x00, 0xff, 0x80, bytes[o] ^ 0x01]) {
      if (value === bytes[o]) continue;
      yield [o < 9 ? "header" : "footer", `byte ${o} = 0x${value.toString(16)}`, () => {
        const v = bytes.slice();
        v[o] = value;
        return v;
      }];
    }
  }
  // Random bit flips: half of them near chunk headers, footer and tail.
  const hot = offsets.filter((o) => o < n);
  for (let i = 0; i < 160; i++) {
    const v = bytes.slice();
    const flips = 1 + rand.below(4);
    const where = [];
    for (let k = 0; k < flips; k++) {
      const o = i % 2 === 0 ? Math.min(n - 1, rand.pick(hot) + rand.below(24)) : rand.below(n);
      const bit = rand.below(8);
      v[o] ^= 1 << bit;
      where.push(`${o}.${bit}`);
    }
    yield ["flip", `flip bits ${where.join(",")}`, () => v];
  }
  // Random byte overwrites.
  for (let i = 0; i < 80; i++) {
    const v = bytes.slice();
    const count = 1 + rand.below(8);
    const where = [];
    for (let k = 0; k < count; k++) {
      const o = rand.below(n);
      v[o] = rand.below(256);
      where.push(`${o}=${v[o]}`);
    }
    yield ["overwrite", `overwrite ${where.join(",")}`, () => v];
  }
}

/** How many variants of each category one file contributes (all when
 *  COLUMNS_FUZZ_FULL=1: about 40,000 variants, a few minutes). */
const BUDGET = { header: Infinity, truncate: 150, cut: 50, field: 250, footer: 120, flip: 80, overwrite: 40 };
const FULL = globalThis.process?.env?.COLUMNS_FUZZ_FULL === "1";

/** A seeded, stratified sample of `variants()`: every category capped by BUDGET. */
function sample(bytes, rand) {
  const byCategory = new Map();
  for (const v of variants(bytes, rand)) {
    if (!byCategory.has(v[0])) byCategory.set(v[0], []);
    byCategory.get(v[0]).push(v);
  }
  const out = [];
  for (const [category, list] of byCategory) {
    const cap = FULL ? Infinity : BUDGET[category];
    // Fisher-Yates on the seeded PRNG, then keep the first `cap`, in file order.
    const idx = list.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = rand.below(i + 1);
      [idx[i], idx[j]] = [idx[j], idx[i]];
    }
    const keep = idx.slice(0, Math.min(cap, idx.length)).sort((a, b) => a - b);
    for (const i of keep) out.push(list[i]);
  }
  return out;
}

class Trap extends Error {}

/** Classifies anything thrown by the API: a documented error is fine, anything else is a failure. */
function expectApiError(e, what) {
  if (e instanceof Trap) throw e;
  if (e instanceof WebAssembly.RuntimeError) throw new Trap(`${what}: wasm trap ${e.message}`);
  if (!isApiError(e)) throw new Trap(`${what}: ${describeThrown(e)}`);
  return e.kind;
}

/** `meta` = { types, rows }: the file's column types and row-group sizes. */
function checkColumn(col, meta, g, c, what) {
  try {
    columnJson(col, meta.types[c], `rg ${g} col ${c}`);
  } catch (e) {
    throw new Trap(`${what}: malformed column: ${typeof e === "string" ? e : describeThrown(e)}`);
  }
  if (col.length !== meta.rows[g]) throw new Trap(`${what}: rg ${g} col ${c} has ${col.length} rows, footer says ${meta.rows[g]}`);
}

function metaOf(file) {
  // Metadata getters must never throw on a file that opened.
  void file.layout, file.tokenizers, file.numRows;
  return { types: file.schema.map((s) => s.type), rows: file.rowGroups.map((rg) => rg.numRows) };
}

/** Opens and reads every column of one variant from memory; returns outcome kinds. */
function exerciseSync(bytes, what, kinds) {
  let file;
  try {
    file = ColumnsFile.fromBytes(bytes, registry);
  } catch (e) {
    kinds.push("open:" + expectApiError(e, `${what}: open`));
    return;
  }
  try {
    const meta = metaOf(file);
    for (let g = 0; g < meta.rows.length; g++) {
      for (let c = 0; c < meta.types.length; c++) {
        try {
          checkColumn(file.readColumn(g, c), meta, g, c, what);
          kinds.push("read:ok");
        } catch (e) {
          kinds.push("read:" + expectApiError(e, `${what}: readColumn(${g}, ${c})`));
        }
        try {
          file.inspectChunk(g, c);
        } catch (e) {
          expectApiError(e, `${what}: inspectChunk(${g}, ${c})`);
        }
      }
    }
  } finally {
    file.free();
  }
}

/** The same through fromAsyncBuffer, readColumnsAsync and readColumnAsync. */
async function exerciseAsync(bytes, what, kinds) {
  let file;
  try {
    file = await ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes), registry);
  } catch (e) {
    kinds.push("async-open:" + expectApiError(e, `${what}: fromAsyncBuffer`));
    return;
  }
  try {
    const meta = metaOf(file);
    const width = meta.types.length;
    try {
      const cols = await file.readColumnsAsync();
      if (cols.length !== width * meta.rows.length) throw new Trap(`${what}: readColumnsAsync gave ${cols.length} columns`);
      cols.forEach((col, i) => checkColumn(col, meta, Math.floor(i / width), i % width, what));
    } catch (e) {
      kinds.push("async-read:" + expectApiError(e, `${what}: readColumnsAsync`));
    }
    for (let g = 0; g < meta.rows.length; g++) {
      for (let c = 0; c < width; c++) {
        try {
          checkColumn(await file.readColumnAsync(g, c), meta, g, c, what);
        } catch (e) {
          expectApiError(e, `${what}: readColumnAsync(${g}, ${c})`);
        }
      }
    }
    try {
      await file.loadChunkHeaders();
    } catch (e) {
      expectApiError(e, `${what}: loadChunkHeaders`);
    }
  } finally {
    file.free();
  }
}

test("the classifier refuses traps, non-Errors and errors without a documented kind", () => {
  assert.throws(() => expectApiError(new WebAssembly.RuntimeError("unreachable"), "x"), Trap);
  assert.throws(() => expectApiError("a string", "x"), Trap);
  assert.throws(() => expectApiError(new TypeError("no kind"), "x"), Trap);
  assert.throws(() => expectApiError(Object.assign(new Error("odd"), { kind: "made_up" }), "x"), Trap);
  assert.equal(expectApiError(Object.assign(new Error("fine"), { kind: "corrupt_chunk" }), "x"), "corrupt_chunk");
  const col = { type: "int32", length: 2, nullCount: 0, values: new Int32Array(3), validity: null };
  assert.throws(() => checkColumn(col, { types: ["int32"], rows: [2] }, 0, 0, "x"), Trap, "a column whose values do not match its length");
});

test("damaged files fail with an error kind and never trap", { timeout: 600_000 }, async () => {
  const t0 = performance.now();
  const rand = prng(0xc0175);
  const tally = new Map();
  let count = 0;
  for (const rel of FILES) {
    const { bytes } = corpusFile(rel);
    let i = 0;
    for (const [category, desc, make] of sample(bytes, rand)) {
      const what = `${rel} variant ${i++} (${desc})`;
      const v = make();
      const kinds = [];
      try {
        exerciseSync(v, what, kinds);
        // The piecewise open path differs from fromBytes: exercise it on
        // every header, truncation and footer variant and on a share of the others.
        if (["header", "truncate", "footer"].includes(category) || i % 4 === 0) await exerciseAsync(v, what, kinds);
      } catch (e) {
        if (e instanceof Trap) assert.fail(`${e.message}\n  repro: take corpus/${rel}.cols and apply: ${desc}`);
        throw e;
      }
      for (const k of kinds) tally.set(k, (tally.get(k) ?? 0) + 1);
      count++;
    }
  }
  const summary = [...tally].sort().map(([k, n]) => `${k} ${n}`).join(", ");
  console.log(`# ${count} variants in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${summary}`);
  assert.ok(count >= 5000, `only ${count} variants`);
  // The pass must have exercised both failure and success paths, at open and at read.
  for (const k of ["open:truncated", "open:corrupt_footer", "open:bad_magic", "open:unsupported_version", "read:ok", "read:corrupt_chunk", "async-open:truncated"]) {
    assert.ok(tally.get(k) > 0, `no variant gave ${k}: ${summary}`);
  }
});

test("after the mutation pass the instance is alive and reads correctly", async () => {
  for (const rel of ["valid/all_types_small", "valid/tokenized_two_tokenizers", "real/diamonds.default"]) {
    const f = corpusFile(rel);
    assert.equal(await checkFile({ ColumnsFile, TokenizerRegistry, ...f, tokenizers }), null, rel);
  }
});
