// The Markdown report of one platform's results (bench/results/{browser,node}.md):
// the per-file summary whose rows can go into the README, issue 9's goals
// with a verdict per file, where columns-wasm's time goes, the correctness
// check, the hooks, and every cell's raw statistics.

import { GOALS, SCOPE_LABEL, READER_ORDER, hasReader } from "./core.mjs";

const ms = (v) => (v == null ? "—" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const x = (v) => (v == null ? "—" : `${v.toFixed(2)}×`);
const int = (n) => (n == null ? "—" : n.toLocaleString("en-US"));
const esc = (s) => String(s).replace(/\|/g, "\\|").replace(/\n/g, " ");
const verdict = (v) => (v === "PASS" ? "PASS" : v === "FAIL" ? "**FAIL**" : v);

/** Whether a run is too short or too loaded to be quoted. */
export function smoke(doc) {
  const reasons = [];
  if (doc.config.runs < 11) reasons.push(`${doc.config.runs} timed runs per cell (a full run has 15)`);
  const before = Number(String(doc.environment.loadavg ?? "").split(" ")[1]);
  const cores = doc.environment.cores ?? doc.environment.hardwareConcurrency;
  if (before && cores && before > cores * 0.5) reasons.push(`load average ${before} on ${cores} cores before the run`);
  if (doc.config.files) reasons.push(`FILES=${doc.config.files}`);
  return reasons;
}

export function markdown(doc) {
  const { platform, environment, config } = doc;
  const browser = platform === "browser";
  const rows = doc.summary;
  const L = [];
  L.push(`# Decode benchmark: ${browser ? "Chromium (headless)" : "Node"}`, "");
  const why = smoke(doc);
  if (why.length) L.push(`> **Smoke run, noisy: not figures to quote.** ${why.join("; ")}.`, "");
  L.push(`Date: ${doc.date}  `);
  for (const [k, v] of Object.entries(environment)) L.push(`${k}: ${esc(typeof v === "object" ? JSON.stringify(v) : v)}  `);
  L.push(
    `Runs: ${config.runs} timed per cell after ${config.warmup} warm-ups${config.warmupMs ? ` (more rounds of them until ${config.warmupMs} ms had passed)` : ""}, every run of every cell in one shuffled order (seed ${config.seed})${config.gcBetweenRuns ? ", a full garbage collection between runs (untimed)" : ""}. ` +
      `Knobs: FILES=${config.files || "(all)"} READERS=${config.readers.join(",") || "(all)"} SCOPES=${config.scopes.join(",")} FLOORS=${config.floors}.  `,
    "Times: medians in ms, from the file's bytes in memory to every value handed to JS (checks and frees untimed).",
    "",
  );
  if (!doc.columnsWasm.available) L.push(`> ${doc.columnsWasm.note}`, "");

  // ------------------------------------------------ the summary table
  L.push("## Every file, every column (medians, ms)", "");
  const pqCodecs = ["zstd", "snappy"];
  const head = ["file", "rows × cols", ".cols bytes", "columns-wasm", "{ reuse }", "native"];
  if (hasReader(doc, "cwPool2Reuse")) head.push("pool of 2, { reuse }");
  head.push(...pqCodecs.map((c) => `parquet-wasm decode only, ${c}`), "parquet-wasm → JS, zstd", ...pqCodecs.map((c) => `hyparquet, ${c}`), "inflate floor", "values");
  L.push(`| ${head.join(" | ")} |`, `|---|${head.slice(1).map(() => "--:").join("|")}|`);
  const dims = (r) => {
    const c = doc.cells.find((c) => c.file === r.file && c.scope === "all" && c.expected);
    return c ? `${int(c.expected[0]?.rows)} × ${c.expected.length}` : "—";
  };
  for (const r of rows) {
    const failed = r.checks.filter((c) => !c.ok);
    const cells = [r.file, dims(r), int(r.bytes), `**${ms(r.cw)}**`, ms(r.cwReuse), r.native != null ? ms(r.native) : r.nativeError ? "error" : "—"];
    if (hasReader(doc, "cwPool2Reuse")) cells.push(ms(r.pool2Reuse));
    const fi = r.floorInfo;
    const floorCell = fi && r.floor != null && fi.columns < r.columns ? `${ms(r.floor)} (${fi.columns} of ${r.columns} columns)` : ms(r.floor);
    cells.push(...pqCodecs.map((c) => ms(r.pwDecode[c])), ms(r.pwJs.zstd), ...pqCodecs.map((c) => ms(r.hyparquet[c])), floorCell);
    cells.push(failed.length ? `**${failed.length} FAILED**` : `✓ ${r.checks.length} cells`);
    L.push(`| ${cells.join(" | ")} |`);
  }
  L.push(
    "",
    "columns-wasm: `ColumnsFile.fromBytes(bytes, registry).readColumns()`, every column of every row group into JS typed arrays with fresh buffers, as parquet-wasm's `readParquet` reads a file. " +
      "{ reuse }: the file already open, each read refilling the previous read's buffers. " +
      "native: `examples/bench` (cargo --release, no wasm), the file already parsed, every chunk decompressed and decoded, nothing copied. " +
      "parquet-wasm decode only: `readParquet(bytes)`, the Arrow table left in wasm memory (nothing handed to JS). " +
      "parquet-wasm → JS: the same, then IPC to apache-arrow and `toArray()` per column. " +
      "hyparquet: `parquetRead` with `onChunk` and hyparquet-compressors. " +
      "inflate floor: every Flate block of the .cols file inflated with columns-wasm's inflater (bench/floor) in the same " +
      (browser ? "page" : "process") +
      ", nothing else; where some columns are not Flate (Lzw, None), the floor covers the others only. values: every run of every reader of this file and of its Parquet twins checked against the expected values (see Correctness).",
    "",
  );

  // ------------------------------------------------ goals
  L.push(`## Issue 9's goals${browser ? "" : " (stated for Chromium; Node's figures for reference)"}`, "");
  L.push(
    "| file | vs parquet-wasm decode, zstd (≤ 1) | … snappy | hyparquet zstd / columns-wasm (≥ 5) | vs inflate floor (≤ 1.3) | wasm / native, { reuse }, loop (≤ 1.5) | … hot, 4th read | … { reuse } among other cells | wasm / native, fresh | fresh-memory cost | goal 2: parquet-wasm | goal 2: floor | goal 2: hyparquet | goal 3: native |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|:-:|:-:|:-:|:-:|",
  );
  for (const r of rows) {
    const fresh = r.freshMemoryMs != null && r.cwOpen ? `${ms(r.freshMemoryMs)} ms (${((100 * r.freshMemoryMs) / r.cwOpen).toFixed(0)}%)` : "—";
    L.push(`| ${r.file} | ${x(r.ratios.pwZstd)} | ${x(r.ratios.pwSnappy)} | ${x(r.ratios.hyparquet)} | ${x(r.ratios.floor)} | ${x(r.ratios.nativeLoop)} | ${x(r.ratios.nativeHot)} | ${x(r.ratios.nativeReuse)} | ${x(r.ratios.nativeFresh)} | ${fresh} | ${verdict(r.goals.pw)} | ${verdict(r.goals.floor)} | ${verdict(r.goals.hyparquet)} | ${verdict(r.goals.native)} |`);
  }
  L.push("");
  for (const [key, g] of Object.entries(GOALS)) {
    const applicable = rows.filter((r) => r.goals[key] !== "n/a");
    const fails = applicable.filter((r) => r.goals[key] === "FAIL");
    const missing = applicable.filter((r) => r.goals[key] === "no data");
    const ratioKey = { pw: "pwZstd", floor: "floor", hyparquet: "hyparquet", native: "nativeLoop" }[key];
    const parts = [];
    if (fails.length) parts.push(`**FAIL** on ${fails.length} of ${applicable.length}: ${fails.map((r) => `${r.file} (${x(r.ratios[ratioKey])})`).join(", ")}`);
    else if (applicable.length > missing.length) parts.push(`PASS on all ${applicable.length - missing.length} measured`);
    if (missing.length) parts.push(`no data for ${missing.map((r) => r.file).join(", ")}`);
    const state = !applicable.length ? "no file of this run" : parts.join("; ");
    L.push(`- Goal ${g.title}, for ${g.applies}: ${state}.`);
  }
  L.push(
    "",
    "Ratios are of medians. \"vs\" = columns-wasm / the other (below 1: columns-wasm is faster); hyparquet's is hyparquet / columns-wasm. " +
      "wasm / native, { reuse }, loop: the file already open, each read refilling the last read's buffers (no fresh JS memory), timed as examples/bench times native: 3 reads back to back untimed, then the median of 15 more, over the native median of the same loop (which also excludes opening the file): like for like, and goal 3's verdict; " +
      "… hot, 4th read: the fourth of four such reads alone, timed after the harness's full GC and other readers' runs (the GC's sweeping and those readers' data still around it); " +
      "… among other cells: one read as the benchmark's other cells run (cold caches and predictors, which native is never measured under); " +
      "fresh: the default read (open + fresh buffers) over native. " +
      "fresh-memory cost = (file open, fresh buffers) − (file open, { reuse }): what new JS ArrayBuffers cost beyond refilling old ones (in Chromium the first write into fresh memory), shown in ms and as a share of the open-file fresh read. " +
      "Verdicts compare medians only, with no allowance for noise; goals are stated for files of ../shared/bench/real (others show \"n/a\").",
    "",
  );

  // ------------------------------------------------ where the time goes
  L.push("## Where columns-wasm's time goes (medians, ms)", "");
  L.push("| file | default read | open (default − file open) | file open, fresh | file open, { reuse } | { reuse }, hot | { reuse }, loop | fresh memory | col.timings fresh: inflate / decode / copy | col.timings { reuse }: inflate / decode / copy | col.timings { reuse }, loop | native: inflate / decode |", "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  const st = (s) => (s ? `${ms(s.decompressMs)} / ${ms(s.decodeMs)} / ${ms(s.copyMs)}` : "—");
  for (const r of rows) {
    const n = r.nativeStages ? `${ms(r.nativeStages.decompressMs)} / ${ms(r.nativeStages.decodeMs)}` : "—";
    L.push(`| ${r.file} | ${ms(r.cw)} | ${ms(r.openMs)} | ${ms(r.cwOpen)} | ${ms(r.cwReuse)} | ${ms(r.cwReuseHot)} | ${ms(r.cwReuseLoop)} | ${ms(r.freshMemoryMs)} | ${st(r.stages.fresh)} | ${st(r.stages.reuse)} | ${st(r.stages.loop ?? r.stages.hot)} | ${n} |`);
  }
  L.push(
    "",
    "col.timings: columns-wasm's own per-column stage times (decompressing blocks, decoding the stream, copying to JS), summed over the file's columns, median over runs. " +
      "The copy stage is where fresh memory is paid: compare its fresh and { reuse } figures. Native: examples/bench's per-column medians, summed.",
    "",
  );

  // ------------------------------------------------ correctness
  const failed = doc.cells.filter((c) => c.error);
  const checked = doc.cells.filter((c) => c.check);
  L.push("## Correctness", "");
  L.push(
    `Every run (warm-ups included) of every cell is checked before its output is released, untimed: ${checked.length} of ${doc.cells.length} cells passed every run` +
      (failed.length ? `; **${failed.length} FAILED** (listed below, dropped from the tables)` : "") +
      ". " +
      "Each reader's output is fingerprinted per column (bench/lib/fingerprint.mjs: a two-lane hash over each row's null flag and value; integers as 64-bit two's complement, floats as their IEEE bits, strings as their exact bytes, UTF-8 for readers that return JS strings) " +
      "and compared with the expected fingerprints, computed once by bench/expected.mjs from the reference JSON beside each file (NAME.variant.json.gz, what the format's reference reader sees) — " +
      "so every reader, columns-wasm, hyparquet and parquet-wasm alike, is shown to return the same values, not just the same counts. " +
      "comparison.cols has no reference JSON: its expected values are hyparquet's read of comparison.zstd.parquet, and every other reader must agree with it. " +
      "Types: Parquet stores int16 as INT32 with an INT(16) annotation and hyparquet returns plain numbers for some columns; values are compared as numbers of the columns file's type, so only the value counts. No file here has a Parquet timestamp (flights-3m's date is INT64 microseconds in both formats). " +
      "parquet-wasm decode only: its table is moved to JS through IPC after the clock stops, then checked. parquet-wasm → JS: the toArray() arrays, with nulls from the Arrow vectors' validity (toArray drops them from typed arrays). " +
      "Inflate floors: at setup, the three inflaters' outputs must be identical and every block exactly its raw length; Plain and Delta streams are checked against the decoded values; every timed run then checks both ends of every block.",
    "",
  );
  for (const c of failed) L.push(`- **FAILED** ${c.readerLabel}, ${c.file} (${c.scope}): ${esc(c.error.split("\n")[0])}`);
  if (failed.length) L.push("");

  // ------------------------------------------------ hooks
  L.push("## Scoped and streaming readers", "");
  const hook = (reader, api) => (hasReader(doc, reader) ? `measured (rows \`${reader}\` below)` : `${api} is not in this build: no rows`);
  L.push(
    `- Scoped read (issue 9 goal 4): ${hook("cwScoped", "`ColumnsFile.prototype.readRowGroupScoped`")}.`,
    `- Streaming (goal 5): ${hook("cwStream", "`ColumnsFile.prototype.rowGroupsAsync`")}; lent columns: ${hook("cwStreamScoped", "`rowGroupsAsync({ scoped: true })`")}. Their "wasm memory" (every cell) is the size of a module instance of their own (per reader and file) after the runs: the streaming read's peak, the tokenizers registered included.`,
    "",
    "Both readers are in bench/lib/readers.mjs (between the HOOKS markers) and switch on when the package has the API.",
    "",
  );

  // ------------------------------------------------ every cell
  L.push("## Every cell", "");
  const datasets = [...new Set(doc.cells.map((c) => c.dataset))];
  for (const ds of datasets) {
    for (const scope of config.scopes) {
      const cells = doc.cells.filter((c) => c.dataset === ds && c.scope === scope).sort((a, b) => a.file.localeCompare(b.file) || READER_ORDER.indexOf(a.reader) - READER_ORDER.indexOf(b.reader));
      if (!cells.length) continue;
      const names = cells.find((c) => c.codec === null)?.columns ?? cells[0].columns;
      L.push(`### ${ds}: ${SCOPE_LABEL[scope]}${scope === "all" ? "" : ` (${names.join(", ")})`}`, "");
      L.push("| reader | file | bytes | values checked (runs, warm-ups included) | min | median | max |", "|---|---|--:|---|--:|--:|--:|");
      for (const c of cells) {
        const s = c.stats;
        const chk = c.error ? `**FAILED: ${esc(c.error.split("\n")[0])}**` : `${c.check.runs} runs${c.floor ? `, ${c.floor.blocks} blocks` : ""}${c.memoryBytes ? `, wasm memory ${int(c.memoryBytes)} B` : ""}`;
        L.push(`| ${c.readerLabel}${c.method ? ` (${c.method})` : ""} | ${c.file} | ${int(c.fileBytes)} | ${chk} | ${ms(s?.min)} | ${ms(s?.median)} | ${ms(s?.max)} |`);
      }
      if (scope === "all") {
        for (const id of [...new Set(cells.filter((c) => c.variant).map((c) => c.file))]) {
          const n = doc.native?.bench?.[id];
          if (n && typeof n.medianMs === "number") L.push(`| native core (examples/bench, cargo --release) | ${id} | ${int(n.bytes)} | — | ${ms(n.minMs)} | ${ms(n.medianMs)} | ${ms(n.maxMs)} |`);
          else if (n) L.push(`| native core (examples/bench) **${esc(n.error ?? "no result")}** | ${id} | — | — | — | — | — |`);
          const nf = doc.native?.inflate?.[id];
          for (const d of nf?.decoders ?? []) L.push(`| native inflate floor, ${d.name === "ours" ? "columns-wasm's inflater" : d.name} (examples/inflate_bench) | ${id} | ${int(nf.bytes)} | ${nf.blocks} blocks | ${ms(d.minMs)} | ${ms(d.medianMs)} | ${ms(d.maxMs)} |`);
        }
        const fl = cells.filter((c) => c.floor);
        for (const c of fl.filter((c, i) => fl.findIndex((d) => d.file === c.file) === i)) {
          const f = c.floor;
          L.push("", `Floor of ${c.file}: ${int(f.blocks)} Flate blocks of ${f.columns} columns, ${int(f.stored)} → ${int(f.raw)} bytes.`);
        }
      }
      L.push("");
    }
  }
  return L.join("\n");
}
