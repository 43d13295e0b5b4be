// The README's file on disk of any size: an AsyncBuffer over a FileHandle
// (fs.openAsBlob gets sizes past 4 GiB wrong, nodejs/node#52585). The test
// checks what it prints against the corpus JSON, on every Node line.
import { ColumnsFile } from "columns-wasm";

import { open } from "node:fs/promises";

const handle = await open("data.cols");
const source = {
  byteLength: (await handle.stat()).size,
  async slice(start, end) {
    const bytes = new Uint8Array(end - start);
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, start);
    return bytes.subarray(0, bytesRead);
  },
};
const big = await ColumnsFile.fromAsyncBuffer(source); // reads the tail, header and footer only
const [one] = await big.readColumnsAsync([3], [2]); // reads that one chunk from disk
console.log(one.type, one.length, big.bytesRead, "of", big.byteLength, "bytes read");
await handle.close();
