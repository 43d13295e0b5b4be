// Every column's profile in one table, below the Schema's: nulls, distinct
// values, minimum, maximum, the most common value and the shape of the
// values, counted one column after another in the worker on request (it
// reads the whole file). The profiles are Column detail's (profile.js):
// counted here, a column's detail shows at once.

import { h, s, fill } from "../dom.js";
import { fmtInt, fmtPct, fmtBytes, plural } from "../format.js";
import { brief } from "../labels.js";
import { countProfile, profiled, valueView } from "./profile.js";

const W = 120; // a sparkline's size
const H = 22;

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

export function createProfiles(ctx) {
  const el = h("section", { class: "profiles", "data-testid": "profiles" });
  let ac = null;
  let token = 0;
  let running = false;

  /** One column's row: its profile's figures, or its error. */
  function row(c, res, error) {
    const f = ctx.file;
    const type = f.schema[c].type;
    const unit = ctx.timeUnits[c] || null;
    const p = res?.profile;
    const dash = () => h("span", { class: "v-none" }, "—");
    const top = p?.top[0];
    const cells = error
      ? [h("td", { colspan: 6, class: "bad-text", "data-testid": "profiles-error" }, h("span", { class: "kind-badge" }, error.kind), " ", error.message)]
      : [
        h("td", { class: "num", "data-testid": "profiles-nulls", "data-value": p.nulls }, fmtInt(p.nulls), p.nulls ? h("span", { class: "muted small" }, ` ${fmtPct(p.nulls / Math.max(1, p.rows))}`) : null),
        h("td", { class: "num", "data-testid": "profiles-distinct", "data-value": p.distinct, "data-exact": String(p.distinctExact) }, `${p.distinctExact ? "" : "≈ "}${fmtInt(p.distinct)}`),
        h("td", { class: "stat", "data-testid": "profiles-min" }, p.min === null ? dash() : valueView(type, unit, p.min)),
        h("td", { class: "stat", "data-testid": "profiles-max" }, p.max === null ? dash() : valueView(type, unit, p.max)),
        h("td", { class: "stat", "data-testid": "profiles-top" }, top ? [valueView(type, unit, top.value), h("span", { class: "muted small" }, ` × ${fmtInt(top.count)}`)] : dash()),
        h("td", {}, p.histogram ? sparkline(p) : null),
      ];
    return h(
      "tr",
      {
        "data-testid": "profiles-row",
        "data-col": c,
        "data-state": error ? "error" : "done",
        class: "clickable",
        tabindex: 0,
        title: "click (or Enter): this column's profile in Column detail",
        onclick: () => ctx.select(null, c, "detail"),
        onkeydown: (ev) => {
          if (ev.key !== "Enter" && ev.key !== " ") return;
          ev.preventDefault();
          ctx.select(null, c, "detail");
        },
      },
      h("td", { class: "num" }, String(c)),
      h("td", {}, h("span", { class: "colname" }, brief(ctx.labels[c]))),
      h("td", {}, h("span", { class: "type-tag" }, type)),
      cells,
    );
  }

  const errors = new Map(); // column -> its profile's error (this file)
  const rowEls = new Map(); // column -> its row, for the columns counted (or failed)
  const head = h("div", {});
  const tbody = h("tbody", {});
  const table = h(
    "div",
    { class: "scroll-x" },
    h("table", { class: "data compact", "data-testid": "profiles-table" }, h("thead", {}, h("tr", {}, ["#", "Column", "Type", "Nulls", "Distinct", "Min", "Max", "Most common", "Shape"].map((t, i) => h("th", { class: i === 0 || i === 3 || i === 4 ? "num" : null }, t)))), tbody),
  );

  /** Column c's row, in column order, once counted (or failed). */
  function put(c) {
    const tr = row(c, profiled(ctx, c), errors.get(c));
    const old = rowEls.get(c);
    if (old) old.replaceWith(tr);
    else tbody.insertBefore(tr, [...rowEls].filter(([k]) => k > c).sort((a, b) => a[0] - b[0])[0]?.[1] ?? null);
    rowEls.set(c, tr);
    table.hidden = false;
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
          ? h("p", {}, h("button", { type: "button", "data-testid": "profiles-run", onclick: runAll }, left === f.schema.length ? "Profile every column" : `Profile the other ${plural(left, "column")}`), h("span", { class: "muted small" }, ` reads ${fmtBytes(stored)} stored, one column after another; click a row for its detail.`))
          : h("p", { class: "muted small", "data-testid": "profiles-done" }, "Every column profiled over the whole file; click a row for its detail (histogram, most common values).")),
    );
  }

  /** Every row anew from the profiles counted (a column shows as dates now, another file). */
  function redraw() {
    fill(tbody);
    rowEls.clear();
    table.hidden = true;
    ctx.file.schema.forEach((_, c) => (profiled(ctx, c) || errors.has(c)) && put(c));
    drawHead();
  }

  async function runAll() {
    const mine = ++token;
    running = true;
    const my = (ac = new AbortController());
    const f = ctx.file;
    const todo = f.schema.map((_, c) => c).filter((c) => !profiled(ctx, c) && !errors.has(c));
    const bar = h("progress", { max: todo.length, value: 0, "data-testid": "profiles-progress" });
    const what = h("span", { class: "muted small" });
    drawHead(h("p", { class: "button-row" }, bar, what, h("button", { type: "button", class: "small danger", "data-testid": "profiles-stop", onclick: () => my.abort() }, "Stop")));
    for (const [i, c] of todo.entries()) {
      what.textContent = `column ${fmtInt(i + 1)} of ${fmtInt(todo.length)}: ${brief(ctx.labels[c])}`;
      try {
        await countProfile(ctx, c, { signal: my.signal, onProgress: (p) => (bar.value = i + (p.total ? p.done / p.total : 0)) });
      } catch (e) {
        if (mine !== token) return;
        if (e.kind === "cancelled") break;
        errors.set(c, e); // (a column that does not read: the others still count)
      }
      if (mine !== token) return;
      put(c);
    }
    running = false;
    drawHead();
  }

  el.append(h("h3", {}, "Every column's profile"), head, table);

  return {
    el,
    /** Another file: its columns, none counted yet. */
    reset() {
      token++;
      running = false;
      ac?.abort();
      errors.clear();
      if (ctx.file) redraw();
    },
    /** Drawn again from the profiles counted (some in Column detail; a
     *  column shows as dates now); `retry`: a tokenizer came, so the
     *  columns that failed are counted again on the next run. */
    refresh({ retry = false } = {}) {
      if (running || !ctx.file) return; // (it draws as it goes)
      if (retry) errors.clear();
      redraw();
    },
  };
}
