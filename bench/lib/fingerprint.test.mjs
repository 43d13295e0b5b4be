// The fingerprint check must be able to fail: one changed value, a moved
// null, a split string, a sign or a float's sign bit must each change it,
// and the same values in every reader's shape must give the same one.
//   node --test bench/lib/fingerprint.test.mjs    (bench/run runs it first)

import test from "node:test";
import assert from "node:assert/strict";
import { Fingerprint, fingerprintColumns, fingerprintJson, fingerprintHyparquet, fingerprintJsArray, compareFingerprints } from "./fingerprint.mjs";

const fp = (kind, feed) => {
  const f = new Fingerprint(kind);
  feed(f);
  return f.result();
};
const arr = (kind, values) => fp(kind, (f) => f.array(values));

test("every shape of the same values gives the same fingerprint", () => {
  // int16 with a null: columns-wasm (typed + validity), JSON, hyparquet (numbers), Arrow-like typed + validity
  const col = { values: new Int16Array([5, 0, -3]), validity: new Uint8Array([0b101]), length: 3 };
  const want = fingerprintJson("int", [[5, null, -3]]);
  assert.deepEqual(fingerprintColumns("int", [col]), want);
  assert.deepEqual(fingerprintHyparquet("int", [{ rowStart: 0, columnData: [5, undefined, -3] }]), want);
  const vector = { data: [{ offset: 0, length: 3, nullCount: 1, nullBitmap: new Uint8Array([0b101]) }] };
  assert.deepEqual(fingerprintJsArray("int", new Int16Array([5, 7, -3]), vector), want);
  // int64: BigInt64Array, decimal strings, bigints, split over two chunks in any order
  const big = fingerprintColumns("int", [{ values: new BigInt64Array([1n, -2n]), validity: null, length: 2 }, { values: new BigInt64Array([2n ** 40n]), validity: null, length: 1 }]);
  assert.deepEqual(fingerprintJson("int", [["1", "-2"], [String(2n ** 40n)]]), big);
  assert.deepEqual(fingerprintHyparquet("int", [{ rowStart: 2, columnData: [2n ** 40n] }, { rowStart: 0, columnData: new BigInt64Array([1n, -2n]) }]), big);
  // strings: offsets + bytes, JS strings (UTF-8, a surrogate pair), JSON's { hex } for the same bytes
  const s = ["a", "é€", "😀"];
  const bytes = new TextEncoder().encode(s.join(""));
  const offsets = new Uint32Array([0, 1, 6, 10]);
  const str = fingerprintColumns("bytes", [{ values: { offsets, data: bytes }, validity: null, length: 3 }]);
  assert.deepEqual(arr("bytes", s), str);
  assert.deepEqual(fingerprintJson("bytes", [["a", { hex: "c3a9e282ac" }, "😀"]]), str);
  // floats: typed bits, JS numbers, JSON hex bits
  assert.deepEqual(fingerprintColumns("f64", [{ values: new Float64Array([1, -0]), validity: null, length: 2 }]), fingerprintJson("f64", [["0x3ff0000000000000", "0x8000000000000000"]]));
  assert.deepEqual(arr("f32", [1.5]), fingerprintJson("f32", [["0x3fc00000"]]));
});

test("every kind of difference changes the fingerprint", () => {
  const differ = (kind, a, b) => assert.notEqual(arr(kind, a).hash + arr(kind, a).nulls, arr(kind, b).hash + arr(kind, b).nulls, `${JSON.stringify(a, (k, v) => (typeof v === "bigint" ? `${v}n` : v))} vs the other`);
  differ("int", [1, 2, 3], [1, 2, 4]); // one value
  differ("int", [1, 2, 3], [1, 3, 2]); // order
  differ("int", [0, 1], [null, 1]); // null vs zero
  differ("int", [null, 1], [1, null]); // a moved null
  differ("int", [-1], [4294967295]); // sign: int32 -1 vs uint32 max
  differ("int", [2n ** 32n], [0]); // the high word
  differ("f64", [0], [-0]); // the sign bit
  differ("f32", [1], [1.0000001]); // one ulp of float32
  differ("bytes", ["ab", "c"], ["a", "bc"]); // a split string
  differ("bytes", [""], [null]); // empty vs null
  differ("bytes", ["x"], ["y"]); // one byte
  differ("bool", [true, false], [false, true]);
  // one column differs among several: named in the message
  const a = [arr("int", [1]), arr("bytes", ["s"])];
  const b = [arr("int", [1]), arr("bytes", ["t"])];
  assert.equal(compareFingerprints(a, a, ["i", "s"]), null);
  assert.match(compareFingerprints(b, a, ["i", "s"]), /column 1 \(s\)/);
});

test("shapes that cannot be the declared kind are refused", () => {
  assert.throws(() => fingerprintColumns("f64", [{ values: new Float32Array([1]), validity: null, length: 1 }]), /float64 expected/);
  assert.throws(() => fingerprintColumns("int", [{ values: new Float64Array([1]), validity: null, length: 1 }]), /integers expected/);
  assert.throws(() => fingerprintColumns("int", [{ values: new Int32Array(2), validity: null, length: 3 }]), /2 values for 3 rows/);
  assert.throws(() => fingerprintHyparquet("int", [{ rowStart: 1, columnData: [1] }]), /gap or overlap/);
  assert.throws(() => arr("int", [1.5]), /not an integer/);
});
