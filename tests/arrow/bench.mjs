// A timing of the Arrow adapter in Node (not a test: run it by hand).
//   node tests/arrow/bench.mjs [file.cols] [runs]
// Default file: ../shared/bench/real/flights-3m.optimized.cols (3,000,000
// rows). Every variant runs once per round, in a shuffled order, after two
// warm-up rounds; medians (min-max) in ms. Also: packing 3M bools
// (Column.boolBitmap) against copying them, the same memory traffic.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { adapter, api, arrow, makeColumn, projectRoot } from "./support.mjs";

// The adapter as browsers run it: UTF-8 checked by TextDecoder, not Node's isUtf8.
const hidden = process.getBuiltinModule;
process.getBuiltinModule = undefined;
const browserLike = await import(pathToFileURL(path.join(import.meta.dirname, ".lib", "arrow.js")).href + "?no-node-builtins");
process.getBuiltinModule = hidden;

const file = process.argv[2] ?? path.resolve(projectRoot, "../shared/bench/real/flights-3m.optimized.cols");
const runs = Number(process.argv[3] ?? 15);
const cols = api.ColumnsFile.fromBytes(fs.readFileSync(file));
const strings = cols.schema.filter((c) => c.type === "string").length;
console.log(`${path.basename(file)}: ${cols.numRows} rows, ${cols.schema.length} columns (${strings} string), ${cols.rowGroups.length} row groups`);

// Columns read once, for timing the wrapping alone.
const held = cols.readColumns(null, null, { boolBits: true });
const heldFile = { schema: cols.schema, rowGroups: cols.rowGroups, readColumns: () => held };
const table = adapter.toArrowTable(heldFile);
const stringBytes = held.filter((c) => c.type === "string").reduce((a, c) => a + c.values.data.length, 0);
console.log(`string data: ${(stringBytes / 1e6).toFixed(1)} MB; node ${process.version}; load average ${(await import("node:os")).loadavg()[0].toFixed(1)}`);

const n = 3_000_000;
const bools = makeColumn("bool", n, 0, Uint8Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 31), null);

const variants = {
  "readColumns()": () => cols.readColumns(),
  "readColumns({ boolBits })": () => cols.readColumns(null, null, { boolBits: true }),
  "toArrowTable(file)": () => adapter.toArrowTable(cols),
  'toArrowTable(file, { strings: "auto" })': () => adapter.toArrowTable(cols, { strings: "auto" }),
  "wrapping alone (columns already read)": () => adapter.toArrowTable(heldFile),
  '"auto" wrapping alone (validates UTF-8)': () => adapter.toArrowTable(heldFile, { strings: "auto" }),
  '"auto" wrapping alone, TextDecoder route': () => browserLike.toArrowTable(heldFile, { strings: "auto" }),
  'tableToIPC(table, "stream")': () => arrow.tableToIPC(table, "stream"),
  "3M bools: boolBitmap() (pack)": () => bools.boolBitmap(),
  "3M bools: values.slice() (copy)": () => bools.values.slice(),
};

const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
for (let round = 0; round < runs + 2; round++) {
  const order = Object.keys(variants).sort(() => random() - 0.5);
  for (const k of order) {
    globalThis.gc?.();
    const t = performance.now();
    variants[k]();
    if (round >= 2) times[k].push(performance.now() - t);
  }
}
for (const [k, t] of Object.entries(times)) {
  t.sort((a, b) => a - b);
  console.log(`${k.padEnd(42)} ${t[t.length >> 1].toFixed(2).padStart(8)} ms  (${t[0].toFixed(2)}-${t[t.length - 1].toFixed(2)})`);
}
