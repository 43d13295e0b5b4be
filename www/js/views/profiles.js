// Every column's profile in one table, below the Schema's: nulls, distinct
// values, minimum, maximum, the most common value and the shape of the
// values, counted a few columns at a time in the worker on request (it
// reads the whole file). The profiles are Column detail's (profile.js):
// counted here, a column's detail shows at once.

import { h, s, fill } from "../dom.js";
import { fmtInt, fmtPct, fmtBytes, plural, textString, hex, scalarText, fmtMean, nameNode, nameString } from "../format.js";
import { sortableTable } from "../table.js";
import { countProfiles, profiled, valueView } from "./profile.js";
import { copyText, plainText, tsvLine } from "./cells.js";

const W = 120; // a sparkline's size
const H = 22;
const REDRAW_MS = 250;
// Columns counted together, a row group's chunks of them read in one call
// (one column at a time, 300 columns x 300 row groups took 35 s; 7.7 s
// 64 at a time). Each holds its distinct values while it counts, so the
// more rows, the fewer together: about a million values held at most.
const TOGETHER_CELLS = 1_000_000;
const TOGETHER_MAX = 64;

/** Columns `todo` in the groups counted together, for a file of `rows` rows. */
function together(todo, rows) {
  const k = Math.max(1, Math.min(TOGETHER_MAX, Math.floor(TOGETHER_CELLS / Math.max(1, rows))));
  const out = [];
  for (let i = 0; i < todo.length; i += k) out.push(todo.slice(i, i + k));
  return out;
}

/** The histogram's bars as one small path (no axis, no interaction: Column detail has those). */
function sparkline(p) {
  const counts = p.histogram.counts;
  const max = Math.max(1, ...counts);
  const bw = W / counts.length;
  let d = "";
  counts.forEach((c, k) => {
    if (!c) return;
    const bh = Math.max(1, ((H - 1) * c) / max);
    d += `M${(k * bw).toFixed(2)} ${H}v${(-bh).toFixed(2)}h${Math.max(0.6, bw - 0.6).toFixed(2)}v${bh.toFixed(2)}z`;
  });
  return s("svg", { class: "sparkline", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": `histogram of ${plural(counts.length, "bin")}`, "data-testid": "profiles-spark" }, s("path", { d }));
}

/** A profile's minimum or maximum as a value the table sorts by: numbers as they are, text by its characters, bytes by their hex. */
const sortable = (type, v) => (v === null || v === undefined ? null : type === "string" ? textString(v) : type === "bytes" ? hex(v) : v);

export function createProfiles(ctx) {
  const el = h("section", { class: "profiles", "data-testid": "profiles" });
  let ac = null;
  let token = 0;
  let running = false;
  const errors = new Map(); // column -> its profile's error (this file)
  const head = h("div", {});
  const host = h("div", {});
  let t = null; // the table, once a column is counted (or failed)
  let later = 0; // a redraw of the rows waiting (see runAll)
  let drawMs = 0; // what the last redraw took

  const dash = () => h("span", { class: "v-none" }, "—");
  // Each row: a column counted ({ c, type, unit, p }) or failed ({ c, type, error }).
  const stat = (r, v) => (r.p ? (v === null ? dash() : valueView(r.type, r.unit, v)) : dash());
  const columns = [
    { key: "c", label: "#", numeric: true, value: (r) => r.c },
    { key: "name", label: "Column", value: (r) => ctx.labels[r.c], cell: (r) => h("span", { class: "colname" }, nameNode(ctx.labels[r.c])) },
    { key: "type", label: "Type", value: (r) => r.type, cell: (r) => h("span", { class: "type-tag" }, r.type) },
    {
      key: "nulls",
      label: "Nulls",
      numeric: true,
      value: (r) => r.p?.nulls ?? null,
      cell: (r) => (r.p ? h("span", { "data-testid": "profiles-nulls", "data-value": r.p.nulls }, fmtInt(r.p.nulls), r.p.nulls ? h("span", { class: "muted small" }, ` ${fmtPct(r.p.nulls / Math.max(1, r.p.rows))}`) : null) : dash()),
    },
    {
      key: "distinct",
      label: "Distinct",
      numeric: true,
      value: (r) => r.p?.distinct ?? null,
      cell: (r) => (r.p ? h("span", { "data-testid": "profiles-distinct", "data-exact": String(r.p.distinctExact) }, `${r.p.distinctExact ? "" : "≈ "}${fmtInt(r.p.distinct)}`) : dash()),
    },
    { key: "min", label: "Min", class: "stat", value: (r) => sortable(r.type, r.p?.min), cell: (r) => h("span", { "data-testid": "profiles-min" }, stat(r, r.p?.min)) },
    { key: "max", label: "Max", class: "stat", value: (r) => sortable(r.type, r.p?.max), cell: (r) => h("span", { "data-testid": "profiles-max" }, stat(r, r.p?.max)) },
    {
      key: "mean",
      label: "Mean",
      numeric: true,
      title: "of the finite values (Column detail adds the standard deviation)",
      value: (r) => (r.unit ? null : (r.p?.mean ?? null)),
      cell: (r) => (r.p?.mean === null || r.p?.mean === undefined || r.unit ? dash() : h("span", { "data-testid": "profiles-mean", title: fmtMean(r.type, r.p.mean) }, fmtMean(r.type, r.p.mean, 6))),
    },
    {
      key: "top",
      label: "Most common",
      title: "the most common value and its rows",
      value: (r) => r.p?.top[0]?.count ?? null,
      cell: (r) => {
        if (r.error) return h("span", { class: "bad-text", "data-testid": "profiles-error" }, h("span", { class: "kind-badge" }, r.error.kind), " ", r.error.message);
        const top = r.p.top[0];
        return top ? h("span", { "data-testid": "profiles-top" }, valueView(r.type, r.unit, top.value), h("span", { class: "muted small" }, ` × ${fmtInt(top.count)}`)) : dash();
      },
    },
    { key: "shape", label: "Shape", title: "the histogram's shape (Column detail draws it whole)", value: () => null, cell: (r) => (r.p?.histogram ? sparkline(r.p) : null) },
  ];

  /** The columns counted or failed, as the table's rows. */
  function rows() {
    const out = [];
    ctx.file.schema.forEach((col, c) => {
      const res = profiled(ctx, c);
      if (res) out.push({ c, type: col.type, unit: ctx.timeUnits[c] || null, p: res.profile });
      else if (errors.has(c)) out.push({ c, type: col.type, error: errors.get(c) });
    });
    return out;
  }

  /** The table anew from what is counted (its order kept). */
  function drawRows() {
    clearTimeout(later);
    later = 0;
    const t0 = performance.now();
    const rs = rows();
    if (!rs.length) {
      t = null;
      fill(host);
      return;
    }
    if (!t) {
      t = sortableTable({
        columns,
        rows: rs,
        testid: "profiles-table",
        rowTestid: "profiles-row",
        caption: "Every column's profile",
        rowProps: (r) => ({ "data-col": r.c, "data-state": r.error ? "error" : "done", title: "click (or Enter): this column's profile in Column detail" }),
        onRowClick: (r) => ctx.select(null, r.c, "detail"),
      });
      fill(host, t.el);
    } else t.setRows(rs);
    void host.offsetHeight; // (its layout counted too: most of a redraw's cost)
    drawMs = performance.now() - t0;
  }

  /** The profiles counted, in column order, as tab-separated lines under their names
   *  (a column shown as dates has no mean, as in the table and Column detail). */
  function tsv() {
    const line = (xs) => tsvLine(xs.map((x) => String(x ?? "")));
    const text = (r, v) => (v === null || v === undefined ? "" : plainText(r, v));
    const number = (x) => (x === null || x === undefined ? "" : scalarText("float64", x));
    const lines = rows().map((r) =>
      r.error
        ? line([ctx.labels[r.c], r.type, "", "", "", "", "", "", "", "", `${r.error.kind}: ${r.error.message}`])
        : line([ctx.labels[r.c], r.type, r.p.nulls, `${r.p.distinctExact ? "" : "~"}${r.p.distinct}`, text(r, r.p.min), text(r, r.p.max), number(r.unit ? null : r.p.mean), number(r.unit ? null : r.p.std), text(r, r.p.top[0]?.value), r.p.top[0]?.count, ""]),
    );
    return [line(["column", "type", "nulls", "distinct", "min", "max", "mean", "std", "most common", "its rows", "error"]), ...lines].join("\n");
  }

  /** The line above the table: the button, the progress while counting (`status`), or done. */
  function drawHead(status = null) {
    const f = ctx.file;
    const left = f.schema.filter((_, c) => !profiled(ctx, c) && !errors.has(c)).length;
    const stored = f.rowGroups.reduce((a, rg) => a + rg.columns.reduce((b, cm, c) => b + (profiled(ctx, c) ? 0 : cm.byteLength), 0), 0);
    fill(
      head,
      status ??
        (left
          ? h("p", {}, h("button", { type: "button", "data-testid": "profiles-run", onclick: runAll }, left === f.schema.length ? "Profile every column" : `Profile the other ${plural(left, "column")}`), h("span", { class: "muted small" }, ` reads ${fmtBytes(stored)} stored, a few columns at a time; click a row for its detail.`))
          : h("p", { class: "muted small", "data-testid": "profiles-done" }, "Every column profiled over the whole file; click a row for its detail (histogram, most common values).")),
      !status && t ? h("p", {}, h("button", { type: "button", class: "small", "data-testid": "profiles-copy", onclick: () => copyText(tsv(), ctx.toast) }, "Copy the table (TSV)")) : null,
    );
  }

  async function runAll() {
    const mine = ++token;
    running = true;
    const my = (ac = new AbortController());
    const f = ctx.file;
    const todo = f.schema.map((_, c) => c).filter((c) => !profiled(ctx, c) && !errors.has(c));
    const bar = h("progress", { max: todo.length, value: 0, "data-testid": "profiles-progress" });
    const what = h("span", { class: "muted small", "data-testid": "profiles-what" });
    // Where the pass over the columns counted is: a column of a file of
    // 11,500 row groups took 30 s and more with nothing else moving.
    const within = h("span", { class: "muted small", "data-testid": "profiles-within", "aria-live": "off" });
    // The Run button goes with the line it was on: Stop takes its focus
    // (the page's body had it), and gives it back at the end.
    const fromRun = head.contains(document.activeElement);
    const stop = h("button", { type: "button", class: "small danger", "data-testid": "profiles-stop", onclick: () => my.abort() }, "Stop");
    drawHead(h("p", { class: "button-row" }, bar, what, within, stop));
    if (fromRun) stop.focus();
    // Said once at its start and once at its end, not a pass at a time
    // (a column at a time for a file of millions of rows).
    const label = `Profiling ${plural(todo.length, "column")}`;
    ctx.say?.(`${label}…`);
    let i = 0; // columns counted so far
    let stopped = false; // by its Stop, or by the status line's Cancel
    for (const cols of together(todo, f.numRows)) {
      const names = cols.slice(0, 3).map((c) => nameString(ctx.labels[c])).join(", ") + (cols.length > 3 ? ` and ${plural(cols.length - 3, "other")}` : "");
      what.textContent = cols.length > 1 ? `columns ${fmtInt(i + 1)}-${fmtInt(i + cols.length)} of ${fmtInt(todo.length)}: ${names}` : `column ${fmtInt(i + 1)} of ${fmtInt(todo.length)}: ${names}`;
      try {
        const at = i;
        within.textContent = "";
        const results = await countProfiles(ctx, cols, {
          signal: my.signal,
          quiet: true,
          onProgress: (p) => {
            bar.value = at + (p.total ? (cols.length * p.done) / p.total : 0);
            if (p.text) within.textContent = `· ${p.text}`;
          },
        });
        // (a column that does not read: the others still count)
        for (const r of results) if (r.error) errors.set(r.c, r.error);
      } catch (e) {
        if (mine !== token) return;
        if (e.kind === "cancelled") {
          stopped = true;
          break;
        }
        for (const c of cols) errors.set(c, e);
      }
      if (mine !== token) return;
      i += cols.length;
      // The rows drawn again at most every REDRAW_MS, or after ten times
      // what a redraw takes: a file of thousands of columns would otherwise
      // spend the run building its table once a column.
      if (!t) drawRows();
      else if (!later) later = setTimeout(drawRows, Math.max(REDRAW_MS, 10 * drawMs));
    }
    running = false;
    const onStop = document.activeElement === stop;
    drawRows();
    drawHead();
    ctx.say?.(stopped || my.signal.aborted ? `${label}: stopped, ${fmtInt(i)} of ${fmtInt(todo.length)} counted.` : `${label}: done.`);
    // Stop goes with the progress: the focus to the button that runs the
    // rest, else (every column counted) to the table's Copy, else the line.
    if (onStop || (fromRun && document.activeElement === document.body)) {
      const next = head.querySelector("[data-testid=profiles-run], [data-testid=profiles-copy]") ?? head.querySelector("[data-testid=profiles-done]");
      if (next && !next.matches("button")) next.tabIndex = -1;
      next?.focus();
    }
    // The Schema's table above: its text columns' decoded sizes are known now.
    ctx.refreshTables();
  }

  el.append(h("h3", {}, "Every column's profile"), head, host);

  return {
    el,
    /** Another file: its columns, none counted yet. */
    reset() {
      token++;
      running = false;
      ac?.abort();
      errors.clear();
      t = null;
      if (ctx.file) {
        drawRows();
        drawHead();
      }
    },
    /** Drawn again from the profiles counted (some in Column detail; a
     *  column shows as dates now); `retry`: a tokenizer came, so the
     *  columns that failed are counted again on the next run. */
    refresh({ retry = false } = {}) {
      if (running || !ctx.file) return; // (it draws as it goes)
      if (retry) errors.clear();
      drawRows();
      drawHead();
    },
  };
}
