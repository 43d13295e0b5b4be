// Shared benchmark core, used unchanged by the Node runner and the browser
// page: the datasets, the readers (adapters), the run plan, the completeness
// checks, the statistics and the Markdown report. It imports nothing; each
// platform loads the libraries its own way and passes them in as `libs`.

export const CODECS = ["zstd", "snappy", "none"];

// Expected shapes are facts about the shared files (FORMAT.md section 7);
// every reader's output, and every file's own metadata, is checked against them.
export const DATASETS = [
  { name: "comparison", cols: "comparison.cols", rows: 200000, columns: 5 },
  { name: "diamonds", cols: "diamonds.default.cols", rows: 53940, columns: 10 },
];
export const parquetName = (dataset, codec) => `${dataset.name}.${codec}.parquet`;

export const SCOPES = ["all", "int", "string"];
const SCOPE_LABEL = { all: "all columns", int: "one integer column", string: "one string column" };

export const READERS = {
  cw: "columns-wasm (typed output)",
  cwOpen: "columns-wasm, file already open (typed output)",
  cwPool1: "columns-wasm pool, 1 worker (file already open)",
  cwPool2: "columns-wasm pool, 2 workers (file already open)",
  cwPoolN: "columns-wasm pool, hardwareConcurrency workers (file already open)",
  cwReuse: "columns-wasm, file open, { reuse } of the last read's buffers",
  cwPool1Reuse: "columns-wasm pool, 1 worker, { reuse }",
  cwPool2Reuse: "columns-wasm pool, 2 workers, { reuse }",
  cwPoolNReuse: "columns-wasm pool, hardwareConcurrency workers, { reuse }",
  hyparquet: "hyparquet",
  pwDecode: "parquet-wasm (decode only, Arrow in wasm)",
  pwJs: "parquet-wasm → apache-arrow → JS arrays",
};
const READER_ORDER = ["cw", "cwOpen", "cwReuse", "cwPool1", "cwPool1Reuse", "cwPool2", "cwPool2Reuse", "cwPoolN", "cwPoolNReuse", "hyparquet", "pwDecode", "pwJs"];

// ---------------------------------------------------------------- schemas

const CW_INT_TYPES = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]);

/** Leaf columns of a Parquet file as {name, kind}, from hyparquet's metadata. */
export function parquetColumns(metadata) {
  return metadata.schema
    .filter((el) => el.type !== undefined) // leaves only (flat files here)
    .map((el) => {
      const logical = el.logical_type?.type;
      let kind = "other";
      if ((el.type === "INT32" || el.type === "INT64") && !el.converted_type && (!logical || logical === "INTEGER")) kind = "int";
      if (el.type === "BYTE_ARRAY" && (el.converted_type === "UTF8" || logical === "STRING")) kind = "string";
      return { name: el.name, kind };
    });
}

/** Columns of a columns file as {name, kind}, from the columns-wasm schema. */
export function colsColumns(schema) {
  return schema.map((c) => ({
    name: c.name,
    kind: CW_INT_TYPES.has(c.type) ? "int" : c.type === "string" ? "string" : "other",
  }));
}

/**
 * The column indexes of each scope: the first integer and the first string
 * column of the schema. The columns file is authoritative when columns-wasm
 * is available; the Parquet file must then agree (same position and kind; its
 * names may carry the position as a suffix, as comparison's i0..s4 do for
 * the columns file's i, i, f, s, s).
 */
export function pickScopes(dataset, pqCols, cwCols) {
  const first = (cols, kind) => cols.findIndex((c) => c.kind === kind);
  const base = cwCols ?? pqCols;
  const scopes = { all: base.map((_, i) => i) };
  for (const kind of ["int", "string"]) {
    const i = first(base, kind);
    if (i < 0) throw new Error(`${dataset.name}: no ${kind} column in the schema`);
    scopes[kind] = [i];
  }
  if (cwCols) {
    if (cwCols.length !== pqCols.length) throw new Error(`${dataset.name}: .cols has ${cwCols.length} columns, Parquet ${pqCols.length}`);
    cwCols.forEach((c, i) => {
      const p = pqCols[i];
      if (p.kind !== c.kind || (p.name !== c.name && p.name !== `${c.name}${i}`)) {
        throw new Error(`${dataset.name}: column ${i} differs: .cols ${c.name}/${c.kind}, Parquet ${p.name}/${p.kind}`);
      }
    });
  }
  return scopes;
}

// ---------------------------------------------------------------- readers
//
// Each reader is `async run(scopeIdx) -> output`, timed from call to return,
// and `check(output) -> {rows, columns, perColumn}` plus `release(output)`,
// both untimed. Checks and frees are outside the clock for every reader alike.

/** columns-wasm: read every (row group, column) of the scope via readColumn. */
export function cwReader(libs, input) {
  return {
    async run({ cols }) {
      const file = libs.ColumnsFile.fromBytes(input.bytes);
      const groups = file.rowGroups.length;
      const out = [];
      for (let rg = 0; rg < groups; rg++) {
        for (const c of cols) out.push({ c, col: file.readColumn(rg, c) });
      }
      return { file, out, cols };
    },
    check({ out, cols }) {
      const perColumn = new Map(cols.map((c) => [c, 0]));
      for (const { c, col } of out) {
        if (col.values === undefined || col.values === null) throw new Error(`column ${c}: no values`);
        perColumn.set(c, perColumn.get(c) + Number(col.length));
      }
      return summarize(perColumn);
    },
    release({ file, out }) {
      for (const { col } of out) col.free?.();
      file?.free?.();
    },
  };
}

/** columns-wasm on a file opened once, untimed: only the column reads. */
export function cwOpenReader(libs, input) {
  const file = libs.ColumnsFile.fromBytes(input.bytes);
  const base = cwReader(libs, input);
  return {
    async run({ cols }) {
      const out = [];
      for (let rg = 0; rg < file.rowGroups.length; rg++) {
        for (const c of cols) out.push({ c, col: file.readColumn(rg, c) });
      }
      return { file: null, out, cols };
    },
    check: base.check,
    release: base.release,
  };
}

/** columns-wasm on an open file, each read handing back the previous
 *  read's columns ({ reuse }) so their buffers are refilled, as a viewer
 *  that re-reads the same columns would. Nothing is released between runs:
 *  the last output is what the next run reuses. */
export function cwReuseReader(libs, input) {
  const file = libs.ColumnsFile.fromBytes(input.bytes);
  const base = cwReader(libs, input);
  let last = null;
  return {
    async run({ cols }) {
      const out = [];
      // Each read hands back the column it replaces.
      for (let rg = 0; rg < file.rowGroups.length; rg++) {
        for (const c of cols) out.push({ c, col: file.readColumn(rg, c, { reuse: last?.out[out.length].col }) });
      }
      last = { file: null, out, cols };
      return last;
    },
    check: base.check,
    release() {},
  };
}

/** columns-wasm's worker pool: chunks decoded in parallel, buffers
 *  transferred back. The file is opened in the workers on the first
 *  (warm-up) run; timed runs are the parallel reads alone. With `reuse`,
 *  each read hands back the previous one's columns. */
export function cwPoolReader(pool, reuse = false) {
  return (libs, input) => {
    const base = cwReader(libs, input);
    let opened = null;
    let last = null;
    return {
      async run({ cols }) {
        opened ??= await pool.open(input.bytes);
        const groups = opened.meta.rowGroups.length;
        const columns = await opened.readColumns(null, cols, reuse ? { reuse: last } : undefined);
        if (reuse) last = columns;
        const out = columns.map((col, k) => ({ c: cols[k % cols.length], col }));
        if (out.length !== groups * cols.length) throw new Error("pool returned the wrong number of columns");
        return { file: null, out, cols };
      },
      check: base.check,
      release: reuse ? () => {} : base.release,
    };
  };
}

/** hyparquet: parquetRead with onChunk only (no row transposition). */
export function hyparquetReader(libs, input) {
  return {
    async run({ names }) {
      const chunks = [];
      await libs.hyparquet.parquetRead({
        file: input.arrayBuffer, // an ArrayBuffer is a valid in-memory AsyncBuffer
        columns: names,
        compressors: libs.compressors,
        onChunk: (chunk) => chunks.push(chunk),
      });
      return { chunks, names };
    },
    check({ chunks, names }) {
      const perColumn = new Map(names.map((n) => [n, 0]));
      for (const { columnName, columnData } of chunks) {
        if (!perColumn.has(columnName)) throw new Error(`unexpected column ${columnName}`);
        perColumn.set(columnName, perColumn.get(columnName) + columnData.length);
      }
      return summarize(perColumn);
    },
    release() {},
  };
}

// parquet-wasm 0.8.0's synchronous readParquet ignores `columns` (it returns
// every column), so a one-column scope reads through its async ParquetFile
// over an in-memory Blob, which does honour `columns`. "all" uses readParquet.
async function pwTable(libs, input, names, project) {
  if (!project) return libs.parquetWasm.readParquet(input.bytes);
  const file = await libs.parquetWasm.ParquetFile.fromFile(input.blob);
  try {
    return await file.read({ columns: names });
  } finally {
    file.free();
  }
}
export const pwMethod = (project) => (project ? "ParquetFile.fromFile(Blob).read({columns})" : "readParquet(bytes)");

/** parquet-wasm: decode to Arrow, which stays in wasm memory. */
export function pwDecodeReader(libs, input) {
  return {
    async run({ names, project }) {
      return pwTable(libs, input, names, project);
    },
    check(table) {
      let rows = 0;
      let columns = -1;
      for (let i = 0; i < table.numBatches; i++) {
        const batch = table.recordBatch(i);
        rows += batch.numRows;
        if (columns >= 0 && columns !== batch.numColumns) throw new Error("batches disagree on column count");
        columns = batch.numColumns;
        batch.free();
      }
      // Arrow record batches are rectangular: every column has `rows` values.
      return { rows, columns: Math.max(columns, 0), perColumn: Array(Math.max(columns, 0)).fill(rows) };
    },
    release(table) {
      table.free();
    },
  };
}

/** parquet-wasm → IPC stream → apache-arrow Table → every column to a JS array. */
export function pwJsReader(libs, input) {
  return {
    async run({ names, project }) {
      const wasmTable = await pwTable(libs, input, names, project);
      const table = libs.arrow.tableFromIPC(wasmTable.intoIPCStream()); // consumes wasmTable
      const arrays = [];
      for (let i = 0; i < table.numCols; i++) arrays.push(table.getChildAt(i).toArray());
      return { table, arrays };
    },
    check({ table, arrays }) {
      const perColumn = arrays.map((a) => a.length);
      if (table.numRows !== perColumn[0]) throw new Error(`table has ${table.numRows} rows, column 0 ${perColumn[0]}`);
      return summarize(perColumn);
    },
    release() {},
  };
}

function summarize(perColumn) {
  const lengths = [...perColumn.values()];
  const rows = lengths.length ? lengths[0] : 0;
  if (lengths.some((n) => n !== rows)) throw new Error(`columns differ in length: ${lengths.join(", ")}`);
  return { rows, columns: lengths.length, perColumn: lengths };
}

// ---------------------------------------------------------------- the session

/** mulberry32: a small seeded PRNG, so the shuffled order is reproducible. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(list, random) {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/**
 * Build every cell (reader × file × scope).
 * `files` maps a file name to {bytes: Uint8Array, arrayBuffer: ArrayBuffer};
 * `meta[dataset.name]` = {pqCols, cwCols|null}.
 */
export function buildCells(libs, files, meta) {
  const cells = [];
  for (const dataset of DATASETS) {
    const { pqCols, cwCols } = meta[dataset.name];
    const scopes = pickScopes(dataset, pqCols, cwCols);
    const sources = [];
    if (libs.ColumnsFile) {
      sources.push({ reader: "cw", file: dataset.cols, make: cwReader, byIndex: true });
      sources.push({ reader: "cwOpen", file: dataset.cols, make: cwOpenReader, byIndex: true });
      sources.push({ reader: "cwReuse", file: dataset.cols, make: cwReuseReader, byIndex: true });
      for (const [reader, pool] of Object.entries(libs.pools ?? {})) {
        sources.push({ reader, file: dataset.cols, make: cwPoolReader(pool), byIndex: true });
        sources.push({ reader: `${reader}Reuse`, file: dataset.cols, make: cwPoolReader(pool, true), byIndex: true });
      }
    }
    for (const [reader, make] of [["hyparquet", hyparquetReader], ["pwDecode", pwDecodeReader], ["pwJs", pwJsReader]]) {
      for (const codec of CODECS) sources.push({ reader, file: parquetName(dataset, codec), make, byIndex: false });
    }
    for (const scope of SCOPES) {
      const idx = scopes[scope];
      const names = idx.map((i) => pqCols[i].name);
      for (const { reader, file, make, byIndex } of sources) {
        const f = files[file];
        f.blob ??= new Blob([f.bytes]); // for parquet-wasm's ParquetFile; made once, untimed
        const project = scope !== "all";
        cells.push({
          id: `${reader}|${file}|${scope}`,
          reader,
          readerLabel: READERS[reader],
          dataset: dataset.name,
          file,
          fileBytes: f.bytes.byteLength,
          scope,
          columnNames: byIndex && cwCols ? idx.map((i) => cwCols[i].name) : names,
          columnIndexes: idx,
          expected: { rows: dataset.rows, columns: scope === "all" ? dataset.columns : 1 },
          method: reader.startsWith("pw") ? pwMethod(project) : null,
          arg: { cols: idx, names, project },
          impl: make(libs, f),
          checked: null,
          error: null,
          warmupMs: [],
          timesMs: [],
        });
      }
    }
  }
  return cells;
}

/** One run of a cell: time it, then (untimed) check and release. */
async function runOnce(cell) {
  const t0 = performance.now();
  const output = await cell.impl.run(cell.arg);
  const ms = performance.now() - t0;
  try {
    const got = cell.impl.check(output);
    const { rows, columns } = cell.expected;
    if (got.rows !== rows || got.columns !== columns || got.perColumn.some((n) => n !== rows)) {
      throw new Error(`incomplete: expected ${rows} rows × ${columns} columns, got ${got.rows} × ${got.columns} (per column: ${got.perColumn.join(", ")})`);
    }
    cell.checked = { rows: got.rows, columns: got.columns };
  } finally {
    cell.impl.release(output);
  }
  return ms;
}

// Yield to the event loop between runs (untimed), so pending tasks and GC
// idle work do not pile up inside a measurement.
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Warm-ups (each cell `warmup` times, shuffled), then `runs` timed runs of
 * every cell in one seeded shuffle of all run instances. A failing cell is
 * marked and dropped; the others go on.
 */
export async function runSession(cells, { runs, warmup, seed }, log = () => {}) {
  const random = prng(seed);
  const plan = (n) => shuffle(cells.flatMap((cell) => Array.from({ length: n }, () => cell)), random);
  const phases = [
    ["warm-up", plan(warmup), "warmupMs"],
    ["timed", plan(runs), "timesMs"],
  ];
  const order = [];
  for (const [phase, list, key] of phases) {
    let done = 0;
    for (const cell of list) {
      done++;
      if (cell.error) continue;
      try {
        cell[key].push(await runOnce(cell));
        if (key === "timesMs") order.push(cell.id);
      } catch (e) {
        cell.error = String(e?.stack ?? e);
        log(`FAILED ${cell.id}: ${e?.message ?? e}`);
      }
      if (done % 50 === 0 || done === list.length) log(`${phase} ${done}/${list.length}`);
      await breathe();
    }
  }
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

/** The JSON document: configuration, environment, and every raw timing. */
export function results(cells, { platform, environment, config, columnsWasm, order, extra = {} }) {
  const out = cells.map((c) => ({
    id: c.id,
    reader: c.reader,
    readerLabel: c.readerLabel,
    dataset: c.dataset,
    file: c.file,
    fileBytes: c.fileBytes,
    scope: c.scope,
    method: c.method,
    columns: c.columnNames,
    columnIndexes: c.columnIndexes,
    expected: c.expected,
    checked: c.checked,
    error: c.error,
    warmupMs: c.warmupMs,
    timesMs: c.timesMs,
    stats: c.error ? null : stats(c.timesMs),
  }));
  // Ratio of medians against columns-wasm on the same dataset and scope.
  for (const c of out) {
    const base = out.find((b) => b.reader === "cw" && b.dataset === c.dataset && b.scope === c.scope);
    c.ratioToColumnsWasm = base?.stats && c.stats ? c.stats.median / base.stats.median : null;
  }
  return { platform, date: new Date().toISOString(), environment, config, columnsWasm, ...extra, timedOrder: order, cells: out };
}

// The native example prints one object per file ({file, rows, bytes, minMs, medianMs, maxMs, columns}).
const nativeRow = (native, dataset) =>
  Array.isArray(native) ? native.find((n) => n?.file === dataset.cols && typeof n.medianMs === "number") : undefined;

const ms = (v) => (v == null ? "—" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const ratio = (v) => (v == null ? "—" : `${v.toFixed(2)}×`);

/** A Markdown report: one table per dataset and scope. */
export function markdown(doc) {
  const { platform, environment, config, columnsWasm } = doc;
  const lines = [
    `# Decode benchmark: ${platform}`,
    "",
    `Date: ${doc.date}  `,
    ...Object.entries(environment).map(([k, v]) => `${k}: ${v}  `),
    `Runs: ${config.runs} timed per cell after ${config.warmup} warm-ups; all runs of all cells interleaved in one shuffled order (seed ${config.seed}).  `,
    "Times in ms, from the in-memory file bytes to decoded values (checks and frees untimed). Ratio = median / columns-wasm median (same dataset and scope).  ",
    `parquet-wasm: all columns via ${pwMethod(false)}; one-column scopes via ${pwMethod(true)}, because readParquet ignores \`columns\` in 0.8.0.`,
    "",
  ];
  if (!columnsWasm.available) lines.push(`> ${columnsWasm.note}`, "");
  for (const dataset of DATASETS) {
    for (const scope of SCOPES) {
      const cells = doc.cells
        .filter((c) => c.dataset === dataset.name && c.scope === scope)
        .sort((a, b) => READER_ORDER.indexOf(a.reader) - READER_ORDER.indexOf(b.reader));
      if (!cells.length) continue;
      const colNames = cells.find((c) => c.reader !== "cw")?.columns ?? cells[0].columns;
      const what = scope === "all" ? `${SCOPE_LABEL.all} (${dataset.columns})` : `${SCOPE_LABEL[scope]} (${colNames.join(", ")})`;
      lines.push(`## ${dataset.name}: ${what}, ${dataset.rows.toLocaleString("en-US")} rows`, "");
      lines.push("| reader | file | file bytes | checked rows × cols | min | median | max | ratio |");
      lines.push("|---|---|--:|--:|--:|--:|--:|--:|");
      for (const c of cells) {
        const s = c.stats;
        const checked = c.checked ? `${c.checked.rows} × ${c.checked.columns}` : "—";
        const status = c.error ? ` **FAILED: ${c.error.split("\n")[0].replace(/\|/g, "\\|")}**` : "";
        lines.push(`| ${c.readerLabel}${status} | ${c.file} | ${c.fileBytes} | ${checked} | ${ms(s?.min)} | ${ms(s?.median)} | ${ms(s?.max)} | ${ratio(c.ratioToColumnsWasm)} |`);
      }
      const native = scope === "all" && nativeRow(doc.native, dataset);
      if (native) {
        const base = cells.find((c) => c.reader === "cw")?.stats;
        const r = base ? native.medianMs / base.median : null;
        lines.push(`| native Rust core (cargo --release, no wasm) | ${native.file} | ${native.bytes ?? "—"} | ${native.rows ?? "—"} × ${native.columns?.length ?? "—"} | ${ms(native.minMs)} | ${ms(native.medianMs)} | ${ms(native.maxMs)} | ${ratio(r)} |`);
      }
      lines.push("");
    }
  }
  if (doc.native) {
    lines.push("## Native Rust core (`cargo run --release --example bench -- --json`)", "");
    if (DATASETS.every((d) => nativeRow(doc.native, d))) {
      lines.push("Shown as the last row of each \"all columns\" table; the per-column decompress/decode split is under `native` in node.json.", "");
    } else {
      lines.push("```json", JSON.stringify(doc.native, null, 2), "```", "");
    }
  }
  return lines.join("\n");
}
