// www/js/labels.js without a browser: every column gets one label, unique
// in the file, and a name no other column has is its own column's label.

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
});

test("the labels are unique in every file of names drawn from a few", () => {
  const pool = ["x", "x #0", "x #1", "x #1#", "x #2", "y"];
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed);
  for (let round = 0; round < 2000; round++) {
    const schema = names(...Array.from({ length: 1 + (next() % 6) }, () => pool[next() % pool.length]));
    const labels = columnLabels(schema);
    assert.equal(new Set(labels).size, labels.length, JSON.stringify(schema));
    const counts = new Map();
    for (const { name } of schema) counts.set(name, (counts.get(name) || 0) + 1);
    schema.forEach(({ name }, c) => {
      if (counts.get(name) === 1) assert.equal(labels[c], name, JSON.stringify(schema));
      else assert.ok(labels[c].startsWith(`${name} #`), JSON.stringify(schema));
    });
  }
});
