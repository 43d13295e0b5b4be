// The Data tab: every row of the file in one virtual grid, with file-wide
// row numbers, sort by a column, filters, go-to-row, the selected cell (or
// range of cells, views/range.js) in a side panel with copy buttons, and
// export of the rows in view. All the work over rows (decoding, filtering,
// sorting, writing exports) runs in the worker; this module only sends
// requests and draws what is in sight.

import { h, fill } from "../dom.js";
import { fmtInt, fmtMs, fmtBytes, textNode, fileText, nameNode, nameString, utf8Pieces, valueNode, scalarText, plural, equalsText, MAX_CONDITION_TEXT } from "../format.js";
import { errorBox, timeUnitField, columnPicker } from "../common.js";
import { opsOf, parseValue, describeCondition, textMatches, ANY_TEXT, textColumns } from "../filter.js";
import { formatTime, UNIT_LABEL } from "../timefmt.js";
import { createGrid, unreadableNode } from "./grid.js";
import { copyValue, copyRow, hexDump } from "./cells.js";
import { showRange, copyKeys } from "./range.js";
import { createRecord } from "./record.js";
import { brief, isolated } from "../labels.js";
import { groupList } from "../chunkstate.js";
import { EXPORT_LIMIT } from "../sizes.js";

// The most of a value the side panel lays out: its text whole, at 20 MB,
// held the page for seconds. Copy value copies all of it.
const PANEL_CHARS = 100_000;
// The most columns' error boxes shown above the grid before "N more".
const ERRORS_SHOWN = 5;
const SELECT_HINT = "Select a cell (click, or arrow keys in the grid) to see its whole value here; a drag, or Shift with a click or an arrow key, selects a range (on a touch screen, a long press on its last cell).";

/** The side panel with no cell selected. */
const hint = () => h("p", { class: "muted small" }, SELECT_HINT);

// Said in the grid, and by Go to file row, when Columns shows none.
const NO_COLUMNS = "No columns shown: choose some in Columns.";

// The filter's column that stands for every text column (filter.js's ANY_TEXT).
const ANY_LABEL = "any text column";

export function createData(ctx, el) {
  let cols = [];
  let filters = []; // [{ c, op, text }]
  let applied = { filters: [], sort: null };
  let total = 0;
  let busy = null; // AbortController of the running view computation
  let token = 0;
  // The view being computed ({ filters, sort }), or null: a sort asked for
  // meanwhile keeps its conditions, and a filter its order (a header click
  // while a filter runs dropped the filter), and a second click goes on
  // from the first (a double click sorts descending).
  let asked = null;
  const wanted = () => asked ?? applied;
  // The view last asked for when it failed for want of a tokenizer ({
  // filters, sort }), or null; and whether the view shown left out a
  // searched column for want of one: either is computed again when a
  // tokenizer comes (tokenizersChanged).
  let refused = null;
  let leftOutForTokenizer = false;

  const status = h("p", { class: "data-status", "data-testid": "data-status", "aria-live": "polite" });
  const progress = h("div", { class: "data-progress", hidden: true }, h("progress", { max: 1, value: 0, "data-testid": "data-progress" }), h("span", { class: "muted small" }), h("button", { type: "button", class: "small danger", "data-testid": "data-cancel", onclick: () => busy?.abort() }, "Stop"));
  const side = h("aside", { class: "side-panel", "data-testid": "cell-panel", "aria-label": "selected cell" }, hint());
  const filterHost = h("div", { class: "filters", "data-testid": "filters" });
  const errorsHost = h("div", { class: "column-errors" });
  const colErrors = new Map(); // column -> { error (the first), groups: row groups whose chunk failed }, once per open file

  /** Columns whose chunks cannot be read: one compact box each, above the grid. */
  function noteErrors(res) {
    let changed = false;
    res.columns.forEach((col, k) => {
      const c = res.cols ? res.cols[k] : col.c;
      if (!col.error) return;
      if (!colErrors.has(c)) colErrors.set(c, { error: col.error, groups: new Set() });
      const { groups } = colErrors.get(c);
      for (const g of col.failed) {
        if (!groups.has(g)) changed = true;
        groups.add(g);
      }
    });
    if (changed) drawErrors();
  }
  // The first few columns' boxes, the rest behind a disclosure drawn when
  // opened: a file whose 2,000 columns all fail drew 2,000 boxes above the grid.
  const drawErrors = () => {
    const shown = new Set(cols);
    const list = [...colErrors].filter(([c]) => shown.has(c));
    const box = ([c, { error, groups }]) => errorBox(error, { title: errorTitle(c, groups), schema: ctx.file.schema, testid: "column-error", compact: true });
    const rest = list.slice(ERRORS_SHOWN);
    const more = rest.length
      ? h("details", { class: "more-errors", "data-testid": "column-errors-more", ontoggle: (ev) => ev.target.open && ev.target.childElementCount === 1 && ev.target.append(...rest.map(box)) }, h("summary", {}, `${plural(rest.length, "more column")} cannot be read`))
      : null;
    fill(errorsHost, list.slice(0, ERRORS_SHOWN).map(box), more);
  };

  /**
   * What a box says of column c: the row groups whose chunk of it failed
   * (the other row groups' cells show), or the whole column when that is
   * every row group. A tokenizer not registered fails its chunks before
   * they are read: those count too.
   */
  function errorTitle(c, groups) {
    const f = ctx.file;
    const all = new Set(groups);
    f.rowGroups.forEach((rg, g) => {
      const t = rg.columns[c].tokenizer;
      if (t && !f.tokenizers[t - 1]?.resolved) all.add(g);
    });
    const name = `Column “${nameString(ctx.labels[c])}”`;
    return all.size >= f.rowGroups.length ? `${name} cannot be read` : `${name}: ${groupList([...all].sort((a, b) => a - b))} cannot be read`;
  }
  const colsSummary = h("summary", { "data-testid": "data-columns-toggle" });
  const exportHost = h("div", { class: "menu-body export-body" });

  const grid = createGrid({
    testid: "data-grid",
    label: "rows of the file",
    onSelect: showCell,
    onSort: (c) => {
      const { filters: now, sort: s } = wanted();
      const next = !s || s.c !== c ? { c, desc: false } : !s.desc ? { c, desc: true } : null;
      compute(now, next);
    },
    sortState: () => (applied.sort ? { key: applied.sort.c, desc: applied.sort.desc } : null),
    onResize: (c, px) => widthsSet.set(c, px),
  });
  // Column widths the person set, kept through sorts, filters and column
  // choices until another file opens (render).
  const widthsSet = new Map();
  copyKeys(grid, ctx.toast, () => lastCell);

  const meta = (c) => ({ key: c, label: ctx.labels[c], type: ctx.file.schema[c].type, unit: ctx.timeUnits[c] || null, width: widthsSet.get(c), ...fitOf(c) });
  // What column c's first width goes by, from the footer, once a file
  // (render clears it): longest, its longest value in bytes; digits, the
  // most characters of its integers by the min and max (undefined where a
  // chunk with values has none).
  const fits = new Map();
  function fitOf(c) {
    if (!fits.has(c)) fits.set(c, { longest: ctx.file.rowGroups.reduce((m, rg) => Math.max(m, rg.columns[c].maxLen), 0), digits: digitsOf(c) });
    return fits.get(c);
  }
  function digitsOf(c) {
    if (!ctx.file.schema[c].type.includes("int")) return undefined;
    let most = 1;
    for (const rg of ctx.file.rowGroups) {
      const cm = rg.columns[c];
      if (cm.nullCount >= rg.numRows) continue;
      if (typeof cm.min !== "number" && typeof cm.min !== "bigint") return undefined;
      if (typeof cm.max !== "number" && typeof cm.max !== "bigint") return undefined;
      most = Math.max(most, String(cm.min).length, String(cm.max).length);
    }
    return most;
  }

  /** The applied "any text column" conditions as a test of one cell
   *  (its column and value): which text cells the search found, marked in
   *  the grid and the row's list. Null when there is no search. */
  function searchMatcher() {
    const search = applied.filters.filter((x) => x.c === ANY_TEXT);
    if (!search.length) return null;
    return (col, v) => col.type === "string" && v instanceof Uint8Array && search.some((cond) => textMatches(cond, v));
  }

  function source() {
    const chosen = [...cols];
    return {
      total,
      maxRowNumber: ctx.file.numRows,
      sortable: true,
      // Over HTTP, a hidden Data tab fetches nothing (a row group is a request).
      prefetch: !ctx.source?.url,
      emptyText: chosen.length === 0 ? NO_COLUMNS : applied.filters.length ? "No row matches these conditions." : "This file has no rows.",
      columns: chosen.map(meta),
      matches: searchMatcher(),
      fetch: async (start, count) => {
        const res = await ctx.engine.call("rows", { start, count, cols: chosen });
        ctx.noteIO(res);
        noteErrors(res);
        return res;
      },
    };
  }

  // ------------------------------------------------------------ side panel

  let lastCell = null;
  const record = createRecord(grid);

  /** A condition's column as the status line and messages name it. */
  const conditionColumn = (c) => (c === ANY_TEXT ? ANY_LABEL : h("bdi", {}, nameNode(ctx.labels[c])));

  /** Rows where conditions `conds` ([{ c, op, text }]) hold, added to the
   *  form's (`add`) or alone, and applied; the sort stays. */
  function rowsWhere(conds, { add = true } = {}) {
    filters = add ? [...filters, ...conds] : [...conds];
    drawFilters();
    applyForm();
  }

  /** The side panel anew for the cell or range still selected, its values read again. */
  function reselect() {
    if (lastCell || grid.range) grid.select(grid.selection.row, grid.selection.col, { scroll: false, extend: !!grid.range });
  }

  function showCell(cell) {
    if (cell.range) {
      lastCell = null;
      return showRange(side, grid, cell.range, cell.columns, ctx.toast);
    }
    lastCell = cell;
    const { column: c, value: v, id } = cell;
    ctx.setUrlState({ row: id, col: c.key });
    const isBytes = v !== null && v !== undefined && (c.type === "string" || c.type === "bytes");
    // "Rows with this value": the condition, where one finds it.
    const eq = equalsText(c.type, v);
    const nan = (c.type === "float32" || c.type === "float64") && Number.isNaN(v);
    const cond = v === null ? { c: c.key, op: "null", text: "" } : nan ? { c: c.key, op: "nan", text: "" } : eq === null ? null : { c: c.key, op: "=", text: eq };
    const shown = c.type === "string" && isBytes ? textNode(v, PANEL_CHARS) : null;
    const more = shown?.querySelector(".more");
    more?.setAttribute("title", "the rest is not shown here; Copy value copies it");
    const cut = more ? `; the first ${fmtInt(PANEL_CHARS)} characters shown (Copy value copies them all)` : "";
    fill(
      side,
      h("div", { class: "value-head" }, h("b", { "data-testid": "cell-panel-where" }, `Row ${fmtInt(id)}`), h("span", { class: "muted" }, " · "), h("span", { class: "colname" }, brief(c.label)), " ", h("span", { class: "type-tag" }, c.type)),
      v === undefined
        ? h(
            "div",
            { class: "value-full", "data-testid": "cell-panel-unreadable" },
            unreadableNode(cell.error),
            h("p", { class: "small" }, "Not a null: this row's chunk does not read, so its value is unknown.", cell.error ? [" ", h("span", { class: "kind-badge" }, cell.error.kind), " ", cell.error.message || ""] : null),
          )
        : v === null
          ? h("div", { class: "value-full", "data-testid": "cell-panel-null" }, valueNode(c.type, null), h("span", { class: "muted small" }, " no value in this row"))
          : c.unit
            ? h("div", { class: "value-full" }, h("div", { "data-testid": "cell-panel-value" }, formatTime(v, c.unit), " UTC"), h("div", { class: "muted small" }, `${scalarText(c.type, v)} ${UNIT_LABEL[c.unit]} since 1970-01-01`))
            : c.type === "string"
              ? h("div", { class: "value-full v-str", "data-testid": "cell-panel-value" }, v.length ? shown : '""')
              : h("div", { class: "value-full", "data-testid": "cell-panel-value" }, valueNode(c.type, v, { maxChars: PANEL_CHARS })),
      isBytes ? h("p", { class: "muted small", "data-testid": "cell-panel-size" }, `${plural(v.length, "byte")}${c.type === "string" && utf8Pieces(v).some((p) => p.bad !== undefined) ? "; not valid UTF-8: the bytes outside valid sequences show as \\xNN" : ""}${cut}`) : null,
      h(
        "div",
        { class: "button-row" },
        h("button", { type: "button", class: "small", "data-testid": "copy-cell", onclick: () => copyValue(cell, ctx.toast) }, "Copy value"),
        h("button", { type: "button", class: "small", "data-testid": "copy-row", onclick: () => copyRow(cell, "tsv", ctx.toast) }, "Copy row (TSV)"),
        h("button", { type: "button", class: "small", "data-testid": "copy-row-json", onclick: () => copyRow(cell, "json", ctx.toast) }, "Copy row (JSON)"),
        cond ? h("button", { type: "button", class: "small", "data-testid": "filter-to-value", title: "add this condition and apply it", onclick: () => rowsWhere([cond]) }, v === null ? "Rows where this is null" : "Rows with this value") : null,
      ),
      isBytes ? h("details", {}, h("summary", {}, "Bytes (hex)"), h("pre", { class: "hexdump" }, hexDump(v))) : null,
      timeUnitField(ctx, c.key, "cell-time-unit", "Show this column as"),
      record.node(cell, searchMatcher()),
    );
    record.settle();
    // Chosen here, the column shows anew and so does this panel: the choice keeps the focus.
    if (refocusUnit) side.querySelector("[data-testid=cell-time-unit]")?.focus();
    refocusUnit = false;
  }
  let refocusUnit = false;

  // ------------------------------------------------------------ view

  /** The view in words, for the status line: its pieces (a condition's
   *  value as the grid shows a value). */
  function describe() {
    const f = ctx.file;
    const parts = [];
    const shown = total === f.numRows ? plural(f.numRows, "row") : `${fmtInt(total)} of ${plural(f.numRows, "row")}`;
    parts.push(shown);
    if (applied.filters.length) parts.push(["where ", applied.filters.map((x, i) => [i ? " and " : "", describeCondition(x, conditionColumn(x.c), fileText(x.text))])]);
    if (applied.sort) parts.push(["sorted by ", h("bdi", {}, nameNode(ctx.labels[applied.sort.c])), ` ${applied.sort.desc ? "descending" : "ascending"} (nulls last)`]);
    else parts.push("in file order");
    return parts.map((p, i) => [i ? ", " : "", p]);
  }

  async function compute(nextFilters, nextSort) {
    busy?.abort();
    const ac = new AbortController();
    busy = ac;
    const my = ++token;
    asked = { filters: nextFilters, sort: nextSort };
    refused = null;
    const gen = ctx.gen;
    progress.hidden = false;
    const bar = progress.querySelector("progress");
    const text = progress.querySelector("span");
    bar.value = 0;
    text.textContent = "starting…";
    el.dataset.busy = "1";
    let res;
    try {
      res = await ctx.call("setView", { filters: nextFilters.map(({ c, op, value }) => ({ c, op, value })), sort: nextSort }, nextSort && !nextFilters.length ? "Sorting" : "Filtering", {
        signal: ac.signal,
        onProgress: (p) => {
          if (p.total) bar.value = p.done / p.total;
          text.textContent = `${p.label} ${p.done} of ${p.total}`;
        },
      });
    } catch (e) {
      if (my !== token) return;
      asked = null;
      progress.hidden = true;
      delete el.dataset.busy;
      // Another file opening stopped it (the worker dropped this one): the
      // new file's views follow, and nothing is said of this one over them.
      if (gen !== ctx.gen) return;
      if (e.kind === "cancelled") {
        ctx.toast("Stopped; the rows shown are the previous view.");
        return;
      }
      if (e.kind === "unknown_tokenizer") refused = { filters: nextFilters, sort: nextSort };
      fill(status, errorBox(e, { title: "The view could not be computed", schema: ctx.file.schema, testid: "data-error" }));
      return;
    }
    if (my !== token) return;
    asked = null;
    progress.hidden = true;
    delete el.dataset.busy;
    applied = { filters: nextFilters, sort: nextSort };
    // The view is part of a shared link: its order, and its conditions as
    // typed (read back through the same parsing as the form's), but for a
    // column the person chose to show as dates: that choice is not in the
    // link, so the number a date was read as goes.
    const number = (v) => (typeof v === "bigint" || typeof v === "number" ? String(v) : v?.decimal);
    const linkText = (x) => (ctx.timeSource[x.c] === "chosen" && number(x.value) !== undefined && !/^-?\d+$/.test(x.text.trim()) ? number(x.value) : x.text);
    ctx.setUrlState({
      sort: nextSort ? nextSort.c : null,
      desc: nextSort?.desc ? 1 : null,
      where: nextFilters.length ? JSON.stringify(nextFilters.map((x) => [x.c, x.op, linkText(x)])) : null,
    });
    total = res.total;
    leftOutForTokenizer = !!res.leftOut?.some(({ error }) => error.kind === "unknown_tokenizer");
    // (No filter and no order: nothing was computed, the file's rows as they are.)
    const computed = nextFilters.length || nextSort ? ` · computed in ${fmtMs(res.ms)} in the worker` : "";
    const groups = ctx.file.rowGroups.length;
    const skipped = res.skipped ? `, ${fmtInt(res.skipped)} of ${plural(groups, "row group")} not read: their statistics rule the filter out` : "";
    fill(status, describe(), `${computed}${skipped}`);
    // Searched text columns whose chunks do not read: the rows found are
    // those of the others, and that is said.
    if (res.leftOut?.length) status.append(h("span", { class: "error-inline", "data-testid": "data-left-out" }, ` · not searched, as they do not read: ${res.leftOut.map(({ c, error }) => `${nameString(ctx.labels[c])} (${error.kind})`).join(", ")}`));
    status.dataset.total = String(total);
    // The selected cell was a place in the old view: forgotten with it,
    // and no cell is highlighted (grid.js) until one is chosen.
    lastCell = null;
    fill(side, hint());
    ctx.setUrlState({ row: null });
    el.dataset.view = String(token);
    grid.setSource(source());
  }

  // ------------------------------------------------------------ controls

  function columnsMenu() {
    // The page's column picker (a filter, and at most PICKER_SHOWN boxes
    // at once, for a file of thousands of columns).
    const named = ctx.file.schema.map((col, c) => ({ ...col, name: ctx.labels[c] }));
    const picker = columnPicker(named, cols, (list) => {
      const key = lastCell?.column.key;
      cols = list;
      summary();
      drawErrors();
      grid.setSource(source(), { keepScroll: true });
      // The side panel follows: the cell's column where it is now (its row
      // list is of the columns shown), or the hint if it is no longer shown.
      if (lastCell) {
        const k = cols.indexOf(key);
        if (k >= 0) grid.select(grid.selection.row, k, { scroll: false });
        else {
          lastCell = null;
          fill(side, hint());
        }
      } else reselect();
    }, { testid: "data-columns", label: "Columns" });
    summary();
    return picker.el;
  }
  const summary = () => (colsSummary.textContent = `Columns (${cols.length} of ${ctx.file.schema.length})`);

  function filterRow(fl, i) {
    const f = ctx.file;
    const any = fl.c === ANY_TEXT;
    const type = any ? "string" : f.schema[fl.c].type;
    const ops = opsOf(f.schema, fl.c);
    if (!ops.some((o) => o.op === fl.op)) fl.op = ops[0].op;
    const op = ops.find((o) => o.op === fl.op);
    const unit = any ? null : ctx.timeUnits[fl.c];
    // (a value with a line break, from "Rows with this value" or a link, in
    // a box that keeps it: one line of text would drop it, unseen)
    const lines = (fl.text || "").split(/\r\n|\r|\n/).length;
    const input = h(lines > 1 ? "textarea" : "input", { type: lines > 1 ? null : "text", rows: lines > 1 ? Math.min(lines, 4) : null, value: fl.text || "", "data-testid": "filter-value", "aria-label": "value", placeholder: any ? "text to find" : unit ? "2001-03-01 or a number" : type === "bytes" ? "hex, e.g. 00ff" : type === "bool" ? "true / false" : "value", hidden: !!op.noValue, oninput: () => (fl.text = input.value) });
    return h(
      "div",
      { class: "filter-row", "data-testid": "filter-row" },
      h("select", { "aria-label": "column", "data-testid": "filter-col", onchange: (ev) => { fl.c = Number(ev.target.value); drawFilters(); } }, textColumns(f.schema).length ? h("option", { value: String(ANY_TEXT), selected: any }, ANY_LABEL) : null, f.schema.map((col, c) => h("option", { value: String(c), selected: c === fl.c }, isolated(nameString(ctx.labels[c]))))),
      h("select", { "aria-label": "comparison", "data-testid": "filter-op", onchange: (ev) => { fl.op = ev.target.value; drawFilters(); } }, ops.map((o) => h("option", { value: o.op, selected: o.op === fl.op }, o.label))),
      input,
      h("button", { type: "button", class: "small", "aria-label": "remove this condition", "data-testid": "filter-remove", onclick: () => { filters.splice(i, 1); drawFilters(); } }, "×"),
      h("span", { class: "error-inline small", "data-testid": "filter-error", hidden: true }),
    );
  }

  /** The form's conditions drawn anew. The focus, which the controls
   *  replaced would drop to the page's body, goes to `focus` (an element
   *  of the new form, or a function giving one), else to the same control
   *  of the same condition, else to "+ Condition". */
  function drawFilters({ focus = null } = {}) {
    const at = filterHost.contains(document.activeElement) ? document.activeElement : null;
    const rowOf = (e) => [...filterHost.querySelectorAll("[data-testid=filter-row]")].indexOf(e?.closest("[data-testid=filter-row]"));
    const was = at && { row: rowOf(at), testid: at.dataset.testid };
    fill(
      filterHost,
      filters.map(filterRow),
      h(
        "div",
        { class: "button-row" },
        h("button", { type: "button", class: "small", "data-testid": "filter-add", onclick: () => { filters.push({ c: cols[0] ?? 0, op: "=", text: "" }); drawFilters({ focus: () => [...filterHost.querySelectorAll("[data-testid=filter-col]")].at(-1) }); } }, "+ Condition"),
        textColumns(ctx.file.schema).length
          ? h("button", { type: "button", class: "small", "data-testid": "filter-search", title: "a condition on every text column at once: rows where one of them contains the text, in any case", onclick: () => {
              filters.push({ c: ANY_TEXT, op: "icontains", text: "" });
              drawFilters({ focus: () => [...filterHost.querySelectorAll("[data-testid=filter-value]")].at(-1) });
            } }, "+ Search text")
          : null,
        h("button", { type: "submit", class: "small primary", "data-testid": "filter-apply" }, "Apply"),
        filters.length || applied.filters.length ? h("button", { type: "button", class: "small", "data-testid": "filter-clear", onclick: () => { filters = []; drawFilters(); compute([], wanted().sort); } }, "Clear") : null,
        h("span", { class: "muted small" }, "All conditions must hold; null matches only “is null”."),
        ctx.build && !ctx.build.duckdb
          ? null
          : h("button", { type: "button", class: "small", "data-testid": "view-sql", title: "the rows shown (their columns, the conditions applied, their order) as an SQL statement, run in the SQL tab", onclick: () => ctx.viewInSql({ cols: cols.slice(), filters: applied.filters, sort: applied.sort }) }, "Open as SQL"),
      ),
    );
    const target = typeof focus === "function" ? focus() : focus;
    if (target) target.focus();
    else if (at && !filterHost.contains(document.activeElement)) {
      const rows = filterHost.querySelectorAll("[data-testid=filter-row]");
      const same = was.row >= 0 ? rows[Math.min(was.row, rows.length - 1)]?.querySelector(`[data-testid="${was.testid}"]`) : filterHost.querySelector(`.button-row > [data-testid="${was.testid}"]`);
      (same && !same.hidden ? same : filterHost.querySelector("[data-testid=filter-add]")).focus();
    }
  }

  function applyFilters(ev) {
    ev.preventDefault();
    applyForm();
  }

  /** The form's conditions, parsed, applied (the sort kept); a row that does not parse says why. */
  function applyForm() {
    const parsed = parseFilters();
    if (parsed) compute(parsed, wanted().sort);
  }

  /** The form's conditions parsed, or null (each error shown by its row). */
  function parseFilters() {
    const parsed = [];
    let ok = true;
    filters.forEach((fl, i) => {
      const type = fl.c === ANY_TEXT ? "string" : ctx.file.schema[fl.c].type;
      const op = opsOf(ctx.file.schema, fl.c).find((o) => o.op === fl.op);
      const errEl = filterHost.querySelectorAll("[data-testid=filter-error]")[i];
      if (op.noValue) {
        parsed.push({ c: fl.c, op: fl.op, value: null, text: "" });
        return;
      }
      const r = parseValue(type, fl.text || "", (fl.c !== ANY_TEXT && ctx.timeUnits[fl.c]) || null);
      if (r.error) {
        ok = false;
        errEl.hidden = false;
        errEl.textContent = r.error;
        return;
      }
      errEl.hidden = true;
      parsed.push({ c: fl.c, op: fl.op, value: r.value, text: fl.text });
    });
    return ok ? parsed : null;
  }

  /** Says why a link's filter is not applied, and takes it from the
   *  address too (as a link's other numbers that do not fit): a copy of
   *  the link would carry it on. */
  function leaveLinkFilter(why) {
    ctx.toast(`The link's filter was left out: ${why}.`, "error");
    ctx.setUrlState({ where: null });
  }

  /** A link's `where` (JSON [[column, op, text], ...], untrusted): the
   *  conditions it names, or an error sentence. */
  function linkedFilters(where) {
    let list;
    try {
      list = JSON.parse(where);
    } catch {
      return { error: "it is not the JSON list this page writes" };
    }
    const n = ctx.file.schema.length;
    if (!Array.isArray(list) || list.length > 64) return { error: "it is not a list of at most 64 conditions" };
    const out = [];
    for (const item of list) {
      if (!Array.isArray(item)) return { error: "a condition is not a list [column, comparison, text]" };
      const [c, op, text] = item;
      const any = c === ANY_TEXT && textColumns(ctx.file.schema).length > 0;
      if (!any && !Number.isInteger(c)) return { error: "a condition's column (its first item) is not a column's number" };
      if (!any && (c < 0 || c >= n)) return { error: `a condition names column ${c}, and the file has ${n}` };
      if (typeof op !== "string") return { error: "a condition has no comparison (its second item)" };
      const o = opsOf(ctx.file.schema, c).find((x) => x.op === op);
      if (!o) return { error: `“${op.slice(0, 20)}” is not a comparison for ${c === ANY_TEXT ? ANY_LABEL : nameString(ctx.labels[c])}` };
      // ("is null" and "is not null" need no value: the page writes "" for it)
      if (text === undefined && o.noValue) {
        out.push({ c, op, text: "" });
        continue;
      }
      if (typeof text !== "string") return { error: "a condition's value (its third item) is not text" };
      if (text.length > MAX_CONDITION_TEXT) return { error: `a condition's value is longer than ${fmtInt(MAX_CONDITION_TEXT)} characters` };
      out.push({ c, op, text });
    }
    return { filters: out };
  }

  /** Says in the page why "Go to file row" did not go (null: clears it). */
  const gotoNote = h("p", { id: "goto-note", class: "error-inline small goto-error", "data-testid": "data-goto-error", role: "alert", hidden: true });
  const sayGoto = (text) => {
    gotoNote.textContent = text || "";
    gotoNote.hidden = !text;
  };

  /**
   * Where file row `row` is in the current view (-1: the filter leaves it
   * out); null when it could not be found (`fail` says why) or another file
   * or view came meanwhile (the row was asked for in the old one).
   */
  async function locate(row, fail) {
    const my = token;
    try {
      const { index } = await ctx.call("locate", { row }, "Finding the row");
      return my === token ? index : null;
    } catch (e) {
      // (Another file opening meanwhile: the worker has none open for a moment.)
      if (my === token && e.kind !== "cancelled") fail(e);
      return null;
    }
  }

  async function goTo(ev) {
    ev.preventDefault();
    const input = ev.target.querySelector("input");
    const text = input.value.trim();
    const row = Number(text);
    const n = ctx.file.numRows;
    const range = n ? `from 0 to ${fmtInt(n - 1)}` : "none: the file has no rows";
    if (text === "" || !Number.isInteger(row) || row < 0) {
      sayGoto(text === "" ? `Type a row number (${range}).` : `${text.slice(0, 30)} is not a row number; rows run ${range}.`);
      return;
    }
    if (row >= n) {
      sayGoto(n ? `Row ${fmtInt(row)} is past the last row, ${fmtInt(n - 1)}.` : "The file has no rows.");
      return;
    }
    if (!cols.length) {
      sayGoto(`${NO_COLUMNS.slice(0, -1)}, then go to row ${fmtInt(row)}.`);
      return;
    }
    sayGoto(null);
    const index = await locate(row, (e) => sayGoto(`Row ${fmtInt(row)} could not be found: ${e.message}.`));
    if (index === null) return;
    if (index < 0) {
      sayGoto(`Row ${fmtInt(row)} is not in the current view (the filter leaves it out).`);
      return;
    }
    grid.scrollToRow(index);
    grid.el.focus({ preventScroll: true });
  }

  // ------------------------------------------------------------ export

  /** Whether a chunk of column c names a tokenizer not supplied. */
  const lacksTokenizer = (c) =>
    ctx.file.rowGroups.some((rg) => {
      const t = rg.columns[c].tokenizer;
      return t && !ctx.file.tokenizers[t - 1]?.resolved;
    });

  /** An export refused for want of a tokenizer: the columns that need one,
   *  by name, and what to do (the box offers the tokenizer's file). */
  function tokenizerNeeded(e, needing) {
    const names = needing.slice(0, 3).map((c, i) => [i ? ", " : "", "“", fileText(brief(ctx.labels[c])), "”"]);
    const more = needing.length > 3 ? ` and ${plural(needing.length - 3, "more")}` : "";
    const one = needing.length === 1;
    const title = ["Export failed: ", one ? "column " : "columns ", names, more, one ? " needs its tokenizer, which is not supplied: supply it, or hide it (Columns) to export the other columns." : " need their tokenizers, which are not supplied: supply them, or hide them (Columns) to export the other columns."];
    return errorBox(e, { title, schema: ctx.file.schema, testid: "export-error" });
  }

  let exporting = null; // ctx.gen of the file an export under way reads
  let timesLabel = null; // the export's "time columns as dates" option

  function exportMenu() {
    const f = ctx.file;
    const anyTime = f.schema.some((_, c) => ctx.timeUnits[c]);
    // A form drawn anew would drop an export under way (its bar, its Stop,
    // the line it ends with) while it still runs: kept while its file is
    // open (a column shown as dates, a tokenizer registered).
    if (exporting === ctx.gen) {
      timesLabel.hidden = !anyTime;
      return;
    }
    const fmtRadio = (value, label, checked) => h("label", {}, h("input", { type: "radio", name: "export-format", value, checked, "data-testid": `export-format-${value}` }), ` ${label}`);
    const times = h("input", { type: "checkbox", "data-testid": "export-times" });
    const pick = h("input", { type: "checkbox", "data-testid": "export-pick" });
    const canPick = typeof window.showSaveFilePicker === "function";
    const note = h("div", { class: "muted small", "data-testid": "export-result" });
    const bar = h("progress", { max: 1, value: 0, hidden: true, "data-testid": "export-progress" });
    let ac = null;
    const stop = h("button", { type: "button", class: "small danger", hidden: true, "data-testid": "export-stop", onclick: () => ac?.abort() }, "Stop");
    const go = h("button", { type: "submit", class: "small primary", "data-testid": "export-run" }, "Export");
    fill(
      exportHost,
      h(
        "form",
        {
          onsubmit: async (ev) => {
            ev.preventDefault();
            if (!cols.length) {
              note.textContent = "No columns are shown: pick at least one column to export.";
              return;
            }
            const format = exportHost.querySelector("input[name=export-format]:checked").value;
            const ext = { csv: "csv", json: "json", arrow: "arrows" }[format];
            const name = `${ctx.name.replace(/\.cols$/i, "").replace(/[^\w.-]+/g, "_")}.${ext}`;
            let handle = null;
            if (pick.checked && canPick) {
              try {
                handle = await window.showSaveFilePicker({ suggestedName: name });
              } catch {
                return; // the person closed the dialog
              }
            }
            ac = new AbortController();
            // Export, disabled while it runs, would drop the focus to the
            // page's body (and Escape could not close the menu): Stop takes
            // it, and gives it back at the end.
            const fromGo = document.activeElement === go;
            go.disabled = true;
            stop.hidden = false;
            if (fromGo) stop.focus();
            bar.hidden = false;
            bar.value = 0;
            note.textContent = "";
            const units = times.checked ? Object.fromEntries(cols.filter((c) => ctx.timeUnits[c]).map((c) => [c, ctx.timeUnits[c]])) : {};
            const gen = ctx.gen;
            const file = ctx.name;
            const written = cols; // the columns shown may change before it ends
            exporting = gen;
            try {
              const res = await ctx.call("export", { format, cols, units, handle, picker: canPick }, `Exporting ${format.toUpperCase()}`, { signal: ac.signal, onProgress: (p) => (bar.value = p.total ? p.done / p.total : 0) });
              if (res.blob) ctx.download(name, res.blob);
              note.textContent = `${plural(res.rows, "row")} × ${plural(written.length, "column")}, ${fmtBytes(res.bytes)} ${handle ? "written to the file you chose" : "downloaded"} in ${fmtMs(res.ms)}.`;
              if (res.replaced.length) note.textContent += ` Bytes that are not UTF-8 in ${res.replaced.map((l) => brief(l)).join(", ")} are U+FFFD in it (an Arrow Utf8 column must be UTF-8).`;
              note.dataset.bytes = String(res.bytes);
            } catch (e) {
              const needing = e.kind === "unknown_tokenizer" ? written.filter(lacksTokenizer) : [];
              if (needing.length) fill(note, tokenizerNeeded(e, needing));
              else note.textContent = e.kind === "cancelled" ? "Export stopped." : `Export failed: ${e.kind}: ${e.message}`;
              // Another file opening stops it (the worker drops this one), and
              // this menu goes with this file's views: said where it stays in sight.
              if (gen !== ctx.gen) ctx.toast(`Export of ${file} stopped: ${e.kind === "cancelled" ? e.message : `${e.kind}: ${e.message}`}.`, "error");
            } finally {
              if (exporting === gen) exporting = null;
              const onStop = document.activeElement === stop;
              go.disabled = false;
              stop.hidden = true;
              bar.hidden = true;
              if (onStop || (fromGo && document.activeElement === document.body)) go.focus();
            }
          },
        },
        h("fieldset", { class: "modes" }, h("legend", {}, "Format"), fmtRadio("csv", "CSV", true), fmtRadio("json", "JSON (an array of objects)", false), fmtRadio("arrow", "Arrow IPC stream (.arrows)", false)),
        h("p", { class: "muted small" }, `The rows of the current view (its filter and order) and the columns shown. Written a block of 65,536 rows at a time in the worker: CSV and JSON keep every digit of int64 values and write bytes that are not UTF-8 as \\xNN; Arrow keeps the types, and writes such bytes as U+FFFD. ${canPick ? "Unless you choose where to save, the" : "The"} download is made in this tab, up to ${fmtBytes(EXPORT_LIMIT)}: a larger one is refused (before anything is read when the footer tells).`),
        (timesLabel = h("label", { class: "check", hidden: !anyTime }, times, " Write time columns as dates (UTC) instead of their numbers (CSV and JSON)")),
        canPick ? h("label", { class: "check" }, pick, " Choose where to save: streams straight into the file") : null,
        h("div", { class: "button-row" }, go, bar, stop),
        note,
      ),
    );
  }

  // ------------------------------------------------------------ render

  return {
    render() {
      token++;
      busy?.abort();
      asked = null;
      const f = ctx.file;
      cols = f.schema.map((_, i) => i);
      filters = [];
      applied = { filters: [], sort: null };
      total = f.numRows;
      refused = null;
      leftOutForTokenizer = false;
      lastCell = null;
      record.reset();
      widthsSet.clear();
      fits.clear();
      colErrors.clear();
      fill(errorsHost);
      sayGoto(null); // about the rows shown before
      fill(side, hint());
      if (!f.rowGroups.length || !f.numRows) {
        fill(el, h("p", { class: "notice" }, "This file has no rows."));
        return;
      }
      // Rows without columns (its footer's schema is empty): nothing to show, filter or sort.
      if (!f.schema.length) {
        fill(el, h("p", { class: "notice" }, `This file has no columns: its ${plural(f.numRows, "row")} hold no values.`));
        return;
      }
      drawFilters();
      exportMenu();
      fill(
        el,
        h(
          "div",
          { class: "toolbar data-toolbar" },
          h("details", { class: "dropdown" }, colsSummary, columnsMenu()),
          h("details", { class: "dropdown", "data-testid": "export-menu" }, h("summary", { "data-testid": "export-toggle" }, "Export…"), exportHost),
          // novalidate: the page says what is wrong (gotoNote), not the browser's bubble.
          h("form", { class: "goto-form", onsubmit: goTo, novalidate: true }, h("label", { class: "field" }, h("span", { class: "field-label" }, "Go to file row"), h("input", { type: "number", min: 0, max: f.numRows - 1, class: "goto", style: { width: gotoWidth(f.numRows) }, "data-testid": "data-goto", "aria-describedby": "goto-note", oninput: () => sayGoto(null) })), h("button", { type: "submit", class: "small" }, "Go")),
          gotoNote,
        ),
        h("form", { class: "filter-form", onsubmit: applyFilters }, filterHost),
        errorsHost,
        // One place for both: the progress shows over the status line, so
        // nothing below moves when a view starts computing (a double
        // click's second click landed on the line the grid moved from).
        h("div", { class: "data-state" }, status, progress),
        h("div", { class: "data-main" }, grid.el, side),
        h("p", { class: "muted small" }, "Click a column's name to sort by it over the whole file (again: the other way; a third time: file order). Arrow keys, Page Up/Down and Ctrl+Home/End move in the grid; S sorts by the selected cell's column; < and > narrow and widen it (or drag a column's right edge; double-click the edge to fit); Ctrl+C copies the selected value; a drag, or Shift with a click or an arrow key, selects a range (Ctrl+A: every cell; Shift+Space: the row; Ctrl+Space: the column), which Ctrl+C copies as TSV. After a search of the text, N and Shift+N go to the next and previous cell it found."),
      );
      fill(status, describe());
      status.dataset.total = String(total);
      grid.setSource(source());
    },
    /**
     * A tokenizer came for the open file: chunks that needed it read now.
     * The view stays (its rows are the file's, whichever columns read), so
     * the sort, filter and columns shown stay too; the grid asks again.
     * A view refused for want of a tokenizer (a sort or condition on its
     * column), or one whose search left its column out, is computed again,
     * as is one being computed (it may have met the column unread).
     */
    tokenizersChanged() {
      if (!ctx.file?.numRows || !ctx.file.schema.length) return;
      colErrors.clear();
      fill(errorsHost);
      const again = asked ?? refused ?? (leftOutForTokenizer ? applied : null);
      if (again) {
        compute(again.filters, again.sort);
        exportMenu();
        return;
      }
      grid.setSource(source(), { keepScroll: true });
      exportMenu();
      reselect();
    },
    /** A column shows as dates or numbers now (ctx.setTimeUnit): the grid, the selected cell, the filters' hints, the export's choice. */
    timeUnitsChanged() {
      if (!ctx.file?.numRows || !ctx.file.schema.length) return;
      refocusUnit = side.contains(document.activeElement);
      grid.setSource(source(), { keepScroll: true });
      drawFilters();
      exportMenu();
      reselect();
    },
    /** Checks a link's filter as the link opens, whichever tab shows, so
     *  that what does not fit is said then, not first when the Data tab
     *  shows; the conditions that fit wait in the form. Returns the state
     *  for activate. */
    link(state) {
      if (!state?.where || !ctx.file.numRows || !ctx.file.schema.length) return state;
      const linked = linkedFilters(state.where);
      const leaveOut = (why) => {
        leaveLinkFilter(why);
        return { ...state, where: null };
      };
      if (linked.error) return leaveOut(linked.error);
      if (!linked.filters.length) {
        ctx.setUrlState({ where: null }); // ([]: no filter, said by no word in the address)
        return { ...state, where: null };
      }
      filters = linked.filters;
      drawFilters();
      if (!parseFilters()) return leaveOut(`a value does not parse (see the conditions${ctx.tab === "data" ? "" : " on the Data tab"})`);
      return { ...state, where: null, linked: true };
    },
    /** Restores a link's place (checked by link): its filter and sort,
     *  then its file row, found where that view puts it. */
    async activate(state) {
      const n = ctx.file.numRows;
      if (!n || !ctx.file.schema.length) return;
      const sortCol = state?.sort;
      const sort = Number.isInteger(sortCol) && sortCol >= 0 && sortCol < ctx.file.schema.length ? { c: sortCol, desc: !!state.desc } : null;
      // Parsed again: a column's time unit may have changed since link(),
      // and a value with it; then left out as link() leaves one out.
      let parsed = state?.linked ? parseFilters() : [];
      if (!parsed) {
        leaveLinkFilter("a value does not parse as its column is now shown (see the conditions)");
        parsed = [];
      }
      if (sort || parsed.length) await compute(parsed, sort);
      if (state?.row === undefined || state.row === null) return;
      const r = Math.min(n - 1, Math.max(0, state.row));
      const c = Math.max(0, cols.indexOf(state.col ?? cols[0]));
      const inFileOrder = !applied.sort && !applied.filters.length;
      const my = token;
      // null (locate's): not found, or another file or view came meanwhile.
      const index = inFileOrder ? r : await locate(r, (e) => ctx.toast(`Row ${fmtInt(r)} could not be found: ${e.kind}: ${e.message}`, "error"));
      if (index === null) return;
      // Left out by the filter: said where Go to file row says it, not a silent stay.
      sayGoto(index < 0 ? `Row ${fmtInt(r)} is not in the current view (the filter leaves it out).` : null);
      if (index >= 0) setTimeout(() => my === token && grid.scrollToRow(index, c), 0);
    },
    rowsWhere(conds) {
      rowsWhere(conds, { add: false });
    },
    grid,
  };
}

/** Room for the file's largest row number and the number field's spinner:
 *  a fixed 8em cut 1,029,962 to "102996" on flights-3m. */
function gotoWidth(numRows) {
  return `max(8em, ${String(Math.max(0, numRows - 1)).length + 4}ch)`;
}
