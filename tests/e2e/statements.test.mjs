// The SQL tab's recent statements (www/js/statements.js), without a
// browser: the order and the limits, what a tab's storage holds back after
// a reload, storage that is refused or edited, and Alt+Up/Down's steps.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createStatements, KEPT, LONGEST } from "../../www/js/statements.js";

/** A Storage of a Map; `fail` makes it throw as a full or disabled one does. */
function memoryStorage(fail = false) {
  const m = new Map();
  return {
    m,
    getItem: (k) => {
      if (fail) throw new Error("SecurityError");
      return m.has(k) ? m.get(k) : null;
    },
    setItem: (k, v) => {
      if (fail) throw new Error("QuotaExceededError");
      m.set(k, String(v));
    },
    removeItem: (k) => {
      if (fail) throw new Error("SecurityError");
      m.delete(k);
    },
  };
}

test("newest first, each statement once, at most KEPT; too long a statement is not kept", () => {
  const s = createStatements(memoryStorage());
  s.add("SELECT 1");
  s.add("SELECT 2");
  s.add("SELECT 1");
  assert.deepEqual(s.list(), ["SELECT 1", "SELECT 2"]);
  for (let i = 0; i < KEPT + 5; i++) s.add(`SELECT ${i + 10}`);
  assert.equal(s.list().length, KEPT);
  assert.equal(s.list()[0], `SELECT ${KEPT + 14}`);
  assert.equal(s.list().at(-1), `SELECT 15`);
  s.add("x".repeat(LONGEST + 1));
  s.add("");
  assert.equal(s.list()[0], `SELECT ${KEPT + 14}`);
  s.add("y".repeat(LONGEST));
  assert.equal(s.list()[0].length, LONGEST);
});

test("a reload finds them in the tab's storage; storage edited, refused or throwing leaves an empty list, never an error", () => {
  const storage = memoryStorage();
  createStatements(storage).add("SELECT a FROM t");
  createStatements(storage).add("SELECT b FROM t");
  assert.deepEqual(createStatements(storage).list(), ["SELECT b FROM t", "SELECT a FROM t"]);

  const [key] = storage.m.keys();
  for (const bad of ["{", "{}", "null", '"SELECT 1"', "42"]) {
    storage.m.set(key, bad);
    assert.deepEqual(createStatements(storage).list(), [], bad);
  }
  storage.m.set(key, JSON.stringify(["SELECT 1", 7, null, "", "z".repeat(LONGEST + 1), "SELECT 2"]));
  assert.deepEqual(createStatements(storage).list(), ["SELECT 1", "SELECT 2"]);

  for (const st of [null, memoryStorage(true)]) {
    const s = createStatements(st);
    s.add("SELECT 3");
    s.add("SELECT 4");
    assert.deepEqual(s.list(), ["SELECT 4", "SELECT 3"], "kept in memory");
    s.clear();
    assert.deepEqual(s.list(), []);
  }

  // Forgotten: in the storage too.
  const kept = createStatements(storage);
  kept.clear();
  assert.deepEqual(kept.list(), []);
  assert.equal(storage.m.size, 0);
  assert.deepEqual(createStatements(storage).list(), []);
  assert.equal(kept.step("x", 1), null);
});

test("Alt+Up and Alt+Down: older and newer from the editor's text, which the newest end gives back; an edit starts again", () => {
  const s = createStatements(null);
  for (const q of ["A", "B", "C"]) s.add(q);
  // The editor holds what was just run ("C"): the first step passes over it.
  assert.equal(s.step("C", 1), "B");
  assert.equal(s.step("B", 1), "A");
  assert.equal(s.step("A", 1), null, "the oldest: no further");
  assert.equal(s.step("A", -1), "B");
  assert.equal(s.step("B", -1), "C");
  assert.equal(s.step("C", -1), "C", "back to the text the steps started from");
  assert.equal(s.step("C", -1), null, "the newest end: no further");

  // A draft: stepping up and down again gives it back.
  assert.equal(s.step("SELECT draft", 1), "C");
  assert.equal(s.step("C", 1), "B");
  assert.equal(s.step("B", -1), "C");
  assert.equal(s.step("C", -1), "SELECT draft");

  // Edited after a step: the edit is the draft, and the steps start over from the newest.
  assert.equal(s.step("SELECT draft", 1), "C");
  assert.equal(s.step("B", 1), "C", "a statement typed over the one stepped to starts again");
  assert.equal(s.step("C", -1), "B");

  // A run resets the steps: the statement run is the newest.
  s.add("B");
  assert.deepEqual(s.list(), ["B", "C", "A"]);
  assert.equal(s.step("B", 1), "C");
  assert.equal(createStatements(null).step("anything", 1), null, "nothing run yet");
});
