// Peak wasm memory and time of reading a whole file, streamed row group by
// row group (rowGroupsAsync) or read at once, in Node. Each way runs in a
// process of its own (a fresh module instance), since wasm memory never
// shrinks: its size after the read is the read's peak. The first (warm-up)
// read also samples live JS ArrayBuffer bytes after a full collection at
// every row group (and once at the end): the most the read held at once.
//   node bench/node/stream-memory.mjs [file.cols ...]   (default: flights-3m, both variants)
//   RUNS=5 (timed runs after one warm-up; memory is that of the whole process)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(here, "../..");
const WAYS = {
  "stream, copied (rowGroupsAsync)": (f) => stream(f, {}),
  "stream, copied, readAhead 4 MiB": (f) => stream(f, { readAhead: 4 << 20 }),
  "stream, lent (rowGroupsAsync scoped)": (f) => stream(f, { scoped: true }),
  "whole, readColumnsAsync() from the Blob": async (f) => {
    const columns = await f.readColumnsAsync();
    sample?.();
    return touch(columns);
  },
};

/** Live ArrayBuffer bytes after a full collection, when sampling. */
let sample = null;

async function stream(file, options) {
  let rows = 0;
  for await (const { numRows, columns } of file.rowGroupsAsync(options)) {
    rows += numRows;
    touch(columns);
    sample?.();
  }
  return rows;
}

/** Reads one value of every column (so nothing is optimised away). */
function touch(columns) {
  let x = 0;
  for (const c of columns) {
    const v = c.values;
    x += ArrayBuffer.isView(v) ? v.length : v.data.length;
  }
  return x;
}

if (process.argv[2] === "--child") {
  const [, , , file, way, runs] = process.argv;
  const api = createRequire(import.meta.url)(path.join(project, "pkg", "node.cjs"));
  const memory = api.wasmMemory();
  const loaded = memory.buffer.byteLength;
  const blob = await fs.openAsBlob(file);
  const times = [];
  let opened = 0;
  let liveJs = 0;
  for (let i = 0; i <= Number(runs); i++) {
    const f = await api.ColumnsFile.fromBlob(blob);
    opened ||= memory.buffer.byteLength;
    const base = i === 0 ? (gc(), process.memoryUsage().arrayBuffers) : 0;
    sample = i === 0 ? () => (gc(), (liveJs = Math.max(liveJs, process.memoryUsage().arrayBuffers - base))) : null;
    const t0 = performance.now();
    await WAYS[way](f);
    if (i > 0) times.push(performance.now() - t0);
    f.free();
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ loaded, opened, peak: memory.buffer.byteLength, median: times[times.length >> 1], min: times[0], liveJs }));
} else {
  const files = process.argv.slice(2);
  if (!files.length) {
    for (const v of ["optimized", "default"]) files.push(path.resolve(project, `../shared/bench/real/flights-3m.${v}.cols`));
  }
  const { ColumnsFile } = createRequire(import.meta.url)(path.join(project, "pkg", "node.cjs"));
  for (const file of files) {
    // Each row group's decoded size: every column's buffers.
    const f = ColumnsFile.fromBytes(fs.readFileSync(file));
    let largest = 0;
    for (let g = 0; g < f.rowGroups.length; g++) {
      let bytes = 0;
      f.readRowGroupScoped(g, ({ columns }) => {
        for (const c of columns) {
          const v = c.values;
          bytes += (ArrayBuffer.isView(v) ? v.byteLength : v.offsets.byteLength + v.data.byteLength) + (c.validity?.byteLength ?? 0);
        }
      });
      largest = Math.max(largest, bytes);
    }
    const MB = (n) => (n / 1e6).toFixed(2);
    console.log(`\n${path.basename(file)}: ${MB(fs.statSync(file).size)} MB, ${f.numRows} rows, ${f.rowGroups.length} row groups; the largest decodes to ${MB(largest)} MB (3 row groups: ${MB(3 * largest)} MB)`);
    f.free();
    console.log("| way | median ms (min) | wasm memory: loaded / opened / peak MB | live JS ArrayBuffers, most at once MB |");
    console.log("|---|--:|--:|--:|");
    for (const way of Object.keys(WAYS)) {
      const out = execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--child", file, way, process.env.RUNS ?? "5"], { encoding: "utf8" });
      const r = JSON.parse(out.trim().split("\n").pop());
      console.log(`| ${way} | ${r.median.toFixed(1)} (${r.min.toFixed(1)}) | ${MB(r.loaded)} / ${MB(r.opened)} / **${MB(r.peak)}** | ${MB(r.liveJs)} |`);
    }
  }
}
