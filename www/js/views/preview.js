// Data preview: a paged table of one row group's values.

import { h, fill } from "../dom.js";
import { fmtInt, hex, textNode, valueNode, utf8Pieces } from "../format.js";
import { columnPicker, errorBox, selectField } from "../common.js";

const MAX_CHARS = 80;

function isLong(type, v) {
  if (v === null || v === undefined) return false;
  if (type === "string") return v.length > MAX_CHARS || utf8Pieces(v).some((p) => p.bad !== undefined);
  if (type === "bytes") return v.length * 2 > MAX_CHARS;
  return false;
}

function hexDump(bytes, limit = 4096) {
  const lines = [];
  const n = Math.min(bytes.length, limit);
  for (let i = 0; i < n; i += 16) {
    const chunk = bytes.subarray(i, Math.min(n, i + 16));
    const hx = [...chunk].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const asc = [...chunk].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${i.toString(16).padStart(8, "0")}  ${hx.padEnd(47)}  ${asc}`);
  }
  if (bytes.length > limit) lines.push(`… ${bytes.length - limit} more bytes`);
  return lines.join("\n");
}

export function createPreview(ctx, el) {
  let g = 0;
  let cols = [];
  let start = 0;
  let pageSize = 100;
  let token = 0;
  let picker = null;
  const tableHost = h("div", { class: "preview-host" });
  const pager = h("div", { class: "pager" });
  const errors = h("div", { class: "preview-errors" });
  const valuePanel = h("section", { class: "value-panel", "data-testid": "value-panel", hidden: true });
  const stats = h("p", { class: "muted small", "data-testid": "preview-stats" });

  function defaultCols(f) {
    return f.schema.map((_, i) => i).slice(0, 12);
  }

  function showValue(f, c, row, type, v) {
    const name = f.schema[c].name;
    fill(
      valuePanel,
      h("div", { class: "value-head" }, h("b", {}, `Row ${fmtInt(row)} · `, h("span", { class: "colname" }, name), " "), h("span", { class: "type-tag" }, type), v && v.length !== undefined ? h("span", { class: "muted" }, ` · ${fmtInt(v.length)} bytes`) : null, h("button", { type: "button", class: "small", onclick: () => (valuePanel.hidden = true) }, "Close")),
      type === "string" ? h("div", { class: "value-full v-str" }, v.length ? textNode(v) : '""') : null,
      type === "string" && utf8Pieces(v).some((p) => p.bad !== undefined) ? h("p", { class: "notice" }, "Not valid UTF-8: the bytes that are not part of a valid sequence are shown as \\xNN.") : null,
      v && v.length !== undefined ? h("pre", { class: "hexdump" }, hexDump(v)) : h("div", { class: "value-full" }, valueNode(type, v)),
    );
    valuePanel.hidden = false;
    valuePanel.scrollIntoView({ block: "nearest" });
  }

  function controls() {
    const f = ctx.file;
    picker = columnPicker(f.schema, cols, (list) => {
      cols = list;
      const sum = el.querySelector("[data-testid=preview-columns-toggle]");
      if (sum) sum.textContent = `Columns (${cols.length} of ${f.schema.length})`;
      load();
    }, { testid: "preview-columns" });
    const sizeSel = selectField("Rows per page", [50, 100, 250, 500].map((n) => ({ value: n, label: String(n) })), pageSize, (v) => {
      pageSize = Number(v);
      start = Math.floor(start / pageSize) * pageSize;
      load();
    }, "preview-page-size");
    return h(
      "div",
      { class: "toolbar" },
      selectField("Row group", f.rowGroups.map((rg, i) => ({ value: i, label: `${i} (${fmtInt(rg.numRows)} rows)` })), g, (v) => {
        g = Number(v);
        start = 0;
        load();
      }, "preview-rg"),
      h("details", { class: "dropdown" }, h("summary", { "data-testid": "preview-columns-toggle" }, `Columns (${cols.length} of ${f.schema.length})`), picker.el),
      sizeSel,
    );
  }

  function renderPager(numRows) {
    const firstRow = ctx.file.rowGroups.slice(0, g).reduce((a, rg) => a + rg.numRows, 0);
    const end = Math.min(numRows, start + pageSize);
    const last = Math.max(0, Math.floor((numRows - 1) / pageSize) * pageSize);
    const go = (s) => {
      start = Math.max(0, Math.min(last, s));
      load();
    };
    const jump = h("input", { type: "number", min: 0, max: Math.max(0, numRows - 1), placeholder: "row", "aria-label": "go to row", "data-testid": "preview-goto", class: "goto" });
    fill(
      pager,
      h("button", { type: "button", disabled: start === 0, onclick: () => go(0), "aria-label": "first page" }, "«"),
      h("button", { type: "button", disabled: start === 0, onclick: () => go(start - pageSize), "data-testid": "preview-prev", "aria-label": "previous page" }, "‹ Prev"),
      h("span", { class: "pager-text", "data-testid": "preview-range" }, numRows ? `Rows ${fmtInt(start)}–${fmtInt(end - 1)} of ${fmtInt(numRows)}` : "No rows"),
      ctx.file.rowGroups.length > 1 && numRows ? h("span", { class: "muted small" }, `(file rows ${fmtInt(firstRow + start)}–${fmtInt(firstRow + end - 1)})`) : null,
      h("button", { type: "button", disabled: end >= numRows, onclick: () => go(start + pageSize), "data-testid": "preview-next", "aria-label": "next page" }, "Next ›"),
      h("button", { type: "button", disabled: end >= numRows, onclick: () => go(last), "aria-label": "last page" }, "»"),
      h("form", { class: "goto-form", onsubmit: (ev) => { ev.preventDefault(); const r = Number(jump.value); if (Number.isFinite(r)) go(Math.floor(r / pageSize) * pageSize); } }, jump, h("button", { type: "submit" }, "Go")),
    );
  }

  async function load() {
    const f = ctx.file;
    const my = ++token;
    if (!f.rowGroups.length) {
      fill(tableHost, h("p", { class: "notice" }, "This file has no row groups: there are no rows to show."));
      fill(pager);
      return;
    }
    const numRows = f.rowGroups[g].numRows;
    renderPager(numRows);
    if (cols.length === 0) {
      fill(tableHost, h("p", { class: "muted" }, "Choose one or more columns."));
      fill(errors);
      return;
    }
    tableHost.classList.add("loading");
    let res;
    try {
      res = await ctx.call("preview", { g, cols, start, count: pageSize }, `Reading ${cols.length} column${cols.length > 1 ? "s" : ""} of row group ${g}`);
    } catch (e) {
      if (my !== token) return;
      tableHost.classList.remove("loading");
      fill(tableHost, errorBox(e, { schema: f.schema, testid: "preview-error" }));
      return;
    }
    if (my !== token) return;
    tableHost.classList.remove("loading");
    const good = res.columns.filter((x) => !x.error);
    fill(errors, res.columns.filter((x) => x.error).map((x) => errorBox(x.error, { title: `Column “${f.schema[x.c].name}” cannot be read`, schema: f.schema, testid: "preview-error", compact: true })));
    const decodeMs = good.reduce((a, x) => a + (x.timings ? x.timings.totalMs : 0), 0);
    stats.textContent = good.length ? `${good.length} column chunk${good.length > 1 ? "s" : ""} decoded (whole chunks, cached for paging) in ${decodeMs.toFixed(1)} ms total. Nulls, empty values and bytes that are not valid UTF-8 are shown distinctly.` : "";
    const thead = h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { class: "num rowno", scope: "col" }, "row"),
        res.columns.map((x) => {
          const col = f.schema[x.c];
          return h("th", { scope: "col", class: x.error ? "col-error" : ["string", "bytes", "bool"].includes(col.type) ? "" : "num", "data-col": x.c }, h("span", { class: "colname" }, col.name), h("span", { class: "type-tag" }, col.type), x.error ? h("span", { class: "bad-badge", title: x.error.message }, x.error.kind) : null);
        }),
      ),
    );
    const body = document.createDocumentFragment();
    for (let i = 0; i < res.end - res.start; i++) {
      const row = res.start + i;
      const tr = h("tr", { "data-testid": "preview-row", "data-row": row }, h("td", { class: "num rowno" }, fmtInt(row)));
      for (const x of res.columns) {
        if (x.error) {
          tr.append(h("td", { class: "unavailable", "data-testid": "preview-cell", "data-row": row, "data-col": x.c, "data-kind": "error" }, "·"));
          continue;
        }
        const v = x.cells[i];
        const node = valueNode(x.type, v, { maxChars: MAX_CHARS });
        const numeric = !["string", "bytes", "bool"].includes(x.type);
        const td = h("td", { class: numeric ? "num" : "", "data-testid": "preview-cell", "data-row": row, "data-col": x.c, "data-kind": node.dataset.kind, "data-truncated": node.querySelector(".more") ? "1" : undefined });
        if (isLong(x.type, v)) td.append(h("button", { type: "button", class: "cell-button", title: "show the whole value", onclick: () => showValue(f, x.c, row, x.type, v) }, node));
        else if (v !== null && (x.type === "string" || x.type === "bytes")) {
          td.append(node);
          td.classList.add("clickable");
          td.addEventListener("click", () => showValue(f, x.c, row, x.type, v));
        } else td.append(node);
        tr.append(td);
      }
      body.append(tr);
    }
    fill(tableHost, h("div", { class: "table-wrap tall" }, h("table", { class: "data preview", "data-testid": "preview-table", "data-rg": g, "data-start": res.start }, thead, h("tbody", {}, body))));
  }

  return {
    render() {
      const f = ctx.file;
      token++;
      g = Math.min(ctx.sel.g, Math.max(0, f.rowGroups.length - 1));
      cols = defaultCols(f);
      start = 0;
      valuePanel.hidden = true;
      fill(el, controls(), errors, pager, stats, tableHost, valuePanel);
      fill(tableHost);
    },
    activate: load,
    /** Shows row group g with column c included. */
    focus(g2, c) {
      g = g2;
      start = 0;
      if (!cols.includes(c)) cols = [...cols, c].sort((a, b) => a - b);
      fill(el, controls(), errors, pager, stats, tableHost, valuePanel);
    },
  };
}
