// (b) Tokenized files with and without registered tokenizers, and the
// TokenizerRegistry itself: digests, has(), registering twice, late
// registration, invalid input.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { checkFile, columnJson, isApiError } from "../js/check.mjs";
import { corpusFile, loadApi, tokenizerDir } from "./corpus.mjs";

const { ColumnsFile, TokenizerRegistry } = loadApi();
const api = { ColumnsFile, TokenizerRegistry };
const gpt2 = new Uint8Array(fs.readFileSync(path.join(tokenizerDir, "gpt2-tokenizer.json")));
const small = new Uint8Array(fs.readFileSync(path.join(tokenizerDir, "small-tokenizer.json")));
const sha256 = (b) => createHash("sha256").update(b).digest("hex");
const two = corpusFile("valid/tokenized_two_tokenizers");
const [GPT2, SMALL] = two.expected.tokenizers; // header order: gpt2 first (column 0), then small

/** Reads (0, c) and compares with the corpus values; returns the error if it throws. */
function readAndCompare(file, expected, c) {
  let col;
  try {
    col = file.readColumn(0, c);
  } catch (e) {
    return e;
  }
  assert.deepEqual(columnJson(col, expected.schema[c].type), expected.row_groups[0].values[c], `column ${c} values`);
  return null;
}

function assertUnknownTokenizer(err, digest, c) {
  assert.ok(isApiError(err), `column ${c}: expected an API error, got ${err}`);
  assert.equal(err.kind, "unknown_tokenizer", `column ${c}`);
  assert.ok(err.message.includes(digest), `column ${c}: message names ${digest}: ${err.message}`);
  assert.equal(err.rowGroup, 0);
  assert.equal(err.column, c);
}

test("register returns the SHA-256 of the exact bytes, as the file header names it", () => {
  const reg = new TokenizerRegistry();
  assert.equal(reg.size, 0);
  assert.deepEqual(reg.digests(), []);
  assert.equal(reg.has(GPT2), false);
  const d1 = reg.register(gpt2);
  assert.equal(d1, sha256(gpt2));
  assert.equal(d1, GPT2);
  const d2 = reg.register(small);
  assert.equal(d2, SMALL);
  assert.equal(reg.size, 2);
  assert.deepEqual(reg.digests(), [GPT2, SMALL], "registration order");
  assert.equal(reg.has(GPT2), true);
  assert.equal(reg.has(SMALL), true);
  assert.equal(reg.has(GPT2.toUpperCase()), true, "has() accepts upper-case hex");
  assert.equal(reg.has("00".repeat(32)), false);
  assert.equal(reg.has("not a digest"), false);
  assert.equal(reg.has(""), false);
  assert.equal(reg.has(GPT2.slice(2)), false);
  reg.free();
});

test("registering the same tokenizer twice is harmless", () => {
  const reg = new TokenizerRegistry();
  assert.equal(reg.register(gpt2), GPT2);
  assert.equal(reg.register(Uint8Array.from(gpt2)), GPT2);
  assert.equal(reg.register(small), SMALL);
  assert.equal(reg.register(gpt2), GPT2);
  assert.equal(reg.size, 2);
  assert.deepEqual(reg.digests(), [GPT2, SMALL], "registration order");
  const file = ColumnsFile.fromBytes(two.bytes, reg);
  for (let c = 0; c < 4; c++) assert.equal(readAndCompare(file, two.expected, c), null);
  file.free();
  reg.free();
});

test("invalid tokenizer JSON is refused with invalid_tokenizer and registers nothing", () => {
  const reg = new TokenizerRegistry();
  for (const bad of ["", "{}", "not json", '{"model":{"type":"BPE"}}', '{"model":{"type":"BPE","vocab":[1,2]}}']) {
    assert.throws(() => reg.register(new TextEncoder().encode(bad)), (e) => isApiError(e) && e.kind === "invalid_tokenizer", JSON.stringify(bad));
  }
  assert.throws(() => reg.register(gpt2.subarray(0, gpt2.length >> 1)), (e) => isApiError(e) && e.kind === "invalid_tokenizer", "half a tokenizer.json");
  assert.equal(reg.size, 0);
  reg.free();
});

test("a tokenizer.json that starts with a UTF-8 byte order mark is read past it (RFC 8259 lets a parser ignore one); its digest is of the bytes as given, mark and all", () => {
  const reg = new TokenizerRegistry();
  const bom = Uint8Array.of(0xef, 0xbb, 0xbf);
  const marked = new Uint8Array([...bom, ...small]);
  const digest = reg.register(marked);
  assert.equal(digest, sha256(marked));
  assert.notEqual(digest, SMALL, "not the unmarked file's");
  assert.deepEqual(reg.digests(), [digest]);
  // Offsets stay those of the bytes given; one mark only, and only first.
  const refused = (bytes, re) => assert.throws(() => reg.register(bytes), (e) => isApiError(e) && e.kind === "invalid_tokenizer" && re.test(e.message), new TextDecoder().decode(bytes.subarray(0, 12)));
  refused(new Uint8Array([...bom, ...new TextEncoder().encode("[]")]), /the document is not an object \(byte offset 3\)$/);
  refused(new Uint8Array([...bom, ...bom, ...small]), /the document is not an object \(byte offset 3\)$/);
  refused(new Uint8Array([0x20, ...bom, ...small]), /byte offset 1\)$/);
  refused(bom, /byte offset 3\)$/);
  assert.equal(reg.size, 1);
  reg.free();
});

test("tokenized corpus files conform with both tokenizers, and without them refuse exactly the tokenized chunks", async () => {
  for (const rel of ["valid/tokenized_two_tokenizers", "valid/tokenized_special_tokens", "valid/tokenized_optimized", "valid/tokenized_bits_deltas", "valid/tokenized_remap_offsets"]) {
    const f = corpusFile(rel);
    // checkFile also opens the file with no registry and checks every chunk.
    assert.equal(await checkFile({ ...api, ...f, tokenizers: [gpt2, small] }), null, rel);
    // Without the tokenizers the full conformance check must fail.
    assert.match(String(await checkFile({ ...api, ...f, tokenizers: [] })), /read failed|unknown_tokenizer/, rel);
  }
});

test("with only one of two tokenizers, only that tokenizer's columns read", () => {
  const { bytes, expected } = two;
  // Columns: 0 gpt2, 1 small, 2 gpt2 (bytes), 3 untokenized.
  const cases = [
    [[gpt2], [GPT2], { 1: SMALL }],
    [[small], [SMALL], { 0: GPT2, 2: GPT2 }],
    [[], [], { 0: GPT2, 1: SMALL, 2: GPT2 }],
  ];
  for (const [given, resolved, failing] of cases) {
    const reg = new TokenizerRegistry();
    for (const t of given) reg.register(t);
    const file = ColumnsFile.fromBytes(bytes, reg);
    assert.deepEqual(file.tokenizers, [GPT2, SMALL].map((d) => ({ digest: d, resolved: resolved.includes(d) })));
    for (let c = 0; c < 4; c++) {
      const err = readAndCompare(file, expected, c);
      if (c in failing) assertUnknownTokenizer(err, failing[c], c);
      else assert.equal(err, null, `column ${c} reads`);
    }
    file.free();
    reg.free();
  }
});

test("no registry at all (undefined or null) refuses tokenized chunks and reads the rest", async () => {
  for (const reg of [undefined, null]) {
    const file = ColumnsFile.fromBytes(two.bytes, reg);
    assertUnknownTokenizer(readAndCompare(file, two.expected, 1), SMALL, 1);
    assert.equal(readAndCompare(file, two.expected, 3), null);
    file.free();
    const afile = await ColumnsFile.fromAsyncBuffer({ byteLength: two.bytes.length, slice: (s, e) => two.bytes.slice(s, e) }, reg);
    await assert.rejects(afile.readColumnAsync(0, 0), (e) => isApiError(e) && e.kind === "unknown_tokenizer" && e.message.includes(GPT2));
    const col = await afile.readColumnAsync(0, 3);
    assert.deepEqual(columnJson(col, "string"), two.expected.row_groups[0].values[3]);
    afile.free();
  }
});

test("a tokenizer registered after opening is seen by the open file", () => {
  const reg = new TokenizerRegistry();
  const file = ColumnsFile.fromBytes(two.bytes, reg);
  assertUnknownTokenizer(readAndCompare(file, two.expected, 0), GPT2, 0);
  assert.equal(file.tokenizers[0].resolved, false);
  reg.register(gpt2);
  assert.equal(file.tokenizers[0].resolved, true);
  assert.equal(file.tokenizers[1].resolved, false);
  assert.equal(readAndCompare(file, two.expected, 0), null);
  assert.equal(readAndCompare(file, two.expected, 2), null);
  assertUnknownTokenizer(readAndCompare(file, two.expected, 1), SMALL, 1);
  file.free();
  reg.free();
});

test("a file keeps its tokenizers after the registry is freed", () => {
  const reg = new TokenizerRegistry();
  reg.register(gpt2);
  reg.register(small);
  const file = ColumnsFile.fromBytes(two.bytes, reg);
  reg.free();
  for (let c = 0; c < 4; c++) assert.equal(readAndCompare(file, two.expected, c), null);
  file.free();
  // A freed registry is no longer a valid argument, and the error says it was freed.
  assert.throws(() => ColumnsFile.fromBytes(two.bytes, reg), (e) => e instanceof Error && e.kind === "freed" && /TokenizerRegistry was freed/.test(e.message));
});

test("something that is not a TokenizerRegistry is refused as a registry", () => {
  for (const bad of [{}, { __handle: 99999 }, 42, "registry"]) {
    assert.throws(() => ColumnsFile.fromBytes(two.bytes, bad), (e) => e instanceof Error && e.kind === "bad_argument", JSON.stringify(bad));
  }
});

test("the corpus file whose digest nobody has fails only its tokenized chunks, even with every tokenizer", () => {
  const f = corpusFile("invalid/tokenizer_not_registered");
  const reg = new TokenizerRegistry();
  reg.register(gpt2);
  reg.register(small);
  const file = ColumnsFile.fromBytes(f.bytes, reg);
  const digests = file.tokenizers.map((t) => t.digest);
  assert.ok(file.tokenizers.some((t) => !t.resolved), "one digest is unknown");
  let refused = 0;
  const rg = file.rowGroups[0];
  for (let c = 0; c < file.schema.length; c++) {
    const cm = rg.columns[c];
    const unknown = cm.tokenizer > 0 && !reg.has(digests[cm.tokenizer - 1]);
    let err = null;
    try {
      file.readColumn(0, c);
    } catch (e) {
      err = e;
    }
    if (unknown) {
      assertUnknownTokenizer(err, digests[cm.tokenizer - 1], c);
      refused++;
    } else assert.equal(err, null, `column ${c}`);
  }
  assert.ok(refused > 0);
  file.free();
  reg.free();
});
