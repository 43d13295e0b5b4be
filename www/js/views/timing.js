// Timing column reads in the worker, as bench/run does: every readable
// column by default (unreadable ones are skipped and named), per column or
// as one whole read of every chosen column (on the worker's thread, or on
// a pool of workers: pkg/pool.js), runs (per column: in shuffled order;
// a whole read's back to back) after untimed warm-ups, medians with a bootstrap interval. Every run stays on the page
// for side-by-side comparison until removed; each run's header there says
// which columns and row groups it covered, and a time over other data than
// its row's others says its own (those are not comparable).

import { h, s, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtMs, csvField, plural, nameNode, nameString } from "../format.js";
import { summarize, splitOfMedian } from "../stats.js";
import { columnPicker, errorBox } from "../common.js";
import { sizeTitle, sizeLegend } from "../sizes.js";

const PARTS = [
  { key: "readMs", label: "read", cls: "p-read" },
  { key: "decompressMs", label: "decompress", cls: "p-decompress" },
  { key: "decodeMs", label: "decode", cls: "p-decode" },
  { key: "copyMs", label: "copy to JS", cls: "p-copy" },
  { key: "otherMs", label: "other", cls: "p-other" },
];

// The Runs and Warm-ups fields' defaults: a field left blank runs the
// default it showed, and shows it again (blank ran 15 runs but 0 warm-ups;
// the pool's size, blank, ran 2 workers whatever it showed).
const RUNS = 15;
const WARMUPS = 3;
function orDefault(input, value) {
  if (input.value.trim() === "") input.value = value;
  return Number(input.value);
}

// The row groups chosen when a file opens: the first ones, while a run of
// every readable column reads at most this many bytes (all, in a smaller
// file). A 5 GB file's every column and row group, 15 runs and 3 warm-ups,
// read 92 GB; All takes every row group.
export const DEFAULT_RUN_BYTES = 64 * 1024 * 1024;

/** The first row groups of `f` whose chunks of `cols` add up to at most `limit` bytes (one at least). */
function boundedRowGroups(f, cols, limit) {
  const out = [];
  let bytes = 0;
  for (let g = 0; g < f.rowGroups.length; g++) {
    const more = cols.reduce((a, c) => a + f.rowGroups[g].columns[c].byteLength, 0);
    if (out.length && bytes + more > limit) break;
    bytes += more;
    out.push(g);
  }
  return out;
}

const SCOPES = {
  column: "per column",
  whole: "whole read",
  pool: "whole read, worker pool",
};

/**
 * MB/s of `bytes` over a median, or null where it says nothing: a time
 * within 20 timer ticks, or (for stored bytes) a run that never read them
 * from the source (from memory).
 */
function rate(bytes, ms, resolution) {
  if (!(ms > 0) || ms < 20 * resolution || !bytes) return null;
  return bytes / 1e6 / (ms / 1000);
}
const fmtRate = (x) => (x === null ? "—" : x >= 100 ? `${x.toFixed(0)} MB/s` : x >= 10 ? `${x.toFixed(1)} MB/s` : `${x.toPrecision(2)} MB/s`);

function storedOf(f, c, rgs) {
  return rgs.reduce((a, g) => a + f.rowGroups[g].columns[c].byteLength, 0);
}

/**
 * Why the page holds a URL's file whole (a server that ignores Range
 * requests, or sends it compressed), or "": then a run "from the file"
 * took its bytes from that copy in memory, fetching nothing.
 */
const heldWhole = (opts, res) => (opts.mode !== "memory" && res.note) || "";

function analyse(ctx, res, opts) {
  const f = ctx.file;
  const held = !!heldWhole(opts, res);
  return res.columns.map(({ c, runs }) => {
    const st = summarize(runs.map((r) => r.wallMs));
    const stored = storedOf(f, c, opts.rgs);
    const decoded = runs[0]?.decodedBytes ?? 0;
    const split = splitOfMedian(runs, PARTS.slice(0, 4).map((p) => p.key));
    // Runs from memory read nothing: no read time (null, as each run's),
    // not a read of 0 ms.
    if (!runs.some((r) => r.hasRead)) split.readMs = null;
    return {
      c,
      name: ctx.labels[c],
      type: f.schema[c].type,
      chunks: opts.rgs.length,
      stored,
      decoded,
      ...st,
      mbStored: opts.mode === "memory" || held ? null : rate(stored, st.median, res.resolution),
      mbDecoded: rate(decoded, st.median, res.resolution),
      split,
      // (the package's flag says an AsyncBuffer was read, not that the
      // buffer answered from the copy it held)
      fromMemory: held || runs.every((r) => r.fromMemory),
      runs,
    };
  });
}

function splitBar(split, total) {
  const t = total || 1;
  return h(
    "span",
    { class: "split", title: PARTS.filter((p) => split[p.key] !== null).map((p) => `${p.label} ${fmtMs(split[p.key])}`).join(" · ") },
    PARTS.map((p) => (split[p.key] > 0 ? h("span", { class: ["split-part", p.cls], style: { width: `${(100 * split[p.key]) / t}%` } }) : null)),
  );
}

/**
 * Shortens each row label of a chart in the page (with "…"; its <title>
 * keeps the whole name) until it fits the chart's left margin: how wide a
 * name is depends on its characters and the font, so it is measured.
 */
function fitRowLabels(svg) {
  for (const t of svg.querySelectorAll(".row-label")) {
    const room = Number(t.dataset.room);
    const text = [...t.childNodes].find((n) => n.nodeType === Node.TEXT_NODE);
    if (!text || !(t.getComputedTextLength() > room)) continue;
    const chars = [...t.querySelector("title").textContent];
    let n = Math.min(chars.length, [...text.data].length);
    while (n > 1 && t.getComputedTextLength() > room) text.data = `${chars.slice(0, --n).join("")}…`;
  }
}

/**
 * Drops tick labels that would overlap or leave the chart: measured in the
 * page, the decades' labels (1, 10, 100, ...) placed first, then the 2s and
 * 5s where they fit; each kept label is moved inside the chart's edges.
 * The grid lines all stay.
 */
function fitTicks(svg, W) {
  const ticks = [...svg.querySelectorAll(".tick-label")];
  const placed = [];
  for (const t of ticks.sort((a, b) => Number(a.dataset.rank) - Number(b.dataset.rank))) {
    const w = t.getComputedTextLength();
    if (!(w > 0)) return; // not laid out (a hidden tab): fitted when drawn again
    const x = Math.min(Math.max(Number(t.getAttribute("x")), w / 2 + 1), W - w / 2 - 1);
    const a = x - w / 2 - 4;
    const b = x + w / 2 + 4;
    if (placed.some(([p, q]) => a < q && p < b)) {
      t.remove();
      continue;
    }
    t.setAttribute("x", x);
    placed.push([a, b]);
  }
}

/**
 * Log-scale chart: one row per column (or whole read), dots for runs. Drawn
 * for `width` pixels at one unit a pixel, so its text keeps its size at any
 * width; narrower than 560 px, each row's label goes on a line of its own
 * above the row and the plot takes the whole width.
 */
/** The most columns a run's chart draws (a row each, 30 px). */
const CHART_MOST = 60;

function chart(rows, width) {
  const W = Math.max(240, Math.round(width));
  const stacked = W < 560;
  const left = stacked ? 8 : Math.min(200, Math.round(W * 0.24));
  const right = stacked ? 8 : 24;
  const labelH = stacked ? 16 : 0;
  const rowH = 30 + labelH;
  const top = 10;
  const axisH = 26;
  // Runs shorter than the timer's tick read 0 ms: drawn at the axis's left
  // end. With no run above 0 the axis is 0.1 to 1 ms (an axis from Infinity
  // never ended its ticks' loop).
  const timed = rows.flatMap((r) => r.runs.map((x) => x.wallMs)).filter((x) => x > 0);
  const all = timed.length ? timed : [0.1, 1];
  // The axis runs from the 1-2-5 step below the fastest run to the one
  // above the slowest, so it always has at least two labelled ticks.
  const step125 = (v, up) => {
    const e = Math.floor(Math.log10(v));
    const cands = [-1, 0, 1].flatMap((d) => [1, 2, 5].map((m) => m * 10 ** (e + d)));
    return up ? Math.min(...cands.filter((c) => c >= v)) : Math.max(...cands.filter((c) => c <= v));
  };
  const lo = step125(Math.max(1e-3, Math.min(...all) / 1.1), false);
  const hi = step125(Math.max(...all) * 1.1, true);
  const l0 = Math.log10(lo);
  const l1 = Math.log10(hi) === l0 ? l0 + 1 : Math.log10(hi);
  const x = (ms) => left + ((W - left - right) * (Math.log10(Math.max(ms, lo)) - l0)) / (l1 - l0);
  const H = top + rows.length * rowH + axisH;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", class: "chart", "data-testid": "timing-chart", "data-layout": stacked ? "stacked" : "side", role: "img", "aria-label": "time per run, logarithmic axis" });
  const ticks = [];
  for (let e = Math.floor(l0); e <= Math.ceil(l1); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v < lo * 0.999 || v > hi * 1.001) continue;
      svg.append(s("line", { x1: x(v), x2: x(v), y1: top, y2: H - axisH + 4, class: m === 1 ? "grid major" : "grid" }));
      // The ends of the axis first, then the decades, then the rest.
      const rank = v <= lo * 1.001 || v >= hi * 0.999 ? 0 : m === 1 ? 1 : 2;
      ticks.push(s("text", { x: x(v), y: H - axisH + 18, class: "axis-label tick-label", "text-anchor": "middle", "data-testid": "chart-tick", "data-rank": rank }, fmtMs(v)));
    }
  }
  svg.append(...ticks);
  rows.forEach((r, i) => {
    const y = top + i * rowH + labelH + 15;
    const shown = nameString(r.name, Infinity);
    const label = shown.length > 28 ? `${shown.slice(0, 27)}…` : shown;
    const at = stacked ? { x: left, y: y - 17, "text-anchor": "start", "data-room": W - left - right } : { x: left - 10, y: y + 4, "text-anchor": "end", "data-room": left - 14 };
    svg.append(s("text", { ...at, class: "row-label", "data-testid": "chart-row-label" }, s("title", {}, nameString(r.name)), label));
    svg.append(s("line", { x1: x(r.min), x2: x(r.max), y1: y, y2: y, class: "range" }));
    svg.append(s("rect", { x: x(r.ciLo), y: y - 9, width: Math.max(1, x(r.ciHi) - x(r.ciLo)), height: 18, class: "ci" }));
    r.runs.forEach((run, j) => svg.append(s("circle", { cx: x(run.wallMs), cy: y + (((j * 7) % 11) - 5), r: 2.6, class: "dot" }, s("title", {}, `run ${run.seq}: ${fmtMs(run.wallMs)}`))));
    svg.append(s("line", { x1: x(r.median), x2: x(r.median), y1: y - 11, y2: y + 11, class: "median" }));
  });
  return svg;
}

/**
 * The chart in a box that draws it again whenever the box's width changes
 * (a narrower window, the tab shown after it was drawn hidden), with its
 * axis title as text below it that wraps. `stop()` ends the watching.
 */
function chartBox(rows, leftOut = 0) {
  const host = h("div", { class: "chart-host" });
  const box = h(
    "div",
    { class: "chart-box" },
    host,
    h("p", { class: "chart-caption" }, "milliseconds per run, logarithmic axis — dots: runs · bar: median · band: 95% interval of the median"),
    leftOut ? h("p", { class: "chart-caption", "data-testid": "timing-chart-left-out" }, `Charted: the ${plural(rows.length, "slowest column")} by median, in file order; ${plural(leftOut, "faster one")} left out (every column is in the table above).`) : null,
  );
  let drawn = -1;
  let frame = 0;
  const draw = () => {
    frame = 0;
    const w = host.clientWidth;
    if (w === drawn) return;
    drawn = w;
    const svg = chart(rows, w || 1000);
    fill(host, svg);
    if (w) {
      fitRowLabels(svg);
      fitTicks(svg, svg.viewBox.baseVal.width);
    }
  };
  const watch = new ResizeObserver(() => {
    if (!frame) frame = requestAnimationFrame(draw);
  });
  watch.observe(host);
  return { el: box, draw, stop: () => watch.disconnect() };
}

export function createTiming(ctx, el) {
  let cols = [];
  let rgs = [];
  let boundedFrom = 0; // the row groups in the file when the default choice was bounded, else 0
  // Says what a run will read and all runs in all, kept up to date by the
  // form. Not a live region: it changes with every key typed in Runs or
  // Warm-ups, and a screen reader read it out each time.
  const estimate = h("p", { class: "small", "data-testid": "timing-estimate" });
  let estimateText = "";
  let shownBad = new Map(); // the columns the form last left out (unreadableNow)
  let history = []; // every run: { id, label, opts, res, rows, whole, file, when }
  let nextId = 1;
  const results = h("div", { class: "timing-results" });
  const compareHost = h("div", { class: "timing-compare" });
  const progress = h("progress", { max: 1, value: 0, hidden: true, "aria-label": "timing progress", "data-testid": "timing-progress" });
  // A run's end said to a screen reader ("Timing done: median 4.20 ms"),
  // politely: the results appear below the form, out of its sight.
  const announce = h("p", { class: "visually-hidden", role: "status", "data-testid": "timing-announce" });
  const progressText = h("span", { class: "muted small" });
  // Said by the Run button, not in the results: the run on show stays, and
  // can still be exported.
  const chooseNote = h("p", { class: "notice small", role: "status", hidden: true, "data-testid": "timing-choose" }, "Choose at least one column and one row group.");
  let ac = null;
  // A run under way, and the form's Run and Stop buttons now: a tokenizer
  // arriving draws the form anew mid-run (Run was enabled again then).
  let running = false;
  let buttons = null;
  let shown = null; // the chart in sight (chartBox)

  /** Columns that cannot be read now (a missing tokenizer), with why. */
  function unreadableNow() {
    const f = ctx.file;
    const out = new Map();
    f.schema.forEach((_, c) => {
      for (const rg of f.rowGroups) {
        const t = rg.columns[c].tokenizer;
        if (t && !f.tokenizers[t - 1]?.resolved) {
          out.set(c, `tokenizer ${f.tokenizers[t - 1]?.digest.slice(0, 12)}… is missing`);
          break;
        }
      }
    });
    return out;
  }

  function form() {
    const f = ctx.file;
    const bad = unreadableNow();
    shownBad = bad;
    const cp = columnPicker(f.schema.map((col, c) => ({ ...col, name: ctx.labels[c] })), cols, (l) => ((cols = l), update()), { testid: "timing-columns", label: "Columns" });
    const rp = columnPicker(f.rowGroups.map((rg, g) => ({ name: `row group ${g}`, type: plural(rg.numRows, "row") })), rgs, (l) => ((rgs = l), update()), { testid: "timing-rowgroups", label: "Row groups", placeholder: "filter row groups" });
    const runs = h("input", { type: "number", min: 1, max: 1000, value: RUNS, "data-testid": "timing-runs", id: "timing-runs" });
    const warm = h("input", { type: "number", min: 0, max: 100, value: WARMUPS, "data-testid": "timing-warmups", id: "timing-warmups" });
    const radio = (name, value, label, checked, testid) => h("label", {}, h("input", { type: "radio", name, value, checked, "data-testid": testid }), ` ${label}`);
    const reuse = h("input", { type: "checkbox", "data-testid": "timing-reuse" });
    const poolDefault = Math.max(1, Math.min(16, navigator.hardwareConcurrency || 2));
    const poolSize = h("input", { type: "number", min: 1, max: 16, value: poolDefault, "data-testid": "timing-pool-size", id: "timing-pool-size", "aria-label": "workers in the pool" }); // inside the radio's label, which names the radio only
    // A server that ignores Range requests sent the file whole when it
    // opened: a run "from the file" takes its bytes from that copy.
    const via = !ctx.source.url ? "from the File (Blob.slice)" : ctx.ioNote ? "from the copy held in memory (the server ignores Range requests: nothing is fetched again)" : "over HTTP (range requests)";
    const runBtn = h("button", { type: "submit", class: "primary", "data-testid": "timing-run" }, "Run timing");
    const stopBtn = h("button", { type: "button", class: "danger", hidden: !running, "data-testid": "timing-stop", onclick: () => ac?.abort() }, "Stop");
    runBtn.disabled = running;
    buttons = { runBtn, stopBtn };
    /** The estimate for the form as it is now. */
    const update = () => {
      const mode = form.querySelector("input[name=timing-mode]:checked")?.value || "file";
      const n = Math.max(1, Math.min(1000, Number(runs.value) || RUNS)) + Math.max(0, Math.min(100, Number(warm.value.trim() === "" ? WARMUPS : warm.value) || 0));
      fill(estimate, estimateOf(mode, n));
    };
    const form = h(
      "form",
      {
        class: "timing-form",
        "data-testid": "timing-form",
        oninput: () => update(),
        onchange: () => update(),
        onsubmit: async (ev) => {
          ev.preventDefault();
          const fd = new FormData(ev.target);
          const opts = {
            cols: [...cols],
            rgs: [...rgs],
            runs: Math.max(1, Math.min(1000, orDefault(runs, RUNS))),
            warmups: Math.max(0, Math.min(100, orDefault(warm, WARMUPS))),
            mode: fd.get("timing-mode") || "file",
            scope: fd.get("timing-scope") || "column",
            poolSize: Math.max(1, Math.min(16, orDefault(poolSize, poolDefault))),
            reuse: reuse.checked,
          };
          // The pool takes a Blob or bytes, not a URL: a URL file is loaded
          // whole once and its runs read from memory, said as such.
          if (opts.scope === "pool" && opts.mode === "file" && ctx.source.url) {
            opts.mode = "memory";
            opts.poolFromUrl = true;
          }
          chooseNote.hidden = opts.cols.length > 0 && opts.rgs.length > 0;
          if (!chooseNote.hidden) return;
          // Run timing, disabled while the run goes on, would drop the focus
          // to the page: Stop takes it, and gives it back at the end.
          const fromRun = document.activeElement === runBtn;
          running = true;
          runBtn.disabled = true;
          stopBtn.hidden = false;
          if (fromRun) stopBtn.focus();
          try {
            await run(opts);
          } finally {
            running = false;
            const now = buttons; // (this form's, or the one drawn since)
            const onStop = document.activeElement === now.stopBtn;
            now.runBtn.disabled = false;
            now.stopBtn.hidden = true;
            if (onStop) now.runBtn.focus();
          }
        },
      },
      h("div", { class: "timing-pickers" }, cp.el, rp.el),
      h(
        "div",
        { class: "timing-options" },
        bad.size ? h("p", { class: "notice small", "data-testid": "timing-unreadable" }, `Not chosen, cannot be read now: ${[...bad].map(([c, why]) => `${nameString(ctx.labels[c])} (${why})`).join("; ")}. Supply the tokenizer to time them.`) : null,
        h("fieldset", { class: "modes" }, h("legend", {}, "What one run reads"), radio("timing-scope", "column", "Each column on its own: one timing per column (its chunks in the chosen row groups)", true, "timing-scope-column"), radio("timing-scope", "whole", "A whole read: every chosen column of every chosen row group in one call (readColumns), as bench/run times it", false, "timing-scope-whole"), h("label", {}, h("input", { type: "radio", name: "timing-scope", value: "pool", "data-testid": "timing-scope-pool" }), " A whole read on a worker pool (pkg/pool.js) of ", poolSize, " workers")),
        h("fieldset", { class: "modes" }, h("legend", {}, "Where each run gets the bytes"), radio("timing-mode", "file", `Re-read from the file each run — fetch the chunks' bytes ${via}, then decompress and decode`, true, "timing-mode-file"), radio("timing-mode", "memory", "From memory — load the whole file once (fromBytes), then each run only decompresses and decodes", false, "timing-mode-memory")),
        h("div", { class: "timing-numbers" }, h("label", { class: "field", for: "timing-runs" }, h("span", { class: "field-label" }, "Runs"), runs), h("label", { class: "field", for: "timing-warmups" }, h("span", { class: "field-label" }, "Warm-ups (excluded)"), warm)),
        h("label", { class: "check" }, reuse, " Reuse output buffers — each run hands the last run's columns back ({ reuse }), so their typed arrays are refilled instead of newly allocated"),
        estimate,
        h("div", { class: "run-row" }, runBtn, stopBtn, progress, progressText),
        chooseNote,
      ),
    );
    update();
    return form;
  }

  /**
   * What the chosen chunks cost: a run's stored bytes, and all `n` runs'
   * (warm-ups included) from the file, or the whole file loaded once
   * (`mode` "memory"). Also kept for the progress line while a run starts.
   */
  function estimateOf(mode, n) {
    const f = ctx.file;
    const per = cols.reduce((a, c) => a + storedOf(f, c, rgs), 0);
    const exact = (b) => h("span", { class: "nowrap", title: plural(b, "byte") }, fmtBytes(b));
    const chunks = plural(cols.length * rgs.length, "chunk");
    const parts =
      mode === "memory"
        ? [`The chosen ${chunks} hold `, exact(per), `; from memory the whole file (`, exact(f.byteLength), `) is loaded once, then ${plural(n, "run")} (warm-ups included) only decompress and decode.`]
        : ctx.source.url && ctx.ioNote
          ? [`The chosen ${chunks} hold `, exact(per), `, taken again by each of ${plural(n, "run")} (warm-ups included) from the copy of the file held in memory: nothing is fetched.`]
          : [`The chosen ${chunks} hold `, exact(per), `, read again by each of ${plural(n, "run")} (warm-ups included): `, exact(per * n), ` in all.`];
    estimateText = mode === "memory" ? `loads ${fmtBytes(f.byteLength)} once` : `reads ${fmtBytes(per * n)} in all`;
    const bounded =
      boundedFrom && rgs.length < boundedFrom
        ? h("span", { "data-testid": "timing-bounded" }, ` Chosen when the file opened: the first ${plural(rgs.length, "row group")} of ${fmtInt(boundedFrom)}, up to ${fmtBytes(DEFAULT_RUN_BYTES)} a run; All takes every one.`)
        : null;
    return [...parts, bounded];
  }

  async function run(opts) {
    const f = ctx.file;
    // Another file opened while this run went on: its answer (results, or
    // how it ended) belongs to the file gone, not to the Timing tab now shown.
    const gen = ctx.gen;
    progress.hidden = false;
    progress.value = 0;
    announce.textContent = "";
    progressText.textContent = `starting… (${estimateText})`;
    ac = new AbortController();
    let res;
    try {
      res = await ctx.call("timing", { ...opts, tokenizers: ctx.registered.map((t) => t.bytes) }, "Timing", {
        signal: ac.signal,
        // (said by this tab: its Stop has the focus, and `announce` its end)
        quiet: true,
        onProgress: (p) => {
          if (gen !== ctx.gen) return;
          if (p.total) {
            progress.value = p.done / p.total;
            progressText.textContent = p.text ?? `${p.label} ${p.done} of ${p.total}`;
          } else progressText.textContent = p.text ?? p.label;
        },
      });
    } catch (e) {
      if (gen !== ctx.gen) return;
      progress.hidden = true;
      progressText.textContent = "";
      // A stop is no error: one plain line, not the error box's title, kind
      // badge, message and hint (which said "cancelled" twice).
      const box =
        e.kind === "cancelled"
          ? h("p", { class: "notice", role: "status", "data-testid": "timing-error", "data-kind": "cancelled" }, "Timing stopped on request: none of its runs is kept.")
          : errorBox(e, { title: "Timing failed", schema: f.schema, testid: "timing-error" });
      // Stopped: the run before (if any) stays on show below the word of it.
      if (e.kind === "cancelled") {
        results.querySelector("[data-testid=timing-error]")?.remove();
        results.prepend(box);
      } else fill(results, box);
      return;
    }
    if (gen !== ctx.gen) return;
    progress.hidden = true;
    progressText.textContent = "";
    const entry = { id: nextId++, opts, res, file: ctx.name, when: new Date().toISOString() };
    // (A run whose columns were all skipped made no pool: the size asked for.)
    entry.label = `#${entry.id} ${SCOPES[opts.scope]}${opts.scope === "pool" ? ` of ${res.poolSize ?? opts.poolSize}` : ""} · ${opts.mode === "memory" ? "memory" : "file"}${opts.reuse ? " · reuse" : ""}`;
    entry.held = heldWhole(opts, res);
    // The package's runs say fromMemory false where its AsyncBuffer answered
    // from the copy held: every run of such a file came from memory.
    if (entry.held) for (const col of res.columns) for (const r of col.runs) r.fromMemory = true;
    entry.rows = analyse(ctx, res, opts);
    if (res.whole) {
      const st = summarize(res.whole.runs.map((r) => r.wallMs));
      const stored = res.whole.cols.reduce((a, c) => a + storedOf(f, c, opts.rgs), 0);
      entry.whole = { ...st, name: `whole read (${plural(res.whole.cols.length, "column")})`, runs: res.whole.runs, stored, decoded: res.whole.decodedBytes, mbDecoded: rate(res.whole.decodedBytes, st.median, res.resolution), mbStored: opts.mode === "memory" || entry.held ? null : rate(stored, st.median, res.resolution) };
    }
    history.push(entry);
    showResults(entry);
    announce.textContent = doneText(entry);
    showCompare();
  }

  /** What a finished run is announced as: its median (per column: the medians' span). */
  function doneText({ label, rows, whole }) {
    if (whole) return `Timing done, run ${label}: median ${fmtMs(whole.median)}.`;
    if (!rows.length) return `Timing done, run ${label}: no column could be read.`;
    if (rows.length === 1) return `Timing done, run ${label}: median ${fmtMs(rows[0].median)}.`;
    const m = rows.map((r) => r.median);
    return `Timing done, run ${label}: ${plural(rows.length, "column")}, medians ${fmtMs(Math.min(...m))} to ${fmtMs(Math.max(...m))}.`;
  }

  function skippedNote(res) {
    if (!res.skipped?.length) return null;
    return h("p", { class: "notice", "data-testid": "timing-skipped" }, `Skipped (cannot be read): ${res.skipped.map((x) => `${nameString(ctx.labels[x.c])} — ${x.error.kind}: ${x.error.message}`).join("; ")}.`);
  }

  function showResults(entry) {
    const { opts, res, rows, whole } = entry;
    const mem = opts.mode === "memory";
    const via = ctx.source.url ? "over HTTP with range requests" : "from the File with Blob.slice";
    const modeText = mem
      ? `${opts.poolFromUrl ? "The worker pool reads a Blob or bytes, not a URL, so the file was read whole over HTTP once, not each run. " : ""}The whole file was loaded into memory once (fromBytes); each run only decompressed and decoded.`
      : entry.held
        ? `The server ignores Range requests, so the page holds the whole file in memory, downloaded once when it opened (${entry.held}): each run took the chunks' bytes from that copy, fetching nothing, then decompressed and decoded them. No run read from the server, so there is no Stored MB/s.`
        : `Each run fetched the chunks' bytes again ${via}, then decompressed and decoded them; the read time is part of each run.`;
    const head = ["Column", "Stored", "Decoded", "Median", "Min – max", "95% CI of median", "Decoded MB/s", "Stored MB/s", "Split of the median", "Bytes from"];
    const titles = { Stored: sizeTitle("stored"), Decoded: sizeTitle("decoded"), "Decoded MB/s": "decoded bytes ÷ median time: the rate values reach JavaScript", "Stored MB/s": "stored bytes ÷ median time, only where each run read them from the source; — where they came from memory or the time is within 20 timer ticks", "Split of the median": "the parts of the median run (an even number of runs: the mean of the two middle runs), which add up to the median" };
    const table = rows.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { class: "data", "data-testid": "timing-table" },
            h("thead", {}, h("tr", {}, head.map((t, i) => h("th", { class: i > 0 && i < 8 ? "num" : "", title: titles[t] }, t)))),
            h(
              "tbody",
              {},
              rows.map((r) =>
                h(
                  "tr",
                  { "data-testid": "timing-result-row", "data-col": r.c },
                  h("td", {}, h("span", { class: "colname" }, nameNode(r.name)), " ", h("span", { class: "type-tag" }, r.type)),
                  h("td", { class: "num" }, fmtBytes(r.stored)),
                  h("td", { class: "num" }, fmtBytes(r.decoded)),
                  h("td", { class: "num", "data-field": "median" }, h("b", {}, fmtMs(r.median))),
                  h("td", { class: "num", "data-field": "range" }, `${fmtMs(r.min)} – ${fmtMs(r.max)}`),
                  h("td", { class: "num", "data-field": "ci" }, `${fmtMs(r.ciLo)} – ${fmtMs(r.ciHi)}`),
                  h("td", { class: "num", "data-field": "mb-decoded" }, fmtRate(r.mbDecoded)),
                  h("td", { class: "num", "data-field": "mb-stored" }, fmtRate(r.mbStored)),
                  h("td", { class: "split-cell" }, splitBar(r.split, r.median), h("span", { class: "split-text" }, (() => {
                    // The largest part in words; every part is in the bar's title.
                    const top = PARTS.filter((p) => r.split[p.key] > 0).sort((a, b) => r.split[b.key] - r.split[a.key])[0];
                    return top ? `${top.label} ${Math.round((100 * r.split[top.key]) / (r.median || 1))}%` : "";
                  })())),
                  h("td", { class: "nowrap", "data-field": "source" }, entry.held ? "memory (file held whole)" : r.fromMemory ? "memory" : "file, re-read"),
                ),
              ),
            ),
          ),
        )
      : null;
    const wholeTable = whole
      ? h("div", { class: "table-wrap" }, h(
          "table",
          { class: "data", "data-testid": "timing-whole" },
          h("thead", {}, h("tr", {}, ["Read", "Stored", "Decoded", "Min", "Median", "Max", "95% CI of median", "Decoded MB/s", "Stored MB/s"].map((t, i) => h("th", { class: i ? "num" : "", title: titles[t] }, t)))),
          h(
            "tbody",
            {},
            h(
              "tr",
              { "data-testid": "timing-whole-row" },
              h("td", {}, whole.name, opts.scope === "pool" ? ` on ${plural(res.poolSize, "worker")}` : " on the worker's thread"),
              h("td", { class: "num" }, fmtBytes(whole.stored)),
              h("td", { class: "num" }, fmtBytes(whole.decoded)),
              h("td", { class: "num" }, fmtMs(whole.min)),
              h("td", { class: "num", "data-field": "median" }, h("b", {}, fmtMs(whole.median))),
              h("td", { class: "num" }, fmtMs(whole.max)),
              h("td", { class: "num" }, `${fmtMs(whole.ciLo)} – ${fmtMs(whole.ciHi)}`),
              h("td", { class: "num", "data-field": "mb-decoded" }, fmtRate(whole.mbDecoded)),
              h("td", { class: "num", "data-field": "mb-stored" }, fmtRate(whole.mbStored)),
            ),
          ),
        ))
      : null;
    shown?.stop();
    // Every chosen column skipped (none reads): no run to chart.
    // At most CHART_MOST columns charted, the slowest (3,000 drew a chart
    // 90,000 px tall): the table has them all.
    const slowest = new Set([...rows].sort((a, b) => b.median - a.median).slice(0, CHART_MOST));
    const charted = rows.filter((r) => slowest.has(r));
    shown = whole || rows.length ? chartBox(whole ? [whole] : charted, whole ? 0 : rows.length - charted.length) : null;
    fill(
      results,
      h("h3", { "data-testid": "timing-run-label" }, `Run ${entry.label}`),
      h("p", { class: "mode-line", "data-testid": "timing-mode-text" }, h("b", {}, mem ? "Mode: from memory. " : entry.held ? "Mode: re-read from the file, which is held in memory. " : "Mode: re-read from the file. "), modeText, opts.reuse ? " Output buffers were reused: each run refilled the previous run's typed arrays." : " Each run allocated new output arrays."),
      skippedNote(res),
      // A whole read has one thing to time: its runs go back to back. Per
      // column, every column's runs are shuffled together.
      h("p", { class: "muted small", "data-testid": "timing-runs-text" }, `${whole ? plural(opts.runs, "consecutive run") : `${plural(opts.runs, "run")} per column in randomized order`} after ${plural(opts.warmups, "warm-up")} (excluded), over ${plural(opts.rgs.length, "row group")}. Timer resolution in the worker ≈ ${fmtMs(res.resolution)}${res.resolution > 0.05 ? " (coarse: this page is not cross-origin isolated, so browsers round performance.now())" : ""}; the interval is a percentile bootstrap (2000 resamples) of the median.`),
      wholeTable,
      table,
      rows.length ? h("div", { class: "legend" }, PARTS.map((p) => h("span", { class: "legend-item" }, h("span", { class: ["swatch", p.cls] }), p.label))) : null,
      shown?.el,
      h(
        "div",
        { class: "exports" },
        h("span", { class: "muted" }, "Export this run: "),
        h("button", { type: "button", "data-testid": "export-json", onclick: () => exportJson(entry) }, "JSON"),
        h("button", { type: "button", "data-testid": "export-csv", onclick: () => exportCsv(entry) }, "CSV (summary)"),
        h("button", { type: "button", "data-testid": "export-runs-csv", onclick: () => exportRunsCsv(entry) }, "CSV (every run)"),
      ),
    );
    shown?.draw();
  }

  /**
   * What a run covered: the columns it timed (those skipped left out) and
   * its row groups, both in file order.
   */
  function coverage(e) {
    const up = (xs) => [...xs].sort((a, b) => a - b);
    return { cols: up(e.res.whole ? e.res.whole.cols : e.rows.map((r) => r.c)), rgs: up(e.opts.rgs) };
  }

  /** Row groups as ranges ("0–45", "0, 2, 5–9"), the first `most` ranges, then "…". */
  function rgRanges(rgs, most = Infinity) {
    const parts = [];
    for (let i = 0; i < rgs.length; ) {
      let j = i;
      while (j + 1 < rgs.length && rgs[j + 1] === rgs[j] + 1) j++;
      parts.push(j === i ? `${rgs[i]}` : `${rgs[i]}–${rgs[j]}`);
      i = j + 1;
    }
    return parts.length > most ? `${parts.slice(0, most).join(", ")}, …` : parts.join(", ");
  }
  const rgText = (rgs) => (rgs.length === 1 ? `row group ${rgs[0]}` : `row groups ${rgRanges(rgs, 3)}`);

  /** The header's line under a run's label, and its title (every column's name, every row group), from its coverage. */
  function coverageHead(e, { cols, rgs }) {
    const text = e.opts.scope === "column" ? `${plural(cols.length, "column")}, each over ${plural(rgs.length, "row group")}` : `${plural(cols.length, "column")} × ${plural(rgs.length, "row group")}, in one read`;
    const names = cols.slice(0, 20).map((c) => nameString(ctx.labels[c])).join(", ") + (cols.length > 20 ? `, and ${fmtInt(cols.length - 20)} more` : "");
    return { text, title: `Columns: ${names || "none"}. Row groups: ${rgRanges(rgs)}. ${e.file}, ${e.when}` };
  }

  /**
   * Takes a run out of the runs side by side. Its button goes with it: the
   * focus goes to the next run's (the last run's: the one before), or to
   * Run timing once fewer than two runs are left and the table goes.
   */
  function removeRun(e) {
    const i = history.indexOf(e);
    history = history.filter((x) => x !== e);
    showCompare();
    const buttons = compareHost.querySelectorAll("thead button");
    (buttons[Math.min(i, buttons.length - 1)] ?? el.querySelector("[data-testid=timing-run]"))?.focus();
  }

  /** Medians of every kept run side by side. */
  function showCompare() {
    // Drawn anew (a run ended, another removed), the table keeps the focus
    // on the run's × it was on (it fell to the page's body).
    const focusedRun = compareHost.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
    drawCompare();
    if (focusedRun) compareHost.querySelector(`button[aria-label="${CSS.escape(focusedRun)}"]`)?.focus();
  }

  function drawCompare() {
    if (history.length < 2) {
      fill(compareHost);
      return;
    }
    const names = new Map();
    for (const e of history) {
      for (const r of e.rows) names.set(`c${r.c}`, nameString(r.name));
      if (e.whole) names.set("whole", "whole read (all chosen columns)");
    }
    // A time is comparable with the others in its row only over the same
    // data: a whole read over the same columns and row groups, a column
    // over the same row groups. Where a row's runs differ, each time says
    // what it covered.
    // (worked out once a run: every row's cell of it asks)
    const covered = new Map(
      history.map((e) => {
        const { cols, rgs } = coverage(e);
        const whole = { key: `${cols}|${rgs}`, what: `${plural(cols.length, "column")} × ${rgText(rgs)}` };
        return [e, { head: coverageHead(e, { cols, rgs }), whole, column: { key: `${rgs}`, what: rgText(rgs) } }];
      }),
    );
    const cellOf = (e, key) => {
      const r = key === "whole" ? e.whole : e.rows.find((x) => `c${x.c}` === key);
      if (!r) return null;
      const run = covered.get(e);
      return { median: r.median, ...(key === "whole" ? run.whole : run.column), title: run.head.title };
    };
    let anyDiffer = false;
    const rows = [...names].map(([key, name]) => {
      const cells = history.map((e) => cellOf(e, key));
      const differ = new Set(cells.filter(Boolean).map((x) => x.key)).size > 1;
      anyDiffer ||= differ;
      return h(
        "tr",
        { "data-testid": "timing-compare-row", "data-key": key },
        h("td", {}, name),
        cells.map((x) => (!x ? h("td", { class: "num" }, "—") : differ ? h("td", { class: "num", "data-coverage": "differs", title: `Over other data than another run in this row: not comparable with it. ${x.title}` }, fmtMs(x.median), ` (${x.what})`) : h("td", { class: "num" }, fmtMs(x.median)))),
      );
    });
    fill(
      compareHost,
      h("h3", {}, "Runs side by side (medians)"),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "data compact", "data-testid": "timing-compare" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", {}, "Column"),
              history.map((e) => {
                const { head } = covered.get(e);
                return h("th", { class: "num", title: head.title }, e.label, " ", h("button", { type: "button", class: "small", title: "remove this run", "aria-label": `remove run ${e.id}`, onclick: () => removeRun(e) }, "×"), h("div", { class: "coverage", "data-testid": "timing-compare-coverage" }, head.text));
              }),
            ),
          ),
          h("tbody", {}, rows),
        ),
      ),
      anyDiffer ? h("p", { class: "small", "data-testid": "timing-compare-note" }, "Where the runs in a row covered different columns or row groups, each time is followed by what it covered: those times are not comparable.") : null,
    );
  }

  function baseName(e) {
    return `${ctx.name.replace(/[^\w.-]+/g, "_").replace(/\.cols$/i, "")}-timing-${e.id}-${e.opts.scope}-${e.opts.mode}`;
  }

  // Times in the exports to 0.1 µs, far below any timer here: a difference
  // of two performance.now() readings otherwise prints its float noise
  // (8.199999999254942, 1.862645149230957e-9).
  const tidy = (x) => (typeof x === "number" && !Number.isInteger(x) ? Math.round(x * 1e4) / 1e4 : x);
  const field = (x) => csvField(tidy(x));

  function exportJson(e) {
    const { opts, res, rows, whole } = e;
    const out = {
      tool: "columns inspector",
      file: e.file,
      fileSize: ctx.file.byteLength,
      date: e.when,
      userAgent: navigator.userAgent,
      scope: opts.scope,
      poolSize: res.poolSize ?? null,
      mode: opts.mode,
      // why a run "from the file" took its bytes from the copy held in memory (a server that ignores Range requests), else null
      heldWhole: e.held || null,
      reuseBuffers: opts.reuse,
      runs: opts.runs,
      warmups: opts.warmups,
      rowGroups: opts.rgs,
      timerResolutionMs: res.resolution,
      sizes: "stored: bytes in the file (chunk header included); decoded: values in memory",
      skipped: res.skipped.map((x) => ({ index: x.c, name: ctx.labels[x.c], error: x.error })),
      whole: whole ? { columns: res.whole.cols, storedBytes: whole.stored, decodedBytes: whole.decoded, minMs: whole.min, medianMs: whole.median, maxMs: whole.max, medianCI95Ms: [whole.ciLo, whole.ciHi], decodedMBps: whole.mbDecoded, storedMBps: whole.mbStored, runs: whole.runs } : null,
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
        decodedMBps: r.mbDecoded,
        storedMBps: r.mbStored,
        medianSplitMs: r.split,
        fromMemory: r.fromMemory,
        runs: r.runs.map((x) => ({ order: x.seq, wallMs: x.wallMs, readMs: x.hasRead ? x.readMs : null, decompressMs: x.decompressMs, decodeMs: x.decodeMs, copyMs: x.copyMs, totalMs: x.totalMs, fromMemory: x.fromMemory })),
      })),
    };
    ctx.download(`${baseName(e)}.json`, new Blob([JSON.stringify(out, (k, v) => tidy(v), 2)], { type: "application/json" }));
  }

  function exportCsv(e) {
    const head = ["column", "name", "type", "scope", "mode", "runs", "warmups", "row_groups", "stored_bytes", "decoded_bytes", "min_ms", "median_ms", "max_ms", "ci95_lo_ms", "ci95_hi_ms", "decoded_mb_s", "stored_mb_s", "read_ms", "decompress_ms", "decode_ms", "copy_ms", "other_ms", "from_memory"];
    const lines = [head.join(",")];
    for (const r of e.rows) {
      lines.push([r.c, r.name, r.type, e.opts.scope, e.opts.mode, e.opts.runs, e.opts.warmups, e.opts.rgs.join(" "), r.stored, r.decoded, r.min, r.median, r.max, r.ciLo, r.ciHi, r.mbDecoded, r.mbStored, r.split.readMs, r.split.decompressMs, r.split.decodeMs, r.split.copyMs, r.split.otherMs, r.fromMemory].map(field).join(","));
    }
    if (e.whole) {
      const w = e.whole;
      lines.push(["", "whole read", "", e.opts.scope, e.opts.mode, e.opts.runs, e.opts.warmups, e.opts.rgs.join(" "), w.stored, w.decoded, w.min, w.median, w.max, w.ciLo, w.ciHi, w.mbDecoded, w.mbStored, "", "", "", "", "", e.opts.mode === "memory" || !!e.held].map(field).join(","));
    }
    ctx.download(`${baseName(e)}.csv`, new Blob([`${lines.join("\n")}\n`], { type: "text/csv" }));
  }

  function exportRunsCsv(e) {
    const lines = ["column,name,order,wall_ms,read_ms,decompress_ms,decode_ms,copy_ms,total_ms,from_memory"];
    for (const r of e.rows) for (const x of r.runs) lines.push([r.c, r.name, x.seq, x.wallMs, x.hasRead ? x.readMs : "", x.decompressMs, x.decodeMs, x.copyMs, x.totalMs, x.fromMemory].map(field).join(","));
    if (e.whole) for (const x of e.whole.runs) lines.push(["", "whole read", x.seq, x.wallMs, "", "", "", "", "", e.opts.mode === "memory" || !!e.held].map(field).join(","));
    ctx.download(`${baseName(e)}-runs.csv`, new Blob([`${lines.join("\n")}\n`], { type: "text/csv" }));
  }

  return {
    render() {
      const f = ctx.file;
      const bad = unreadableNow();
      cols = f.schema.map((_, i) => i).filter((c) => !bad.has(c));
      // Bounded in a big file (DEFAULT_RUN_BYTES a run): All takes every row group.
      rgs = boundedRowGroups(f, cols, DEFAULT_RUN_BYTES);
      boundedFrom = rgs.length < f.rowGroups.length ? f.rowGroups.length : 0;
      history = [];
      // Runs are numbered per file (#1 first), in their labels and export names.
      nextId = 1;
      // A run of the last file may still be under way: its progress goes with it.
      progress.hidden = true;
      progressText.textContent = "";
      announce.textContent = "";
      chooseNote.hidden = true;
      if (!f.rowGroups.length) {
        fill(el, h("p", { class: "notice" }, "This file has no row groups: nothing to time."));
        return;
      }
      fill(results);
      fill(compareHost);
      fill(el, form(), announce, results, compareHost, sizeLegend());
    },
    activate() {},
    /** After a tokenizer arrives: columns it makes readable join the choice; runs are kept. */
    tokenizersChanged() {
      const f = ctx.file;
      if (!f?.rowGroups.length) return;
      const bad = unreadableNow();
      // Only the columns it makes readable join (the others were unticked by hand or are chosen already).
      const readable = [...shownBad.keys()].filter((c) => !bad.has(c));
      cols = [...new Set([...cols.filter((c) => !bad.has(c)), ...readable])].sort((a, b) => a - b);
      // The settings made in the form stay (they went back to the defaults).
      const old = el.firstChild;
      const next = form();
      for (const input of old.querySelectorAll("input[data-testid^=timing-scope-], input[data-testid^=timing-mode-], input[data-testid=timing-runs], input[data-testid=timing-warmups], input[data-testid=timing-pool-size], input[data-testid=timing-reuse]")) {
        const twin = next.querySelector(`input[data-testid="${input.dataset.testid}"]`);
        if (!twin) continue;
        if (input.type === "radio" || input.type === "checkbox") twin.checked = input.checked;
        else twin.value = input.value;
      }
      next.dispatchEvent(new Event("change")); // (its estimate, for the values kept)
      // The focus too, on the same control of the new form (a picker's box by its value).
      const at = old.contains(document.activeElement) ? document.activeElement : null;
      el.replaceChild(next, old);
      if (at?.dataset.testid) [...next.querySelectorAll(`[data-testid="${at.dataset.testid}"]`)].find((e) => e.getAttribute("value") === at.getAttribute("value"))?.focus();
    },
  };
}
