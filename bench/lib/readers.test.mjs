// The hook readers (scoped read, streaming) against a stand-in file with the
// package's API shape (readRowGroupScoped's callback and rowGroupsAsync's
// steps get { rowGroup, numRows, columns }; lent columns are emptied when
// their scope ends), so they are known to read inside the scope, to
// subtract their in-callback checking time, and to fail when the values
// are wrong.
//   node --test bench/lib/readers.test.mjs    (bench/run runs it first)

import test from "node:test";
import assert from "node:assert/strict";
import { cwHotReader, cwLoopReader, cwReaders, cwScopedReader, cwStreamReader, cwStreamScopedReader } from "./readers.mjs";
import { fingerprintJson, compareFingerprints } from "./fingerprint.mjs";

// Two row groups of (int32, string); the second string column value of row 2 is null.
const GROUPS = [
  [[1, 2, 3], ["a", "bb", null]],
  [[4], ["ccc"]],
];
const enc = new TextEncoder();
function column(type, values) {
  const validity = values.includes(null) ? new Uint8Array([values.reduce((m, v, i) => m | (v === null ? 0 : 1 << i), 0)]) : null;
  if (type === "int32") return { values: Int32Array.from(values, (v) => v ?? 0), validity, length: values.length };
  const parts = values.map((v) => enc.encode(v ?? ""));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const data = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { values: { offsets, data }, validity, length: values.length };
}
const SCHEMA = [{ name: "n", type: "int32" }, { name: "s", type: "string" }];

class StandIn {
  static fromBytes() {
    return new StandIn();
  }
  static async fromBlob() {
    return new StandIn();
  }
  schema = SCHEMA;
  free() {}
  rowGroups = GROUPS.map((g) => ({ numRows: g[0].length }));
  // Views valid only inside the callback: emptied after it returns.
  readRowGroupScoped(g, cb, opts) {
    const cols = (opts?.columns ?? [0, 1]).map((c) => column(SCHEMA[c].type, GROUPS[g][c]));
    const out = cb({ rowGroup: g, numRows: GROUPS[g][0].length, columns: cols });
    for (const c of cols) c.values = null;
    return out;
  }
  async *rowGroupsAsync({ columns, scoped }) {
    for (const [g, group] of GROUPS.entries()) {
      const cols = columns.map((c) => column(SCHEMA[c].type, group[c]));
      yield { rowGroup: g, numRows: group[0].length, columns: cols };
      if (scoped) for (const c of cols) c.values = null;
    }
  }
}

const expected = [fingerprintJson("int", GROUPS.map((g) => g[0])), fingerprintJson("bytes", GROUPS.map((g) => g[1]))];
const input = { bytes: new Uint8Array(0), blob: null, registry: undefined, tokenizers: [] };
const arg = { cols: [0, 1], names: ["n", "s"], kinds: ["int", "bytes"], project: false };

test("the hooks switch on only when the API exists", () => {
  assert.deepEqual(cwReaders({ ColumnsFile: StandIn }), ["cw", "cwOpen", "cwReuse", "cwReuseHot", "cwReuseLoop", "cwScoped", "cwStream", "cwStreamScoped"]);
  class Without {
    static fromBlob() {}
  }
  assert.deepEqual(cwReaders({ ColumnsFile: Without }), ["cw", "cwOpen", "cwReuse", "cwReuseHot", "cwReuseLoop"]);
});

for (const [name, make] of [["scoped read", cwScopedReader], ["streaming", cwStreamReader], ["streaming, lent", cwStreamScopedReader]]) {
  test(`${name}: every value checked inside the callback, its time subtracted`, async () => {
    const reader = make({ ColumnsFile: StandIn }, input);
    const out = await reader.run(arg);
    assert.equal(typeof out.untimedMs, "number");
    assert.equal(compareFingerprints(reader.fingerprints(out, arg), expected, arg.names), null);
    // a wrong value is caught
    const wrong = [expected[0], fingerprintJson("bytes", [["a", "bb", null], ["cc"]])];
    assert.match(compareFingerprints(reader.fingerprints(await reader.run(arg), arg), wrong, arg.names), /column 1 \(s\)/);
  });
}

test("the hot cell times the fourth of four back-to-back reads, each refilling the last one's buffers", async () => {
  const calls = [];
  class Counting extends StandIn {
    static fromBytes() {
      return new Counting();
    }
    readColumns(rowGroups, columns, options) {
      const out = GROUPS.flatMap((g) => [0, 1].map((c) => column(SCHEMA[c].type, g[c])));
      calls.push({ out, reuse: options?.reuse ?? null });
      return out;
    }
  }
  const reader = cwHotReader({ ColumnsFile: Counting }, input);
  const result = await reader.run(arg);
  assert.equal(calls.length, 4);
  assert.equal(calls[0].reuse, null);
  for (let k = 1; k < 4; k++) assert.equal(calls[k].reuse, calls[k - 1].out, `read ${k + 1} refills read ${k}'s buffers`);
  assert.equal(result.out, calls[3].out, "the timed output is the last read's");
  assert.ok(result.untimedMs >= 0);
  const got = reader.fingerprints(result, arg);
  assert.equal(compareFingerprints(got, expected, ["n", "s"]), null);
});

test("the loop cell reads 3 + 15 times back to back and counts only the median read", async () => {
  const calls = [];
  // Read k (1-based) takes k ms of busy time, so the timed reads 4..18 take
  // 4..18 ms and their median is read 11's 11 ms.
  class Slow extends StandIn {
    static fromBytes() {
      return new Slow();
    }
    readColumns(rowGroups, columns, options) {
      const until = performance.now() + calls.length + 1;
      while (performance.now() < until);
      const out = GROUPS.flatMap((g) => [0, 1].map((c) => column(SCHEMA[c].type, g[c])));
      calls.push({ out, reuse: options?.reuse ?? null });
      return out;
    }
  }
  const reader = cwLoopReader({ ColumnsFile: Slow }, input);
  const t0 = performance.now();
  const result = await reader.run(arg);
  const counted = performance.now() - t0 - result.untimedMs;
  assert.equal(calls.length, 18);
  for (let k = 1; k < 18; k++) assert.equal(calls[k].reuse, calls[k - 1].out, `read ${k + 1} refills read ${k}'s buffers`);
  assert.equal(result.out, calls[17].out, "the checked output is the last read's");
  assert.ok(counted >= 11 && counted < 12.5, `counted ${counted} ms, want the median read's 11`);
  assert.equal(compareFingerprints(reader.fingerprints(result, arg), expected, ["n", "s"]), null);
});
