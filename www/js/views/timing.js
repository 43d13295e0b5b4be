// Timing: repeated reads of chosen columns, in randomized order, with
// warm-ups excluded; min / median / max, a bootstrap interval of the
// median, throughput and the split between read, decompress and decode.

import { h, s, fill, download } from "../dom.js";
import { fmtBytes, fmtInt, fmtMs, csvField } from "../format.js";
import { summarize, median } from "../stats.js";
import { columnPicker, errorBox } from "../common.js";

const PARTS = [
  { key: "readMs", label: "read", cls: "p-read" },
  { key: "decompressMs", label: "decompress", cls: "p-decompress" },
  { key: "decodeMs", label: "decode", cls: "p-decode" },
  { key: "copyMs", label: "copy to JS", cls: "p-copy" },
  { key: "otherMs", label: "other", cls: "p-other" },
];

const mbps = (bytes, ms) => (ms > 0 ? bytes / 1e6 / (ms / 1000) : null);
const fmtRate = (x) => (x === null ? "—" : x >= 100 ? `${x.toFixed(0)} MB/s` : `${x.toFixed(1)} MB/s`);

function analyse(f, res, rgs) {
  return res.columns.map(({ c, runs }) => {
    const wall = runs.map((r) => r.wallMs);
    const st = summarize(wall);
    const stored = rgs.reduce((a, g) => a + f.rowGroups[g].columns[c].byteLength, 0);
    const decoded = runs[0]?.decodedBytes ?? 0;
    const split = {};
    for (const p of PARTS.slice(0, 4)) split[p.key] = median(runs.map((r) => r[p.key]));
    split.otherMs = Math.max(0, st.median - (split.readMs + split.decompressMs + split.decodeMs + split.copyMs));
    return {
      c,
      name: f.schema[c].name,
      type: f.schema[c].type,
      chunks: rgs.length,
      stored,
      decoded,
      ...st,
      mbStored: mbps(stored, st.median),
      mbDecoded: mbps(decoded, st.median),
      split,
      fromMemory: runs.every((r) => r.fromMemory),
      reread: runs.every((r) => r.hasRead),
      runs,
    };
  });
}

function splitBar(split, total) {
  const t = total || 1;
  return h(
    "span",
    { class: "split", title: PARTS.map((p) => `${p.label} ${fmtMs(split[p.key])}`).join(" · ") },
    PARTS.map((p) => (split[p.key] > 0 ? h("span", { class: ["split-part", p.cls], style: { width: `${(100 * split[p.key]) / t}%` } }) : null)),
  );
}

function chart(rows) {
  const W = 1000;
  const left = 190;
  const right = 20;
  const rowH = 30;
  const top = 10;
  const axisH = 34;
  const max = Math.max(...rows.map((r) => r.max)) * 1.05 || 1;
  const x = (ms) => left + ((W - left - right) * ms) / max;
  const H = top + rows.length * rowH + axisH;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "chart", "data-testid": "timing-chart", role: "img", "aria-label": "time per run for each column" });
  // Grid and axis.
  const ticks = 5;
  const step = niceStep(max / ticks);
  for (let v = 0; v <= max; v += step) {
    svg.append(s("line", { x1: x(v), x2: x(v), y1: top, y2: H - axisH + 4, class: "grid" }));
    const digits = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    svg.append(s("text", { x: x(v), y: H - axisH + 18, class: "axis-label", "text-anchor": "middle" }, `${v.toFixed(digits)} ms`));
  }
  svg.append(s("text", { x: (left + W - right) / 2, y: H - 2, class: "axis-title", "text-anchor": "middle" }, "milliseconds per run (all chosen row groups) — dots: runs · bar: median · band: 95% interval of the median"));
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const label = r.name.length > 26 ? `${r.name.slice(0, 25)}…` : r.name;
    svg.append(s("text", { x: left - 10, y: y + 4, class: "row-label", "text-anchor": "end" }, s("title", {}, r.name), label));
    svg.append(s("line", { x1: x(r.min), x2: x(r.max), y1: y, y2: y, class: "range" }));
    svg.append(s("rect", { x: x(r.ciLo), y: y - 9, width: Math.max(1, x(r.ciHi) - x(r.ciLo)), height: 18, class: "ci" }));
    r.runs.forEach((run, j) => svg.append(s("circle", { cx: x(run.wallMs), cy: y + (((j * 7) % 11) - 5), r: 2.6, class: "dot" }, s("title", {}, `run ${run.seq}: ${fmtMs(run.wallMs)}`))));
    svg.append(s("line", { x1: x(r.median), x2: x(r.median), y1: y - 11, y2: y + 11, class: "median" }));
  });
  return svg;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= raw) return m * p;
  return 10 * p;
}

export function createTiming(ctx, el) {
  let cols = [];
  let rgs = [];
  let last = null;
  const results = h("div", { class: "timing-results" });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "data-testid": "timing-progress" });
  const progressText = h("span", { class: "muted small" });

  function form() {
    const f = ctx.file;
    const cp = columnPicker(f.schema, cols, (l) => (cols = l), { testid: "timing-columns", label: "Columns" });
    const rp = columnPicker(f.rowGroups.map((rg, g) => ({ name: `row group ${g}`, type: `${fmtInt(rg.numRows)} rows` })), rgs, (l) => (rgs = l), { testid: "timing-rowgroups", label: "Row groups", placeholder: "filter row groups" });
    const runs = h("input", { type: "number", min: 1, max: 1000, value: 15, "data-testid": "timing-runs", id: "timing-runs" });
    const warm = h("input", { type: "number", min: 0, max: 100, value: 3, "data-testid": "timing-warmups", id: "timing-warmups" });
    const modeFile = h("input", { type: "radio", name: "timing-mode", value: "file", checked: true, "data-testid": "timing-mode-file" });
    const modeMem = h("input", { type: "radio", name: "timing-mode", value: "memory", "data-testid": "timing-mode-memory" });
    const reuse = h("input", { type: "checkbox", "data-testid": "timing-reuse" });
    const via = ctx.source.url ? "over HTTP (range requests)" : "from the File (Blob.slice)";
    const runBtn = h("button", { type: "submit", class: "primary", "data-testid": "timing-run" }, "Run timing");
    return h(
      "form",
      {
        class: "timing-form",
        "data-testid": "timing-form",
        onsubmit: async (ev) => {
          ev.preventDefault();
          const opts = { cols: [...cols], rgs: [...rgs], runs: Math.max(1, Math.min(1000, Number(runs.value) || 15)), warmups: Math.max(0, Math.min(100, Number(warm.value) || 0)), mode: modeMem.checked ? "memory" : "file", reuse: reuse.checked };
          if (!opts.cols.length || !opts.rgs.length) {
            fill(results, h("p", { class: "notice" }, "Choose at least one column and one row group."));
            return;
          }
          runBtn.disabled = true;
          await run(opts);
          runBtn.disabled = false;
        },
      },
      h("div", { class: "timing-pickers" }, cp.el, rp.el),
      h(
        "div",
        { class: "timing-options" },
        h("label", { class: "field", for: "timing-runs" }, h("span", { class: "field-label" }, "Runs"), runs),
        h("label", { class: "field", for: "timing-warmups" }, h("span", { class: "field-label" }, "Warm-ups (excluded)"), warm),
        h(
          "fieldset",
          { class: "modes" },
          h("legend", {}, "Where each run gets the bytes"),
          h("label", {}, modeFile, ` Re-read from the file each run — fetch the chunk's bytes ${via}, then decompress and decode`),
          h("label", {}, modeMem, " From memory — load the whole file once (fromBytes), then each run only decompresses and decodes"),
        ),
        h("label", { class: "check" }, reuse, " Reuse output buffers — each run hands the last run's column back ({ reuse }), so its typed arrays are refilled instead of newly allocated"),
        h("div", { class: "run-row" }, runBtn, progress, progressText),
      ),
    );
  }

  async function run(opts) {
    const f = ctx.file;
    progress.hidden = false;
    progress.value = 0;
    progressText.textContent = "starting…";
    fill(results);
    let res;
    try {
      res = await ctx.call("timing", opts, "Timing", {
        onProgress: (p) => {
          if (p.total) {
            progress.value = p.done / p.total;
            progressText.textContent = `${p.label} ${p.done} of ${p.total}`;
          } else progressText.textContent = p.label;
        },
      });
    } catch (e) {
      progress.hidden = true;
      progressText.textContent = "";
      fill(results, errorBox(e, { title: e.kind === "cancelled" ? "Timing cancelled" : "Timing failed", schema: f.schema, testid: "timing-error" }));
      return;
    }
    progress.hidden = true;
    progressText.textContent = "";
    const rows = analyse(f, res, opts.rgs);
    last = { opts, res, rows, file: ctx.name, size: f.byteLength, when: new Date().toISOString() };
    showResults();
  }

  function showResults() {
    const { opts, res, rows } = last;
    const mem = opts.mode === "memory";
    const via = ctx.source.url ? "over HTTP with a range request" : "from the File with Blob.slice";
    const modeText = mem
      ? `The whole file was loaded into wasm memory once (fromBytes); each run only decompressed and decoded (timings.fromMemory = ${rows.every((r) => r.fromMemory)}).`
      : `Each run fetched the chunk's bytes again ${via}, then decompressed and decoded them; the read time is part of each run (timings.fromMemory = ${rows.every((r) => r.fromMemory)}).`;
    const table = h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "data", "data-testid": "timing-table" },
        h("thead", {}, h("tr", {}, ["Column", "Chunks", "Stored", "Decoded", "Min", "Median", "Max", "95% CI of median", "Stored MB/s", "Decoded MB/s", "Split of the median", "Bytes from"].map((t, i) => h("th", { class: i > 0 && i < 10 ? "num" : "", title: t === "Decoded" ? "size of the decoded values in memory (typed arrays, offsets and validity)" : undefined }, t)))),
        h(
          "tbody",
          {},
          rows.map((r) =>
            h(
              "tr",
              { "data-testid": "timing-result-row", "data-col": r.c },
              h("td", {}, h("span", { class: "colname" }, r.name), " ", h("span", { class: "type-tag" }, r.type)),
              h("td", { class: "num" }, fmtInt(r.chunks)),
              h("td", { class: "num" }, fmtBytes(r.stored)),
              h("td", { class: "num" }, fmtBytes(r.decoded)),
              h("td", { class: "num", "data-field": "min" }, fmtMs(r.min)),
              h("td", { class: "num", "data-field": "median" }, h("b", {}, fmtMs(r.median))),
              h("td", { class: "num", "data-field": "max" }, fmtMs(r.max)),
              h("td", { class: "num", "data-field": "ci" }, `${fmtMs(r.ciLo)} – ${fmtMs(r.ciHi)}`),
              h("td", { class: "num" }, fmtRate(r.mbStored)),
              h("td", { class: "num" }, fmtRate(r.mbDecoded)),
              h("td", {}, splitBar(r.split, r.median), h("span", { class: "split-text" }, PARTS.filter((p) => r.split[p.key] > 0).map((p) => `${p.label} ${Math.round((100 * r.split[p.key]) / (r.median || 1))}%`).join(" · "))),
              h("td", { class: "nowrap", "data-field": "source" }, r.fromMemory ? "memory" : "file, re-read"),
            ),
          ),
        ),
      ),
    );
    fill(
      results,
      h("p", { class: "mode-line", "data-testid": "timing-mode-text" }, h("b", {}, mem ? "Mode: from memory. " : "Mode: re-read from the file. "), modeText, opts.reuse ? " Output buffers were reused: each run refilled the previous run's typed arrays." : " Each run allocated new output arrays."),
      h("p", { class: "muted small" }, `${opts.runs} runs per column in randomized order after ${opts.warmups} warm-up${opts.warmups === 1 ? "" : "s"} (excluded), over ${opts.rgs.length} row group${opts.rgs.length === 1 ? "" : "s"}. Each run is the wall time of reading the column in every chosen row group. Timer resolution in the worker ≈ ${fmtMs(res.resolution)}; the interval is a percentile bootstrap (2000 resamples) of the median.`),
      table,
      h("div", { class: "legend" }, PARTS.map((p) => h("span", { class: "legend-item" }, h("span", { class: ["swatch", p.cls] }), p.label))),
      chart(rows),
      h(
        "div",
        { class: "exports" },
        h("span", { class: "muted" }, "Export: "),
        h("button", { type: "button", "data-testid": "export-json", onclick: exportJson }, "JSON"),
        h("button", { type: "button", "data-testid": "export-csv", onclick: exportCsv }, "CSV (summary)"),
        h("button", { type: "button", "data-testid": "export-runs-csv", onclick: exportRunsCsv }, "CSV (every run)"),
      ),
    );
  }

  function baseName() {
    return `${ctx.name.replace(/[^\w.-]+/g, "_").replace(/\.cols$/i, "")}-timing-${last.opts.mode}`;
  }

  function exportJson() {
    const { opts, res, rows } = last;
    const out = {
      tool: "columns inspector",
      file: last.file,
      fileSize: last.size,
      date: last.when,
      userAgent: navigator.userAgent,
      mode: opts.mode,
      reuseBuffers: opts.reuse,
      runs: opts.runs,
      warmups: opts.warmups,
      rowGroups: opts.rgs,
      timerResolutionMs: res.resolution,
      columns: rows.map((r) => ({
        index: r.c,
        name: r.name,
        type: r.type,
        storedBytes: r.stored,
        decodedBytes: r.decoded,
        minMs: r.min,
        medianMs: r.median,
        maxMs: r.max,
        medianCI95Ms: [r.ciLo, r.ciHi],
        storedMBps: r.mbStored,
        decodedMBps: r.mbDecoded,
        medianSplitMs: r.split,
        fromMemory: r.fromMemory,
        runs: r.runs.map((x) => ({ order: x.seq, wallMs: x.wallMs, readMs: x.hasRead ? x.readMs : null, decompressMs: x.decompressMs, decodeMs: x.decodeMs, copyMs: x.copyMs, totalMs: x.totalMs, fromMemory: x.fromMemory })),
      })),
    };
    download(`${baseName()}.json`, JSON.stringify(out, null, 2), "application/json");
  }

  function exportCsv() {
    const head = ["column", "name", "type", "mode", "runs", "warmups", "row_groups", "stored_bytes", "decoded_bytes", "min_ms", "median_ms", "max_ms", "ci95_lo_ms", "ci95_hi_ms", "stored_mb_s", "decoded_mb_s", "read_ms", "decompress_ms", "decode_ms", "copy_ms", "other_ms", "from_memory"];
    const lines = [head.join(",")];
    for (const r of last.rows) {
      lines.push([r.c, r.name, r.type, last.opts.mode, last.opts.runs, last.opts.warmups, last.opts.rgs.join(" "), r.stored, r.decoded, r.min, r.median, r.max, r.ciLo, r.ciHi, r.mbStored, r.mbDecoded, r.split.readMs, r.split.decompressMs, r.split.decodeMs, r.split.copyMs, r.split.otherMs, r.fromMemory].map(csvField).join(","));
    }
    download(`${baseName()}.csv`, `${lines.join("\n")}\n`, "text/csv");
  }

  function exportRunsCsv() {
    const lines = ["column,name,order,wall_ms,read_ms,decompress_ms,decode_ms,copy_ms,total_ms,from_memory"];
    for (const r of last.rows) for (const x of r.runs) lines.push([r.c, r.name, x.seq, x.wallMs, x.hasRead ? x.readMs : "", x.decompressMs, x.decodeMs, x.copyMs, x.totalMs, x.fromMemory].map(csvField).join(","));
    download(`${baseName()}-runs.csv`, `${lines.join("\n")}\n`, "text/csv");
  }

  return {
    render() {
      const f = ctx.file;
      cols = f.schema.map((_, i) => i).slice(0, 8);
      rgs = f.rowGroups.map((_, g) => g);
      last = null;
      if (!f.rowGroups.length) {
        fill(el, h("p", { class: "notice" }, "This file has no row groups: nothing to time."));
        return;
      }
      fill(el, form(), results);
    },
    activate() {},
  };
}
