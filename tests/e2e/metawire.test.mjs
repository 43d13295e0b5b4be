// The open reply's row groups and layout, packed field by field in the
// worker and made again on the page (www/js/metawire.js), in Node: every
// corpus file's, and odd shapes, come back deep-equal to the package's.

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { packMeta, unpackMeta } from "../../www/js/metawire.js";
import { loadApi, corpusDir as corpusRoot } from "../node/corpus.mjs";

const roundTrip = (rowGroups, layout) => unpackMeta(structuredClone(packMeta(rowGroups, layout)));

function colsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? colsFiles(path.join(dir, e.name)) : e.name.endsWith(".cols") ? [path.join(dir, e.name)] : []));
}

test("every valid and real corpus file's row groups and layout come back as the package gave them", () => {
  const { ColumnsFile } = loadApi();
  let n = 0;
  for (const sub of ["valid", "real"]) {
    for (const file of colsFiles(path.join(corpusRoot, sub))) {
      let f;
      try {
        f = ColumnsFile.fromBytes(fs.readFileSync(file));
      } catch {
        continue; // (a file that needs a tokenizer to open)
      }
      try {
        const { rowGroups, layout } = f;
        assert.deepEqual(roundTrip(rowGroups, layout), { rowGroups, layout }, file);
        n++;
      } finally {
        f.free();
      }
    }
  }
  assert.ok(n > 10, `${n} files`);
});

test("odd shapes: nulls, absent fields, bigints, bytes among nulls, no row groups", () => {
  const rowGroups = [
    { numRows: 2, byteOffset: 5, columns: [{ a: 1, b: null, raw: Uint8Array.of(1, 2), s: "x", big: 5n }, { a: null, raw: new Uint8Array(0), s: null, big: null, extra: 3 }] },
    { numRows: 0, byteOffset: 9, columns: [] },
    { numRows: 1, byteOffset: 9, columns: [{ a: 2.5, b: 7, raw: null, s: "y", big: 1n }] },
  ];
  const layout = [{ kind: "header", start: 0, end: 5 }, { kind: "chunk", start: 5, end: 9, rowGroup: 0, column: 0 }];
  assert.deepEqual(roundTrip(rowGroups, layout), { rowGroups, layout });
  assert.deepEqual(roundTrip([], []), { rowGroups: [], layout: [] });
});
