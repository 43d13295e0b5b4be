// The README's API tour, run in Node: every block of it, in order, on the
// files the test puts in the working directory (data.cols, tokenized.cols,
// gpt2-tokenizer.json, damaged.cols). The test checks what it prints
// against the corpus JSON; lines marked "check:" exist only for the test.
//   node tour.mjs <url of data.cols on a server with range requests>
import { readFile } from "node:fs/promises";
import { ColumnsError, ColumnsFile, TokenizerRegistry } from "columns-wasm";

{
  const blob = new Blob([await readFile("data.cols")]); // in a page: a File from <input type="file"> or a drop
  const file = await ColumnsFile.fromBlob(blob);        // reads the tail, header and footer only
  console.log(file.numRows, file.schema.map((c) => `${c.name}: ${c.type}`).join(", "));
  const col = await file.readColumnAsync(2, 3);         // row group 2, column 3: fetches that chunk alone
  console.log(col.type, col.toArray().slice(0, 3));
}

const url = process.argv[2]; // data.cols on the test's server (Range requests)

import { asyncBufferFromUrl } from "columns-wasm/http";

const remote = await ColumnsFile.fromAsyncBuffer(await asyncBufferFromUrl(url)); // HEAD, then a ranged GET per read
const columns = await remote.readColumnsAsync([3], [2]); // row group 3, column 2
console.log(remote.bytesRead, "of", remote.byteLength, "bytes fetched in", remote.requests, "requests");
console.log("check:", columns.length, columns[0].type, columns[0].length);

{
  const file = ColumnsFile.fromBytes(await readFile("data.cols"));
  let columns = file.readColumns();
  // ... later, reading again (the next file, a re-run): hand the old columns back
  columns = file.readColumns(null, null, { reuse: columns });
  console.log("check:", columns.length, columns.every((c) => c.values !== null));
}

{
  const file = ColumnsFile.fromBytes(await readFile("data.cols"));
  const rowGroups = file.rowGroups.length;
  let sum = 0;
  for (let g = 0; g < rowGroups; g++) {
    sum += file.readRowGroupScoped(g, ({ columns: [prices] }) => {
      let s = 0;
      for (const x of prices.values) s += x; // a Float64Array over the module's memory
      return s;
    }, { columns: [2] });
  }
  console.log(sum);
  // check: a lent column kept past its callback fails loudly
  let kept, values;
  file.readRowGroupScoped(3, ({ columns }) => {
    kept = columns[0];
    values = kept.values;
  });
  try {
    kept.toArray();
  } catch (e) {
    console.log("check:", e.kind, values.length);
  }
}

{
  const blob = new Blob([await readFile("data.cols")]); // in a page: a File
  const file = await ColumnsFile.fromBlob(blob);
  for await (const { rowGroup, numRows, columns } of file.rowGroupsAsync({ columns: [3, 4], readAhead: 16 << 20 })) {
    console.log(rowGroup, numRows, columns.map((col) => col.nullCount));
  }
}

{
  const registry = new TokenizerRegistry();
  registry.register(await readFile("gpt2-tokenizer.json")); // returns its SHA-256 (hex)
  const tokenized = ColumnsFile.fromBytes(await readFile("tokenized.cols"), registry);
  console.log(tokenized.tokenizers, tokenized.readColumn(0, 1).toArray()[0]);
}

try {
  ColumnsFile.fromBytes(await readFile("damaged.cols"));
} catch (e) {
  if (!(e instanceof ColumnsError)) throw e;
  console.log(e.kind, e.message);
}
