// A string value longer than a JavaScript string can be (V8: 2^29 - 24
// UTF-16 units): the file reads, and `toArray()` refuses it as a
// ColumnsError `too_large` naming its row group, column and row, where
// TextDecoder threw Node's plain ERR_STRING_TOO_LONG. A copied column
// (readColumn, the pool's), a lent one (readRowGroupScoped) and its copy.
// The file (written here from FORMAT.md: one row group, an int32 column,
// then one Plain string value of 2^29 - 23 bytes) takes 0.5 GB, each read
// 0.5 to 1 GB more.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { encodeFooter, TYPES, u32s } from "./synth.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const api = await import(new URL("node.mjs", pkg).href);
const { ColumnsPool } = await import(new URL("pool-node.mjs", pkg).href);

const LONG = 0x1fffffe8 + 1;

/** The file: one row, column 0 an int32 (7), column 1 a string (LONG times "a"). */
function file() {
  const chunk = (n) => u32s(0, n, n, 1, n, n); // codec None, one block of n bytes, no bitmap
  const small = Uint8Array.of(1, 0, ...chunk(4), ...u32s(7));
  const n = 4 + LONG;
  const head = Uint8Array.of(1, 0, ...chunk(n), ...u32s(LONG));
  const footer = encodeFooter({
    schema: [{ name: "n", type: TYPES.int32, nullable: false }, { name: "s", type: TYPES.string, nullable: false }],
    rowGroups: [{ numRows: 1, byteOffset: 5, columns: [{ byteLength: small.length, encoding: 1 }, { byteLength: head.length + LONG, encoding: 1 }] }],
  });
  const size = 5 + small.length + head.length + LONG + footer.length + 8;
  const out = new Uint8Array(size);
  out.set([0x41, 0x42, 0x43, 0x44, 1]);
  let at = 5;
  for (const part of [small, head]) {
    out.set(part, at);
    at += part.length;
  }
  out.fill(0x61, at, at + LONG);
  out.set(footer, at + LONG);
  new DataView(out.buffer).setUint32(size - 8, footer.length, true);
  out.set([0x41, 0x42, 0x43, 0x44], size - 4);
  return out;
}

const bytes = file();
const pools = [];
after(() => pools.forEach((p) => p.terminate()));

const tooLong = (e) => {
  assert.ok(e instanceof api.ColumnsError, `${e?.constructor?.name} ${e?.code}: ${e?.message}`);
  assert.equal(e.kind, "too_large");
  assert.deepEqual([e.rowGroup, e.column], [0, 1]);
  assert.match(e.message, /row 0\b.*536870889 bytes.*\(row group 0, column 1\)/);
  return true;
};

test("toArray() of a value longer than a JavaScript string is a too_large ColumnsError at its row group, column and row", async () => {
  const f = api.ColumnsFile.fromBytes(bytes);
  assert.deepEqual(f.readColumn(0, 0).toArray(), [7]);
  let col = f.readColumn(0, 1);
  assert.equal(col.values.offsets[1], LONG);
  assert.throws(() => col.toArray(), tooLong);
  col = null;
  f.readRowGroupScoped(0, ({ columns }) => {
    assert.throws(() => columns[1].toArray(), tooLong);
    assert.throws(() => columns[1].copy().toArray(), tooLong);
  });
  f.free();
  const p = await ColumnsPool.create(1);
  pools.push(p);
  const pf = await p.open(bytes);
  const [, pooled] = await pf.readColumns([0], [0, 1]);
  assert.throws(() => pooled.toArray(), tooLong);
  pf.close();
});
