// strings: "auto" picks Utf8 only for columns whose every value is valid
// UTF-8, else Binary. Checked on every string column of the corpus against
// a per-value decode, on edge cases a whole-buffer check would get wrong,
// and through both validators: Node's isAscii/isUtf8 and the TextDecoder
// route browsers take (a second copy of the adapter loaded without Node's).

import test from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import path from "node:path";
import { adapter, api, corpusDir, findPairs, loadTokenizers, makeColumn, readPair, tokenizerDir } from "./support.mjs";
import { offsetsAndData } from "../js/check.mjs";

const hidden = process.getBuiltinModule;
process.getBuiltinModule = undefined;
const browserLike = await import(pathToFileURL(path.join(import.meta.dirname, ".lib", "arrow.js")).href + "?no-node-builtins");
process.getBuiltinModule = hidden;
assert.notEqual(browserLike, adapter, "two module instances");

const fatal = new TextDecoder("utf-8", { fatal: true });
function valueIsUtf8(bytes) {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The oracle: every valid value of the column decodes without error. */
function allValid(col) {
  const { offsets, data } = col.values;
  for (let i = 0; i < col.length; i++) if (col.isValid(i) && !valueIsUtf8(data.subarray(offsets[i], offsets[i + 1]))) return false;
  return true;
}

function stringColumn(values, nulls = []) {
  const { offsets, data } = offsetsAndData(values);
  let validity = null;
  if (nulls.length) {
    validity = new Uint8Array((values.length + 7) >> 3).fill(255);
    for (const i of nulls) validity[i >> 3] &= ~(1 << (i & 7));
  }
  return makeColumn("string", values.length, nulls.length, { offsets, data }, validity);
}

for (const [label, mod] of [["isAscii/isUtf8 (Node)", adapter], ["TextDecoder (browsers)", browserLike]]) {
  test(`${label}: every string column of the corpus is Utf8 under "auto" exactly when all its values are valid UTF-8`, () => {
    const tokenizers = loadTokenizers(api, tokenizerDir);
    let utf8 = 0, binary = 0;
    for (const f of findPairs(corpusDir).pairs.map(readPair).filter((x) => !("error" in x.expected))) {
      const registry = new api.TokenizerRegistry();
      for (const t of tokenizers) registry.register(t);
      const file = api.ColumnsFile.fromBytes(f.bytes, registry);
      file.schema.forEach((sc, c) => {
        if (sc.type !== "string") return;
        const chunks = file.rowGroups.map((_, g) => file.readColumn(g, c));
        for (const col of chunks) {
          const want = allValid(col) ? "Utf8" : "Binary";
          const v = mod.toArrowVector(col, { strings: "auto" });
          assert.equal(String(v.type), want, `${f.name} ${sc.name}`);
          want === "Utf8" ? utf8++ : binary++;
        }
        if (chunks.length === 0) return;
        const table = mod.toArrowTable(file, { columns: [c], strings: "auto" });
        assert.equal(String(table.schema.fields[0].type), chunks.every(allValid) ? "Utf8" : "Binary", `${f.name} ${sc.name}: table`);
      });
    }
    assert.ok(utf8 > 50 && binary > 50, `${utf8} Utf8 and ${binary} Binary chunks`);
  });

  test(`${label}: edge cases a whole-buffer check alone would miss`, () => {
    const cases = [
      [["plain", "héllo", "日本", "😀", ""], "Utf8"],
      [[[0xc3], [0xa9]], "Binary"], // "é" split over two values: the buffer is valid, neither value is
      [[[0x61, 0xe2, 0x82], [0xac, 0x62]], "Binary"], // "€" split the same way
      [[[0xc0, 0x80]], "Binary"], // overlong NUL
      [[[0xed, 0xa0, 0x80]], "Binary"], // a UTF-16 surrogate
      [[[0xf4, 0x90, 0x80, 0x80]], "Binary"], // past U+10FFFF
      [["ok", [0xe2, 0x82]], "Binary"], // truncated at the very end
      [[], "Utf8"],
      [["", "", ""], "Utf8"],
    ];
    for (const [values, want] of cases) {
      assert.equal(String(mod.toArrowVector(stringColumn(values), { strings: "auto" }).type), want, JSON.stringify(values));
    }
    // One byte >= 0x80 at every position and alignment the ASCII scan meets
    // (its head bytes, 32-bit words and tail), the range starting at 0..3.
    for (let start = 0; start < 4; start++) {
      for (let k = 0; k < 14; k++) {
        const data = new Uint8Array(14).fill(0x61);
        data[k] = 0xff;
        const col = makeColumn("string", 1, 0, { offsets: Uint32Array.of(start, 14), data }, null);
        assert.equal(String(mod.toArrowVector(col, { strings: "auto" }).type), k < start ? "Utf8" : "Binary", `0xff at ${k}, values from ${start}`);
      }
    }
    // Values are checked, not the bytes behind nulls' empty ranges; all null is fine.
    assert.equal(String(mod.toArrowVector(stringColumn(["", ""], [0, 1]), { strings: "auto" }).type), "Utf8");
  });
}

test('"auto" in a Table: one invalid row group makes the whole column Binary', () => {
  const good = stringColumn(["a", "b"]);
  const bad = stringColumn(["c", [0xff]]);
  const file = {
    schema: [{ name: "s", type: "string", nullable: false }],
    rowGroups: [{ numRows: 2 }, { numRows: 2 }],
    readColumns: () => [good, bad],
  };
  const table = adapter.toArrowTable(file, { strings: "auto" });
  assert.equal(String(table.schema.fields[0].type), "Binary");
  assert.deepEqual(table.getChild("s").toArray().map((b) => [...b]), [[0x61], [0x62], [0x63], [0xff]]);
  const utf8 = adapter.toArrowTable({ ...file, readColumns: () => [stringColumn(["a", "b"]), stringColumn(["c", "d"])] }, { strings: "auto" });
  assert.equal(String(utf8.schema.fields[0].type), "Utf8");
});

test("strings must be one of utf8, binary, auto", () => {
  assert.throws(() => adapter.toArrowVector(stringColumn(["a"]), { strings: "latin1" }), { kind: "bad_argument", message: /"utf8", "binary" or "auto"/ });
});
