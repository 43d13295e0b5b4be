// The one place the browser benchmark gets columns-wasm from (the web-target
// build served at /pkg/, and its worker pool). When the package layout
// changes, only this file changes.

const ENTRY = "/pkg/columns_wasm.js";
const POOL = "/pkg/pool.js";

/** { ColumnsFile, TokenizerRegistry, pools, streamInstance, info }; ColumnsFile is null when not built. */
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
  // The streaming hooks (bench/lib/readers.mjs) make module instances of
  // their own, so that an instance's wasm memory size after the runs is one
  // reader's peak on one file.
  const streamInstance = async (name) => {
    const own = await import(`${ENTRY}?instance=${name}`);
    await own.default();
    return { ColumnsFile: own.ColumnsFile, TokenizerRegistry: own.TokenizerRegistry, memory: own.wasmMemory() };
  };
  const poolSizes = Object.fromEntries(Object.entries(pools).map(([k, p]) => [k, p.size]));
  return { ColumnsFile: mod.ColumnsFile, TokenizerRegistry: mod.TokenizerRegistry, pools, streamInstance, info: { available: true, note: ENTRY, poolSizes, crossOriginIsolated } };
}
