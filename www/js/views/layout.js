// A proportional map of the file's bytes: header, every chunk, footer and
// tail, wrapped over lines like a hex editor's view of the whole file.

import { h, s, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtPct } from "../format.js";
import { sortableTable } from "../table.js";

const LINE_H = 20;
const GAP = 5;
const W = 1000;
const MAX_REGIONS = 3000;

export function regionColor(r) {
  if (r.kind === "header") return "var(--c-header)";
  if (r.kind === "footer") return "var(--c-footer)";
  if (r.kind === "tail") return "var(--c-tail)";
  // Golden-angle hues keep neighbouring columns apart; lightness varies
  // with the column too (so hues that meet again differ) and alternates
  // between row groups.
  const hue = (r.column * 137.508 + 205) % 360;
  const light = [48, 60, 40][r.column % 3] + (r.rowGroup % 2 ? 10 : 0);
  return `hsl(${hue.toFixed(1)} 60% ${light}%)`;
}

/** With very many chunks, draw one region per row group instead. */
function drawnRegions(f) {
  if (f.layout.length <= MAX_REGIONS) return { regions: f.layout, merged: false };
  const out = [];
  for (const r of f.layout) {
    if (r.kind !== "chunk") out.push(r);
    else {
      const last = out.at(-1);
      if (last && last.kind === "rowgroup" && last.rowGroup === r.rowGroup) last.end = r.end;
      else out.push({ kind: "rowgroup", rowGroup: r.rowGroup, column: 0, start: r.start, end: r.end });
    }
  }
  return { regions: out, merged: true };
}

export function describeRegion(f, r) {
  const len = r.end - r.start;
  const range = `bytes ${fmtInt(r.start)}–${fmtInt(r.end - 1)} (${fmtBytes(len)}, ${fmtPct(len / f.byteLength)} of the file)`;
  if (r.kind === "header") return [`Header: magic, version${f.version === 2 ? ", tokenizer digests" : ""}`, range];
  if (r.kind === "footer") return ["Footer: gob-encoded schema and row-group metadata", range];
  if (r.kind === "tail") return ["Tail: footer length (uint32) and trailing magic ABCD", range];
  if (r.kind === "rowgroup") return [`Row group ${r.rowGroup}: ${f.schema.length} chunks, ${fmtInt(f.rowGroups[r.rowGroup].numRows)} rows`, range];
  const col = f.schema[r.column];
  const cm = f.rowGroups[r.rowGroup].columns[r.column];
  return [
    `Chunk: row group ${r.rowGroup}, column ${r.column} “${col.name}” (${col.type})`,
    range,
    `${cm.encoding} / ${cm.codec}${cm.blockCount ? `, ${cm.blockCount} block${cm.blockCount > 1 ? "s" : ""}` : ""}${cm.rawLength !== null ? `, ${fmtBytes(cm.rawLength)} raw` : ""}`,
  ];
}

function regionLabel(r, f) {
  if (r.kind === "rowgroup") return `row group ${r.rowGroup}`;
  return r.kind === "chunk" ? `row group ${r.rowGroup} column ${f.schema[r.column].name}` : r.kind;
}

export function renderLayout(ctx, el) {
  const f = ctx.file;
  const size = f.byteLength;
  const lines = size < 2048 ? 2 : size < 64 * 1024 ? 8 : 16;
  const bpl = Math.ceil(size / lines);
  const height = lines * (LINE_H + GAP);
  const tooltip = document.getElementById("tooltip");
  const { regions, merged } = drawnRegions(f);
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

  const svg = s("svg", { class: "layout-map", viewBox: `0 0 ${W} ${height}`, preserveAspectRatio: "none", width: "100%", height, "data-testid": "layout-map", role: "group", "aria-label": "byte layout of the file" });
  for (let i = 0; i < lines; i++) svg.append(s("rect", { x: 0, y: i * (LINE_H + GAP), width: W * Math.min(1, Math.max(0, (size - i * bpl) / bpl)), height: LINE_H, class: "layout-bg" }));
  for (const r of regions) {
    const g = s("g", {
      class: ["region", `region-${r.kind === "rowgroup" ? "chunk" : r.kind}`, r.kind === "chunk" && ctx.sel.g === r.rowGroup && ctx.sel.c === r.column ? "selected" : null],
      "data-testid": "layout-region",
      "data-kind": r.kind,
      "data-rg": r.rowGroup,
      "data-col": r.column,
      tabindex: r.kind === "chunk" || r.kind === "rowgroup" ? 0 : -1,
      role: r.kind === "chunk" || r.kind === "rowgroup" ? "button" : "img",
      "aria-label": `${regionLabel(r, f)}, ${fmtInt(r.end - r.start)} bytes at ${fmtInt(r.start)}`,
    });
    let start = r.start;
    const end = Math.max(r.end, r.start + 1);
    while (start < end) {
      const line = Math.floor(start / bpl);
      const lineEnd = Math.min(end, (line + 1) * bpl);
      const x = ((start - line * bpl) / bpl) * W;
      const w = Math.max(0.8, ((lineEnd - start) / bpl) * W);
      g.append(s("rect", { x, y: line * (LINE_H + GAP), width: w, height: LINE_H, fill: regionColor(r) }));
      start = lineEnd;
    }
    g.addEventListener("mousemove", (ev) => showInfo(r, ev));
    g.addEventListener("mouseleave", hide);
    g.addEventListener("focus", () => showInfo(r));
    if (r.kind === "chunk" || r.kind === "rowgroup") {
      const go = () => (r.kind === "chunk" ? ctx.select(r.rowGroup, r.column, "detail") : ctx.select(r.rowGroup, 0, "chunks"));
      g.addEventListener("click", go);
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          go();
        }
      });
    }
    svg.append(g);
  }
  const axis = h("div", { class: "layout-axis", "aria-hidden": "true" }, Array.from({ length: lines }, (_, i) => h("div", { style: { height: `${LINE_H}px`, marginBottom: `${GAP}px` } }, fmtInt(i * bpl))));

  // Legend: one swatch per column, with its share of the file.
  const perCol = f.schema.map((col, c) => ({ c, name: col.name, bytes: f.rowGroups.reduce((a, rg) => a + rg.columns[c].byteLength, 0) }));
  const legend = h(
    "div",
    { class: "legend" },
    [
      { kind: "header", label: "header", bytes: f.headerLength },
      { kind: "footer", label: "footer", bytes: f.footerLength },
      { kind: "tail", label: "tail", bytes: 8 },
    ].map((x) => h("span", { class: "legend-item" }, h("span", { class: "swatch", style: { background: regionColor(x) } }), `${x.label} ${fmtBytes(x.bytes)}`)),
    perCol.map((x) => h("span", { class: "legend-item" }, h("span", { class: "swatch", style: { background: regionColor({ kind: "chunk", column: x.c, rowGroup: 0 }) } }), h("span", { class: "colname" }, x.name), ` ${fmtPct(x.bytes / size)}`)),
  );

  const table = sortableTable({
    testid: "layout-table",
    rowTestid: "layout-row",
    caption: "File regions",
    rowProps: (r) => ({ "data-kind": r.kind }),
    onRowClick: (r) => r.kind === "chunk" && ctx.select(r.rowGroup, r.column, "detail"),
    columns: [
      { key: "start", label: "Start", numeric: true, value: (r) => r.start, cell: (r) => fmtInt(r.start) },
      { key: "end", label: "End", numeric: true, value: (r) => r.end, cell: (r) => fmtInt(r.end) },
      { key: "len", label: "Length", numeric: true, value: (r) => r.end - r.start, cell: (r) => fmtBytes(r.end - r.start) },
      { key: "share", label: "Share", numeric: true, value: (r) => (r.end - r.start) / size, cell: (r) => fmtPct((r.end - r.start) / size) },
      { key: "kind", label: "Region", value: (r) => r.kind, cell: (r) => h("span", {}, h("span", { class: "swatch", style: { background: regionColor(r) } }), " ", r.kind) },
      { key: "rg", label: "RG", numeric: true, value: (r) => r.rowGroup ?? null },
      { key: "col", label: "Column", value: (r) => (r.kind === "chunk" ? f.schema[r.column].name : null) },
    ],
    rows: f.layout,
    wrapClass: "short",
  });

  fill(
    el,
    h("p", { class: "lead" }, `${fmtInt(size)} bytes in ${lines} lines of ${fmtInt(bpl)} bytes; each region's area is proportional to its size (tiny regions are drawn at least a hair wide).`),
    merged ? h("p", { class: "notice" }, `This file has ${fmtInt(f.layout.length - 3)} chunks: the map shows one region per row group (the table below lists chunks).`) : null,
    h("div", { class: "layout-wrap", onmouseleave: hide }, axis, h("div", { class: "layout-svg" }, svg)),
    info,
    legend,
    h("h3", {}, "Regions"),
    table.el,
  );
}
