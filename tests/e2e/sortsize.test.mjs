// What a sort holds (www/js/sort.js), in Node without a browser: a text
// column's table of distinct values is counted as it grows, each value
// its bytes and DISTINCT_ENTRY beside them, a value seen again nothing;
// past the limit SortKeys stops taking values and says so, and under it
// the sort is as before. The page's worker refuses the sort then
// (worker.js setView); a filter's rows are checked against the sort as
// they are counted (hugerows.test.mjs).

import { test } from "node:test";
import assert from "node:assert/strict";
import { SortKeys, sortIds, sortBytes, DISTINCT_ENTRY } from "../../www/js/sort.js";
import { textColumn } from "./textcolumn.mjs";

test("a text sort counts its distinct values as they come: each its bytes and DISTINCT_ENTRY, a repeat or a null nothing", async () => {
  const a = textColumn(["pear", "fig", null, "pear", "apple"]);
  const b = textColumn(["fig", "kiwi", "x".repeat(1000)]);
  const keys = new SortKeys("string", 8);
  assert.equal(keys.bytes, sortBytes("string", 8, null), "before a value: the rows' alone");
  keys.add(0, a);
  assert.equal(keys.tableBytes, 3 * DISTINCT_ENTRY + 4 + 3 + 5);
  keys.add(5, b);
  assert.equal(keys.tableBytes, 5 * DISTINCT_ENTRY + 4 + 3 + 5 + 4 + 1000);
  assert.equal(keys.bytes, sortBytes("string", 8, null) + keys.tableBytes);
  assert.equal(keys.over, false);
  keys.finish();
  const order = [...(await sortIds(keys, false))];
  assert.deepEqual(order, [4, 1, 5, 6, 0, 3, 7, 2], "apple, fig, fig, kiwi, pear, pear, x…, null");
});

test("past its limit a text sort stops taking values and says so; the rows alone under it, the distinct values over it", async () => {
  // 1,000 rows, 1,000 distinct values of 100 bytes: 164 KB of table.
  const values = Array.from({ length: 1000 }, (_, i) => String(i).padStart(100, "0"));
  const rows = sortBytes("string", 1000, null);
  const limit = rows + 50 * (DISTINCT_ENTRY + 100);
  const keys = new SortKeys("string", 1000, null, limit);
  keys.add(0, textColumn(values.slice(0, 40)));
  assert.equal(keys.over, false);
  keys.add(40, textColumn(values.slice(40, 60)));
  assert.equal(keys.over, true, "the 51st distinct value passes the limit");
  assert.ok(keys.bytes > limit);
  assert.ok(keys.tableBytes <= 51 * (DISTINCT_ENTRY + 100));
  const held = keys.tableBytes;
  keys.add(60, textColumn(values.slice(60)));
  assert.equal(keys.tableBytes, held, "nothing more is taken");
  // The same values repeated: one distinct value, well within.
  const same = new SortKeys("string", 1000, null, limit);
  same.add(0, textColumn(Array(1000).fill(values[0])));
  assert.equal(same.over, false);
  assert.equal(same.tableBytes, DISTINCT_ENTRY + 100);
  // A filter's rows (ids): only theirs are counted.
  const ids = Uint32Array.from({ length: 10 }, (_, i) => i * 100);
  const some = new SortKeys("string", 1000, ids, limit);
  some.add(0, textColumn(values));
  assert.equal(some.tableBytes, 10 * (DISTINCT_ENTRY + 100));
  assert.equal(some.bytes, sortBytes("string", 10, ids) + some.tableBytes);
  some.finish();
  assert.deepEqual([...(await sortIds(some, true))], [...ids].reverse());
});
