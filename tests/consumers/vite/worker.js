import init, { ColumnsFile } from "columns-wasm";

self.onmessage = async ({ data: blob }) => {
  await init();
  const file = await ColumnsFile.fromBlob(blob);
  const columns = await file.readColumnsAsync();
  self.postMessage(columns.map((col) => [col.type, col.length, col.nullCount]));
};
