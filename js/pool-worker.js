// A worker of ColumnsPool: its own module instance, its own copy of each
// open file; reads the chunks it is given and transfers the buffers back.
import init, { ColumnsFile, TokenizerRegistry, columnFromParts } from "./columns_wasm.js";

let ready = null;
const files = new Map(); // id -> ColumnsFile

function parts(col) {
  const v = col.values;
  const buffers = ArrayBuffer.isView(v) ? [v.buffer] : [v.offsets.buffer, v.data.buffer];
  if (col.validity) buffers.push(col.validity.buffer);
  return {
    part: { type: col.type, length: col.length, nullCount: col.nullCount, values: v, validity: col.validity, timings: col.timings },
    buffers,
  };
}

function plainError(e) {
  return { message: String(e?.message ?? e), kind: e?.kind ?? "internal", rowGroup: e?.rowGroup ?? null, column: e?.column ?? null, offset: e?.offset ?? null };
}

self.onmessage = async ({ data: msg }) => {
  try {
    if (msg.op === "init") {
      ready = init({ module_or_path: msg.module });
      await ready;
      self.postMessage({ op: "ready", job: msg.job });
      return;
    }
    await ready;
    if (msg.op === "open") {
      const registry = new TokenizerRegistry();
      for (const t of msg.tokenizers) registry.register(t);
      const src = msg.source;
      const file = src instanceof Blob
        ? await ColumnsFile.fromBlob(src, registry)
        : ColumnsFile.fromBytes(new Uint8Array(src), registry);
      files.set(msg.id, file);
      self.postMessage({ op: "opened", job: msg.job });
    } else if (msg.op === "read") {
      const file = files.get(msg.id);
      const out = [];
      const transfer = [];
      // Buffers handed back by the main thread, refilled before any new
      // memory is allocated (fresh memory is what costs, not the copy).
      let spare = msg.buffers ?? [];
      for (const [g, c] of msg.chunks) {
        const reuse = spare.map((b) => columnFromParts("uint8", b.byteLength, 0, new Uint8Array(b), null));
        const options = { reuse };
        const col = file.inMemory ? file.readColumn(g, c, options) : await file.readColumnAsync(g, c, options);
        const used = new Set(col.arrays().map((a) => a.buffer));
        spare = spare.filter((b) => !used.has(b));
        const { part, buffers } = parts(col);
        out.push(part);
        transfer.push(...buffers);
      }
      self.postMessage({ op: "columns", job: msg.job, columns: out }, transfer);
    } else if (msg.op === "close") {
      files.get(msg.id)?.free();
      files.delete(msg.id);
    }
  } catch (e) {
    self.postMessage({ op: "error", job: msg.job, error: plainError(e) });
  }
};
