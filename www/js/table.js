// A sortable table with a sticky header. Cells are built by the caller as
// DOM nodes or plain text; the table never parses markup.

import { h, fill } from "./dom.js";

function compare(a, b) {
  const na = a === null || a === undefined || (typeof a === "number" && Number.isNaN(a));
  const nb = b === null || b === undefined || (typeof b === "number" && Number.isNaN(b));
  if (na || nb) return na === nb ? 0 : na ? 1 : -1; // blanks last
  // (a column of mixed kinds, the Chunks table's Min over columns of each type: numbers first)
  const num = (x) => typeof x === "number" || typeof x === "bigint";
  if (num(a) !== num(b)) return num(a) ? -1 : 1;
  if (typeof a === "bigint" || typeof b === "bigint") {
    try {
      const x = BigInt(a);
      const y = BigInt(b);
      return x < y ? -1 : x > y ? 1 : 0;
    } catch {
      /* mixed: compare as numbers */
    }
    return Number(a) - Number(b);
  }
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/**
 * columns: [{ key, label, title?, numeric?, value(row), cell?(row), class? }]
 * later: the rows' first slice too in a task of its own, after the one that
 * (re)draws the table, whose rendering frame then lays out no rows.
 * Returns { el, setRows(rows) }.
 */
export function sortableTable({ columns, rows, testid, rowTestid, rowProps, onRowClick, footer, caption, maxRows = 5000, sort = null, onSort = null, wrapClass = "", later = false }) {
  let state = sort ? { ...sort } : { key: null, dir: 1 };
  let renderToken = 0;
  let data = rows;
  const thead = h("thead");
  const tbody = h("tbody");
  const tfoot = h("tfoot");
  const note = h("p", { class: "muted small", hidden: true });
  const table = h("table", { class: "data", "data-testid": testid }, caption ? h("caption", { class: "visually-hidden" }, caption) : null, thead, tbody, tfoot);
  const wrap = h("div", { class: ["table-wrap", wrapClass] }, table);
  const el = h("div", { class: "table-block" }, wrap, note);

  function header() {
    // A sort from the keyboard draws the header anew: the focus goes to the
    // new button of the column it was on (with the old one it fell to the
    // page's body).
    const focused = thead.contains(document.activeElement) ? document.activeElement.closest("th")?.dataset.key : undefined;
    const tr = h("tr");
    for (const col of columns) {
      const active = state.key === col.key;
      const btn = h(
        "button",
        {
          type: "button",
          class: "sort",
          title: col.title ? `${col.title} — click to sort` : "click to sort",
          onclick: () => {
            state = { key: col.key, dir: active ? -state.dir : col.numeric ? -1 : 1 };
            onSort?.(state);
            render();
          },
        },
        col.label,
        h("span", { class: "sort-mark", "aria-hidden": "true" }, active ? (state.dir > 0 ? " ▲" : " ▼") : ""),
      );
      tr.append(h("th", { scope: "col", class: [col.numeric && "num", col.class], "aria-sort": active ? (state.dir > 0 ? "ascending" : "descending") : "none", "data-key": col.key }, btn));
    }
    thead.replaceChildren(tr);
    if (focused !== undefined) tr.querySelector(`th[data-key="${CSS.escape(focused)}"] button`)?.focus();
  }

  function render() {
    header();
    let list = data;
    if (state.key) {
      const col = columns.find((c) => c.key === state.key);
      list = data
        .map((r, i) => [r, i])
        .sort((a, b) => compare(col.value(a[0]), col.value(b[0])) * state.dir || a[1] - b[1])
        .map((x) => x[0]);
    }
    const shown = list.slice(0, maxRows);
    note.hidden = list.length <= maxRows;
    fill(
      note,
      `Showing ${maxRows.toLocaleString("en-US")} of ${list.length.toLocaleString("en-US")} rows; sort or narrow them to see others, or `,
      h("button", { type: "button", class: "small", "data-testid": "table-show-all", onclick: () => { maxRows = Infinity; render(); } }, `show all ${list.length.toLocaleString("en-US")}`),
      ".",
    );
    const makeRow = (row) => {
      const tr = h("tr", { "data-testid": rowTestid, ...(rowProps ? rowProps(row) : {}) });
      if (onRowClick) {
        tr.tabIndex = 0;
        tr.classList.add("clickable");
        tr.addEventListener("click", (ev) => onRowClick(row, ev));
        tr.addEventListener("keydown", (ev) => {
          if (ev.key === "Enter" || ev.key === " ") {
            ev.preventDefault();
            onRowClick(row, ev);
          }
        });
      }
      for (const col of columns) {
        const v = col.cell ? col.cell(row) : col.value(row);
        const raw = col.numeric ? col.value(row) : undefined;
        tr.append(h("td", { class: [col.numeric && "num", col.class], "data-field": col.key, "data-value": raw === null || raw === undefined ? undefined : String(raw) }, v instanceof Node ? v : v === null || v === undefined ? "—" : String(v)));
      }
      return tr;
    };
    // Long tables (a file's chunks) are built a slice at a time, so no
    // single task of the page runs long, off the page, and put in whole
    // when complete (the rows shown before stay until then; an empty table
    // shows its first slice at once): added to a table in sight slice by
    // slice, rows had it laid out again for each (a schema of 2,000 failing
    // columns took 2.2 s to show). data-complete says when all are in.
    const SLICE = 25;
    const my = ++renderToken;
    const rows = document.createDocumentFragment();
    let started = false;
    const fillFrom = (start) => {
      if (my !== renderToken) return;
      for (const row of shown.slice(start, start + SLICE)) rows.append(makeRow(row));
      const done = start + SLICE >= shown.length;
      if (start === 0 && !done && !tbody.firstChild) {
        tbody.append(rows);
        started = true;
      }
      if (!done) return void setTimeout(() => fillFrom(start + SLICE), 0);
      if (started) tbody.append(rows);
      else tbody.replaceChildren(rows);
      table.dataset.complete = "1";
    };
    delete table.dataset.complete;
    if (later) setTimeout(() => fillFrom(0), 0);
    else fillFrom(0);
    tfoot.replaceChildren();
    if (footer) {
      const cells = footer(data);
      if (cells) {
        const tr = h("tr");
        for (const col of columns) {
          const v = cells[col.key];
          tr.append(h("td", { class: [col.numeric && "num", col.class], "data-field": col.key }, v === undefined ? "" : v instanceof Node ? v : String(v)));
        }
        tfoot.append(tr);
      }
    }
  }

  render();
  return {
    el,
    setRows(rows2) {
      data = rows2;
      render();
    },
  };
}
