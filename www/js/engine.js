// The page's handle on the decoding worker. A call can be given an
// AbortSignal: the worker then stops that operation at its next check
// (between row groups or sort passes) and keeps everything else. cancel()
// terminates the worker (the only way to stop wasm mid-decode) and starts
// a fresh one; the caller then restores its state (tokenizers, open file)
// through onRespawn.

export class Engine {
  constructor({ onProgress, onRespawn, url = new URL("./worker.js", import.meta.url) } = {}) {
    this.url = url;
    this.onProgress = onProgress || (() => {});
    this.onRespawn = onRespawn || (async () => {});
    this.pending = new Map();
    this.nextId = 1;
    this.gate = Promise.resolve();
    this.epoch = 0; // cancel()s so far
    this.spawn();
  }

  spawn() {
    this.worker = new Worker(this.url, { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (ev) => {
        const m = ev.data;
        if (m.ready !== undefined) {
          if (m.ready) resolve();
          else reject(Object.assign(new Error(m.error.message), m.error));
          return;
        }
        const p = this.pending.get(m.id);
        if (!p) return;
        if (m.progress) {
          p.onProgress?.(m.progress);
          this.onProgress(p.op, m.progress);
          return;
        }
        this.pending.delete(m.id);
        if (m.ok) p.resolve(m.result);
        else p.reject(Object.assign(new Error(m.error.message), m.error));
      });
      this.worker.addEventListener("error", (ev) => {
        const err = { kind: "internal", message: `worker failed: ${ev.message || "could not load the worker or the package (pkg/columns_wasm.js)"}` };
        reject(Object.assign(new Error(err.message), err));
        for (const p of this.pending.values()) p.reject(Object.assign(new Error(err.message), err));
        this.pending.clear();
      });
    });
  }

  /**
   * Runs an operation in the worker; rejects with { kind, message, ... }.
   * Waits while a restarted worker is being restored.
   */
  async call(op, args, opts) {
    // A cancel() while this waited (for a restore) stops it too: else it
    // would go to a worker newer than the restore it waited for, one that
    // holds no file yet.
    const epoch = this.epoch;
    await this.gate;
    if (epoch !== this.epoch) throw Object.assign(new Error("cancelled"), { kind: "cancelled" });
    return this.post(op, args, opts);
  }

  /** Sends at once (used to restore state after a restart). */
  post(op, args, { onProgress, transfer = [], signal } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(Object.assign(new Error("cancelled"), { kind: "cancelled" }));
        return;
      }
      this.pending.set(id, { op, resolve, reject, onProgress });
      const worker = this.worker;
      signal?.addEventListener("abort", () => {
        if (this.pending.has(id) && this.worker === worker) worker.postMessage({ abort: id });
      });
      worker.postMessage({ id, op, args }, transfer);
    });
  }

  get busy() {
    return this.pending.size > 0;
  }

  /** Stops everything in flight and starts a new worker. */
  async cancel() {
    this.epoch++;
    this.worker.terminate();
    const err = Object.assign(new Error("cancelled"), { kind: "cancelled", message: "cancelled" });
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.spawn();
    this.gate = (async () => {
      await this.ready;
      await this.onRespawn();
    })().catch(() => {});
    await this.gate;
  }
}
