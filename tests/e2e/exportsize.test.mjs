// The export's size from the footer (www/js/sizes.js exportEstimate), in
// Node without a browser: never more than the CSV or JSON the page's
// export writes (js/exporttext.js), for every corpus file that reads, with
// and without its time columns as dates, and for a view of some rows. The
// page refuses a download on it before reading anything (worker.js
// export; hugerows.test.mjs), so it must not refuse one that fits.

import { test } from "node:test";
import assert from "node:assert/strict";
import { exportEstimate } from "../../www/js/sizes.js";
import { cellText, textFormat } from "../../www/js/exporttext.js";
import { columnLabels } from "../../www/js/labels.js";
import { corpusDir, findPairs, loadApi, loadTokenizers, tokenizerDir } from "../node/corpus.mjs";
import fs from "node:fs";

const INTS = new Set(["int32", "int64", "uint32", "uint64"]);

/** The bytes the page's CSV or JSON export writes of the rows `rows` (file row numbers; all if null). */
function written(f, format, cols, units, rows) {
  const labels = columnLabels(f.schema).filter((_, c) => cols.includes(c));
  const fmt = textFormat(format, labels, cols.map((c) => f.schema[c].type), cols.map((c) => units[c] || null));
  const enc = new TextEncoder();
  let bytes = enc.encode(fmt.head).length + enc.encode(fmt.tail).length;
  let base = 0;
  let first = true;
  f.rowGroups.forEach((rg, g) => {
    const chunks = cols.map((c) => f.readColumn(g, c));
    for (let i = 0; i < rg.numRows; i++) {
      if (rows && !rows.has(base + i)) continue;
      const cells = chunks.map((col, k) => cellText(col, i, units[cols[k]] || null));
      bytes += enc.encode((first ? "" : fmt.sep) + fmt.row(cells)).length;
      first = false;
    }
    base += rg.numRows;
  });
  return bytes;
}

test("the least an export takes by the footer is never more than the CSV or JSON written, for every corpus file that reads", () => {
  const api = loadApi();
  const registry = new api.TokenizerRegistry();
  for (const t of loadTokenizers(api, tokenizerDir)) registry.register(t);
  const { pairs } = findPairs(corpusDir);
  let checked = 0;
  for (const pair of pairs) {
    let f;
    try {
      f = api.ColumnsFile.fromBytes(new Uint8Array(fs.readFileSync(pair.cols)), registry);
      f.readColumns();
    } catch {
      f?.free();
      continue; // a file (or a chunk) that does not read: no export
    }
    const schema = f.schema;
    const groups = f.rowGroups;
    const cols = schema.map((_, c) => c);
    const labels = columnLabels(schema);
    const units = Object.fromEntries(cols.filter((c) => INTS.has(schema[c].type)).map((c) => [c, "s"]));
    const numRows = groups.reduce((a, rg) => a + rg.numRows, 0);
    // Every third row: a filter's view.
    const some = new Set(Array.from({ length: numRows }, (_, r) => r).filter((r) => r % 3 === 1));
    for (const format of ["csv", "json"]) {
      for (const u of [{}, units]) {
        for (const rows of [null, some]) {
          const least = exportEstimate(groups, schema, cols, { format, units: u, labels, rows: rows ? rows.size : numRows }).bytes;
          const real = written(f, format, cols, u, rows);
          assert.ok(least <= real, `${pair.name} ${format}${Object.keys(u).length ? " with dates" : ""}${rows ? " (every third row)" : ""}: estimated at least ${least} bytes, written ${real}`);
          if (!rows && numRows > 0) assert.ok(least > 0);
        }
      }
    }
    checked++;
    f.free();
  }
  assert.ok(checked >= 40, `${checked} corpus files checked`);
});
