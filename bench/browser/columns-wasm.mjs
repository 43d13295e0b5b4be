// The one place the browser benchmark gets columns-wasm from (the web-target
// build served at /pkg/, and its worker pool). When the package layout
// changes, only this file changes.

const ENTRY = "/pkg/columns_wasm.js";
const POOL = "/pkg/pool.js";

/** { ColumnsFile, TokenizerRegistry, pools, stream, streamScoped, info }; ColumnsFile is null when not built. */
export async function loadColumnsWasm() {
  if (!(await fetch(ENTRY, { method: "HEAD" })).ok) {
    return { ColumnsFile: null, TokenizerRegistry: null, pools: {}, info: { available: false, note: `columns-wasm not built (${ENTRY} is missing: scripts/build); benchmarking the others only` } };
  }
  const mod = await import(ENTRY);
  await mod.default();
  // Worker pools of 1, 2 and hardwareConcurrency workers (created once, untimed).
  const { ColumnsPool } = await import(POOL);
  const pools = {};
  for (const [key, size] of [["cwPool1", 1], ["cwPool2", 2], ["cwPoolN", navigator.hardwareConcurrency]]) {
    if (key === "cwPoolN" && size <= 2) continue; // the same as one above on a 2-core machine
    pools[key] = await ColumnsPool.create(size);
  }
  // The streaming hooks (bench/lib/readers.mjs) get a module instance each,
  // so that its wasm memory's size after the runs is that reader's peak.
  let stream = null;
  let streamScoped = null;
  if (typeof mod.ColumnsFile.prototype.rowGroupsAsync === "function") {
    const instance = async (name) => {
      const own = await import(`${ENTRY}?instance=${name}`);
      await own.default();
      return { ColumnsFile: own.ColumnsFile, TokenizerRegistry: own.TokenizerRegistry, memory: own.wasmMemory() };
    };
    stream = await instance("stream");
    streamScoped = await instance("streamScoped");
  }
  const poolSizes = Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p.size]));
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, pools, stream, streamScoped, info: { available: true, note: ENTRY, poolSizes, crossOriginIsolated } };
}
