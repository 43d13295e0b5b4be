// The benchmark's core, used unchanged by the Node runner and the browser
// page: loading the files (through a platform's `load`), the cells (reader ×
// file × scope), the run plan, the check of every result, the statistics and
// the per-file summary with issue 9's goals. Each platform loads the
// libraries its own way and passes them in as `libs`; the report is in
// report.mjs, the readers in readers.mjs, the inflate floor in floor.mjs.

import { mulberry32, shuffle } from "../../www/js/stats.js";
import { colsFiles, parquetFiles, expectedName, datasetPaths } from "./datasets.mjs";
import { compareFingerprints, kindOf } from "./fingerprint.mjs";
import { READERS, READER_ORDER, cwReaders, cwReader, cwOpenReader, cwHotReader, cwLoopReader, cwPoolReader, cwScopedReader, cwStreamReader, cwStreamScopedReader, hyparquetReader, pwDecodeReader, pwJsReader, pwMethod } from "./readers.mjs";
import { FLOORS, isFloor, prepareFloor, floorReader } from "./floor.mjs";

export { READERS, READER_ORDER, isFloor, pwMethod };

export const SCOPES = ["all", "int", "string"];
export const SCOPE_LABEL = { all: "all columns", int: "one integer column", string: "one string column" };

/**
 * The run's configuration from name/value pairs (env in Node, the query
 * string in the browser): RUNS, WARMUP, WARMUP_MS, SEED, FILES, READERS,
 * SCOPES, FLOORS.
 */
export function configFrom(get) {
  const list = (v) => String(v ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const config = {
    runs: Number(get("RUNS") ?? 15),
    warmup: Number(get("WARMUP") ?? 3),
    warmupMs: Number(get("WARMUP_MS") ?? 0),
    seed: Number(get("SEED") ?? 20240605),
    files: get("FILES") ?? "",
    readers: list(get("READERS")),
    scopes: list(get("SCOPES") ?? "all"),
    floors: get("FLOORS") ?? "ours",
    gcBetweenRuns: gcBetweenRuns(),
  };
  for (const s of config.scopes) if (!SCOPES.includes(s)) throw new Error(`SCOPES: unknown ${s} (known: ${SCOPES.join(", ")})`);
  for (const r of config.readers) if (!(r in READERS)) throw new Error(`READERS: unknown ${r} (known: ${Object.keys(READERS).join(", ")})`);
  if (!["ours", "all", "none"].includes(config.floors)) throw new Error("FLOORS must be ours, all or none");
  if (!(config.runs >= 1 && config.warmup >= 0 && config.warmupMs >= 0)) throw new Error("RUNS must be at least 1, WARMUP and WARMUP_MS at least 0");
  return config;
}

const PQ_KIND = { INT32: "int", INT64: "int", FLOAT: "f32", DOUBLE: "f64", BOOLEAN: "bool", BYTE_ARRAY: "bytes" };

/**
 * Loads every file of the selected data sets, untimed, and sets up their
 * inflate floors. `load.file(path)` -> Uint8Array of a benchmark path
 * (datasets.mjs); `load.exists(path)`; `load.expected(name)` -> the parsed
 * bench/data/expected/NAME (bench/expected.mjs), or null when missing.
 * A data set with a file missing is skipped with a note.
 * Returns [{ dataset, cols: [...], parquet: [...], pqNames, kinds }].
 */
export async function loadAll(libs, datasets, load, config, log = () => {}) {
  const out = [];
  for (const dataset of datasets) {
    const missing = [];
    for (const p of datasetPaths(dataset)) if (!(await load.exists(p))) missing.push(p);
    for (const f of colsFiles([dataset])) if (!(await load.expected(expectedName(f)))) missing.push(`bench/data/expected/${expectedName(f)} (bench/expected.mjs makes it)`);
    if (missing.length) {
      log(`${dataset.name}: skipped, missing ${missing.join(", ")}${missing.some((m) => m.startsWith("shared/")) ? " (the large benchmark files sit in ../shared beside the project)" : ""}`);
      continue;
    }
    const tokenizers = [];
    for (const t of dataset.tokenizers) tokenizers.push(await load.file(t));
    let registry;
    if (libs.ColumnsFile && tokenizers.length) {
      registry = new libs.TokenizerRegistry();
      for (const t of tokenizers) registry.register(t);
    }
    const cols = [];
    for (const f of colsFiles([dataset])) {
      const expected = await load.expected(expectedName(f));
      if (expected.rows !== dataset.rows || expected.columns.length !== dataset.columns) throw new Error(`${f.id}: expected values for ${expected.rows} × ${expected.columns.length}, the data set is ${dataset.rows} × ${dataset.columns}`);
      const input = withViews(await load.file(f.cols));
      input.registry = registry;
      input.tokenizers = tokenizers;
      if (libs.ColumnsFile) {
        const file = libs.ColumnsFile.fromBytes(input.bytes, registry);
        try {
          const names = file.schema.map((s) => s.name);
          const types = file.schema.map((s) => s.type);
          if (Number(file.numRows) !== dataset.rows) throw new Error(`${f.id}: ${file.numRows} rows, expected ${dataset.rows}`);
          // The expected values must be of this file's schema (reference JSON), or of the same kinds (a Parquet reference).
          expected.columns.forEach((e, c) => {
            const same = expected.kindSource === "reference JSON" ? e.name === names[c] && e.type === types[c] : e.kind === kindOf(types[c]);
            if (!same) throw new Error(`${f.id}: column ${c} is ${names[c]}/${types[c]}, its expected values are for ${e.name}/${e.type}`);
          });
          input.rowGroups = file.rowGroups.length;
        } finally {
          file.free?.();
        }
        if (libs.floorModule && config.floors !== "none") input.floor = await prepareFloor(libs, input, f.id, log);
      }
      cols.push({ file: f, input, expected });
    }
    // Parquet files: their columns by position, of the same kinds as the expected values.
    const parquet = [];
    let pqNames = null;
    const kinds = cols[0].expected.columns.map((c) => c.kind);
    for (const p of parquetFiles([dataset])) {
      const input = withViews(await load.file(p.path));
      const meta = libs.hyparquet.parquetMetadata(input.arrayBuffer);
      if (Number(meta.num_rows) !== dataset.rows) throw new Error(`${p.path}: ${meta.num_rows} rows, expected ${dataset.rows}`);
      const leaves = meta.schema.filter((el) => el.type !== undefined);
      if (leaves.length !== dataset.columns) throw new Error(`${p.path}: ${leaves.length} columns, expected ${dataset.columns}`);
      leaves.forEach((el, c) => {
        if (PQ_KIND[el.type] !== kinds[c]) throw new Error(`${p.path}: column ${c} (${el.name}) is Parquet ${el.type}, the expected values are ${kinds[c]}`);
      });
      pqNames ??= leaves.map((el) => el.name);
      parquet.push({ file: p, input, types: leaves.map((el) => [el.type, el.logical_type?.type ?? el.converted_type ?? ""].filter(Boolean).join("/")) });
    }
    // Every variant holds the same values (the real set's README); the Parquet readers are checked against the first.
    for (const c of cols.slice(1)) {
      const msg = compareFingerprints(c.expected.columns, cols[0].expected.columns);
      if (msg) log(`note: ${c.file.id}'s expected values differ from ${cols[0].file.id}'s: ${msg}`);
    }
    out.push({ dataset, cols, parquet, pqNames, kinds });
  }
  return out;
}

function withViews(bytes) {
  // An exact ArrayBuffer (hyparquet reads it as an in-memory AsyncBuffer) and
  // a Blob (parquet-wasm's ParquetFile and the streaming hook), made once.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  return { bytes: own, arrayBuffer: own.buffer, blob: new Blob([own]) };
}

/** The scopes of a data set: every column, and the first integer and first
 *  string column (one-column reads), from the expected values' kinds. */
function scopesOf(kinds) {
  const scopes = { all: kinds.map((_, i) => i) };
  const int = kinds.indexOf("int");
  const str = kinds.indexOf("bytes");
  if (int >= 0) scopes.int = [int];
  if (str >= 0) scopes.string = [str];
  return scopes;
}

/** Every cell (reader × file × scope) the configuration asks for. */
export function buildCells(libs, loaded, config) {
  const cells = [];
  const wanted = (reader) => !config.readers.length || config.readers.includes(reader);
  const floorsTimed = config.floors === "all" ? Object.keys(FLOORS) : config.floors === "ours" ? ["floorOurs"] : [];
  for (const { dataset, cols, parquet, pqNames, kinds } of loaded) {
    const scopes = scopesOf(kinds);
    const sources = [];
    const cwMake = { cw: cwReader, cwOpen: cwOpenReader(false), cwReuse: cwOpenReader(true), cwReuseHot: cwHotReader, cwReuseLoop: cwLoopReader, cwScoped: cwScopedReader, cwStream: cwStreamReader, cwStreamScoped: cwStreamScopedReader };
    for (const c of cols) {
      for (const reader of cwReaders(libs)) sources.push({ reader, unit: c, make: cwMake[reader] });
      for (const [key, pool] of Object.entries(libs.pools ?? {})) {
        sources.push({ reader: key, unit: c, make: cwPoolReader(pool) });
        sources.push({ reader: `${key}Reuse`, unit: c, make: cwPoolReader(pool, true) });
      }
    }
    for (const p of parquet) {
      // parquet-wasm → JS on zstd only: the JS side (IPC, apache-arrow, toArray)
      // does not depend on the codec, and on flights-3m it costs seconds a run.
      const readers = [["hyparquet", hyparquetReader], ["pwDecode", pwDecodeReader], ...(p.file.codec === "zstd" ? [["pwJs", pwJsReader]] : [])];
      for (const [reader, make] of readers) sources.push({ reader, unit: p, make, parquet: true });
    }
    const reference = cols[0];
    for (const scope of config.scopes) {
      const idx = scopes[scope];
      if (!idx) continue;
      const project = scope !== "all";
      for (const { reader, unit, make, parquet: isPq } of sources) {
        if (!wanted(reader)) continue;
        const exp = isPq ? reference : unit;
        cells.push(cell({
          reader,
          dataset: dataset.name,
          file: unit.file.id,
          variant: unit.file.variant ?? null,
          codec: unit.file.codec ?? null,
          path: unit.file.cols ?? unit.file.path,
          fileBytes: unit.input.bytes.byteLength,
          scope,
          columnNames: idx.map((i) => (isPq ? pqNames[i] : exp.expected.columns[i].name)),
          columnIndexes: idx,
          expected: idx.map((i) => exp.expected.columns[i]),
          expectedSource: exp.expected.source + (exp.expected.kindSource === "reference JSON" ? "" : ` (${exp.expected.kindSource})`),
          method: reader.startsWith("pw") ? pwMethod(project) : null,
          arg: { cols: idx, names: idx.map((i) => pqNames?.[i]), kinds: idx.map((i) => kinds[i]), project },
          impl: make(libs, unit.input),
        }));
      }
      // The floor inflates the whole file's Flate blocks: the "all" scope only.
      if (scope !== "all") continue;
      for (const c of cols) {
        const fl = c.input.floor;
        if (!fl) continue;
        for (const reader of floorsTimed) {
          if (!wanted(reader)) continue;
          cells.push(cell({
            reader,
            dataset: dataset.name,
            file: c.file.id,
            variant: c.file.variant,
            codec: null,
            path: c.file.cols,
            fileBytes: c.input.bytes.byteLength,
            scope,
            columnNames: fl.info.columnNames,
            columnIndexes: fl.info.columns,
            expected: null,
            expectedSource: `the three inflaters' agreement at setup (${fl.info.checked} of ${fl.chunks.length} chunks also against the values)`,
            floor: { blocks: fl.info.blocks, stored: fl.info.stored, raw: fl.info.raw, columns: fl.info.columns.length, checkedChunks: fl.info.checked, chunks: fl.chunks.length },
            method: null,
            arg: null,
            impl: floorReader(reader)(libs, c.input),
          }));
        }
      }
    }
  }
  return cells;
}

function cell(c) {
  return { id: `${c.reader}|${c.file}|${c.scope}`, readerLabel: READERS[c.reader], ...c, checks: 0, checkNote: null, error: null, warmupMs: [], timesMs: [], stagesMs: [] };
}

/** One run of a cell: time it, then (untimed) check every value and release. */
async function runOnce(cell) {
  const t0 = performance.now();
  const output = await cell.impl.run(cell.arg);
  let ms = performance.now() - t0;
  try {
    if (output && typeof output.untimedMs === "number") ms -= output.untimedMs; // hooks: checks inside a callback
    if (cell.impl.verify) {
      cell.checkNote = cell.impl.verify(output);
    } else {
      const got = cell.impl.fingerprints(output, cell.arg);
      const msg = compareFingerprints(got, cell.expected, cell.columnNames);
      if (msg) throw new Error(`values differ from ${cell.expectedSource}: ${msg}`);
    }
    cell.checks++;
    const stages = cell.impl.timings?.(output);
    if (stages) cell.lastStages = stages;
  } finally {
    cell.impl.release(output);
  }
  return ms;
}

// Between runs (untimed): a full garbage collection when the runtime exposes
// one (the runners start Chromium and Node with --expose-gc), so no run pays
// for garbage an earlier run of another reader left behind; then a yield to
// the event loop for pending tasks.
export const gcBetweenRuns = () => typeof globalThis.gc === "function";
const breathe = () => {
  if (gcBetweenRuns()) globalThis.gc();
  return new Promise((resolve) => setTimeout(resolve, 0));
};

/**
 * Warm-ups (each cell `warmup` times, shuffled, then more rounds of every
 * cell until the warm-ups have taken `warmupMs`: V8 optimizes wasm in the
 * background, and a small file's reads can all end before it has), then
 * `runs` timed runs of every cell in one seeded shuffle of all run
 * instances. Every run's output is checked. A failing cell is marked and
 * dropped; the others go on.
 */
export async function runSession(cells, { runs, warmup, warmupMs = 0, seed }, log = () => {}) {
  const random = mulberry32(seed);
  const plan = (n) => shuffle(cells.flatMap((cell) => Array.from({ length: n }, () => cell)), random);
  const order = [];
  const started = performance.now();
  const phase = async (name, list, key) => {
    let done = 0;
    for (const cell of list) {
      done++;
      if (cell.error) continue;
      try {
        cell.lastStages = null;
        cell[key].push(await runOnce(cell));
        if (key === "timesMs") {
          order.push(cell.id);
          if (cell.lastStages) cell.stagesMs.push(cell.lastStages);
        }
      } catch (e) {
        cell.error = String(e?.stack ?? e);
        log(`FAILED ${cell.id}: ${e?.message ?? e}`);
      }
      if (done % 100 === 0 || done === list.length) log(`${name} ${done}/${list.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      await breathe();
    }
  };
  await phase("warm-up", plan(warmup), "warmupMs");
  while (performance.now() - started < warmupMs && cells.some((c) => !c.error)) await phase("warm-up (WARMUP_MS)", plan(1), "warmupMs");
  await phase("timed", plan(runs), "timesMs");
  for (const c of cells) if (c.impl.memoryBytes) c.memoryBytes = c.impl.memoryBytes();
  return order;
}

// ---------------------------------------------------------------- results

export function stats(times) {
  if (!times.length) return null;
  const s = [...times].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { min: s[0], median, max: s[s.length - 1], n: s.length };
}

const median = (xs) => stats(xs)?.median ?? null;

/** The JSON document: configuration, environment, every raw timing, and the per-file summary. */
export function results(cells, { platform, environment, config, columnsWasm, order, native = null, extra = {} }) {
  const out = cells.map((c) => ({
    id: c.id,
    reader: c.reader,
    readerLabel: c.readerLabel,
    dataset: c.dataset,
    file: c.file,
    variant: c.variant,
    codec: c.codec,
    path: c.path,
    fileBytes: c.fileBytes,
    scope: c.scope,
    method: c.method,
    columns: c.columnNames,
    columnIndexes: c.columnIndexes,
    check: c.error ? null : { runs: c.checks, against: c.expectedSource, ...(c.checkNote ? { note: c.checkNote } : {}) },
    expected: c.expected,
    ...(c.floor ? { floor: c.floor } : {}),
    ...(c.memoryBytes != null ? { memoryBytes: c.memoryBytes } : {}),
    error: c.error,
    warmupMs: c.warmupMs,
    timesMs: c.timesMs,
    stages: c.stagesMs.length ? Object.fromEntries(["decompressMs", "decodeMs", "copyMs"].map((k) => [k, median(c.stagesMs.map((s) => s[k]))])) : null,
    stats: c.error ? null : stats(c.timesMs),
  }));
  const doc = { platform, date: new Date().toISOString(), environment, config, columnsWasm, native, ...extra, timedOrder: order, cells: out };
  doc.summary = summary(doc);
  return doc;
}

// ---------------------------------------------------------------- the per-file summary and issue 9's goals

/** Goal thresholds (issue 9, stated for Chromium, one thread). */
export const GOALS = {
  pw: { title: "2: no slower than parquet-wasm's decode-only time on zstd Parquet", applies: "optimized and tokenized files of the real set", limit: 1 },
  floor: { title: "2: within 1.3× of the inflate floor (our inflater, in the same page or process)", applies: "default files of the real set", limit: 1.3 },
  hyparquet: { title: "2: at least 5× hyparquet (zstd)", applies: "optimized and tokenized files of the real set over 1 MB (10^6 bytes of .cols)", limit: 5 },
  native: { title: "3: wasm within 1.5× of native (file open, { reuse }: no fresh-memory cost; timed in the native benchmark's loop)", applies: "every file of the real set", limit: 1.5 },
};

/**
 * One row per columns file (scope "all"): the medians the README needs,
 * the ratios issue 9's goals name, and each goal's verdict: "PASS", "FAIL",
 * "n/a" (the goal is not stated for this file) or "no data".
 */
export function summary(doc) {
  const all = doc.cells.filter((c) => c.scope === "all");
  const med = (reader, file) => all.find((c) => c.reader === reader && c.file === file)?.stats?.median ?? null;
  const cellOf = (reader, file) => all.find((c) => c.reader === reader && c.file === file);
  const files = [...new Set(all.filter((c) => c.variant !== null && c.codec === null).map((c) => c.file))];
  return files.map((id) => {
    const any = all.find((c) => c.file === id);
    const real = any.path.startsWith("shared/bench/real/");
    const variant = any.variant;
    const nativeRow = doc.native?.bench?.[id];
    const nativeMs = typeof nativeRow?.medianMs === "number" ? nativeRow.medianMs : null;
    const pq = (reader, codec) => med(reader, `${any.dataset}.${codec}`);
    const row = {
      file: id,
      dataset: any.dataset,
      variant,
      real,
      bytes: any.fileBytes,
      columns: all.find((c) => c.file === id && c.expected)?.expected.length ?? null,
      cw: med("cw", id),
      cwOpen: med("cwOpen", id),
      cwReuse: med("cwReuse", id),
      cwReuseHot: med("cwReuseHot", id),
      cwReuseLoop: med("cwReuseLoop", id),
      pool2Reuse: med("cwPool2Reuse", id),
      native: nativeMs,
      nativeError: nativeRow && nativeMs === null ? nativeRow.error ?? "no median" : null,
      floor: med("floorOurs", id),
      floorInfo: cellOf("floorOurs", id)?.floor ?? null,
      pwDecode: { zstd: pq("pwDecode", "zstd"), snappy: pq("pwDecode", "snappy"), none: pq("pwDecode", "none") },
      pwJs: { zstd: pq("pwJs", "zstd"), snappy: pq("pwJs", "snappy"), none: pq("pwJs", "none") },
      hyparquet: { zstd: pq("hyparquet", "zstd"), snappy: pq("hyparquet", "snappy"), none: pq("hyparquet", "none") },
      stages: { fresh: cellOf("cw", id)?.stages ?? null, reuse: cellOf("cwReuse", id)?.stages ?? null, hot: cellOf("cwReuseHot", id)?.stages ?? null, loop: cellOf("cwReuseLoop", id)?.stages ?? null },
      nativeStages: nativeRow?.columns ? { decompressMs: sum(nativeRow.columns.map((c) => c.decompressMs)), decodeMs: sum(nativeRow.columns.map((c) => c.decodeMs)) } : null,
      checks: all.filter((c) => c.file === id || (c.codec && c.dataset === any.dataset)).map((c) => ({ reader: c.reader, file: c.file, ok: !c.error, runs: c.check?.runs ?? 0 })),
    };
    const r = (a, b) => (a != null && b != null ? a / b : null);
    row.openMs = row.cw != null && row.cwOpen != null ? row.cw - row.cwOpen : null;
    row.freshMemoryMs = row.cwOpen != null && row.cwReuse != null ? row.cwOpen - row.cwReuse : null;
    row.ratios = {
      pwZstd: r(row.cw, row.pwDecode.zstd),
      pwSnappy: r(row.cw, row.pwDecode.snappy),
      hyparquet: r(row.hyparquet.zstd, row.cw),
      floor: r(row.cw, row.floor),
      nativeReuse: r(row.cwReuse, row.native),
      nativeHot: r(row.cwReuseHot, row.native),
      nativeLoop: r(row.cwReuseLoop, row.native),
      nativeFresh: r(row.cw, row.native),
    };
    const optimized = variant === "optimized" || variant === "tokenized";
    const verdict = (applies, value, ok) => (!applies ? "n/a" : value == null ? "no data" : ok(value) ? "PASS" : "FAIL");
    row.goals = {
      pw: verdict(real && optimized, row.ratios.pwZstd, (v) => v <= GOALS.pw.limit),
      floor: verdict(real && variant === "default", row.ratios.floor, (v) => v <= GOALS.floor.limit),
      hyparquet: verdict(real && optimized && row.bytes > 1e6, row.ratios.hyparquet, (v) => v >= GOALS.hyparquet.limit),
      native: verdict(real, row.ratios.nativeLoop, (v) => v <= GOALS.native.limit),
    };
    return row;
  });
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Whether a reader's cell exists for any file (the report leaves out empty columns). */
export const hasReader = (doc, reader) => doc.cells.some((c) => c.reader === reader);
