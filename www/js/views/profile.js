// A column's profile over the whole file (computed in the worker, see
// ../profile.js): null share, distinct values, minimum and maximum beside
// the footer's statistics, a histogram for numbers and times, the most
// common values with their counts.

import { h, s, fill } from "../dom.js";
import { fmtInt, fmtMs, fmtPct, fmtBytes, valueNode, decodeStat, scalarText, plural, equalsText, fmtMean, nameNode, nameString } from "../format.js";
import { errorBox } from "../common.js";
import { formatTime, UNIT_LABEL } from "../timefmt.js";
import { EXACT_LIMIT, ARENA_LIMIT, compareBytes, hasHistogram, edgeText } from "../profile.js";

const AUTO_LIMIT = 64 * 1024 * 1024; // stored bytes profiled without asking
const TEXT = new Set(["string", "bytes"]);

const cmpBytes = (a, b) => compareBytes(a, 0, a.length, b, 0, b.length);

/** The footer's file-wide min and max of a column: the least chunk minimum,
 *  the greatest chunk maximum; `nan`: a chunk's statistic is NaN (the
 *  writer's when the chunk's first value is NaN: FORMAT.md), which says
 *  nothing of its values' range. */
function footerRange(f, c) {
  const type = f.schema[c].type;
  let min = null;
  let max = null;
  let nan = false;
  for (const rg of f.rowGroups) {
    const cm = rg.columns[c];
    if (cm.nullCount === rg.numRows) continue;
    // gob drops an empty []byte: with non-null values present, an empty
    // text statistic is the empty value (FORMAT.md §5), not a missing one.
    const stat = (raw) => (TEXT.has(type) && !raw?.length ? new Uint8Array(0) : decodeStat(type, raw));
    const lo = stat(cm.minRaw);
    const hi = stat(cm.maxRaw);
    const less = (a, b) => (TEXT.has(type) ? cmpBytes(a, b) < 0 : a < b);
    if (Number.isNaN(lo) || Number.isNaN(hi)) nan = true;
    if (lo !== undefined && lo !== null && (min === null || less(lo, min))) min = lo;
    if (hi !== undefined && hi !== null && (max === null || less(max, hi))) max = hi;
  }
  return { min, max, nan };
}

const same = (type, a, b) => (a === null || b === null ? a === b : TEXT.has(type) ? cmpBytes(a, b) === 0 : type === "bool" ? a === b : a == b); // eslint-disable-line eqeqeq

export function valueView(type, unit, v) {
  if (v === null || v === undefined) return h("span", { class: "v-none" }, "—");
  if (unit) return h("span", { class: "v-num", title: `${scalarText(type, v)}` }, formatTime(v, unit));
  return valueNode(type, v, { maxChars: 60 });
}

/**
 * The histogram: bars in an SVG that stretches to its card's width (and a
 * fixed height), its axis labels and title as text below it, so they stay
 * legible however narrow the card is.
 */
let histograms = 0; // for ids unique in the page
// Bar heights on a log scale: a choice kept for every histogram after it,
// as one skewed column usually means others (ids, counts, sizes).
let logScale = false;

function histogram(p, unit, type, pick) {
  const hist = p.histogram;
  const counts = hist.counts;
  const W = 640;
  const H = 116;
  const left = 8;
  const maxC = Math.max(1, ...counts);
  const bw = (W - left * 2) / counts.length;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", height: H, preserveAspectRatio: "none", class: "hist", "data-testid": "profile-histogram", role: "img", "aria-label": `histogram of ${plural(counts.length, "bin")}` });
  const edge = (k) => hist.lo + k * hist.width;
  const perSecond = { s: 1, ms: 1e3, us: 1e6, ns: 1e9 }[unit] || 1;
  // Times: edges to the whole second (the bins are far wider than that).
  // (4 digits of a double near the largest read back as Infinity: then as written)
  const digits = (x) => (Number.isFinite(Number(x.toPrecision(4))) ? Number(x.toPrecision(4)).toString() : x.toPrecision(4));
  // Integers exactly: an edge as the whole number the bins use (edgeText),
  // the greatest value as it is (a 64-bit one a BigInt), every digit true.
  const whole = (x) => (typeof x === "bigint" ? x : BigInt(Math.round(x)));
  const label = (x) => (unit ? formatTime(BigInt(Math.round(Number(x) / perSecond)) * BigInt(perSecond), unit).replace(/ 00:00:00$/, "") : hist.integer ? fmtInt(whole(x)) : digits(x));
  // (the greatest value: where the last bin and an axis end; a float's as a number)
  const greatest = hist.integer ? hist.hi : Number(hist.hi);
  const duration = (sec) => (sec >= 86400 ? `${(sec / 86400).toPrecision(3)} days` : sec >= 3600 ? `${(sec / 3600).toPrecision(3)} hours` : sec >= 60 ? `${(sec / 60).toPrecision(3)} minutes` : `${sec.toPrecision(3)} s`);
  // A bin's values as conditions: from its low edge, below the next (the
  // last bin up to the greatest finite value, which it holds), as the
  // profile bins them (edgeText: it bins by the edges read back).
  const last = counts.length - 1;
  const binConditions = (k) => [
    { op: ">=", text: edgeText(hist, k) },
    k === last ? { op: "<=", text: scalarText(type, hist.hi) } : { op: "<", text: edgeText(hist, k + 1) },
  ];
  const id = ++histograms;
  const open = []; // the bars that lead to rows: { el, k, what }
  // A bar's height: its rows, or their log (1 row still shows), to the tallest's.
  const height = (c) => ((H - 6) * (logScale ? Math.log1p(c) / Math.log1p(maxC) : c / maxC));
  const bars = [];
  counts.forEach((c, k) => {
    const bh = height(c);
    const hiEdge = k === last ? greatest : hist.integer ? whole(edge(k + 1)) - 1n : edge(k + 1);
    const what = `${label(edge(k))}${hist.integer && hist.width === 1 ? "" : ` – ${label(hiEdge)}`}: ${plural(c, "row")}`;
    const leads = c && pick && p.max !== null;
    const el = s(
      "rect",
      { x: left + k * bw + 0.5, y: H - bh, width: Math.max(1, bw - 1), height: Math.max(c ? 1 : 0, bh), class: ["hist-bar", leads && "to-rows"], "data-count": c, "data-testid": "histogram-bar", onclick: leads ? () => pick(binConditions(k)) : null, ...(leads ? { id: `hist-${id}-${k}`, role: "option", "aria-label": what } : {}) },
      s("title", {}, `${what}${leads ? " (click: these rows in Data)" : ""}`),
    );
    if (leads) open.push({ el, k, what });
    bars.push(el);
    svg.append(el);
  });
  svg.append(s("line", { x1: left, x2: W - left, y1: H - 0.5, y2: H - 0.5, class: "axis" }));
  // The keyboard: one tab stop; arrow keys move between the bins that hold
  // rows, Enter shows the active bin's rows in Data (as the byte map).
  const info = h("div", { class: "muted small hist-info", "aria-live": "polite", "data-testid": "histogram-info" });
  if (open.length) {
    svg.setAttribute("role", "listbox");
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("aria-label", `histogram of ${plural(counts.length, "bin")}: arrow keys move between bins, Enter shows a bin's rows in Data`);
    let active = 0;
    const activate = (i) => {
      active = Math.max(0, Math.min(open.length - 1, i));
      for (const b of open) b.el.classList.remove("active");
      open[active].el.classList.add("active");
      svg.setAttribute("aria-activedescendant", open[active].el.id);
      info.textContent = `${open[active].what} · Enter: these rows in Data`;
    };
    svg.addEventListener("focus", () => activate(active));
    svg.addEventListener("blur", () => {
      open[active].el.classList.remove("active");
      info.textContent = "";
    });
    svg.addEventListener("keydown", (ev) => {
      const to = { ArrowRight: active + 1, ArrowLeft: active - 1, Home: 0, End: open.length - 1 }[ev.key];
      if (to !== undefined) activate(to);
      else if (ev.key === "Enter" || ev.key === " ") pick(binConditions(open[active].k));
      else return;
      ev.preventDefault();
    });
  }
  // (one bin: no middle; the axis ends at the greatest value, not at the
  // last bin's edge, past it: 2,147,483,672 for an int32)
  const ticks = counts.length > 1 ? [0, Math.floor(counts.length / 2), counts.length] : [0, 1];
  const tick = (k) => label(k === counts.length ? greatest : edge(k));
  const scaleText = () => `bar height: rows${logScale ? " (log scale)" : ""}, the tallest ${fmtInt(maxC)}`;
  const scale = h("span", { "data-testid": "histogram-scale" }, scaleText());
  const toggle = h("button", { type: "button", class: "scale-toggle", "aria-pressed": String(logScale), "data-testid": "histogram-log", title: "bar heights on a log scale, so bins of few rows show beside the tallest" }, "log scale");
  toggle.addEventListener("click", () => {
    logScale = !logScale;
    toggle.setAttribute("aria-pressed", String(logScale));
    scale.textContent = scaleText();
    counts.forEach((c, k) => {
      const bh = height(c);
      bars[k].setAttribute("y", H - bh);
      bars[k].setAttribute("height", Math.max(c ? 1 : 0, bh));
    });
  });
  return h(
    "div",
    { class: "hist-box" },
    svg,
    h(
      "div",
      { class: "hist-ticks" },
      ticks.map((k) => h("span", { class: ["axis-label", k === 0 ? "start" : k === counts.length ? "end" : "middle"], style: { left: `${(100 * (left + k * bw)) / W}%` }, "data-testid": "histogram-tick" }, tick(k))),
    ),
    h("div", { class: "axis-title" }, `${plural(counts.length, "bin")}${unit ? ` of ${duration(hist.width / perSecond)} (UTC)` : hist.integer ? ` of ${fmtInt(whole(hist.width))}` : ""} · `, scale, " · ", toggle, open.length ? " · click a bar for its rows in Data" : ""),
    info,
    // The infinities, which no bin holds (NaN and nulls are said beside the
    // profile's figures): each a way to its rows, as a bar is.
    p.negInf || p.posInf
      ? h(
          "div",
          { class: "muted small", "data-testid": "histogram-infinities" },
          "Not in the bins: ",
          [["-Infinity", p.negInf], ["Infinity", p.posInf]]
            .filter(([, n]) => n)
            .map(([v, n], i) => [i ? ", " : "", pick ? h("button", { type: "button", class: "cell-button to-rows", title: "show these rows in Data", onclick: () => pick([{ op: "=", text: v }]) }, `${plural(n, "row")} of ${v}`) : `${plural(n, "row")} of ${v}`]),
        )
      : null,
  );
}

const TOP_FIRST = 20; // most common values shown at first
const TOP_STEP = 100; // and how many more each "Show more" adds

/**
 * The most common values: the first TOP_FIRST rows, then more on request
 * from the TOP_KEPT the worker sent (so no click can ask the page for a
 * million rows), with a line saying how many are shown of how many
 * distinct values and how many are not listed. `head`: the heading, kept
 * in step with the rows shown. `pick(text)`: a value clicked, as the text
 * of its "=" condition.
 */
function topList(p, type, unit, head, pick) {
  const nonNull = p.rows - p.nulls;
  const max = Math.max(1, ...p.top.map((t) => t.count));
  const kept = p.top.length;
  const distinct = `${p.distinctExact ? "" : "≈ "}${fmtInt(p.distinct)}`;
  const body = h("tbody", {});
  const line = h("div", { class: "top-more small", "data-testid": "profile-top-more" });
  let shown = 0;
  const row = (t) => {
    // A value shown whole is a way to its rows in Data (a long text value
    // past the first 20 comes cut, ../profile.js: the cell shows its start).
    const text = t.length ? null : equalsText(type, t.value);
    // (zero counted with -0, ../profile.js: its "= 0" selects both)
    const negZeros = t.negZeros ? h("span", { class: "muted small", "data-testid": "profile-top-negzeros", title: "-0 and 0 are one value here, as in Data's filter" }, ` (-0 in ${fmtInt(t.negZeros)})`) : null;
    return h(
      "tr",
      { "data-testid": "profile-top-row" },
      h(
        "td",
        { class: "stat", title: t.length ? `${fmtInt(t.length)} bytes` : null },
        text !== null
          ? h("button", { type: "button", class: "cell-button to-rows", "data-testid": "profile-top-value", title: "show the rows with this value in Data", onclick: () => pick(text) }, valueView(type, unit, t.value))
          : valueView(type, unit, t.value),
        negZeros,
      ),
      h("td", { class: "num", "data-value": t.count }, fmtInt(t.count)),
      h("td", { class: "num" }, fmtPct(t.count / Math.max(1, nonNull))),
      h("td", { class: "bar-cell" }, h("span", { class: "bar stored", style: { width: `${(100 * t.count) / max}%` } })),
    );
  };
  const show = (n) => {
    const to = Math.min(kept, n);
    body.append(...p.top.slice(shown, to).map(row));
    shown = to;
    const all = shown >= p.distinct && p.distinctExact;
    if (head) head.textContent = `Most common values${all ? "" : ` (top ${fmtInt(shown)} of ${distinct})`}`;
    const beyond = p.distinct - kept;
    fill(
      line,
      h("span", { class: "muted" }, all ? `Showing all ${fmtInt(shown)} distinct values.` : `Showing the ${fmtInt(shown)} most common of ${distinct} distinct values.`),
      // (NaN is no value of the table, counted apart; the shares are of every non-null row)
      p.nans ? h("span", { class: "muted", "data-testid": "profile-top-nans" }, ` NaN is not among them: its ${fmtInt(p.nans)} ${p.nans === 1 ? "row is" : "rows are"} ${fmtPct(p.nans / Math.max(1, nonNull))} of the non-null rows.`) : null,
      shown >= kept && beyond > 0 ? h("span", { class: "muted" }, ` The profile keeps the ${fmtInt(kept)} most common; the other ${p.distinctExact ? "" : "≈ "}${fmtInt(beyond)} are not listed (sort or filter the column in Data, or GROUP BY it in SQL).`) : null,
      shown < kept && kept - shown > TOP_STEP ? [" ", h("button", { type: "button", class: "small", "data-testid": "profile-top-next", onclick: () => show(shown + TOP_STEP) }, `Show ${fmtInt(TOP_STEP)} more`)] : null,
      shown < kept ? [" ", h("button", { type: "button", class: "small", "data-testid": "profile-top-all", onclick: () => show(kept) }, kept >= p.distinct && p.distinctExact ? `Show all ${fmtInt(kept)}` : `Show the first ${fmtInt(kept)}`)] : null,
    );
  };
  show(TOP_FIRST);
  // The table in a box of its own that scrolls sideways: a long value or a
  // narrow window never widens the page.
  return [
    h(
      "div",
      { class: "scroll-x top-values-box" },
      h(
        "table",
        { class: "data compact top-values", "data-testid": "profile-top" },
        h("thead", {}, h("tr", {}, h("th", {}, "Value", pick ? h("span", { class: "muted small", style: { fontWeight: "normal" } }, " · click one for its rows in Data") : null), h("th", { class: "num" }, p.topExact ? "Rows" : "Rows (at least)"), h("th", { class: "num" }, "Share"), h("th", {}, ""))),
        body,
      ),
    ),
    // Nothing more to say of a list that is whole at first (a bool, a few
    // values), but where NaN was left out of it.
    kept <= TOP_FIRST && p.distinctExact && p.distinct <= kept && !p.nans ? null : line,
  ];
}

// Profiles counted while their file is open (keyed by the open, ctx.gen):
// Column detail and the Schema's summary of every column share them.
const cache = new Map(); // `${gen}:${c}` -> result

/** Column c's profile counted already, or undefined. */
export const profiled = (ctx, c) => cache.get(`${ctx.gen}:${c}`);

/** Column c's profile: counted already, or now in the worker (kept while its file is open). */
export async function countProfile(ctx, c, opts) {
  const hit = profiled(ctx, c);
  if (hit) return hit;
  const [r] = await countProfiles(ctx, [c], opts, `Profiling ${nameString(ctx.labels[c])}`);
  if (r.error) throw Object.assign(new Error(r.error.message), r.error);
  return r;
}

/** The profiles of columns `cols` counted in one pass of the worker's
 *  (each row group's chunks of them read together), each kept while its
 *  file is open: a { c, profile, ms, with } or a { c, error } a column. */
export async function countProfiles(ctx, cols, opts, label = `Profiling ${plural(cols.length, "column")}`) {
  const gen = ctx.gen;
  // (the footer's range of each number column: its histogram counted in the first pass)
  const ranges = cols.map((c) => (hasHistogram(ctx.file.schema[c].type) ? footerRange(ctx.file, c) : null));
  const { results, ms } = await ctx.call("profiles", { cols, ranges }, label, opts);
  // (`with`: the others counted in the same pass, its time theirs too)
  const out = results.map((r) => (r.profile ? { c: r.c, profile: r.profile, ms, with: cols.length - 1, passes: r.passes } : r));
  if (gen === ctx.gen) for (const r of out) if (r.profile) cache.set(`${gen}:${r.c}`, r);
  return out;
}

/** Forgets the profiles of the files opened before. */
export const forgetProfiles = () => cache.clear();

export function createProfile(ctx) {
  const el = h("section", { class: "card profile", "data-testid": "profile" });
  // What makes the counts inexact (../profile.js).
  const past = (type) => `${fmtInt(EXACT_LIMIT)} distinct values${TEXT.has(type) ? ` or ${fmtBytes(ARENA_LIMIT)} of them` : ""}`;
  let ac = null;
  let current = -1;
  // Bumped by each run, column shown and file opened: a run draws its end
  // only while nothing came since (its answer may come after another
  // file's card is up).
  let token = 0;

  function render(c, res) {
    const f = ctx.file;
    const type = f.schema[c].type;
    const unit = ctx.timeUnits[c] || null;
    const p = res.profile;
    const foot = footerRange(f, c);
    const agreeMin = same(type, p.min, foot.min);
    const agreeMax = same(type, p.max, foot.max);
    // (where the footer cannot say, or is known to be wrong, said so: as Column detail's checks do per chunk)
    const mark = (ok) =>
      foot.nan
        ? h("span", { class: "muted small", "data-testid": "profile-footer-nan" }, "not compared: a chunk's footer statistic is NaN, as the writer records when its first value is NaN")
        : ok
          ? h("span", { class: "ok-badge" }, "✓ agree")
          : [h("span", { class: "bad-badge" }, "✗ differ"), type === "bytes" ? h("span", { class: "muted small", "data-testid": "profile-writer-bug" }, " the reference writer's known bug for bytes statistics (after an empty value) can cause this: Column detail checks each chunk") : null];
    const nonNull = p.rows - p.nulls;
    // A value picked (a most common one, as its condition's text): Data, its rows alone.
    const rowsOf = (text) => ctx.rowsWhere([{ c, op: "=", text }]);
    // (read once, or twice where the footer's range was not the exact one: tests/e2e/profilepass.test.mjs)
    el.dataset.passes = String(res.passes);
    fill(
      el,
      h("h3", {}, "Profile of ", h("span", { class: "colname" }, nameNode(ctx.labels[c])), f.rowGroups.length === 1 ? " over its one row group" : ` over all ${plural(f.rowGroups.length, "row group")}`, h("span", { class: "muted small", "data-testid": "profile-ms" }, res.with ? ` · counted with ${plural(res.with, "other column")} in ${fmtMs(res.ms)}` : ` · ${fmtMs(res.ms)} in the worker`)),
      h(
        "div",
        { class: "profile-grid" },
        h(
          "dl",
          { class: "kv" },
          h("dt", {}, "Rows"),
          h("dd", { "data-testid": "profile-rows" }, fmtInt(p.rows)),
          h("dt", {}, "Nulls"),
          h(
            "dd",
            { "data-testid": "profile-nulls", "data-value": p.nulls },
            `${fmtInt(p.nulls)} (${fmtPct(p.nulls / Math.max(1, p.rows))})`,
            p.nulls ? [" ", h("button", { type: "button", class: "small", "data-testid": "profile-null-rows", onclick: () => ctx.rowsWhere([{ c, op: "null", text: "" }]) }, "Show in Data")] : null,
          ),
          p.nans ? [h("dt", {}, "NaN"), h("dd", {}, fmtInt(p.nans))] : null,
          h("dt", {}, "Distinct values"),
          h(
            "dd",
            { "data-testid": "profile-distinct", "data-value": p.distinct, "data-exact": String(p.distinctExact) },
            p.distinctExact ? `${fmtInt(p.distinct)} (exact)` : `≈ ${fmtInt(p.distinct)} (HyperLogLog estimate, standard error about 0.8%: within ±1.6% 19 times in 20; more than ${past(type)})`,
          ),
          h("dt", {}, "Minimum"),
          h("dd", { "data-testid": "profile-min" }, valueView(type, unit, p.min), " ", h("span", { class: "muted small" }, "footer: "), valueView(type, unit, foot.min), " ", mark(agreeMin)),
          h("dt", {}, "Maximum"),
          h("dd", { "data-testid": "profile-max" }, valueView(type, unit, p.max), " ", h("span", { class: "muted small" }, "footer: "), valueView(type, unit, foot.max), " ", mark(agreeMax)),
          p.mean !== null && p.mean !== undefined && !unit
            ? [
                h("dt", { title: "over the finite values" }, "Mean"),
                h("dd", { "data-testid": "profile-mean" }, fmtMean(type, p.mean)),
                p.std === null ? null : [h("dt", { title: "the sample standard deviation (n − 1) of the finite values" }, "Standard deviation"), h("dd", { "data-testid": "profile-std" }, fmtMean(type, p.std))],
              ]
            : null,
          p.lengths ? [h("dt", {}, "Length (bytes)"), h("dd", { "data-testid": "profile-lengths" }, `${fmtInt(p.lengths.min)} to ${fmtInt(p.lengths.max)}, mean ${p.lengths.mean.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`)] : null,
          unit ? [h("dt", {}, "Shown as"), h("dd", { "data-testid": "profile-shown-as" }, `dates (${type} ${UNIT_LABEL[unit]} since 1970-01-01 UTC, ${ctx.timeSource[c] === "chosen" ? "as chosen" : "guessed from the name and range"})`)] : null,
        ),
        p.histogram ? histogram(p, unit, type, (conds) => ctx.rowsWhere(conds.map((x) => ({ c, ...x })))) : null,
      ),
      p.top.length && (TEXT.has(type) || type === "bool" || p.distinct <= 50 || !p.histogram)
        ? (() => {
            const head = h("h4", {});
            return h("div", {}, head, topList(p, type, unit, head, rowsOf));
          })()
        : p.top.length
          ? h("details", {}, h("summary", {}, "Most common values"), topList(p, type, unit, null, rowsOf))
          : h("p", { class: "muted" }, nonNull ? "" : p.rows ? "Every value is null." : "No rows."),
      p.topExact ? null : h("p", { class: "muted small" }, `Counts are lower bounds: past ${past(type)} the table of counts keeps only its most common half each time it fills.`),
    );
    el.dataset.state = "done";
    el.dataset.col = String(c);
  }

  async function run(c) {
    const mine = ++token;
    if (profiled(ctx, c)) {
      render(c, profiled(ctx, c));
      return;
    }
    ac?.abort();
    const my = (ac = new AbortController());
    const bar = h("progress", { max: 1, value: 0 });
    fill(el, h("h3", {}, "Profile of ", h("span", { class: "colname" }, nameNode(ctx.labels[c]))), h("div", { class: "button-row" }, bar, h("span", { class: "muted small" }, "reading every row group…"), h("button", { type: "button", class: "small danger", onclick: () => my.abort() }, "Stop")));
    el.dataset.state = "running";
    el.dataset.col = String(c); // (its error, if one comes, is this column's)
    try {
      const res = await countProfile(ctx, c, { signal: my.signal, onProgress: (p) => (bar.value = p.total ? p.done / p.total : 0) });
      if (mine === token) render(c, res);
    } catch (e) {
      if (mine !== token) return;
      el.dataset.state = "error";
      fill(el, e.kind === "cancelled" ? h("p", { class: "muted" }, "Profile stopped.", " ", h("button", { type: "button", class: "small", onclick: () => run(c) }, "Profile again")) : errorBox(e, { title: "The column could not be profiled", schema: ctx.file.schema, testid: "profile-error" }));
    }
  }

  return {
    el,
    show(c) {
      current = c;
      token++;
      const f = ctx.file;
      if (!f.rowGroups.length) {
        fill(el);
        return;
      }
      const stored = f.rowGroups.reduce((a, rg) => a + rg.columns[c].byteLength, 0);
      if (profiled(ctx, c) || stored <= AUTO_LIMIT) run(c);
      else {
        el.dataset.state = "idle";
        fill(el, h("h3", {}, "Profile of ", h("span", { class: "colname" }, nameNode(ctx.labels[c]))), h("p", {}, `Reads every chunk of this column (${fmtBytes(stored)} stored). `, h("button", { type: "button", "data-testid": "profile-run", onclick: () => run(c) }, "Profile this column")));
      }
    },
    /** Draws the shown column's profile again, if it is counted (the column now shows another way). */
    refresh() {
      if (current >= 0 && profiled(ctx, current)) render(current, profiled(ctx, current));
    },
    reset() {
      token++;
      ac?.abort();
      forgetProfiles();
      current = -1;
    },
  };
}
