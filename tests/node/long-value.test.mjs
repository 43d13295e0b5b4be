// A string value longer than a JavaScript string can be (V8: 2^29 - 24
// UTF-16 units): the file reads, and `toArray()` refuses it as a
// ColumnsError `too_large` naming its row group, column and row, where
// TextDecoder threw Node's plain ERR_STRING_TOO_LONG. A copied column
// (readColumn, the pool's), a lent one (readRowGroupScoped) and its copy.
// The file (written here from FORMAT.md: one row group, an int32 column,
// then one Plain string value of 2^29 - 23 bytes in Flate blocks) is
// 0.6 MB; each read takes 0.5 to 1 GB.

import { test, after } from "node:test";
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { encodeFooter, TYPES, u32s } from "./synth.mjs";

const pkg = new URL("../../pkg/", import.meta.url);
const api = await import(new URL("node.mjs", pkg).href);
const { ColumnsPool } = await import(new URL("pool-node.mjs", pkg).href);

const LONG = 0x1fffffe8 + 1;

/** The file: one row, column 0 an int32 (7), column 1 a string (LONG
 *  times "a") in Flate blocks of 256 KiB, as the writer cuts them: 0.6 MB
 *  of file, not 0.5 GB (the machine holds the decoded value enough times). */
function file() {
  const small = Uint8Array.of(1, 0, ...u32s(0, 4, 4, 1, 4, 4), ...u32s(7)); // codec None, one block
  const raw = 4 + LONG; // Plain: the value's length, then its bytes
  const BLOCK = 256 * 1024;
  const blocks = [];
  for (let at = 0; at < raw; at += BLOCK) blocks.push(Math.min(BLOCK, raw - at));
  const aaa = (n) => Buffer.alloc(n, 0x61);
  const first = deflateRawSync(Buffer.concat([Buffer.from(u32s(LONG)), aaa(BLOCK - 4)]));
  const full = deflateRawSync(aaa(BLOCK));
  const last = deflateRawSync(aaa(blocks.at(-1)));
  const stored = blocks.map((n, i) => (i === 0 ? first : i === blocks.length - 1 ? last : full));
  const storedLength = stored.reduce((a, b) => a + b.length, 0);
  const head = Uint8Array.of(1, 2, ...u32s(0, raw, storedLength, blocks.length, ...blocks.flatMap((n, i) => [n, stored[i].length])));
  const footer = encodeFooter({
    schema: [{ name: "n", type: TYPES.int32, nullable: false }, { name: "s", type: TYPES.string, nullable: false }],
    rowGroups: [{ numRows: 1, byteOffset: 5, columns: [{ byteLength: small.length, encoding: 1 }, { byteLength: head.length + storedLength, encoding: 1, compress: 2 }] }],
  });
  return Buffer.concat([Buffer.from([0x41, 0x42, 0x43, 0x44, 1]), small, head, ...stored, footer, Buffer.from(u32s(footer.length)), Buffer.from([0x41, 0x42, 0x43, 0x44])]);
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
