// (a) The whole corpus (corpus/) through the JS API, via fromBytes and via
// fromAsyncBuffer + readColumnsAsync (and fromBlob), plus proof that the
// checker itself catches differences.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile } from "../js/check.mjs";
import { corpusDir, corpusFile, findPairs, loadApi, loadTokenizers, readPair, tokenizerDir } from "./corpus.mjs";

const api = loadApi();
const tokenizers = loadTokenizers(api, tokenizerDir);
const { pairs } = findPairs(corpusDir);

test("the corpus is there and complete enough to mean something", () => {
  assert.equal(tokenizers.length, 2, "both tokenizers register");
  const dirs = new Set(pairs.map((p) => p.name.split("/")[0]));
  for (const d of ["valid", "invalid", "real"]) assert.ok(dirs.has(d), `corpus has ${d}/`);
  assert.ok(pairs.length >= 79, `only ${pairs.length} corpus files`);
  for (const set of ["diamonds", "birdstrikes", "zipcodes", "movielens"]) {
    const n = pairs.filter((p) => p.name.startsWith(`real/${set}.`)).length;
    assert.ok(n >= 2, `only ${n} files of real/${set}`);
  }
});

test("every corpus file conforms via fromBytes", async (t) => {
  for (const pair of pairs) {
    await t.test(pair.name, async () => {
      const { bytes, expected, name } = readPair(pair);
      assert.equal(await checkFile({ ...api, bytes, expected, tokenizers, name, mode: "bytes" }), null);
    });
  }
});

test("every corpus file conforms via fromAsyncBuffer + readColumnsAsync", async (t) => {
  for (const pair of pairs) {
    await t.test(pair.name, async () => {
      const { bytes, expected, name } = readPair(pair);
      assert.equal(await checkFile({ ...api, bytes, expected, tokenizers, name, mode: "async" }), null);
    });
  }
});

test("a few corpus files conform via fromBlob", async (t) => {
  for (const rel of ["valid/all_types_small", "valid/nulls", "valid/tokenized_two_tokenizers", "real/diamonds.optimized", "invalid/codec_zstd", "invalid/magic_kein"]) {
    await t.test(rel, async () => {
      const { bytes, expected, name } = corpusFile(rel);
      assert.equal(await checkFile({ ...api, bytes, expected, tokenizers, name, mode: "blob" }), null);
    });
  }
});

// The checker must be able to fail: each tampered expectation is caught.
test("the checker reports tampered expectations", async (t) => {
  const base = corpusFile("valid/all_types_small");
  const tamper = [
    ["an int64 value", (e) => (e.row_groups[0].values[8][0] = String(BigInt(e.row_groups[0].values[8][0]) + 1n)), /values\[8\]\[0\]/],
    ["a float32 bit", (e) => { const v = e.row_groups[0].values.findIndex((_, c) => e.schema[c].type === "float32"); e.row_groups[0].values[v][0] = "0x" + (parseInt(e.row_groups[0].values[v][0], 16) ^ 1).toString(16).padStart(8, "0"); }, /values/],
    ["a null that is not", (e) => (e.row_groups[0].values[1][1] = null), /values\[1\]\[1\]/],
    ["a value that is null", (e) => (e.row_groups[0].values[1][0] = true), /values\[1\]\[0\]/],
    ["raw_length", (e) => (e.row_groups[0].columns[2].raw_length += 1), /raw_length/],
    ["block_count", (e) => (e.row_groups[0].columns[2].block_count = 2), /block_count/],
    ["min", (e) => (e.row_groups[0].columns[2].min -= 1), /\.min:/],
    ["max_hex", (e) => (e.row_groups[0].columns[2].max_hex = "00"), /max_hex/],
    ["a schema name", (e) => (e.schema[0].name += "x"), /schema\[0\]\.name/],
    ["footer_length", (e) => (e.footer_length += 1), /footer_length/],
    ["an unknown key", (e) => (e.row_groups[0].columns[0].extra = 1), /reports nothing/],
    ["the error kind", (e) => (e.error = "bad_magic"), /opened, expected bad_magic/],
  ];
  for (const [what, change, pattern] of tamper) {
    await t.test(what, async () => {
      const expected = structuredClone(base.expected);
      change(expected);
      const why = await checkFile({ ...api, bytes: base.bytes, expected, tokenizers, name: base.name });
      assert.match(String(why), pattern);
    });
  }
  await t.test("a string that is not valid UTF-8 must be {hex}", async () => {
    const f = corpusFile("valid/enc_dict_none");
    const expected = structuredClone(f.expected);
    const rg = expected.row_groups[0];
    const c = rg.values.findIndex((col, c) => expected.schema[c].type === "string" && col.some((v) => v !== null && typeof v === "object"));
    assert.ok(c >= 0, "enc_dict_none has an invalid UTF-8 string");
    const i = rg.values[c].findIndex((v) => v !== null && typeof v === "object");
    rg.values[c][i] = "\ufffd";
    assert.match(String(await checkFile({ ...api, bytes: f.bytes, expected, tokenizers, name: f.name })), /values/);
  });
  await t.test("the wrong error kind at read", async () => {
    const f = corpusFile("invalid/codec_zstd");
    const expected = { ...f.expected, error: "corrupt_chunk" };
    assert.match(String(await checkFile({ ...api, bytes: f.bytes, expected, tokenizers, name: f.name })), /expected corrupt_chunk, got .*unsupported_codec/);
  });
});
