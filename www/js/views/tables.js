// The schema (with totals per column) and the grid of chunks.

import { h, fill } from "../dom.js";
import { fmtBytes, fmtInt, statNode, statText, decodeStat, plural, nameNode } from "../format.js";

/** A footer statistic as the Chunks table sorts it: a number column's as
 *  its number (as text, -1116 came after -212), text and bytes as shown,
 *  none recorded last. */
function statOrder(type, raw) {
  if (type === "string" || type === "bytes") return statText(type, raw);
  const v = decodeStat(type, raw);
  return typeof v === "boolean" ? Number(v) : v ?? null;
}
import { sortableTable } from "../table.js";
import { indexField } from "../common.js";
import { decodedSize, ratio, fmtRatioValue, sizeCell, sizeLegend, sizeTitle } from "../sizes.js";
import { chunkFailure, columnFailures, tagCell, failureLine, groupList } from "../chunkstate.js";
import { nameHas } from "../labels.js";

/** The decoded size of a chunk (or column) that does not read: none. */
const noDecode = () => h("span", { class: "bad-text", title: "a chunk does not read, so there are no decoded values", "data-testid": "decoded-none" }, "✗ none");

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// The tables are drawn again whenever chunk headers, decoded sizes or
// failures arrive; the order the user chose is kept per file across that.
const sorts = new WeakMap(); // ctx.file -> { schema, chunks }
function keptSort(ctx, table) {
  if (!sorts.has(ctx.file)) sorts.set(ctx.file, {});
  const kept = sorts.get(ctx.file);
  return { sort: kept[table] ?? null, onSort: (s) => (kept[table] = s) };
}
const sumOrNull = (xs) => (xs.some((x) => x === null || x === undefined) ? null : sum(xs));

function tokenizerCell(f, cm) {
  if (!cm.tokenizer) return "—";
  const t = f.tokenizers[cm.tokenizer - 1];
  return h("span", { class: t?.resolved ? "" : "warn-text", title: cm.tokenizerDigest || "" }, `#${cm.tokenizer} `, h("code", { class: "digest" }, (cm.tokenizerDigest || "").slice(0, 10)), t?.resolved ? "" : " (missing)");
}

/** Above a size table: how many chunks are known not to read. */
function failuresNotice(ctx) {
  const n = ctx.chunkErrors?.size || 0;
  if (!n) return null;
  const kinds = [...new Set([...ctx.chunkErrors.values()].map((x) => x.error.kind))];
  return h("p", { class: "error-inline", "data-testid": "unreadable-notice", role: "note" }, `${plural(n, "chunk")} ${n === 1 ? "does" : "do"} not read (${kinds.join(", ")}): ${n === 1 ? "its row is" : "their rows are"} marked ✗ with the error. Sizes and statistics there are what the footer and the chunk's header claim.`);
}

/** When a URL file opened without its chunk headers (app.js), what is
 *  missing from the tables and a button that reads them. */
function headersNotice(ctx) {
  if (ctx.headers !== "deferred") return null;
  const n = ctx.file.rowGroups.length * ctx.file.schema.length;
  // Headers close together are read in stretches (chunkheaders.js; planned when the file opened).
  const plan = ctx.headerPlan;
  const cost = plan.requests === n ? plural(n, "small request") : `${plural(plan.requests, "request")} of ${fmtBytes(plan.bytes)} in all`;
  return h(
    "p",
    { class: "notice", "data-testid": "headers-deferred" },
    `Encoded sizes, ratios and block counts are in each chunk's 18-byte header: over HTTP that is ${cost}, so they were not read when the file opened. `,
    h("button", { type: "button", class: "small", "data-testid": "load-headers", onclick: () => ctx.loadHeaders() }, n === 1 ? "Read the chunk header" : `Read all ${plural(n, "chunk header")}`),
  );
}

export function columnTotals(f, decoded = new Map(), labels = null) {
  // One pass a column, no array a field: 100,000 chunks took 100 ms so.
  return f.schema.map((col, c) => {
    const encodings = new Set();
    const codecs = new Set();
    let stored = 0;
    let raw = 0;
    let dec = 0;
    let blocks = 0;
    let nulls = 0;
    let tokenizer = 0;
    f.rowGroups.forEach((rg, g) => {
      const m = rg.columns[c];
      encodings.add(m.encoding);
      codecs.add(m.codec);
      stored += m.byteLength;
      nulls += m.nullCount;
      tokenizer ||= m.tokenizer || 0;
      if (raw !== null) raw = m.rawLength === null || m.rawLength === undefined ? null : raw + m.rawLength;
      if (blocks !== null) blocks = m.blockCount === null || m.blockCount === undefined ? null : blocks + m.blockCount;
      if (dec !== null) {
        const d = decodedSize(col.type, rg.numRows, m, decoded.size ? decoded.get(`${g}:${c}`) : undefined);
        dec = d === null || d === undefined ? null : dec + d;
      }
    });
    return {
      c,
      name: labels ? labels[c] : col.name,
      decoded: dec,
      type: col.type,
      nullable: col.nullable,
      encodings: [...encodings].join(", "),
      codecs: [...codecs].join(", "),
      stored,
      raw,
      ratio: ratio(raw, stored),
      blocks,
      nulls,
      tokenizer,
      share: f.byteLength ? stored / f.byteLength : 0,
    };
  });
}

// A schema of more columns than this has a filter by name, and shows at
// most SCHEMA_SHOWN rows until asked for all: laying out 4,000 rows took
// Chromium about a second each time the tab was shown.
const SCHEMA_FILTER_FROM = 20;
const SCHEMA_SHOWN = 1000;
const filters = new WeakMap(); // ctx.file -> the schema filter's text

export function renderSchema(ctx, el) {
  const f = ctx.file;
  const rows = columnTotals(f, ctx.decoded, ctx.labels);
  for (const r of rows) {
    r.failures = columnFailures(ctx, r.c);
    if (r.failures.length) r.decoded = null;
  }
  /** Where chunks' headers name another tag than the footer: "row group 0: tag 9 (unknown)". */
  const headerTags = (r, key) => {
    const odd = r.failures.filter((x) => x[key]);
    if (!odd.length) return r[`${key}s`];
    return h("span", { class: "tag-conflict", "data-testid": `schema-${key}-conflict` }, h("span", {}, `footer: ${r[`${key}s`]}`), odd.map((x) => [" ", h("span", { class: "nowrap bad-text" }, `header of row group ${fmtInt(x.g)}: ${x[key].header}`)]));
  };
  /** The rows whose name holds `q`. */
  const matching = (q) => (q ? rows.filter((r) => nameHas(r.name, q)) : rows);
  const filter =
    rows.length > SCHEMA_FILTER_FROM
      ? h("input", {
          type: "search",
          class: "schema-filter",
          placeholder: "filter columns by name",
          "aria-label": "filter columns by name",
          "data-testid": "schema-filter",
          value: filters.get(f) ?? "",
          oninput: (ev) => {
            filters.set(f, ev.target.value);
            t.setRows(matching(ev.target.value));
          },
        })
      : null;
  const t = sortableTable({
    ...keptSort(ctx, "schema"),
    testid: "schema-table",
    rowTestid: "schema-row",
    caption: "Schema and per-column totals",
    rowProps: (r) => ({ "data-col": r.c, class: r.failures.length ? "unreadable" : null, "data-unreadable": r.failures.length ? r.failures[0].error.kind : null }),
    onRowClick: (r) => ctx.select(null, r.c, "detail"),
    columns: [
      { key: "c", label: "#", numeric: true, value: (r) => r.c },
      {
        key: "name",
        label: "Name",
        value: (r) => r.name,
        cell: (r) =>
          r.failures.length
            ? h("span", {}, h("span", { class: "colname" }, nameNode(r.name, Infinity)), r.failures.map((x) => failureLine(x.error, `does not read in ${groupList([x.g])}`)))
            : h("span", { class: "colname" }, nameNode(r.name, Infinity)),
      },
      { key: "type", label: "Type", value: (r) => r.type, cell: (r) => h("span", { class: "type-tag" }, r.type) },
      { key: "nullable", label: "Nullable", value: (r) => (r.nullable ? "yes" : "no") },
      { key: "encodings", label: "Encodings", value: (r) => r.encodings, cell: (r) => headerTags(r, "encoding") },
      { key: "codecs", label: "Codecs", value: (r) => r.codecs, cell: (r) => headerTags(r, "codec") },
      { key: "stored", label: "Stored", title: sizeTitle("stored"), numeric: true, value: (r) => r.stored, cell: (r) => sizeCell(r.stored, "stored") },
      { key: "raw", label: "Encoded", title: sizeTitle("encoded"), numeric: true, value: (r) => r.raw, cell: (r) => sizeCell(r.raw, "encoded") },
      { key: "decoded", label: "Decoded", title: sizeTitle("decoded"), numeric: true, value: (r) => r.decoded, cell: (r) => (r.failures.length ? noDecode() : sizeCell(r.decoded, "decoded")) },
      { key: "ratio", label: "Ratio", title: sizeTitle("ratio"), numeric: true, value: (r) => r.ratio, cell: (r) => fmtRatioValue(r.ratio) },
      { key: "share", label: "Share of file", numeric: true, value: (r) => r.share, cell: (r) => shareBar(r.share) },
      { key: "blocks", label: "Blocks", numeric: true, value: (r) => r.blocks, cell: (r) => (r.blocks === null ? "…" : fmtInt(r.blocks)) },
      { key: "nulls", label: "Nulls", numeric: true, value: (r) => r.nulls, cell: (r) => fmtInt(r.nulls) },
      { key: "tokenizer", label: "Tokenizer", value: (r) => r.tokenizer, cell: (r) => (r.tokenizer ? `#${r.tokenizer}` : "—") },
    ],
    rows: matching(filters.get(f) ?? ""),
    maxRows: SCHEMA_SHOWN,
    footer: (rs) => {
      const stored = sum(rs.map((r) => r.stored));
      const raw = sumOrNull(rs.map((r) => r.raw));
      const dec = sumOrNull(rs.map((r) => r.decoded));
      return { name: h("b", {}, rs.length === rows.length ? "All columns" : plural(rs.length, "matching column")), stored: sizeCell(stored, "stored"), raw: sizeCell(raw, "encoded"), decoded: rs.some((r) => r.failures.length) ? noDecode() : sizeCell(dec, "decoded"), ratio: fmtRatioValue(ratio(raw, stored)), share: shareBar(f.byteLength ? stored / f.byteLength : 0), blocks: fmtInt(sumOrNull(rs.map((r) => r.blocks))), nulls: fmtInt(sum(rs.map((r) => r.nulls))) };
    },
  });
  fill(
    el,
    h("p", { class: "lead" }, `${plural(f.schema.length, "column")} × ${plural(f.rowGroups.length, "row group")}, ${plural(f.numRows, "row")}. Totals are over ${f.rowGroups.length === 1 ? "the row group" : "all row groups"}; click a column for its chunk detail.`),
    f.rowGroups.length === 0 ? h("p", { class: "notice" }, "This file has no row groups: a schema and no data.") : null,
    headersNotice(ctx),
    failuresNotice(ctx),
    filter,
    t.el,
    sizeLegend(),
    // (Kept by app.js across these redraws: a run of it goes on.)
    f.rowGroups.length ? ctx.profilesEl : null,
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
      const failure = chunkFailure(ctx, g, c);
      all.push({ g, c, cm, type, failure, name: ctx.labels[c], rows: rg.numRows, ratio: ratio(cm.rawLength, cm.byteLength), decoded: failure ? null : decodedSize(type, rg.numRows, cm, ctx.decoded.get(`${g}:${c}`)) });
    }),
  );
  let rgFilter = "all";
  let nameFilter = "";
  const t = sortableTable({
    ...keptSort(ctx, "chunks"),
    testid: "chunk-table",
    rowTestid: "chunk-row",
    caption: "Column chunks",
    rowProps: (r) => ({ "data-rg": r.g, "data-col": r.c, class: [ctx.sel.g === r.g && ctx.sel.c === r.c && "selected", r.failure && "unreadable"], "data-unreadable": r.failure ? r.failure.error.kind : null }),
    onRowClick: (r) => ctx.select(r.g, r.c, "detail"),
    columns: [
      { key: "g", label: "RG", title: "row group", numeric: true, value: (r) => r.g },
      { key: "c", label: "#", numeric: true, value: (r) => r.c },
      { key: "name", label: "Column", value: (r) => r.name, cell: (r) => (r.failure ? h("span", {}, h("span", { class: "colname" }, nameNode(r.name)), failureLine(r.failure.error, "does not read")) : h("span", { class: "colname" }, nameNode(r.name))) },
      { key: "type", label: "Type", value: (r) => r.type, cell: (r) => h("span", { class: "type-tag" }, r.type) },
      { key: "encoding", label: "Encoding", value: (r) => r.cm.encoding, cell: (r) => tagCell(r.cm.encoding, r.failure?.encoding, "encoding-conflict") },
      { key: "codec", label: "Codec", value: (r) => r.cm.codec, cell: (r) => tagCell(r.cm.codec, r.failure?.codec, "codec-conflict") },
      { key: "stored", label: "Stored", title: sizeTitle("stored"), numeric: true, value: (r) => r.cm.byteLength, cell: (r) => sizeCell(r.cm.byteLength, "stored") },
      { key: "raw", label: "Encoded", title: sizeTitle("encoded"), numeric: true, value: (r) => r.cm.rawLength, cell: (r) => sizeCell(r.cm.rawLength, "encoded") },
      { key: "decoded", label: "Decoded", title: sizeTitle("decoded"), numeric: true, value: (r) => r.decoded, cell: (r) => (r.failure ? noDecode() : sizeCell(r.decoded, "decoded")) },
      { key: "ratio", label: "Ratio", title: sizeTitle("ratio"), numeric: true, value: (r) => r.ratio, cell: (r) => fmtRatioValue(r.ratio) },
      { key: "blocks", label: "Blocks", numeric: true, value: (r) => r.cm.blockCount, cell: (r) => (r.cm.blockCount === null ? "…" : fmtInt(r.cm.blockCount)) },
      { key: "rows", label: "Rows", numeric: true, value: (r) => r.rows, cell: (r) => fmtInt(r.rows) },
      { key: "nulls", label: "Nulls", numeric: true, value: (r) => r.cm.nullCount, cell: (r) => fmtInt(r.cm.nullCount) },
      { key: "min", label: "Min", class: "stat", value: (r) => statOrder(r.type, r.cm.minRaw), cell: (r) => statNode(r.type, r.cm.minRaw, { allNull: r.cm.nullCount === r.rows }) },
      { key: "max", label: "Max", class: "stat", value: (r) => statOrder(r.type, r.cm.maxRaw), cell: (r) => statNode(r.type, r.cm.maxRaw, { allNull: r.cm.nullCount === r.rows }) },
      { key: "minLen", label: "Min len", numeric: true, value: (r) => r.cm.minLen },
      { key: "maxLen", label: "Max len", numeric: true, value: (r) => r.cm.maxLen },
      { key: "tokenizer", label: "Tokenizer", value: (r) => r.cm.tokenizer, cell: (r) => tokenizerCell(f, r.cm) },
    ],
    rows: all,
    // A file's chunks can run to thousands: a first screenful, the rest on
    // request (the table's box shows about 20), in tasks after the one that
    // opens the view. The rows' style, layout and paint grow with their
    // number: opening flights-3m's chunks with 100 rows in one task took
    // 41-75 ms under load, with 50 up to 47 (the e2e limit is 50).
    maxRows: 30,
    later: true,
    footer: (rs) => {
      const stored = sum(rs.map((r) => r.cm.byteLength));
      const raw = sumOrNull(rs.map((r) => r.cm.rawLength));
      const dec = sumOrNull(rs.map((r) => r.decoded));
      return {
        name: h("b", {}, `Total (${plural(rs.length, "chunk")})`),
        stored: sizeCell(stored, "stored"),
        raw: sizeCell(raw, "encoded"),
        decoded: rs.some((r) => r.failure) ? noDecode() : sizeCell(dec, "decoded"),
        ratio: fmtRatioValue(ratio(raw, stored)),
        blocks: fmtInt(sumOrNull(rs.map((r) => r.cm.blockCount))),
        nulls: fmtInt(sum(rs.map((r) => r.cm.nullCount))),
      };
    },
  });
  const apply = () => t.setRows(all.filter((r) => (rgFilter === "all" || r.g === Number(rgFilter)) && nameHas(r.name, nameFilter)));
  const filter = h("input", { type: "search", placeholder: "filter by column name", "aria-label": "filter chunks by column name", "data-testid": "chunks-filter", oninput: () => { nameFilter = filter.value; apply(); } });
  fill(
    el,
    h(
      "div",
      { class: "toolbar" },
      indexField("Row group", f.rowGroups.length, "all", (v) => { rgFilter = v; apply(); }, "chunks-rg", (g) => `${g} (${plural(f.rowGroups[g].numRows, "row")})`, { all: "all" }),
      h("label", { class: "field" }, h("span", { class: "field-label" }, "Column"), filter),
      h("span", { class: "muted small" }, "Min/max are the footer's statistics as stored, decoded by type. Click a chunk for its detail."),
    ),
    headersNotice(ctx),
    failuresNotice(ctx),
    t.el,
    sizeLegend(),
  );
}
