// A proportional map of the file's bytes: header, every chunk, footer and
// tail, wrapped over lines like a hex editor's view of the whole file, with
// a mark where each row group starts. One colour per column, the same in
// every row group and in the legend. The map is one tab stop: the arrow
// keys move between regions (left/right: the next region in the file;
// up/down: the same column in the row group before or after), Enter
// selects a chunk and keeps the focus here; a click opens its detail.

import { h, s, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtPct, plural, fmtRange, RANGE_TITLE, nameNode, nameString } from "../format.js";
import { sortableTable } from "../table.js";
import { ratio, fmtRatioValue, sizeLegend } from "../sizes.js";

const LINE_H = 20;
const GAP = 5;
const W = 1000;
const MAX_REGIONS = 3000;
/** Above this many row groups the map draws marks of many row groups each
 *  (at most about MAX_MARKS), and says which row group is under the
 *  pointer when asked: a group and a titled tick per row group took
 *  33,120 row groups 1.4 s to draw. */
const MAX_MARKED_ROWGROUPS = 1000;
const MAX_MARKS = 400;

// Twelve hues far apart (a categorical palette), then the same twelve
// darker and lighter: 36 distinct colours before any repeats.
const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#17becf", "#8c564b"];

function shade(hex, f) {
  const n = parseInt(hex.slice(1), 16);
  const ch = [n >> 16, (n >> 8) & 255, n & 255].map((x) => Math.round(f < 0 ? x * (1 + f) : x + (255 - x) * f));
  return `rgb(${ch.join(" ")})`;
}

export function regionColor(r) {
  if (r.kind === "header") return "var(--c-header)";
  if (r.kind === "footer") return "var(--c-footer)";
  if (r.kind === "tail") return "var(--c-tail)";
  if (r.kind === "gap") return "var(--c-gap)";
  const c = r.column ?? 0;
  const base = PALETTE[c % PALETTE.length];
  const round = Math.floor(c / PALETTE.length) % 3;
  return round === 0 ? base : shade(base, round === 1 ? -0.35 : 0.45);
}

/**
 * The file's regions in file order with the bytes between them, which no
 * header, chunk or footer names, as regions of kind "gap" (a sparse file's
 * empty space, padding, bytes left by a writer). Made once a file.
 */
const gapsOf = new WeakMap();
export function regionsWithGaps(f) {
  if (gapsOf.has(f)) return gapsOf.get(f);
  const sorted = [...f.layout].sort((a, b) => a.start - b.start || a.end - b.end);
  const out = [];
  let at = 0;
  for (const r of sorted) {
    if (r.start > at) out.push({ kind: "gap", start: at, end: r.start });
    out.push(r);
    at = Math.max(at, r.end);
  }
  if (f.byteLength > at) out.push({ kind: "gap", start: at, end: f.byteLength });
  const gaps = out.filter((r) => r.kind === "gap");
  const res = { regions: out, gaps, gapBytes: gaps.reduce((a, r) => a + r.end - r.start, 0) };
  gapsOf.set(f, res);
  return res;
}

/**
 * The regions the map draws: every region; with very many chunks one per
 * row group; with very many row groups (MAX_MARKED_ROWGROUPS) marks of
 * row groups side by side ("rowgroups", rowGroup .. lastRowGroup), about
 * MAX_MARKS of them. Where regions are merged, a gap too small to see
 * (under a 2,000th of the file) joins the region beside it.
 */
function drawnRegions(f) {
  const { regions: all } = regionsWithGaps(f);
  if (all.length <= MAX_REGIONS) return { regions: all, merged: false };
  const many = f.rowGroups.length > MAX_MARKED_ROWGROUPS;
  const per = many ? Math.ceil(f.rowGroups.length / MAX_MARKS) : 1;
  const small = f.byteLength / 2000;
  const out = [];
  let groups = null; // the row groups in the last region, while it takes more
  for (const r of all) {
    const last = out.at(-1);
    const joins = last && (last.kind === "rowgroup" || last.kind === "rowgroups");
    if (r.kind === "gap" && r.end - r.start < small && joins) {
      last.end = r.end;
      continue;
    }
    if (r.kind !== "chunk") {
      out.push(r);
      groups = null;
      continue;
    }
    if (joins && groups && (groups.has(r.rowGroup) || groups.size < per)) {
      groups.add(r.rowGroup);
      last.end = Math.max(last.end, r.end);
      last.rowGroup = Math.min(last.rowGroup, r.rowGroup);
      last.lastRowGroup = Math.max(last.lastRowGroup, r.rowGroup);
    } else {
      groups = new Set([r.rowGroup]);
      out.push({ kind: many ? "rowgroups" : "rowgroup", rowGroup: r.rowGroup, lastRowGroup: r.rowGroup, column: 0, start: r.start, end: r.end });
    }
  }
  return { regions: out, merged: many ? "marks" : "rowgroups" };
}

/** Row group ranges in file order ({ g, start, end }), to find the one at a byte. */
function rowGroupSpans(f) {
  return f.rowGroups
    .map((rg, g) => ({ g, start: Math.min(...rg.columns.map((cm) => cm.byteOffset)), end: Math.max(...rg.columns.map((cm) => cm.byteOffset + cm.byteLength)) }))
    .filter((x) => Number.isFinite(x.start))
    .sort((a, b) => a.start - b.start);
}

/** The row group of `spans` (rowGroupSpans) at byte `at`: the last to start at or before it. */
function rowGroupAt(spans, at) {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].start <= at) lo = mid + 1;
    else hi = mid;
  }
  return spans[Math.max(0, lo - 1)];
}

export function describeRegion(f, r) {
  const len = r.end - r.start;
  const range = `bytes ${fmtRange(r.start, r.end)} (${fmtBytes(len)}, ${fmtPct(len / f.byteLength)} of the file)`;
  if (r.kind === "header") return [`Header: magic, version${f.version === 2 ? ", tokenizer digests" : ""}`, range];
  if (r.kind === "footer") return ["Footer: gob-encoded schema and row-group metadata", range];
  if (r.kind === "tail") return ["Tail: footer length (uint32) and trailing magic ABCD", range];
  if (r.kind === "gap") return ["Gap: bytes between regions, named by no header, chunk or footer (empty space, padding)", range];
  if (r.kind === "rowgroup") return [`Row group ${r.rowGroup}: ${plural(f.schema.length, "chunk")}, ${plural(f.rowGroups[r.rowGroup].numRows, "row")}`, range];
  if (r.kind === "rowgroups") {
    let rows = 0;
    for (let g = r.rowGroup; g <= r.lastRowGroup; g++) rows += f.rowGroups[g].numRows;
    return [`Row groups ${fmtInt(r.rowGroup)} – ${fmtInt(r.lastRowGroup)}: ${plural(r.lastRowGroup - r.rowGroup + 1, "row group")}, ${plural(rows, "row")}`, range];
  }
  const col = f.schema[r.column];
  const cm = f.rowGroups[r.rowGroup].columns[r.column];
  return [
    `Chunk: row group ${r.rowGroup}, column ${r.column} “${nameString(col.name)}” (${col.type})`,
    range,
    `${cm.encoding} / ${cm.codec}${cm.blockCount ? `, ${plural(cm.blockCount, "block")}` : ""}: ${fmtBytes(len)} stored${cm.rawLength !== null ? `, ${fmtBytes(cm.rawLength)} encoded (compression ratio ${fmtRatioValue(ratio(cm.rawLength, len))})` : ""}`,
  ];
}

function regionLabel(r, f, labels) {
  if (r.kind === "rowgroup") return `row group ${r.rowGroup}`;
  if (r.kind === "rowgroups") return `row groups ${r.rowGroup} to ${r.lastRowGroup}`;
  return r.kind === "chunk" ? `row group ${r.rowGroup} column ${nameString(labels[r.column])}` : r.kind;
}

/** What the map says of the bytes no region names. */
function gapsNote(size, gaps, bytes) {
  const largest = gaps.reduce((a, r) => (r.end - r.start > a.end - a.start ? r : a));
  return h(
    "p",
    { class: "notice", "data-testid": "layout-gaps" },
    `${plural(bytes, "byte")} (${fmtBytes(bytes)}, ${fmtPct(bytes / size)} of the file) lie in no region: ${gaps.length === 1 ? "a gap" : `${fmtInt(gaps.length)} gaps`} between regions, named by no header, chunk or footer${gaps.length === 1 ? "" : `, the largest ${fmtBytes(largest.end - largest.start)}`} at bytes ${fmtRange(largest.start, largest.end)}. A sparse file's empty space is such a gap; the map draws gaps in their own colour.`,
  );
}

export function renderLayout(ctx, el) {
  const f = ctx.file;
  const size = f.byteLength;
  const lines = size < 2048 ? 2 : size < 64 * 1024 ? 8 : 16;
  const bpl = Math.ceil(size / lines);
  const height = lines * (LINE_H + GAP);
  const tooltip = document.getElementById("tooltip");
  const { regions, merged } = drawnRegions(f);
  const { regions: allRegions, gaps, gapBytes } = regionsWithGaps(f);
  let spans = null; // rowGroupSpans(f), made when first asked
  /** The row group of mark `r` under the pointer (its byte from where the pointer is on the map). */
  const groupUnder = (r, ev) => {
    const box = svg.getBoundingClientRect();
    const unit = box.height / height;
    const line = Math.max(0, Math.min(lines - 1, Math.floor((ev.clientY - box.top) / unit / (LINE_H + GAP))));
    const at = Math.min(r.end - 1, Math.max(r.start, Math.floor(line * bpl + ((ev.clientX - box.left) / box.width) * bpl)));
    spans ??= rowGroupSpans(f);
    const x = rowGroupAt(spans, at);
    return { kind: "rowgroup", rowGroup: x.g, column: 0, start: x.start, end: x.end };
  };
  const info = h("div", { class: "layout-info", "data-testid": "layout-info", "aria-live": "polite" }, "Hover or focus a region to see what it is; click a chunk to inspect it.");

  const showInfo = (r, ev) => {
    const lines2 = describeRegion(f, r);
    fill(info, h("b", {}, lines2[0]), lines2.slice(1).map((l) => [h("br"), l]));
    if (ev && ev.clientX !== undefined) {
      fill(tooltip, lines2.map((l, i) => h("div", { class: i ? "" : "tt-title" }, l)));
      tooltip.hidden = false;
      const x = Math.min(ev.clientX + 14, window.innerWidth - tooltip.offsetWidth - 8);
      const y = ev.clientY + 16 + tooltip.offsetHeight > window.innerHeight ? ev.clientY - tooltip.offsetHeight - 10 : ev.clientY + 16;
      tooltip.style.left = `${x}px`;
      tooltip.style.top = `${y}px`;
    }
  };
  const hide = () => (tooltip.hidden = true);

  const svg = s("svg", { class: "layout-map", viewBox: `0 0 ${W} ${height}`, preserveAspectRatio: "none", width: "100%", height, "data-testid": "layout-map", role: "listbox", tabindex: 0, "aria-label": "byte layout of the file: arrow keys move between regions, Enter selects a chunk" });
  for (let i = 0; i < lines; i++) svg.append(s("rect", { x: 0, y: i * (LINE_H + GAP), width: W * Math.min(1, Math.max(0, (size - i * bpl) / bpl)), height: LINE_H, class: "layout-bg" }));
  const els = [];
  // Where the last region drawn ends ({ line, x }): a region starts no
  // further left, so that a hair drawn wider than its bytes (the 5-byte
  // header before a chunk of megabytes) is not painted over, and hovered,
  // by the region after it. Where each region's drawing starts, by its
  // first byte (for the ticks).
  let drawnTo = { line: -1, x: 0 };
  const drawnAt = new Map();
  regions.forEach((r, k) => {
    const g = s("g", {
      id: `region-${k}`,
      class: ["region", `region-${r.kind === "rowgroup" || r.kind === "rowgroups" ? "chunk" : r.kind}`, r.kind === "chunk" && ctx.sel.g === r.rowGroup && ctx.sel.c === r.column ? "selected" : null],
      "data-testid": "layout-region",
      "data-kind": r.kind,
      "data-rg": r.rowGroup,
      "data-col": r.column,
      role: "option",
      "aria-selected": String(r.kind === "chunk" && ctx.sel.g === r.rowGroup && ctx.sel.c === r.column),
      "aria-label": `${regionLabel(r, f, ctx.labels)}, ${plural(r.end - r.start, "byte")} at ${fmtInt(r.start)}`,
    });
    let start = r.start;
    const end = Math.max(r.end, r.start + 1);
    while (start < end) {
      const line = Math.floor(start / bpl);
      const lineEnd = Math.min(end, (line + 1) * bpl);
      const x0 = Math.max(((start - line * bpl) / bpl) * W, drawnTo.line === line ? drawnTo.x : 0);
      const w = Math.max(0.8, ((lineEnd - line * bpl) / bpl) * W - x0);
      // A hair at a line's end is drawn inside it: past W the map clips it
      // (the tail showed a sliver, its middle off the map).
      const x = Math.min(x0, W - w);
      if (!drawnAt.has(r.start)) drawnAt.set(r.start, { line, x });
      drawnTo = { line, x: x + w };
      g.append(s("rect", { x, y: line * (LINE_H + GAP), width: w, height: LINE_H, fill: regionColor(r) }));
      start = lineEnd;
    }
    // A mark of many row groups names the one under the pointer, found when asked.
    const under = (ev) => (r.kind === "rowgroups" ? groupUnder(r, ev) : r);
    g.addEventListener("mousemove", (ev) => showInfo(under(ev), ev));
    g.addEventListener("mouseleave", hide);
    if (r.kind === "chunk" || r.kind === "rowgroup" || r.kind === "rowgroups") g.addEventListener("click", (ev) => (r.kind === "chunk" ? ctx.select(r.rowGroup, r.column, "detail") : ctx.select(under(ev).rowGroup, 0, "chunks")));
    svg.append(g);
    els.push(g);
  });
  // Where each row group starts: a tick across the line, and its number.
  // (Each row group's first chunk found in one pass: a search per row group
  // was 0.55 s for 5,000 row groups.)
  const firsts = new Map();
  for (const r of f.layout) if (r.kind === "chunk" && !firsts.has(r.rowGroup)) firsts.set(r.rowGroup, r);
  // (Marks of many row groups: a tick where each mark starts.)
  if (merged === "marks")
    for (const r of regions) {
      if (r.kind !== "rowgroups") continue;
      const { line, x } = drawnAt.get(r.start);
      const y = line * (LINE_H + GAP);
      svg.append(s("line", { x1: x, x2: x, y1: y - 2, y2: y + LINE_H + 2, class: "rg-boundary", "data-testid": "rg-boundary", "data-rg": r.rowGroup }));
    }
  else f.rowGroups.forEach((rg, gIdx) => {
    const first = firsts.get(gIdx);
    if (!first) return;
    const { line, x } = drawnAt.get(first.start);
    const y = line * (LINE_H + GAP);
    svg.append(s("line", { x1: x, x2: x, y1: y - 2, y2: y + LINE_H + 2, class: "rg-boundary", "data-testid": "rg-boundary", "data-rg": gIdx }, s("title", {}, `row group ${gIdx} starts at byte ${fmtInt(first.start)}`)));
  });

  // The selection is ctx.sel: ctx.select (app.js) marks its chunk (class
  // `selected`, aria-selected) wherever it is chosen (this map, a table,
  // Column detail), while this view is hidden too.
  const selectedIndex = () => regions.findIndex((r) => r.kind === "chunk" && r.rowGroup === ctx.sel.g && r.column === ctx.sel.c);

  // Keyboard: one tab stop; the active region is the listbox's active descendant.
  let active = Math.max(0, selectedIndex());
  const activate = (k) => {
    els[active]?.classList.remove("active");
    active = Math.max(0, Math.min(regions.length - 1, k));
    els[active].classList.add("active");
    svg.setAttribute("aria-activedescendant", els[active].id);
    showInfo(regions[active]);
  };
  // The keys start at the selected chunk (chosen since, maybe elsewhere), or where they were left when none is drawn.
  svg.addEventListener("focus", () => {
    const k = selectedIndex();
    activate(k >= 0 ? k : active);
  });
  svg.addEventListener("blur", () => els[active]?.classList.remove("active"));
  svg.addEventListener("keydown", (ev) => {
    const r = regions[active];
    let k = null;
    if (ev.key === "ArrowRight") k = active + 1;
    else if (ev.key === "ArrowLeft") k = active - 1;
    else if (ev.key === "Home") k = 0;
    else if (ev.key === "End") k = regions.length - 1;
    else if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && r.kind === "rowgroups") k = active + (ev.key === "ArrowDown" ? 1 : -1);
    else if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && (r.kind === "chunk" || r.kind === "rowgroup")) {
      const gNext = r.rowGroup + (ev.key === "ArrowDown" ? 1 : -1);
      const found = regions.findIndex((x) => x.rowGroup === gNext && (x.kind === "rowgroup" || x.column === r.column));
      k = found >= 0 ? found : active;
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      if (r.kind === "chunk") {
        // Select the chunk (detail, chunk table, URL) without leaving the map.
        ctx.select(r.rowGroup, r.column); // (its `selected` class and aria-selected)
        fill(info, h("b", {}, describeRegion(f, r)[0]), h("br"), "Selected. ", h("button", { type: "button", class: "small", "data-testid": "layout-open-detail", onclick: () => ctx.select(r.rowGroup, r.column, "detail") }, "Open in Column detail"));
      } else if (r.kind === "rowgroup" || r.kind === "rowgroups") ctx.select(r.rowGroup, 0);
      return;
    } else return;
    ev.preventDefault();
    activate(k);
  });
  const axis = h("div", { class: "layout-axis", "aria-hidden": "true" }, Array.from({ length: lines }, (_, i) => h("div", { style: { height: `${LINE_H}px`, marginBottom: `${GAP}px` } }, fmtInt(i * bpl))));

  // Legend: one swatch per column, with its share of the file.
  const perCol = f.schema.map((col, c) => ({ c, name: ctx.labels[c], bytes: f.rowGroups.reduce((a, rg) => a + rg.columns[c].byteLength, 0) }));
  const legend = h(
    "div",
    { class: "legend" },
    [
      { kind: "header", label: "header", bytes: f.headerLength },
      { kind: "footer", label: "footer", bytes: f.footerLength },
      { kind: "tail", label: "tail", bytes: 8 },
      ...(gaps.length ? [{ kind: "gap", label: plural(gaps.length, "gap"), bytes: gapBytes, testid: "legend-gaps" }] : []),
    ].map((x) => h("span", { class: "legend-item", "data-testid": x.testid }, h("span", { class: "swatch", style: { background: regionColor(x) } }), `${x.label} ${fmtBytes(x.bytes)}${x.kind === "gap" ? ` (${fmtPct(x.bytes / size)})` : ""}`)),
    perCol.map((x) => h("span", { class: "legend-item" }, h("span", { class: "swatch", style: { background: regionColor({ kind: "chunk", column: x.c, rowGroup: 0 }) } }), h("span", { class: "colname" }, nameNode(x.name)), ` ${fmtPct(x.bytes / size)}`)),
  );

  const table = sortableTable({
    testid: "layout-table",
    rowTestid: "layout-row",
    caption: "File regions",
    rowProps: (r) => ({ "data-kind": r.kind }),
    onRowClick: (r) => r.kind === "chunk" && ctx.select(r.rowGroup, r.column, "detail"),
    columns: [
      { key: "start", label: "Start", title: RANGE_TITLE, numeric: true, value: (r) => r.start, cell: (r) => fmtInt(r.start) },
      { key: "end", label: "End", title: RANGE_TITLE, numeric: true, value: (r) => r.end, cell: (r) => fmtInt(r.end) },
      { key: "len", label: "Stored", title: "bytes in the file", numeric: true, value: (r) => r.end - r.start, cell: (r) => fmtBytes(r.end - r.start) },
      { key: "share", label: "Share", numeric: true, value: (r) => (r.end - r.start) / size, cell: (r) => fmtPct((r.end - r.start) / size) },
      { key: "kind", label: "Region", value: (r) => r.kind, cell: (r) => h("span", {}, h("span", { class: "swatch", style: { background: regionColor(r) } }), " ", r.kind) },
      { key: "rg", label: "RG", numeric: true, value: (r) => r.rowGroup ?? null },
      { key: "col", label: "Column", value: (r) => (r.kind === "chunk" ? ctx.labels[r.column] : null), cell: (r) => (r.kind === "chunk" ? h("span", { class: "colname" }, nameNode(ctx.labels[r.column])) : null) },
    ],
    rows: allRegions,
    // A screenful, as the chunk table shows, its rows in tasks after the
    // one that opens the view: built with the map, opening this view on
    // flights-3m (233 regions) took one 45-50 ms task under load.
    maxRows: 30,
    later: true,
    wrapClass: "short",
  });

  fill(
    el,
    h("p", { class: "lead" }, `${plural(size, "byte")} in ${plural(lines, "line")} of ${plural(bpl, "byte")}; each region's area is proportional to its size (tiny regions are drawn at least a hair wide).`),
    gaps.length ? gapsNote(size, gaps, gapBytes) : null,
    merged === "rowgroups" ? h("p", { class: "notice" }, `This file has ${plural(f.layout.length - 3, "chunk")}: the map shows one region per row group (the table below lists chunks).`) : null,
    merged === "marks" ? h("p", { class: "notice", "data-testid": "layout-marks" }, `This file has ${plural(f.rowGroups.length, "row group")}: the map shows marks of up to ${plural(Math.ceil(f.rowGroups.length / MAX_MARKS), "row group")} each; point at one to see which row group is there (the table below lists chunks).`) : null,
    h("div", { class: "layout-wrap", onmouseleave: hide }, axis, h("div", { class: "layout-svg" }, svg)),
    info,
    legend,
    h("p", { class: "muted small" }, "Ticks mark where each row group starts; byte ranges are start – end, the end exclusive (the first byte after). Tab to the map, then use the arrow keys; Enter selects a chunk."),
    h("h3", {}, "Regions"),
    table.el,
    sizeLegend(),
  );
}
