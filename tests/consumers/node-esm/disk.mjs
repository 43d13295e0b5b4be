// The README's file on disk (Node 20 and later): a Blob from fs.openAsBlob,
// read a chunk at a time. The test checks what it prints against the corpus
// JSON, and that Node 18 (no openAsBlob) refuses it at the import.
import { ColumnsFile } from "columns-wasm";

import { openAsBlob } from "node:fs"; // Node 20 and later

const onDisk = await ColumnsFile.fromBlob(await openAsBlob("data.cols")); // reads the tail, header and footer only
const [col] = await onDisk.readColumnsAsync([3], [2]); // reads that one chunk from disk
console.log(col.type, col.length, onDisk.bytesRead, "of", onDisk.byteLength, "bytes read");
