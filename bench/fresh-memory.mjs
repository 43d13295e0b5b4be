// What a fresh ArrayBuffer costs in Chromium, by the way it is made: the
// "fresh-memory cost" of the benchmark's reports, measured alone. Copies 8 MB
// out of a WebAssembly.Memory (as a read hands its columns to JS) in pieces of
// one size, five ways, and into buffers made once and refilled ({ reuse }).
// A full GC runs before each timed run, as in the benchmark.
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
} finally {
  await browser.close();
}
