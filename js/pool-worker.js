// A worker of ColumnsPool: its own module instance, its own copy of each
// open file; reads the chunks it is given and transfers the buffers back.
// It imports the package's browser entry, the file the page already loaded
// (one download); the compiled module arrives by message.
import { ColumnsFile, TokenizerRegistry, __internal, initSync } from "./columns_wasm.js";

const { columnFromParts } = __internal;

const files = new Map(); // id -> ColumnsFile
const live = new Map(); // read job -> its AbortController, until it ends

/** Lets queued messages (a cancel) in: a task, not a microtask. */
const yieldTask = () => new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => resolve(port1.close());
  port2.postMessage(0);
});

function parts(col) {
  const v = col.values;
  const buffers = ArrayBuffer.isView(v) ? [v.buffer] : [v.offsets.buffer, v.data.buffer];
  if (col.validity) buffers.push(col.validity.buffer);
  return {
    part: { type: col.type, length: col.length, nullCount: col.nullCount, values: v, validity: col.validity, timings: col.timings, boolBits: col.boolBits },
    buffers,
  };
}

function plainError(e) {
  // (Where one is undefined, ColumnsError's constructor makes it null.)
  return { message: String(e?.message ?? e), kind: e?.kind ?? "internal", rowGroup: e?.rowGroup, column: e?.column, offset: e?.offset };
}

self.onmessage = async ({ data: msg }) => {
  if (msg.op === "cancel") return void live.get(msg.job)?.abort();
  try {
    if (msg.op === "init") {
      // Synchronous instantiation is fine off the main thread.
      initSync({ module: msg.module });
      self.postMessage({ op: "ready", job: msg.job });
      return;
    }
    // (init is synchronous: every later message finds the module ready.)
    if (msg.op === "open") {
      const registry = new TokenizerRegistry();
      for (const t of msg.tokenizers) registry.register(t);
      const src = msg.source;
      // A Blob, or a Uint8Array (transferred to this worker, or over a SharedArrayBuffer).
      const file = src instanceof Blob ? await ColumnsFile.fromBlob(src, registry) : ColumnsFile.fromBytes(src, registry);
      files.set(msg.id, file);
      self.postMessage({ op: "opened", job: msg.job });
    } else if (msg.op === "read") {
      const file = files.get(msg.id);
      const stop = new AbortController();
      live.set(msg.job, stop);
      // Buffers handed back by the main thread, refilled before any new
      // memory is allocated (fresh memory is what costs, not the copy).
      let spare = msg.buffers ?? [];
      const out = [];
      const transfer = [];
      // From a Blob, one call: its chunks come in few requests, several at
      // once. From memory, which never waits, calls of at least 64 chunks
      // (whole row groups) and a pause every 16 ms, to hear a cancel.
      const per = file.inMemory ? Math.ceil(64 / msg.columns.length) : Infinity;
      let pause = performance.now() + 16;
      for (let i = 0; i < msg.rowGroups.length; i += per) {
        if (performance.now() > pause) {
          await yieldTask();
          pause = performance.now() + 16;
        }
        const gs = msg.rowGroups.slice(i, i + per);
        // The spare buffers come in the order the last read made them, the
        // order this one reads in (pool.js): a call's are at the front, and
        // offering only those keeps a long file's read from wrapping every
        // spare buffer for every call.
        const reuse = spare.slice(0, 4 * gs.length * msg.columns.length).map((b) => columnFromParts("uint8", b.byteLength, 0, new Uint8Array(b)));
        // What this call refilled is not spare any more (a Set: a long file has many).
        const used = new Set();
        for (const col of await file.readColumnsAsync(gs, msg.columns, { reuse, boolBits: msg.boolBits, signal: stop.signal })) {
          const { part, buffers } = parts(col);
          out.push(part);
          for (const b of buffers) transfer.push(b), used.add(b);
        }
        spare = spare.filter((b) => !used.has(b));
      }
      self.postMessage({ op: "columns", job: msg.job, columns: out }, transfer);
    } else if (msg.op === "close") {
      files.get(msg.id)?.free();
      files.delete(msg.id);
    }
  } catch (e) {
    self.postMessage({ op: "error", job: msg.job, error: plainError(e) });
  } finally {
    live.delete(msg.job);
  }
};
