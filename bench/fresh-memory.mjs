// What a fresh ArrayBuffer costs in Chromium, by the way it is made: the
// "fresh-memory cost" of the benchmark's reports, measured alone. Copies 8 MB
// out of a WebAssembly.Memory (as a read hands its columns to JS) in pieces of
// one size, five ways, and into buffers made once and refilled ({ reuse }).
// A full GC runs before each timed run, as in the benchmark. Then the first
// and second fill of new wasm memory pages: the machine's page-fault price.
//
//   node bench/fresh-memory.mjs        (needs tools/test's playwright-core and /usr/bin/chromium)
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(fileURLToPath(new URL("../tools/test/", import.meta.url)));
const { chromium } = require("playwright-core");

const TOTAL = 8_000_000;
const PIECES = [100_000, 400_000, 1_000_000, 2_000_000];
const RUNS = 25;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--js-flags=--expose-gc", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  console.log(`| piece size | ${["slice()", "new + set()", "ArrayBuffer slice()", "new T(view)", "one buffer, subarrays", "{ reuse }"].join(" | ")} |`);
  console.log(`|--:|${"--:|".repeat(6)}`);
  for (const piece of PIECES) {
    const ms = await page.evaluate(
      ({ piece, total, runs }) => {
        const mem = new WebAssembly.Memory({ initial: Math.ceil(piece / 65536) + 1 });
        new Uint8Array(mem.buffer).fill(7);
        const n = total / piece;
        const view = () => new Uint8Array(mem.buffer, 0, piece);
        const kept = Array.from({ length: n }, () => new Uint8Array(piece));
        const ways = [
          () => kept.map(() => view().slice()),
          () => kept.map(() => { const o = new Uint8Array(piece); o.set(view()); return o; }),
          () => kept.map(() => new Uint8Array(mem.buffer.slice(0, piece))),
          () => kept.map(() => new Uint8Array(view())),
          () => { const big = new Uint8Array(total); return kept.map((_, i) => { const o = big.subarray(i * piece, (i + 1) * piece); o.set(view()); return o; }); },
          () => kept.map((o) => { o.set(view()); return o; }),
        ];
        const times = ways.map(() => []);
        const order = ways.flatMap((_, w) => Array(runs).fill(w));
        for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [order[i], order[j]] = [order[j], order[i]]; }
        for (const w of order) {
          gc();
          const t = performance.now();
          const out = ways[w]();
          times[w].push(performance.now() - t);
          if (out[n - 1][piece - 1] !== 7) throw new Error("copy failed");
        }
        return times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
      },
      { piece, total: TOTAL, runs: RUNS },
    );
    console.log(`| ${piece.toLocaleString("en")} B | ${ms.map((m) => `${m.toFixed(1)} ms`).join(" | ")} |`);
  }
  console.log(`\n8 MB copied per run, medians of ${RUNS} shuffled runs (performance.now() is coarse: 0.1 ms steps).`);

  // The same first write without any allocator between: pages newly added
  // to a WebAssembly.Memory (reserved by V8, given real pages by the kernel
  // on first touch) filled once, then filled again. If the first fill costs
  // what a fresh ArrayBuffer does, the fresh-memory cost is the operating
  // system's page faults (Chromium returning freed buffers' memory to it),
  // a price set by the machine, not by how the buffers are made.
  const touch = await page.evaluate(
    ({ total, runs }) => {
      const pages = Math.ceil(total / 65536);
      const first = [], again = [];
      for (let r = 0; r < runs; r++) {
        gc();
        const mem = new WebAssembly.Memory({ initial: 0, maximum: pages });
        mem.grow(pages);
        const a = new Uint8Array(mem.buffer);
        let t = performance.now();
        a.fill(7);
        first.push(performance.now() - t);
        t = performance.now();
        a.fill(8);
        again.push(performance.now() - t);
        if (a[a.length - 1] !== 8) throw new Error("fill failed");
      }
      const med = (x) => x.sort((p, q) => p - q)[x.length >> 1];
      return [med(first), med(again)];
    },
    { total: TOTAL, runs: RUNS },
  );
  console.log(`\nNew WebAssembly.Memory pages (no allocator), 8 MB: first fill ${touch[0].toFixed(1)} ms, second fill ${touch[1].toFixed(1)} ms (medians of ${RUNS}).`);
} finally {
  await browser.close();
}
