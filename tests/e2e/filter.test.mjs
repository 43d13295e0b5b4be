// The Data tab's filter conditions (www/js/filter.js), in Node without a
// browser: "contains (any case)" over strings beyond ASCII.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseValue, applyCondition } from "../../www/js/filter.js";
import { offsetsAndData } from "../js/check.mjs";

/** A decoded string column as the worker holds it: offsets and UTF-8 data. */
function stringColumn(type, values) {
  return { type, length: values.length, validity: null, values: offsetsAndData(values) };
}

function kept(col, op, text) {
  const { value, error } = parseValue(col.type, text);
  assert.equal(error, undefined);
  const keep = new Uint8Array(col.length).fill(1);
  applyCondition({ op, value }, col, keep);
  return [...keep.keys()].filter((i) => keep[i]);
}

test("contains (any case) folds letters beyond ASCII in strings, and ASCII letters in any value", () => {
  const col = stringColumn("string", ["Éclair", "eclair", "CAFÉ", "abc", "ΣΟΦΙΑ", "straße"]);
  assert.deepEqual(kept(col, "icontains", "é"), [0, 2]);
  assert.deepEqual(kept(col, "icontains", "É"), [0, 2]);
  assert.deepEqual(kept(col, "icontains", "caf"), [2]);
  assert.deepEqual(kept(col, "icontains", "CLAIR"), [0, 1]);
  assert.deepEqual(kept(col, "icontains", "σοφ"), [4]);
  assert.deepEqual(kept(col, "icontains", "STRASSE"), [], "lower case, not full case folding: ß stays ß");
  assert.deepEqual(kept(col, "icontains", "STRAß"), [5]);
  // Plain contains stays exact.
  assert.deepEqual(kept(col, "contains", "é"), []);
  assert.deepEqual(kept(col, "contains", "É"), [0, 2]);
});

test("contains (any case) over bytes folds ASCII letters only (bytes are not text)", () => {
  const col = stringColumn("bytes", [[0x41, 0xc3, 0x89], [0x61, 0xff], [0xc3, 0xa9]]);
  assert.deepEqual(kept(col, "icontains", "61"), [0, 1]);
  assert.deepEqual(kept(col, "icontains", "c3a9"), [2]);
  assert.deepEqual(kept(col, "icontains", "ff"), [1]);
});
