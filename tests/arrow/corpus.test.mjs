// The whole corpus through the Arrow adapter: every valid file, every row
// group, every column, every value (nulls included) of the Arrow Vector and
// of the Table compared with Column.toArray(); the same after an IPC round
// trip; and the buffers checked to be the column's own (zero copy).

import test from "node:test";
import assert from "node:assert/strict";
import { adapter, arrow, api, corpusDir, findPairs, loadTokenizers, readPair, tokenizerDir } from "./support.mjs";

const { toArrowVector, toArrowTable } = adapter;

// Written from Arrow's spec, not from the adapter: column type -> Arrow type name.
const ARROW_TYPE = {
  bool: "Bool", int8: "Int8", int16: "Int16", int32: "Int32", int64: "Int64",
  uint8: "Uint8", uint16: "Uint16", uint32: "Uint32", uint64: "Uint64",
  float32: "Float32", float64: "Float64", bytes: "Binary", string: "Utf8",
};

/** Strict equality for toArray()-style values (NaN equals NaN, -0 is not 0). */
function same(a, b) {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  return Object.is(a, b);
}

function assertValues(actual, expected, where) {
  assert.equal(actual.length, expected.length, `${where}: length`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual.get(i);
    if (!same(a, expected[i])) assert.fail(`${where}, row ${i}: Arrow gives ${String(a)}, toArray() ${String(expected[i])}`);
  }
}

/** Whether two views are the same memory: one ArrayBuffer (by identity:
 *  deepEqual would compare contents), from the same byte. */
function assertShared(a, b, message) {
  assert.ok(a.buffer === b.buffer && a.byteOffset === b.byteOffset, message);
}

const tokenizers = loadTokenizers(api, tokenizerDir);
const files = findPairs(corpusDir).pairs.map(readPair).filter((f) => !("error" in f.expected));

function open(bytes) {
  const registry = new api.TokenizerRegistry();
  for (const t of tokenizers) registry.register(t);
  return api.ColumnsFile.fromBytes(bytes, registry);
}

test("the corpus has the files this suite relies on", () => {
  assert.ok(files.length >= 50, `only ${files.length} valid files found in ${corpusDir}`);
  const names = files.map((f) => f.name);
  for (const n of ["all_types_small.cols", "nulls.cols", "no_row_groups.cols", "zero_rows.cols", "enc_plain_none.cols"]) {
    assert.ok(names.includes(n), `${n} is missing`);
  }
});

const seen = { values: 0, nulls: 0, replaced: 0, columns: 0, bools: 0, types: new Set() };

for (const f of files) {
  test(`${f.name}: every column of every row group as an Arrow Vector`, () => {
    const file = open(f.bytes);
    const schema = file.schema;
    file.rowGroups.forEach((rg, g) => {
      schema.forEach((sc, c) => {
        const where = `${f.name} row group ${g} column ${c} (${sc.name}: ${sc.type})`;
        const col = file.readColumn(g, c);
        const expected = col.toArray();
        const v = toArrowVector(col);
        assert.equal(String(v.type), ARROW_TYPE[sc.type], `${where}: type`);
        assert.equal(v.nullCount, col.nullCount, `${where}: nullCount`);
        assertValues(v, expected, where);
        seen.columns++;
        seen.types.add(sc.type);
        seen.values += expected.length;
        seen.nulls += col.nullCount;
        if (sc.type === "string") seen.replaced += expected.filter((s) => s !== null && s.includes("\uFFFD")).length;

        const d = v.data[0];
        if (col.validity) assertShared(d.nullBitmap, col.validity, `${where}: validity is shared`);
        if (sc.type === "string" || sc.type === "bytes") {
          assertShared(d.values, col.values.data, `${where}: data is shared`);
          assertShared(d.valueOffsets, col.values.offsets, `${where}: offsets are shared`);
          assert.ok(d.valueOffsets instanceof Int32Array, `${where}: offsets are an Int32Array`);
          // Binary: the exact bytes, whatever they are.
          const b = toArrowVector(col, { strings: "binary" });
          assert.equal(String(b.type), "Binary");
          const { offsets, data } = col.values;
          for (let i = 0; i < col.length; i++) {
            const want = col.isValid(i) ? data.subarray(offsets[i], offsets[i + 1]) : null;
            if (!same(b.get(i), want)) assert.fail(`${where}, row ${i}: binary bytes differ`);
          }
        } else if (sc.type === "bool") {
          // Read without { boolBits }: one byte per value, so Arrow gets a packed copy.
          assert.notEqual(d.values.buffer, col.values.buffer, `${where}: unpacked bools are packed into new memory`);
          assert.equal(d.values.length, (col.length + 7) >> 3, `${where}: one byte per 8 rows`);
          // Read with { boolBits }: packed at the copy out of wasm, then shared.
          const packed = file.readColumn(g, c, { boolBits: true });
          assert.equal(packed.boolBits, true, `${where}: boolBits`);
          assert.deepEqual(packed.toArray(), expected, `${where}: { boolBits } reads the same values`);
          const pv = toArrowVector(packed);
          assertShared(pv.data[0].values, packed.values, `${where}: packed bools are shared`);
          assert.deepEqual([...pv.data[0].values], [...d.values], `${where}: the package packs as Arrow expects`);
          assertValues(pv, expected, `${where} ({ boolBits })`);
          seen.bools += col.length;
        } else {
          assertShared(d.values, col.values, `${where}: values are shared`);
          assert.equal(d.values.length, col.length, `${where}: values length`);
        }
      });
    });
  });

  test(`${f.name}: the whole file as one Arrow Table, and through IPC`, () => {
    const file = open(f.bytes);
    const table = toArrowTable(file);
    const schema = file.schema;
    assert.equal(table.numRows, file.numRows);
    assert.equal(table.batches.length, file.rowGroups.length, "one RecordBatch per row group");
    assert.equal(table.numCols, schema.length);
    const back = arrow.tableFromIPC(arrow.tableToIPC(table, "stream"));
    assert.equal(back.numRows, file.numRows);
    schema.forEach((sc, c) => {
      const expected = file.rowGroups.flatMap((_, g) => file.readColumn(g, c).toArray());
      const field = table.schema.fields[c];
      assert.equal(String(field.type), ARROW_TYPE[sc.type], `${sc.name}: type`);
      assert.equal(field.nullable, sc.nullable || expected.includes(null), `${sc.name}: nullable`);
      assertValues(table.getChildAt(c), expected, `${f.name} table column ${c}`);
      assertValues(back.getChildAt(c), expected, `${f.name} after IPC, column ${c}`);
    });
  });
}

test("the comparison above covered what it claims", () => {
  // Every type, nulls, packed bools, and strings holding invalid UTF-8
  // (which Arrow's Utf8 getter and toArray() both show as U+FFFD).
  assert.deepEqual([...seen.types].sort(), Object.keys(ARROW_TYPE).sort());
  assert.ok(seen.values > 100000, `${seen.values} values`);
  assert.ok(seen.nulls > 1000, `${seen.nulls} nulls`);
  assert.ok(seen.bools > 1000, `${seen.bools} bools`);
  assert.ok(seen.replaced > 100, `${seen.replaced} strings with invalid UTF-8`);
  console.log(`# compared ${seen.values} values (${seen.nulls} null) in ${seen.columns} column chunks of ${files.length} files; ${seen.replaced} strings hold invalid UTF-8`);
});
