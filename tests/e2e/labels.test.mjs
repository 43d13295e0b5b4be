// www/js/labels.js without a browser: every column gets one label, unique
// in the file (ASCII case aside, as DuckDB's names are), and a name no
// other column has is its own column's label.

import { test } from "node:test";
import assert from "node:assert/strict";
import { columnLabels } from "../../www/js/labels.js";

const names = (...n) => n.map((name) => ({ name }));

test("a repeated name takes the column's index; a unique name stays as it is", () => {
  assert.deepEqual(columnLabels(names("i", "i", "f", "s", "s")), ["i #0", "i #1", "f", "s #3", "s #4"]);
  assert.deepEqual(columnLabels(names("", "")), [" #0", " #1"]);
});

test("a repeated name's label never takes a name another column has", () => {
  // The third column is really named "a #1": that label stays its own.
  assert.deepEqual(columnLabels(names("a", "a", "a #1")), ["a #0", "a #1#", "a #1"]);
  // ... wherever it stands, and however many marks it takes to be apart.
  assert.deepEqual(columnLabels(names("a #1", "a #1#", "a", "a")), ["a #1", "a #1#", "a #2", "a #3"]);
  assert.deepEqual(columnLabels(names("b #0", "b", "b #0#", "b")), ["b #0", "b #1", "b #0#", "b #3"]);
  assert.deepEqual(columnLabels(names("c", "c", "c #0", "c #0#")), ["c #0##", "c #1", "c #0", "c #0#"]);
  // A repeated name is no column's label, so another column's label may not take it either.
  assert.deepEqual(columnLabels(names("a", "a", "a #1", "a #1")), ["a #0", "a #1#", "a #1 #2", "a #1 #3"]);
});

test("names that differ only in ASCII case repeat, as in DuckDB's table t; other letters are not folded", () => {
  assert.deepEqual(columnLabels(names("x", "X", "y")), ["x #0", "X #1", "y"]);
  assert.deepEqual(columnLabels(names("Delay", "DELAY", "delay")), ["Delay #0", "DELAY #1", "delay #2"]);
  assert.deepEqual(columnLabels(names("x", "x", "X #1")), ["x #0", "x #1#", "X #1"]);
  assert.deepEqual(columnLabels(names("É", "é", "ß", "SS")), ["É", "é", "ß", "SS"]);
});

test("the labels are unique in every file of names drawn from a few", () => {
  const pool = ["x", "X", "x #0", "X #1", "x #1", "x #1#", "x #2", "y"];
  const key = (name) => name.replace(/[A-Z]/g, (m) => m.toLowerCase());
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed);
  for (let round = 0; round < 2000; round++) {
    const schema = names(...Array.from({ length: 1 + (next() % 6) }, () => pool[next() % pool.length]));
    const labels = columnLabels(schema);
    assert.equal(new Set(labels.map(key)).size, labels.length, JSON.stringify(schema));
    const counts = new Map();
    for (const { name } of schema) counts.set(key(name), (counts.get(key(name)) || 0) + 1);
    const allNames = new Set(schema.map(({ name }) => key(name)));
    schema.forEach(({ name }, c) => {
      if (counts.get(key(name)) === 1) assert.equal(labels[c], name, JSON.stringify(schema));
      else {
        assert.ok(labels[c].startsWith(`${name} #`), JSON.stringify(schema));
        assert.ok(!allNames.has(key(labels[c])), `${labels[c]} is a name in ${JSON.stringify(schema)}`);
      }
    });
  }
});
