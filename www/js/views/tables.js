// The schema (with totals per column) and the grid of chunks.

import { h, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtRatio, statNode, statText } from "../format.js";
import { sortableTable } from "../table.js";
import { selectField } from "../common.js";

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const sumOrNull = (xs) => (xs.some((x) => x === null) ? null : sum(xs));
const bytesCell = (n) => (n === null ? h("span", { class: "muted", title: "not known yet" }, "…") : h("span", { title: `${fmtInt(n)} bytes` }, fmtBytes(n)));
const ratioValue = (stored, raw) => (raw === null || !stored ? null : raw / stored);

function tokenizerCell(f, cm) {
  if (!cm.tokenizer) return "—";
  const t = f.tokenizers[cm.tokenizer - 1];
  return h("span", { class: t?.resolved ? "" : "warn-text", title: cm.tokenizerDigest || "" }, `#${cm.tokenizer} `, h("code", { class: "digest" }, (cm.tokenizerDigest || "").slice(0, 10)), t?.resolved ? "" : " (missing)");
}

export function columnTotals(f) {
  return f.schema.map((col, c) => {
    const chunks = f.rowGroups.map((rg) => rg.columns[c]);
    const encodings = [...new Set(chunks.map((m) => m.encoding))];
    const codecs = [...new Set(chunks.map((m) => m.codec))];
    const stored = sum(chunks.map((m) => m.byteLength));
    const raw = sumOrNull(chunks.map((m) => m.rawLength));
    return {
      c,
      name: col.name,
      type: col.type,
      nullable: col.nullable,
      encodings: encodings.join(", "),
      codecs: codecs.join(", "),
      stored,
      raw,
      ratio: ratioValue(stored, raw),
      blocks: sumOrNull(chunks.map((m) => m.blockCount)),
      nulls: sum(chunks.map((m) => m.nullCount)),
      tokenizer: chunks.find((m) => m.tokenizer)?.tokenizer || 0,
      share: f.byteLength ? stored / f.byteLength : 0,
    };
  });
}

export function renderSchema(ctx, el) {
  const f = ctx.file;
  const rows = columnTotals(f);
  const t = sortableTable({
    testid: "schema-table",
    rowTestid: "schema-row",
    caption: "Schema and per-column totals",
    rowProps: (r) => ({ "data-col": r.c }),
    onRowClick: (r) => ctx.select(null, r.c, "detail"),
    columns: [
      { key: "c", label: "#", numeric: true, value: (r) => r.c },
      { key: "name", label: "Name", value: (r) => r.name, cell: (r) => h("span", { class: "colname" }, r.name) },
      { key: "type", label: "Type", value: (r) => r.type, cell: (r) => h("span", { class: "type-tag" }, r.type) },
      { key: "nullable", label: "Nullable", value: (r) => (r.nullable ? "yes" : "no") },
      { key: "encodings", label: "Encodings", value: (r) => r.encodings },
      { key: "codecs", label: "Codecs", value: (r) => r.codecs },
      { key: "stored", label: "Stored", numeric: true, value: (r) => r.stored, cell: (r) => bytesCell(r.stored) },
      { key: "raw", label: "Raw", title: "decompressed (encoded) bytes", numeric: true, value: (r) => r.raw, cell: (r) => bytesCell(r.raw) },
      { key: "ratio", label: "Ratio", title: "raw ÷ stored", numeric: true, value: (r) => r.ratio, cell: (r) => fmtRatio(r.stored, r.raw) },
      { key: "share", label: "Share of file", numeric: true, value: (r) => r.share, cell: (r) => shareBar(r.share) },
      { key: "blocks", label: "Blocks", numeric: true, value: (r) => r.blocks, cell: (r) => (r.blocks === null ? "…" : fmtInt(r.blocks)) },
      { key: "nulls", label: "Nulls", numeric: true, value: (r) => r.nulls, cell: (r) => fmtInt(r.nulls) },
      { key: "tokenizer", label: "Tokenizer", value: (r) => r.tokenizer, cell: (r) => (r.tokenizer ? `#${r.tokenizer}` : "—") },
    ],
    rows,
    footer: (rs) => {
      const stored = sum(rs.map((r) => r.stored));
      const raw = sumOrNull(rs.map((r) => r.raw));
      return { name: h("b", {}, "All columns"), stored: bytesCell(stored), raw: bytesCell(raw), ratio: fmtRatio(stored, raw), share: shareBar(f.byteLength ? stored / f.byteLength : 0), blocks: fmtInt(sumOrNull(rs.map((r) => r.blocks))), nulls: fmtInt(sum(rs.map((r) => r.nulls))) };
    },
  });
  fill(
    el,
    h("p", { class: "lead" }, `${f.schema.length} columns × ${f.rowGroups.length} row groups, ${fmtInt(f.numRows)} rows. Totals are over all row groups; click a column for its chunk detail.`),
    f.rowGroups.length === 0 ? h("p", { class: "notice" }, "This file has no row groups: a schema and no data.") : null,
    t.el,
  );
}

function shareBar(x) {
  return h("span", { class: "share" }, h("span", { class: "share-bar", style: { width: `${Math.min(100, x * 100).toFixed(1)}%` } }), h("span", { class: "share-text" }, `${(x * 100).toFixed(1)}%`));
}

export function renderChunks(ctx, el) {
  const f = ctx.file;
  const all = [];
  f.rowGroups.forEach((rg, g) =>
    rg.columns.forEach((cm, c) => {
      const type = f.schema[c].type;
      all.push({ g, c, cm, type, name: f.schema[c].name, rows: rg.numRows, ratio: ratioValue(cm.byteLength, cm.rawLength) });
    }),
  );
  let rgFilter = "all";
  let nameFilter = "";
  const t = sortableTable({
    testid: "chunk-table",
    rowTestid: "chunk-row",
    caption: "Column chunks",
    rowProps: (r) => ({ "data-rg": r.g, "data-col": r.c, class: ctx.sel.g === r.g && ctx.sel.c === r.c ? "selected" : null }),
    onRowClick: (r) => ctx.select(r.g, r.c, "detail"),
    columns: [
      { key: "g", label: "RG", title: "row group", numeric: true, value: (r) => r.g },
      { key: "c", label: "#", numeric: true, value: (r) => r.c },
      { key: "name", label: "Column", value: (r) => r.name, cell: (r) => h("span", { class: "colname" }, r.name) },
      { key: "type", label: "Type", value: (r) => r.type, cell: (r) => h("span", { class: "type-tag" }, r.type) },
      { key: "encoding", label: "Encoding", value: (r) => r.cm.encoding },
      { key: "codec", label: "Codec", value: (r) => r.cm.codec },
      { key: "stored", label: "Stored", numeric: true, value: (r) => r.cm.byteLength, cell: (r) => bytesCell(r.cm.byteLength) },
      { key: "raw", label: "Raw", title: "decompressed (encoded) bytes, from the chunk header", numeric: true, value: (r) => r.cm.rawLength, cell: (r) => bytesCell(r.cm.rawLength) },
      { key: "ratio", label: "Ratio", numeric: true, value: (r) => r.ratio, cell: (r) => fmtRatio(r.cm.byteLength, r.cm.rawLength) },
      { key: "blocks", label: "Blocks", numeric: true, value: (r) => r.cm.blockCount, cell: (r) => (r.cm.blockCount === null ? "…" : fmtInt(r.cm.blockCount)) },
      { key: "rows", label: "Rows", numeric: true, value: (r) => r.rows, cell: (r) => fmtInt(r.rows) },
      { key: "nulls", label: "Nulls", numeric: true, value: (r) => r.cm.nullCount, cell: (r) => fmtInt(r.cm.nullCount) },
      { key: "min", label: "Min", class: "stat", value: (r) => statText(r.type, r.cm.minRaw), cell: (r) => statNode(r.type, r.cm.minRaw, { allNull: r.cm.nullCount === r.rows }) },
      { key: "max", label: "Max", class: "stat", value: (r) => statText(r.type, r.cm.maxRaw), cell: (r) => statNode(r.type, r.cm.maxRaw, { allNull: r.cm.nullCount === r.rows }) },
      { key: "minLen", label: "Min len", numeric: true, value: (r) => r.cm.minLen },
      { key: "maxLen", label: "Max len", numeric: true, value: (r) => r.cm.maxLen },
      { key: "tokenizer", label: "Tokenizer", value: (r) => r.cm.tokenizer, cell: (r) => tokenizerCell(f, r.cm) },
    ],
    rows: all,
    footer: (rs) => {
      const stored = sum(rs.map((r) => r.cm.byteLength));
      const raw = sumOrNull(rs.map((r) => r.cm.rawLength));
      return {
        name: h("b", {}, `Total (${rs.length} chunks)`),
        stored: bytesCell(stored),
        raw: bytesCell(raw),
        ratio: fmtRatio(stored, raw),
        blocks: fmtInt(sumOrNull(rs.map((r) => r.cm.blockCount))),
        nulls: fmtInt(sum(rs.map((r) => r.cm.nullCount))),
      };
    },
  });
  const apply = () => t.setRows(all.filter((r) => (rgFilter === "all" || r.g === Number(rgFilter)) && (nameFilter === "" || r.name.toLowerCase().includes(nameFilter))));
  const filter = h("input", { type: "search", placeholder: "filter by column name", "aria-label": "filter chunks by column name", oninput: () => { nameFilter = filter.value.toLowerCase(); apply(); } });
  fill(
    el,
    h(
      "div",
      { class: "toolbar" },
      selectField("Row group", [{ value: "all", label: "all" }, ...f.rowGroups.map((rg, g) => ({ value: g, label: `${g} (${fmtInt(rg.numRows)} rows)` }))], "all", (v) => { rgFilter = v; apply(); }, "chunks-rg"),
      h("label", { class: "field" }, h("span", { class: "field-label" }, "Column"), filter),
      h("span", { class: "muted small" }, "Min/max are the footer's statistics as stored, decoded by type. Click a chunk for its detail."),
    ),
    t.el,
  );
}
