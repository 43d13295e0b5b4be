// Offsets past 2^31: the package's Uint32 offsets cannot be read as the
// Int32 offsets Utf8/Binary use, so such a column becomes LargeUtf8 /
// LargeBinary with 64-bit offsets (a copy of the offsets; the data is still
// shared). A 2 GiB data buffer costs no memory until written: only its
// first and last pages are touched here.

import test from "node:test";
import assert from "node:assert/strict";
import { adapter, makeColumn } from "./support.mjs";

const { toArrowVector, toArrowTable } = adapter;
const SIZE = 2 ** 31 + 8;
const data = new Uint8Array(SIZE);
data.set(new TextEncoder().encode("abc"), 0);
data.set(new TextEncoder().encode("wxyz"), SIZE - 4);

const column = (type, last) =>
  makeColumn(type, 3, 0, { offsets: Uint32Array.of(0, 3, last - 4, last), data }, null);

test("a last offset past 2^31 makes LargeUtf8 / LargeBinary over the same data", () => {
  for (const [type, strings, want] of [["string", "utf8", "LargeUtf8"], ["string", "binary", "LargeBinary"], ["bytes", "utf8", "LargeBinary"]]) {
    const v = toArrowVector(column(type, SIZE), { strings });
    assert.equal(String(v.type), want);
    const d = v.data[0];
    assert.ok(d.values.buffer === data.buffer, "the data is shared");
    assert.ok(d.valueOffsets instanceof BigInt64Array);
    assert.deepEqual([...d.valueOffsets], [0n, 3n, BigInt(SIZE - 4), BigInt(SIZE)]);
    const text = (x) => (typeof x === "string" ? x : new TextDecoder().decode(x));
    assert.equal(text(v.get(0)), "abc");
    assert.equal(text(v.get(2)), "wxyz", "a value past 2 GiB reads right");
  }
});

test("a last offset of exactly 2^31 - 1 still fits Int32: Utf8 over the same offsets", () => {
  const col = column("string", 2 ** 31 - 1);
  const v = toArrowVector(col);
  assert.equal(String(v.type), "Utf8");
  assert.ok(v.data[0].valueOffsets.buffer === col.values.offsets.buffer);
  assert.equal(v.data[0].valueOffsets[3], 2 ** 31 - 1);
});

test("a Table column is Large in every row group when one chunk needs it", () => {
  const small = makeColumn("string", 2, 0, { offsets: Uint32Array.of(0, 1, 2), data: Uint8Array.of(0x61, 0x62) }, null);
  const file = {
    schema: [{ name: "s", type: "string", nullable: false }],
    rowGroups: [{ numRows: 2 }, { numRows: 3 }],
    readColumns: () => [small, column("string", SIZE)],
  };
  const table = toArrowTable(file);
  assert.equal(String(table.schema.fields[0].type), "LargeUtf8");
  const s = table.getChild("s");
  assert.deepEqual(s.data.map((d) => String(d.type)), ["LargeUtf8", "LargeUtf8"]);
  assert.equal(s.get(0), "a");
  assert.equal(s.get(1), "b");
  assert.equal(s.get(2), "abc");
  assert.equal(s.get(4), "wxyz");
});
