// The page: opening files, the tab views, status and cancellation.

import { h, fill, $, $$ } from "./dom.js";
import { Engine } from "./engine.js";
import { fmtBytes, fmtInt, fileText, fileTextString } from "./format.js";
import { errorBox } from "./common.js";
import { columnLabels } from "./labels.js";
import { guessTimeUnit } from "./timefmt.js";
import { headerPlan } from "./chunkheaders.js";
import { unpackMeta } from "./metawire.js";
import { renderFacts, renderTokenizers, renderRegistered, updateIO } from "./views/summary.js";
import { renderSchema, renderChunks } from "./views/tables.js";
import { renderLayout } from "./views/layout.js";
import { createDetail } from "./views/detail.js";
import { createProfiles } from "./views/profiles.js";
import { createData } from "./views/data.js";
import { createSql } from "./views/sql.js";
import { createTiming } from "./views/timing.js";

// The scripts run: index.html's notice for a page whose scripts did not load goes.
document.getElementById("boot-notice")?.remove();

const TABS = ["schema", "chunks", "layout", "detail", "data", "sql", "timing"];

const ctx = {
  engine: null,
  file: null, // what the worker reported about the open file
  name: "",
  source: null, // { blob } | { url }
  gen: 0,
  registered: [], // tokenizers supplied on this page: { name, size, digest, bytes }
  manifest: null,
  sel: { g: 0, c: 0 },
  tab: "schema",
  ioNote: "",
  labels: [], // one unique label per column (index added where names repeat)
  timeUnits: {}, // column -> "s" | "ms" | "us" | "ns" for integer columns shown as times
  timeSource: {}, // column -> "guessed" (int64, by name and range) | "chosen" (by the person, until another file opens)
  sqlIO: { bytes: 0, requests: 0 }, // read from the file by the SQL tab's loads of table t (views/sql.js)
  decoded: new Map(), // "g:c" -> decoded bytes, learnt as chunks are read
  chunkErrors: new Map(), // "g:c" -> { error, header }: chunks learnt not to read (worker.js)
};

// ---------------------------------------------------------------- URL state
// ?url=&tab=&rg=&col=&row=&sort=&desc=&where=&sql=&sqlrun= : what is open, where,
// which view of its rows and which SQL statement, so a link shows the same
// (sqlrun=0: the statement did not finish, stopped or failed, and is not
// to run by itself when the address opens again).
//
// Opening another file (or going back to the samples) is a step the
// browser's Back undoes: it adds a history entry, where moving between
// tabs, chunks and rows only rewrites the current one. A local file has no
// address, so its entry holds the File itself, for as long as the page.

const urlState = new URLSearchParams(location.search);
const entryFiles = new Map(); // history entry id -> { blob, name }
// Entry ids of this page load only: entries made before a reload keep
// their ids in the history, and must not find a newer load's files.
const load = performance.timeOrigin;
let lastEntry = 0;
// Where the entry shown sits in the history (its state's `at`; 0 for the
// page's first), so that a step whose open is cancelled can step back.
let shownAt = history.state?.at ?? 0;
let steppingBack = false;
ctx.setUrlState = (patch, step = null) => {
  const was = urlState.toString();
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || v === undefined || v === "") urlState.delete(k);
    else urlState.set(k, String(v));
  }
  const q = urlState.toString();
  const address = q ? `?${q}` : location.pathname;
  // A step that changes nothing visible in the address (the same URL
  // again) adds no entry, unless it is a local file.
  if (step && (step.blob || q !== was)) {
    const entry = `${load}:${++lastEntry}`;
    if (step.blob) entryFiles.set(entry, { blob: step.blob, name: step.name });
    shownAt += 1;
    history.pushState({ entry, local: step.blob ? step.name : null, at: shownAt }, "", address);
  } else history.replaceState(history.state, "", address);
};

/** The address's view of a file, forgotten when another file opens (the tab stays). */
const NO_VIEW = { rg: null, col: null, row: null, sort: null, desc: null, where: null, sql: null, sqlrun: null };

/** What the address asks to see of a file (?tab=&rg=&col=&row=&sort=&desc=&where=&sql=). */
function addressView() {
  const int = (k) => (urlState.has(k) && /^\d+$/.test(urlState.get(k)) ? Number(urlState.get(k)) : null);
  return { tab: urlState.get("tab") || "schema", rg: int("rg"), col: int("col"), row: int("row"), sort: int("sort"), desc: urlState.get("desc") === "1", where: urlState.get("where"), sql: urlState.get("sql"), sqlRun: urlState.get("sqlrun") !== "0" };
}

/** Back or Forward: shows what the entry held (its file, where it was), or the samples. */
function onHistoryStep(ev) {
  for (const k of [...urlState.keys()]) urlState.delete(k);
  for (const [k, v] of new URLSearchParams(location.search)) urlState.set(k, v);
  if (steppingBack) {
    // Back where the page was before a step whose open was cancelled.
    steppingBack = false;
    $("#url-input").value = ctx.source?.url ? urlState.get("url") || "" : "";
    return;
  }
  const view = addressView();
  const held = entryFiles.get(ev.state?.entry);
  const url = urlState.get("url");
  const step = { at: ev.state?.at ?? 0 };
  if (held) return openSource({ blob: held.blob }, held.name, view, null, step);
  if (url) {
    $("#url-input").value = url;
    return openUrl(url, view, step);
  }
  shownAt = step.at;
  ++ctx.gen; // an open under way no longer shows
  ctx.file = null;
  ctx.source = null;
  $("#url-input").value = "";
  showWelcome();
  document.body.dataset.state = "";
  // The page was reloaded since: the File went with it.
  if (ev.state?.local) toast(`${ev.state.local} was a local file: open it again to see it.`);
}

// ---------------------------------------------------------------- status

const tasks = new Map();
let taskId = 0;
// The status line (#status-text) shows each step of the work under way; it
// is no live region (a 3M-row export read out "rows written 65536 of
// 3000000 Cancel" 48 times). What a screen reader hears is said apart, in
// #status-said: a task's start, if it is still going after SAY_AFTER_MS
// (a quick one is said by what it shows), and then how it ended.
const SAY_AFTER_MS = 1000;
/** Says `text` politely to a screen reader (the page's own live region). */
function say(text) {
  const el = $("#status-said");
  // (the same words again are read again only as a change)
  el.textContent = el.textContent === text ? `${text}\u00a0` : text;
}
ctx.say = say;
function renderStatus() {
  const el = $("#status");
  const last = [...tasks.values()].pop();
  el.classList.toggle("busy", tasks.size > 0);
  // What is under way, then how far it is: when the line is too long for
  // its room, the first part is cut (a long file name), not the progress;
  // the whole line shows on hover.
  const text = $("#status-text");
  if (last) fill(text, h("span", { class: "status-what" }, last.detail === null ? `${last.label}…` : `${last.label}:`), last.detail === null ? null : h("span", { class: "status-detail" }, h("span", { class: "status-gap" }, " "), last.detail));
  else fill(text);
  text.title = text.textContent;
  const cancel = $("#cancel-button");
  // Cancel, disabled and hidden with nothing under way, would drop the
  // focus to the page's body: it goes to the tab shown (the file's views),
  // else to Open file.
  if (tasks.size === 0 && document.activeElement === cancel) {
    const tab = $(`#tab-${ctx.tab}`);
    (tab?.getClientRects().length ? tab : $("#open-button")).focus();
  }
  cancel.disabled = tasks.size === 0;
}
/** A task on the status line; `quiet`: its start and end are not said
 *  (its view says them itself, as the Timing tab does). */
function beginTask(label, { quiet = false } = {}) {
  const id = ++taskId;
  const task = { label, detail: null, said: false, timer: 0 };
  tasks.set(id, task);
  if (!quiet)
    task.timer = setTimeout(() => {
      task.said = true;
      say(`${label}…`);
    }, SAY_AFTER_MS);
  renderStatus();
  return {
    progress(p) {
      const t = tasks.get(id);
      if (!t) return;
      t.detail = p.text ?? (p.total ? `${p.label} ${fmtInt(p.done)} of ${fmtInt(p.total)}` : p.label);
      renderStatus();
    },
    /** `error`: how it ended, if not well. */
    end(error = null) {
      clearTimeout(task.timer);
      tasks.delete(id);
      renderStatus();
      if (task.said) say(!error ? `${label}: done.` : error.kind === "cancelled" ? `${label}: stopped.` : `${label}: failed${error.kind ? ` (${error.kind})` : ""}.`);
    },
  };
}

function toast(text, kind = "info") {
  const t = h("div", { class: ["toast", kind], role: kind === "error" ? "alert" : "status" }, text);
  $("#toasts").append(t);
  setTimeout(() => t.remove(), kind === "info" ? 5000 : 9000);
}
ctx.toast = toast;

/** Saves a Blob under a name (a download). */
ctx.download = (name, blob) => {
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, style: { display: "none" } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

/** Takes in I/O counters and decoded sizes from a worker answer. */
ctx.noteIO = (res) => {
  if (!ctx.file || !res || typeof res.bytesRead !== "number") return;
  ctx.file.bytesRead = res.bytesRead;
  ctx.file.requests = res.requests;
  if (res.decoded) {
    for (const [k, v] of res.decoded) ctx.decoded.set(k, v);
    // Decoded sizes now known: the size tables show them when next opened.
    dirty.add("schema").add("chunks");
  }
  if (res.failures) {
    for (const [k, v] of res.failures) ctx.chunkErrors.set(k, v);
    // A chunk now known not to read: the size tables flag it.
    refreshTables();
  }
  updateIO(ctx);
};

ctx.updateIO = () => updateIO(ctx);

/** Runs a worker operation with a status line; keeps I/O counters fresh. */
ctx.call = async (op, args, label, { onProgress, signal, quiet = false } = {}) => {
  const task = beginTask(label || op, { quiet });
  const gen = ctx.gen;
  let error = null;
  try {
    const res = await ctx.engine.call(op, args, {
      signal,
      onProgress: (p) => {
        task.progress(p);
        onProgress?.(p);
      },
    });
    if (gen === ctx.gen) ctx.noteIO(res);
    return res;
  } catch (e) {
    error = e;
    throw e;
  } finally {
    task.end(error);
  }
};

// ---------------------------------------------------------------- views

const panels = Object.fromEntries(TABS.map((t) => [t, $(`#panel-${t}`)]));
const detail = createDetail(ctx, panels.detail);
const data = createData(ctx, panels.data);
const sql = createSql(ctx, panels.sql);
/** The Data tab's view as a statement, run in the SQL tab. */
ctx.viewInSql = (view) => {
  if (sql.refuses(view)) return;
  showTab("sql");
  sql.fromView(view);
};
const timing = createTiming(ctx, panels.timing);
const profiles = createProfiles(ctx);
ctx.profilesEl = profiles.el; // below the Schema's table (renderSchema)
const dirty = new Set();

function renderFileViews() {
  renderFacts(ctx, $("#facts"));
  renderTokenizers(ctx, $("#tokenizers"));
  // The big tables are built when their tab is shown (a slice at a time),
  // not while hidden: showing a hidden 4,000-cell table costs one long layout.
  for (const t of ["schema", "chunks", "layout"]) fill(panels[t]);
  dirty.add("schema").add("chunks").add("layout");
  detail.render();
  profiles.reset();
  data.render();
  sql.render();
  timing.render();
  dirty.add("detail").add("sql");
}

/** A link's Data-tab view (data.activate's state) to restore when that tab is first shown, or null. */
let pendingRowsView = null;

function showTab(name, { focus = false } = {}) {
  if (!TABS.includes(name)) name = "schema";
  // Focus in the panel this hides (a table's row, a button that opens
  // another view) would fall to the page's body: it goes to the new
  // panel's landing place (data-focus-on-show), else to its tab.
  const from = panels[ctx.tab];
  const lost = name !== ctx.tab && !!from?.contains(document.activeElement);
  ctx.tab = name;
  ctx.setUrlState({ tab: name === "schema" ? null : name });
  for (const t of TABS) {
    const tab = $(`#tab-${t}`);
    const on = t === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    panels[t].hidden = !on;
  }
  if (focus) $(`#tab-${name}`).focus();
  if (dirty.has(name)) {
    dirty.delete(name);
    if (name === "detail") detail.activate();
    if (name === "sql") sql.activate();
    if (name === "schema") renderSchema(ctx, panels.schema);
    if (name === "chunks") renderChunks(ctx, panels.chunks);
    if (name === "layout") renderLayout(ctx, panels.layout);
  }
  if (name === "data" && pendingRowsView) {
    const view = pendingRowsView;
    pendingRowsView = null;
    data.activate(view);
  }
  // Columns profiled in Column detail since show here too.
  if (name === "schema") profiles.refresh();
  if (lost) (panels[name].querySelector("[data-focus-on-show]") ?? $(`#tab-${name}`)).focus();
}

/** Schema and chunk tables again (chunk headers read, tokenizers changed): now if in sight, else when shown. */
function refreshTables() {
  dirty.add("schema").add("chunks");
  if (ctx.tab === "schema" || ctx.tab === "chunks") {
    dirty.delete(ctx.tab);
    const panel = panels[ctx.tab];
    const refocus = focusPlace(panel);
    (ctx.tab === "schema" ? renderSchema : renderChunks)(ctx, panel);
    refocus?.();
  }
}

/** Attributes that tell a control apart from its neighbours in a view drawn anew. */
const PLACE = ["data-testid", "data-key", "data-rg", "data-col"];

/**
 * Where the focus is in `panel`, to put it back once the panel is drawn
 * anew (chunk headers read, a tokenizer come): on the same control (a
 * table's row or sort button, a field), or, where that is gone (the button
 * that read the headers), on the panel's tab. Null if the focus is
 * elsewhere. Drawn anew, the panel's old controls leave the page, and the
 * focus fell to its body.
 */
function focusPlace(panel) {
  const at = document.activeElement;
  if (!at || at === panel || !panel.contains(at)) return null;
  const parts = [];
  for (let n = at; n !== panel; n = n.parentElement) {
    const marks = PLACE.filter((a) => n.hasAttribute(a));
    if (n === at || marks.length) parts.unshift(n.localName + marks.map((a) => `[${a}="${CSS.escape(n.getAttribute(a))}"]`).join(""));
  }
  const selector = parts.join(" ");
  const tab = ctx.tab;
  return () => (panel.querySelector(selector) ?? $(`#tab-${tab}`))?.focus();
}

ctx.refreshTables = refreshTables;

ctx.select = (g, c, tab) => {
  if (g !== null && g !== undefined) ctx.sel.g = g;
  if (c !== null && c !== undefined) ctx.sel.c = c;
  ctx.setUrlState({ rg: ctx.sel.g || null, col: ctx.sel.c || null });
  // The selection shows in the chunk grid and the byte map.
  for (const el of $$("[data-testid=chunk-row]")) el.classList.toggle("selected", Number(el.dataset.rg) === ctx.sel.g && Number(el.dataset.col) === ctx.sel.c);
  for (const el of $$("[data-testid=layout-region][data-kind=chunk]")) {
    const on = Number(el.dataset.rg) === ctx.sel.g && Number(el.dataset.col) === ctx.sel.c;
    el.classList.toggle("selected", on);
    el.setAttribute("aria-selected", String(on)); // (the chunk shown selected is the one announced)
  }
  dirty.add("detail");
  if (tab) showTab(tab);
};

/** Shows column c's values as dates of `unit` ("s", "ms", "us", "ns"), or as numbers (null): every view. */
ctx.setTimeUnit = (c, unit) => {
  if (unit) ctx.timeUnits[c] = unit;
  else delete ctx.timeUnits[c];
  ctx.timeSource[c] = "chosen";
  data.timeUnitsChanged();
  profiles.refresh();
  if (ctx.tab === "detail") detail.timeUnitsChanged();
  else dirty.add("detail");
};

/** The Data tab, its rows those where `conds` hold ([{ c, op, text }]: a profile's value, bin or nulls picked). */
ctx.rowsWhere = (conds) => {
  showTab("data");
  data.rowsWhere(conds);
};

/** Shows the first row of row group g, column c, in the data grid. */
ctx.previewChunk = (g, c) => {
  const first = ctx.file.rowGroups.slice(0, g).reduce((a, rg) => a + rg.numRows, 0);
  showTab("data");
  data.activate({ row: first, col: c });
};

// ---------------------------------------------------------------- opening

/** The samples, as a step Back undoes (the address forgets the file). */
function toSamples() {
  ctx.setUrlState({ url: null, tab: null, ...NO_VIEW }, {});
  $("#url-input").value = "";
  showWelcome();
}

function showWelcome() {
  $("#welcome").hidden = false;
  $("#error-panel").hidden = true;
  $("#file-view").hidden = true;
  document.title = "columns inspector";
}

/** int64 columns whose footer statistics look like times (see timefmt.js). */
function timeUnits(info) {
  const out = {};
  info.schema.forEach((col, c) => {
    let min = null;
    let max = null;
    for (const rg of info.rowGroups) {
      const cm = rg.columns[c];
      if (typeof cm.min === "bigint" && (min === null || cm.min < min)) min = cm.min;
      if (typeof cm.max === "bigint" && (max === null || cm.max > max)) max = cm.max;
    }
    const unit = guessTimeUnit(col.name, col.type, min, max);
    if (unit) out[c] = unit;
  });
  return out;
}

/**
 * Opens a Blob or a URL. `address` is the page address's new state
 * (ctx.setUrlState), taken once the attempt ends: a cancelled one leaves
 * the address (and the field) saying what is still shown.
 */
async function openSource(src, name, restore = null, address = {}, step = true) {
  // step: true, a step of its own in the history; false, none; { at }, the
  // history's step to entry `at` (Back or Forward), the address already its.
  const push = step === true && { blob: src.blob, name };
  const gen = ++ctx.gen;
  $("#samples-menu").open = false;
  const before = document.body.dataset.state;
  document.body.dataset.state = "opening";
  let info;
  try {
    info = await ctx.call("open", src.blob ? { blob: src.blob } : { url: src.url }, `Opening ${name}`);
    const { packed, ...rest } = info;
    info = { ...rest, ...unpackMeta(packed) };
  } catch (e) {
    if (gen !== ctx.gen) return;
    if (e.kind === "cancelled") {
      document.body.dataset.state = before;
      // The field says what is shown again, not the URL whose open stopped.
      $("#url-input").value = ctx.source?.url ? urlState.get("url") || ctx.source.url : "";
      // A Back or Forward cancelled: the history steps back to what shows.
      if (step.at !== undefined && step.at !== shownAt) {
        steppingBack = true;
        history.go(shownAt - step.at);
      }
      return;
    }
    if (step.at !== undefined) shownAt = step.at;
    if (address) ctx.setUrlState(address, push);
    if (src.blob) $("#url-input").value = "";
    ctx.file = null;
    ctx.source = null;
    $("#welcome").hidden = true;
    $("#file-view").hidden = true;
    const panel = $("#error-panel");
    fill(
      panel,
      errorBox(e, { title: `${name} could not be opened`, testid: "open-error" }),
      h("p", { class: "muted" }, "Open another file, drop one on the page, or pick a sample."),
      h("button", { type: "button", onclick: toSamples }, "Show the samples"),
    );
    panel.hidden = false;
    document.title = `${fileTextString(name)} could not be opened — columns inspector`;
    renderTokenizersAnywhere();
    document.body.dataset.state = "error";
    return;
  }
  if (gen !== ctx.gen) return;
  if (step.at !== undefined) shownAt = step.at;
  if (address) ctx.setUrlState(address, push);
  if (src.blob) $("#url-input").value = "";
  ctx.file = info;
  ctx.source = src.blob ? { blob: src.blob } : { url: src.url };
  ctx.name = name;
  ctx.ioNote = info.note || "";
  ctx.labels = columnLabels(info.schema);
  ctx.timeUnits = timeUnits(info);
  ctx.timeSource = Object.fromEntries(Object.keys(ctx.timeUnits).map((c) => [c, "guessed"]));
  ctx.sqlIO = { bytes: 0, requests: 0 };
  ctx.decoded = new Map();
  ctx.chunkErrors = new Map();
  // Raw lengths and block counts live in each chunk's 18-byte header: a
  // request each over HTTP (or one for headers close together), so a URL
  // file whose headers take many requests, or many bytes, opens with its
  // footer alone and the tables offer to read them (ctx.loadHeaders).
  // (Made once a file: the tables' notice says what the plan costs.)
  const plan = (ctx.headerPlan = headerPlan(info.rowGroups.flatMap((rg) => rg.columns), { http: !!ctx.source.url }));
  ctx.headers = ctx.source.url && (plan.requests > MAX_EAGER_HEADER_REQUESTS || plan.bytes > MAX_EAGER_HEADER_BYTES) ? "deferred" : "loading";
  const want = restore || {};
  if (restore) leaveOutOfAddress(info);
  const clampInt = (v, n) => (Number.isInteger(v) && v >= 0 && v < n ? v : 0);
  ctx.sel = { g: clampInt(want.rg, info.rowGroups.length), c: clampInt(want.col, info.schema.length) };
  if (want.tab) ctx.tab = want.tab;
  $("#welcome").hidden = true;
  $("#error-panel").hidden = true;
  $("#file-view").hidden = false;
  document.title = `${fileTextString(name)} — columns inspector`;
  renderFileViews();
  if (want.sql) sql.linked(want.sql, { run: want.sqlRun });
  // Opened from something now hidden (a sample card): focus moves to the
  // file's tabs instead of being lost to the page.
  const lost = !document.activeElement || document.activeElement === document.body || document.activeElement.closest("[hidden]");
  pendingRowsView = null; // (the last file's, never shown)
  showTab(ctx.tab, { focus: !!lost });
  // The link's view of the rows (its order, filter and row): checked now
  // (what does not fit is said at once), restored now if it opens on the
  // Data tab, else when that tab is first shown (the address keeps it
  // meanwhile, as the tab it was left on did).
  if (want.where === "") ctx.setUrlState({ where: null }); // (no filter, as where=[] is)
  const rowsView = Number.isInteger(want.row) || Number.isInteger(want.sort) || want.where ? data.link({ row: want.row, col: ctx.sel.c, sort: want.sort, desc: want.desc, where: want.where }) : null;
  if (ctx.tab === "data") {
    if (rowsView) data.activate(rowsView);
  } else pendingRowsView = rowsView;
  if (ctx.headers === "loading") await loadHeaders(gen);
  if (gen === ctx.gen) document.body.dataset.state = "ready";
}

/** A link's numbers that have no place in the file (rg=99 in a file of 3
 *  row groups, row=abc): said in a toast and taken out of the address, so
 *  that a link copied from here asks for what the page shows. (A row past
 *  the last is not one: the Data tab goes to the last.) */
function leaveOutOfAddress(info) {
  const places = { rg: [info.rowGroups.length, "row group"], col: [info.schema.length, "column"], sort: [info.schema.length, "column"], row: [Infinity, "row"] };
  const said = [];
  const patch = {};
  for (const [k, [n, what]] of Object.entries(places)) {
    const raw = urlState.get(k);
    if (raw === null) continue;
    if (!/^\d+$/.test(raw)) said.push(`${k}=${raw.slice(0, 20)} (not a ${what} number)`);
    else if (Number(raw) >= n) said.push(`${k}=${raw.slice(0, 20)} (the file has ${n.toLocaleString("en-US")} ${what}${n === 1 ? "" : "s"})`);
    else continue;
    patch[k] = null;
    if (k === "sort") patch.desc = null;
  }
  if (!said.length) return;
  ctx.setUrlState(patch);
  toast(`The link's ${said.join(", ")} ${said.length === 1 ? "was" : "were"} left out.`);
}

// Over HTTP, chunk headers read when a file opens: at most this many
// requests and bytes.
const MAX_EAGER_HEADER_REQUESTS = 32;
const MAX_EAGER_HEADER_BYTES = 1024 * 1024;

async function loadHeaders(gen) {
  ctx.headers = "loading";
  try {
    const hdr = await ctx.call("loadHeaders", {}, "Reading chunk headers");
    if (gen !== ctx.gen) return;
    let k = 0;
    for (const rg of ctx.file.rowGroups) for (const cm of rg.columns) (cm.rawLength = hdr.raw[k]), (cm.blockCount = hdr.blocks[k++]);
    ctx.headers = "loaded";
  } catch (e) {
    if (gen !== ctx.gen || e.kind === "cancelled") return;
    ctx.headers = "deferred";
    toast(`Chunk headers could not be read: ${e.kind}: ${e.message}`, "error");
  }
  refreshTables();
}
ctx.loadHeaders = () => loadHeaders(ctx.gen);

/** The largest tokenizer.json the package accepts (src/wasm/registry.rs,
 *  MAX_TOKENIZER_JSON): a file over it is refused before it is read. */
const TOKENIZER_MAX = 128 * 1024 * 1024;

/** Registers a tokenizer.json File, its size checked before it is read whole. */
async function registerTokenizerFile(f, against = ctx.file) {
  if (f.size > TOKENIZER_MAX) {
    toast([fileText(f.name), `: too_large: a tokenizer.json of ${f.size} bytes exceeds the ${TOKENIZER_MAX} bytes this reader accepts`], "error");
    return null;
  }
  return registerTokenizer(f.name, new Uint8Array(await f.arrayBuffer()), against);
}

/** Registers a tokenizer.json; its digest, or null (refused, said why).
 *  `against`: the file it is meant for (the open one; null: judged later). */
async function registerTokenizer(name, bytes, against = ctx.file) {
  // (The name in the toasts held apart, its direction controls shown as
  // escapes: an override in it reversed the digest after it.)
  const shown = () => fileText(name);
  try {
    const res = await ctx.call("register", { bytes, name }, `Registering ${name}`);
    const again = ctx.registered.some((r) => r.digest === res.digest);
    if (!again) ctx.registered.push({ name, size: bytes.length, digest: res.digest, bytes });
    const digest = `SHA-256 ${res.digest.slice(0, 16)}…`;
    if (again) toast([shown(), ` is registered already (${digest})`]);
    else if (against && !usesTokenizer(against, res.digest)) toast(["Registered tokenizer ", shown(), ` (${digest}), but `, unusedBy(against), hasMark(bytes) ? MARKED : ""], "warn");
    else toast(["Registered tokenizer ", shown(), ` (${digest})`]);
    return res.digest;
  } catch (e) {
    if (e.kind !== "cancelled") toast([shown(), `: ${e.kind}: ${tokenizerTrouble(bytes) ?? e.message}`], "error");
    return null;
  }
}

// Said when the file does not use a tokenizer registered for it: its
// tokenizer table would still say "missing", with no word of why.
const usesTokenizer = (f, digest) => f.tokenizers.some((t) => t.digest === digest);
const unusedBy = (f) => [fileText(ctx.name), ` ${f.tokenizers.length ? "does not use it: its tokenizer table names the SHA-256 each of its columns needs" : "has no tokenized columns"}.`];

/** Whether a tokenizer.json starts with a UTF-8 byte order mark (EF BB BF):
 *  the package reads past it, but its SHA-256 is of the bytes with it. */
const hasMark = (bytes) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
const MARKED = " This one starts with a UTF-8 byte order mark (EF BB BF), which its SHA-256 covers: saved without the mark, it may be the one the file names.";

/** What is wrong at the start of a tokenizer.json the package refused, in
 *  words (it says "the document is not an object (byte offset 0)" of an
 *  empty file and text that is not JSON alike); null where the start is a
 *  JSON document's and the package's words say more. A byte order mark
 *  first is passed over, as the package passes over it. */
function tokenizerTrouble(bytes) {
  if (bytes.length === 0) return "the file is empty";
  let i = hasMark(bytes) ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  if (i === bytes.length) return "the file holds only white space";
  if (bytes[i] !== 0x7b) {
    // (control characters as spaces, none at the end: a "?" would read as one of the file's)
    const start = new TextDecoder().decode(bytes.subarray(i, i + 24)).replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trimEnd();
    return `the file is not a JSON object: it begins “${start}${bytes.length - i > 24 ? "…" : ""}”, where a tokenizer.json begins with “{”`;
  }
  return null;
}

function renderTokenizersAnywhere() {
  if (ctx.file) renderTokenizers(ctx, $("#tokenizers"));
  renderRegistered(ctx, $("#registered"));
}

/** After tokenizers change: refresh the table and re-read what failed. */
async function afterTokenizers() {
  if (!ctx.file) {
    renderTokenizersAnywhere();
    return;
  }
  // Chunks that failed for want of a tokenizer are tried afresh.
  for (const [k, v] of ctx.chunkErrors) if (v.error.kind === "unknown_tokenizer") ctx.chunkErrors.delete(k);
  const info = await ctx.call("info", {}, "Refreshing tokenizers");
  ctx.file.tokenizers = info.tokenizers;
  renderTokenizersAnywhere();
  profiles.refresh({ retry: true });
  refreshTables();
  data.tokenizersChanged();
  timing.tokenizersChanged();
  dirty.add("detail").add("sql");
  if (ctx.tab === "detail" || ctx.tab === "sql") showTab(ctx.tab);
}

const isTokenizerName = (f) => /\.json$/i.test(f.name) || f.type === "application/json";

async function handleFiles(files) {
  const toks = files.filter(isTokenizerName);
  const others = files.filter((f) => !isTokenizerName(f));
  // Tokenizers dropped with a .cols file are meant for it: judged once it is open, not against the file it replaces.
  const against = others.length ? null : ctx.file;
  const registered = [];
  for (const f of toks) {
    const digest = await registerTokenizerFile(f, against);
    if (digest) registered.push([f.name, digest]);
  }
  if (registered.length) await afterTokenizers();
  // Of several, the one named .cols (a picture or a note dropped with it is
  // not what the person meant to open), else the first.
  const file = others.find((f) => /\.cols$/i.test(f.name)) ?? others[0];
  if (others.length > 1) {
    const left = others.filter((f) => f !== file);
    const names = left.length > 3 ? `${left.slice(0, 3).map((f) => f.name).join(", ")} and ${left.length - 3} more` : left.map((f) => f.name).join(", ");
    toast(`Opened ${file.name}; one file at a time: ${names} left out.`);
  }
  if (file) {
    // A local file has no address: it forgets any ?url= and the URL field.
    await openSource({ blob: file }, file.name, null, { url: null, ...NO_VIEW });
    // (only if it opened: a failed or cancelled open leaves another file, or none, on show)
    if (ctx.source?.blob === file) for (const [name, digest] of registered) if (!usesTokenizer(ctx.file, digest)) toast([fileText(name), ": ", unusedBy(ctx.file)], "warn");
  }
}

ctx.loadSampleTokenizer = async (path) => {
  const url = new URL(path, location.href).href;
  try {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    if (await registerTokenizer(path.split("/").pop(), new Uint8Array(await r.arrayBuffer()))) await afterTokenizers();
  } catch (e) {
    toast(`Could not load ${path}: ${e.message}`, "error");
  }
};

function openUrl(text, restore = null, step = true) {
  const t = text.trim();
  if (!t) return;
  let url;
  try {
    url = new URL(t, location.href);
  } catch {
    toast(`Not a URL: ${t}`, "error");
    return;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    toast("Only http: and https: URLs can be read.", "error");
    return;
  }
  const name = decodeURIComponent(url.pathname.split("/").pop() || url.host);
  return openSource({ url: url.href }, name, restore, restore ? { url: t } : { url: t, ...NO_VIEW }, step);
}

// ---------------------------------------------------------------- samples

async function loadManifest() {
  try {
    // Written by scripts/build-site: whether DuckDB-Wasm is part of this site.
    ctx.build = await (await fetch(new URL("../build.json", import.meta.url))).json();
  } catch {
    ctx.build = null;
  }
  try {
    const r = await fetch(new URL("../samples/index.json", import.meta.url));
    ctx.manifest = await r.json();
  } catch {
    ctx.manifest = { samples: [], tokenizers: [] };
  }
  const cards = [];
  const items = [];
  for (const smp of ctx.manifest.samples) {
    // Relative to the page, so a shared link works wherever the site is hosted.
    const open = () => (smp.kind === "tokenizer" ? ctx.loadSampleTokenizer(`samples/${smp.file}`) : openUrl(`samples/${smp.file}`));
    cards.push(
      h(
        "button",
        { type: "button", class: "sample-card", "data-testid": `sample-${smp.id}`, onclick: open },
        h("span", { class: "sample-title" }, smp.title),
        h("span", { class: "sample-meta" }, `${smp.file} · ${fmtBytes(smp.size)}`),
        h("span", { class: "sample-desc" }, smp.description),
      ),
    );
    items.push(h("button", { type: "button", class: "menu-item", "data-testid": `menu-sample-${smp.id}`, onclick: open }, h("b", {}, smp.title), h("span", { class: "muted" }, ` ${fmtBytes(smp.size)}`)));
  }
  fill($("#samples"), cards);
  fill($("#samples-menu-body"), items);
}

// ---------------------------------------------------------------- wiring

function wire() {
  $("#open-button").addEventListener("click", () => $("#file-input").click());
  // "Choose tokenizer…" buttons (beside every missing digest) share one file input.
  $("#tokenizer-input").addEventListener("change", async (ev) => {
    const files = [...ev.target.files];
    ev.target.value = "";
    let n = 0;
    for (const f of files) if (await registerTokenizerFile(f)) n++;
    if (n) await afterTokenizers();
  });
  document.addEventListener("click", (ev) => {
    if (ev.target.closest?.("[data-action=choose-tokenizer]")) $("#tokenizer-input").click();
  });
  $("#file-input").addEventListener("change", async (ev) => {
    const files = [...ev.target.files];
    ev.target.value = "";
    await handleFiles(files);
  });
  $("#url-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    openUrl($("#url-input").value);
  });
  $("#cancel-button").addEventListener("click", async () => {
    toast("Cancelled: the worker was stopped and restarted.");
    await ctx.engine.cancel();
  });
  // The pop-up menus (Samples, and the Data tab's Columns and Export) close
  // as menus do, on Escape and on a click outside; they would stack over
  // the grid otherwise.
  const POPUPS = "details.menu[open], details.dropdown[open]";
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") {
      $("#drop-overlay").hidden = true;
      $("#tooltip").hidden = true;
      for (const menu of $$(POPUPS)) {
        // Focus in a menu that closes goes back to the menu's button (as
        // does focus lost to the page's body: a control in it went away).
        if (menu.contains(document.activeElement) || document.activeElement === document.body) menu.querySelector("summary").focus();
        menu.open = false;
      }
    }
  });
  document.addEventListener("pointerdown", (ev) => {
    for (const menu of $$(POPUPS)) if (!menu.contains(ev.target)) menu.open = false;
  });

  // Tabs: click, and arrow keys / Home / End as in the ARIA tabs pattern.
  for (const t of TABS) $(`#tab-${t}`).addEventListener("click", () => showTab(t));
  $("#tabs").addEventListener("keydown", (ev) => {
    const i = TABS.indexOf(ctx.tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[ev.key];
    if (next === undefined) return;
    ev.preventDefault();
    showTab(TABS[(next + TABS.length) % TABS.length], { focus: true });
  });

  // Drag and drop anywhere on the page.
  const overlay = $("#drop-overlay");
  const hasFiles = (ev) => [...(ev.dataTransfer?.types || [])].includes("Files");
  let depth = 0;
  window.addEventListener("dragenter", (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener("dragover", (ev) => {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = "copy";
  });
  window.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener("drop", async (ev) => {
    ev.preventDefault();
    depth = 0;
    overlay.hidden = true;
    const files = [...(ev.dataTransfer?.files || [])];
    if (files.length) await handleFiles(files);
  });
}

async function main() {
  wire();
  ctx.engine = new Engine({
    onRespawn: async () => {
      // A fresh worker knows nothing: give it the tokenizers and the file again.
      for (const t of ctx.registered) await ctx.engine.post("register", { bytes: t.bytes, name: t.name });
      if (ctx.source) {
        try {
          await ctx.engine.post("open", ctx.source.blob ? { blob: ctx.source.blob } : { url: ctx.source.url });
          if (ctx.headers === "loaded") await ctx.engine.post("loadHeaders", {});
        } catch (e) {
          // (cancelled: another Cancel came first, and restores anew)
          if (e.kind !== "cancelled") toast(`Re-opening after cancel failed: ${e.message}`, "error");
        }
      }
      document.body.dataset.respawned = String(Number(document.body.dataset.respawned || 0) + 1);
    },
  });
  const manifest = loadManifest();
  try {
    await ctx.engine.ready;
  } catch (e) {
    fill($("#welcome"), errorBox(e, { title: "The decoder could not start (is pkg/ there? scripts/build-site writes it)" }));
    return;
  }
  await manifest;
  document.body.dataset.ready = "1";
  window.addEventListener("popstate", onHistoryStep);
  const url = urlState.get("url");
  if (url) {
    $("#url-input").value = url;
    await openUrl(url, addressView(), false);
  }
}

main().catch((e) => {
  // A page that cannot start at all (its worker refused: a policy with
  // Trusted Types, say) says so rather than looking ready.
  const message = String(e?.message ?? e);
  const tt = /Trusted ?Type|TrustedScriptURL/i.test(message);
  fill(
    $("#welcome"),
    errorBox({ kind: "internal", message: tt ? `${message} This page does not support Trusted Types: the site's Content-Security-Policy must not have require-trusted-types-for 'script'.` : message }, { title: "The page could not start" }),
  );
});
