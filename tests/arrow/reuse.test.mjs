// The { reuse } rule: a column turned into Arrow is pinned, so handing it
// back empties the Column but never refills its buffers; the Arrow data
// keeps showing what it showed. Each case first shows that, unpinned, the
// same read does refill the buffer (so the test can fail).

import test from "node:test";
import assert from "node:assert/strict";
import { adapter, api, corpusFile } from "./support.mjs";

const { toArrowVector, toArrowTable } = adapter;

const diamonds = () => api.ColumnsFile.fromBytes(corpusFile("real/diamonds.default").bytes);
const nulls = () => api.ColumnsFile.fromBytes(corpusFile("valid/nulls").bytes);
// diamonds: 0 carat, 1 cut, 2 color, 4 depth, 5 table (float64 and strings, 53,940 rows)
const CARAT = 0, CUT = 1, COLOR = 2, DEPTH = 4, TABLE = 5;

test("control: without Arrow, { reuse } refills the column's own buffer", () => {
  const file = diamonds();
  const a = file.readColumn(0, CARAT);
  const buffer = a.values.buffer;
  const b = file.readColumn(0, DEPTH, { reuse: a });
  assert.equal(b.values.buffer, buffer, "the depth read went into carat's buffer");
  assert.equal(a.values, null);
});

test("a column given to toArrowVector is emptied by { reuse } but its buffers are never refilled", () => {
  const file = diamonds();
  for (const [c, other] of [[CARAT, DEPTH], [CUT, COLOR]]) {
    const a = file.readColumn(0, c);
    const v = toArrowVector(a);
    const before = [...v];
    const mine = a.arrays().map((x) => x.buffer);
    const b = file.readColumn(0, other, { reuse: a });
    assert.equal(a.values, null, "handing back still empties the Column");
    for (const x of b.arrays()) assert.ok(!mine.includes(x.buffer), "no buffer of the vector was refilled");
    assert.deepEqual([...v], before, "the vector shows what it showed");
    assert.deepEqual(b.toArray(), file.readColumn(0, other).toArray(), "the new read is right");
    assert.throws(() => a.toArray(), /handed back/);
    assert.throws(() => toArrowVector(a), { kind: "bad_argument", message: /handed back with \{ reuse \}/ });
  }
});

test("nulls and packed bools: the validity bitmap and bit-packed values stay the vector's", () => {
  const file = nulls();
  const g = 1, BOOL = 4;
  // Enough reads, of every kind, to take any buffer that was on offer;
  // the buffers in use at the end.
  const churn = (first) => {
    let held = [first];
    for (let k = 0; k < 4; k++) held = file.readColumns(null, null, { reuse: held, boolBits: k % 2 === 0 });
    return held.flatMap((col) => col.arrays().map((x) => x.buffer));
  };
  // Control: without Arrow, the bool column's buffers are refilled.
  const c = file.readColumn(g, BOOL, { boolBits: true });
  const theirs = c.arrays().map((x) => x.buffer);
  assert.equal(theirs.length, 2, "bool_nulls has values and a validity bitmap in this row group");
  assert.ok(churn(c).some((b) => theirs.includes(b)), "unpinned, the buffers are refilled");

  const a = file.readColumn(g, BOOL, { boolBits: true });
  const v = toArrowVector(a);
  const before = [...v];
  const mine = a.arrays().map((x) => x.buffer);
  assert.ok(!churn(a).some((b) => mine.includes(b)), "pinned, they are not");
  assert.deepEqual([...v], before);
  assert.ok(before.includes(null) && before.includes(true) && before.includes(false));
});

test("a Table's columns are pinned: handing them back leaves the table as it was", () => {
  const file = diamonds();
  const read = [];
  const table = toArrowTable({
    schema: file.schema,
    rowGroups: file.rowGroups,
    readColumns: (g, c, o) => {
      const out = file.readColumns(g, c, o);
      read.push(...out);
      return out;
    },
  });
  const before = table.getChildAt(DEPTH).toArray().slice();
  const cutBefore = [...table.getChildAt(CUT)];
  const again = file.readColumns(null, [TABLE, TABLE, COLOR, COLOR], { reuse: read });
  const mine = new Set(read.flatMap((c) => (c.values === null ? [] : c.arrays())).map((x) => x.buffer));
  assert.equal(mine.size, 0, "the columns were emptied");
  for (const batch of table.batches) {
    for (const d of batch.data.children) {
      for (const col of again) for (const x of col.arrays()) assert.notEqual(x.buffer, (d.values ?? d.valueOffsets).buffer);
    }
  }
  assert.deepEqual(table.getChildAt(DEPTH).toArray(), before);
  assert.deepEqual([...table.getChildAt(CUT)], cutBefore);
});

test("pin() is per column: the unpinned columns of a hand-back are still refilled", () => {
  const file = diamonds();
  const [a, b] = file.readColumns(null, [CARAT, DEPTH]);
  toArrowVector(a);
  const bBuffer = b.values.buffer;
  const aBuffer = a.values.buffer;
  const [x, y] = file.readColumns(null, [TABLE, CARAT], { reuse: [a, b] });
  assert.equal(x.values.buffer, bBuffer, "the unpinned buffer was refilled");
  assert.notEqual(y.values.buffer, aBuffer, "the pinned one was not");
});

test("{ boolBits } with { reuse }: packed bools go into a recycled buffer, and their buffer is recycled later", () => {
  const file = nulls();
  const g = 1, BOOL = 4, F64 = 2;
  const f = file.readColumn(g, F64);
  const fBuffer = f.values.buffer;
  const packed = file.readColumn(g, BOOL, { reuse: f, boolBits: true });
  const used = packed.arrays().map((x) => x.buffer);
  assert.ok(used.includes(fBuffer), "the float column's buffer took the packed bools or their bitmap");
  assert.equal(packed.values.length, (packed.length + 7) >> 3);
  assert.deepEqual(packed.toArray(), file.readColumn(g, BOOL).toArray());
  const again = file.readColumn(g, BOOL, { reuse: packed, boolBits: true });
  assert.ok(again.arrays().every((x) => used.includes(x.buffer)), "both buffers came back");
  assert.deepEqual(again.toArray(), file.readColumn(g, BOOL).toArray());
});
