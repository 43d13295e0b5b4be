// The SQL tab: DuckDB-Wasm over the open file, loaded the first time this
// tab opens (nothing of it loads before). The file's readable columns are
// table t; results show in the same grid as the data, errors as text.

import { h, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtMs, nameString, plural } from "../format.js";
import { Engine } from "../engine.js";
import { createGrid, gridKeys } from "./grid.js";
import { copyValue, copyRow, plainText } from "./cells.js";
import { createRecord, LISTED, FILTER_FROM } from "./record.js";
import { showRange, copyKeys } from "./range.js";
import { brief, nameHas, quoteName as quote } from "../labels.js";
import { createStatements, LONGEST } from "../statements.js";
import { viewSql } from "../viewsql.js";
import { mayChangeTable, readsOnly } from "../sqltext.js";
import { tableEstimate } from "../sizes.js";

/** The SQL type DuckDB gives each column type of the file in table t. */
const SQL_TYPES = { bool: "BOOLEAN", int8: "TINYINT", int16: "SMALLINT", int32: "INTEGER", int64: "BIGINT", uint8: "UTINYINT", uint16: "USMALLINT", uint32: "UINTEGER", uint64: "UBIGINT", float32: "FLOAT", float64: "DOUBLE", string: "VARCHAR", bytes: "BLOB" };
const errorBox = (message) => h("pre", { class: "error-box sql-error", role: "alert", "data-testid": "sql-error" }, message);
// Why a download button is disabled (one at a time: the worker answers one thing at once).
const BUSY = "Not while a statement, a sort or a download runs: wait for it to end, or Stop it";
const errorText = (e) => `${e.kind === "sql" ? "" : `${e.kind}: `}${e.message}`;
// What works on a file too large for table t (the Data tab's "Open as SQL" loads all of t too).
const INSTEAD = "What works instead: the Data tab reads the file a piece at a time, whatever its size: its filter, sort and search over every row, each column's profile, and Export of the rows it shows (CSV or JSON). Its \"Open as SQL\" loads the whole of table t as well, so it cannot help here.";

export function createSql(ctx, el) {
  let engine = null; // the SQL worker, started on first use
  let loadedFor = null; // the ctx.gen whose file is in table t
  let loading = null;
  let shown = null; // { columns, numRows, ms }: the result on show, whose rows a sort orders
  // The one rule for starting a statement (Run, Ctrl+Enter, the examples, a
  // sort): not while one runs. Stop ends a run without its promise settling,
  // so a run is current only while its number is `runId`.
  let running = false;
  let runId = 0;
  let sort = null; // { key, desc } over the last result's columns
  // A header click while a sort runs is done after it (undefined: none
  // waits), as the header's next state: a double click sorts descending.
  let sorting = false;
  let sortAfter;
  let noteIO = () => {}; // takes in what the running load of table t has read
  let linked = null; // a link's statement, run once table t is loaded
  let inTable = null; // the columns table t holds (Set of column indices), once loaded
  let changed = false; // a statement run since t was loaded may have changed it (sqltext.js)
  let ranOut = null; // the ctx.gen whose load of t last ran out of memory (the next load says it tries again)
  // A statement asked for while something ran ("Open as SQL", an example):
  // in the editor, run as soon as that ends ({ text, view }), or null.
  let queued = null;
  let exporting = null; // the AbortController of a download being written: Stop ends it alone
  // Where the focus goes back to when the work under way ends, if it was
  // on a button the work disabled or hid (Run, a download): its testid.
  let focusBack = null;
  const statements = createStatements(tabStorage());
  // The status: not a live region, as it counts a load's row groups and a
  // download's rows (46 changes in a second on flights-3m); `announce`
  // says the start and the end of each thing to a screen reader, as the
  // Timing tab does.
  const state = h("span", { "data-testid": "sql-state" });
  const announce = h("p", { class: "visually-hidden", role: "status", "data-testid": "sql-announce" });
  const say = (text) => (announce.textContent = text);
  // The seconds a statement has run, beside the status.
  const elapsed = h("span", { "data-testid": "sql-elapsed" });
  const statusLine = h("p", { class: "muted small" }, state, " ", elapsed);
  let tableText = ""; // the status once t is loaded, said again after each statement
  let clock = null; // the interval that counts a running statement's seconds
  const changedNote = h("p", { class: "muted small", hidden: true, "data-testid": "sql-changed" }, "A statement that may change table t has run: t may no longer hold the file's rows. Open as SQL, on the Data tab, loads it from the file again first.");
  // A statement in the editor that waits for the one running (`queued`; its words are writeAndRun's).
  const queueNote = h("p", { class: "notice small", hidden: true, "data-testid": "sql-queued" });
  // A link's statement put in the editor but not run, and why.
  const linkNote = h("p", { class: "muted small", hidden: true, "data-testid": "sql-link-note" });
  // DuckDB's memory limit in this browser, said in the help once DuckDB has started.
  const limitNote = h("span", { "data-testid": "sql-limit" }, "its memory limit in this browser (3.1 GiB in Chromium)");
  const tableCols = h("div", { class: "sql-columns", "data-testid": "sql-columns" });
  const out = h("div", { class: "sql-result", "data-testid": "sql-result" });
  const editor = h("textarea", { class: "sql-editor", rows: 5, spellcheck: "false", "data-testid": "sql-input", "aria-label": "SQL statement" });
  // The person's own edit of a statement that waits: it no longer runs by
  // itself (what runs next is theirs to start, with Run).
  editor.addEventListener("input", () => {
    if (!queued) return;
    queued = null;
    queueNote.hidden = true;
  });
  // Bound here, once: render() runs for every file opened.
  editor.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      if (!running) run(editor.value);
    } else if ((ev.key === "ArrowUp" || ev.key === "ArrowDown") && ev.altKey && !ev.ctrlKey && !ev.metaKey && !ev.shiftKey) {
      // The recent statements, older and newer, as in a shell.
      ev.preventDefault();
      const text = statements.step(editor.value, ev.key === "ArrowUp" ? 1 : -1);
      if (text !== null) write(text);
    }
  });
  /**
   * Writes `text` over the editor's `from`..`to` (all of it by default),
   * the cursor after it, as an edit Ctrl+Z takes back: the browser's undo
   * keeps typed edits only, and a recalled statement, an example or a
   * column's name would otherwise lose what was typed for good. Where the
   * editor cannot take the focus (its tab hidden), set as a value.
   */
  function write(text, from = 0, to = editor.value.length) {
    editor.focus();
    editor.setSelectionRange(from, to);
    if (document.activeElement === editor && document.execCommand("insertText", false, text)) return;
    editor.setRangeText(text, from, to, "end");
  }
  const runBtn = h("button", { type: "submit", class: "primary", "data-testid": "sql-run" }, "Run");
  const stopBtn = h("button", { type: "button", class: "danger", hidden: true, "data-testid": "sql-stop", onclick: stop }, "Stop");
  const examples = h("div", { class: "button-row sql-examples" });
  const recentBody = h("div", { class: "menu-body recent-body", "data-testid": "sql-recent-list" });
  const recent = h("details", { class: "dropdown", "data-testid": "sql-recent" }, h("summary", { "data-testid": "sql-recent-toggle" }, "Recent"), recentBody);
  const hint = () => [h("p", { class: "muted small", "data-testid": "sql-cell-hint" }, "Select a cell to see its whole value."), gridKeys()];
  const side = h("aside", { class: "side-panel", "data-testid": "sql-cell-panel" }, hint());
  let lastCell = null; // the one cell selected (Ctrl+C copies it), in the result shown
  const grid = createGrid({
    testid: "sql-grid",
    label: "query result",
    rowHeader: "#",
    onSelect: (cell) => {
      lastCell = cell.range ? null : cell;
      if (cell.range) return showRange(side, grid, cell.range, cell.columns, ctx.toast);
      fill(
        side,
        h("div", { class: "value-head" }, h("b", {}, `Result row ${fmtInt(cell.row)}`), " · ", h("span", { class: "colname" }, brief(cell.column.label)), " ", h("span", { class: "type-tag", title: cell.column.sqlType ? `as Apache Arrow hands it over: ${cell.column.sqlType}` : null }, cell.column.tag || cell.column.type)),
        h("div", { class: "value-full v-str", "data-testid": "sql-cell-value" }, cell.value === null ? "null" : plainText(cell.column, cell.value)),
        h("div", { class: "button-row" }, h("button", { type: "button", class: "small", onclick: () => copyValue(cell, ctx.toast) }, "Copy value"), h("button", { type: "button", class: "small", onclick: () => copyRow(cell, "tsv", ctx.toast) }, "Copy row (TSV)")),
        record.node(cell),
      );
      record.settle();
    },
    onSort: (key) => {
      if (!shown) return;
      const from = sortAfter !== undefined ? sortAfter : sort;
      const next = !from || from.key !== key ? { key, desc: false } : !from.desc ? { key, desc: true } : null;
      if (sorting) sortAfter = next;
      else sortShown(next);
    },
    sortState: () => sort,
  });
  const record = createRecord(grid);
  copyKeys(grid, ctx.toast, () => lastCell);
  showRecent();

  function spawn() {
    engine = new Engine({ url: new URL("../sql-worker.js", import.meta.url) });
    return engine.ready;
  }

  function stop() {
    // A download being written stops alone: table t and the result stay.
    if (exporting) return exporting.abort();
    const onStop = document.activeElement === stopBtn;
    // DuckDB stops only with its worker: start afresh, and load t again on the next run.
    engine?.worker.terminate();
    engine = null;
    loadedFor = null;
    loading = null;
    running = false;
    runId++;
    // The result's rows went with the worker: nothing left to scroll or sort.
    shown = null;
    sorting = false;
    sortAfter = undefined;
    fill(out);
    stopBtn.hidden = true;
    busy(false);
    endClock();
    state.textContent = "Stopped. The next statement starts DuckDB again and reloads table t.";
    say(state.textContent);
    el.dataset.sqlState = "stopped";
    focusBack = null;
    if (onStop) runBtn.focus();
    // A statement that waited for the one stopped runs now (t loaded again first).
    startQueued();
  }

  /** The statement that waited (`queued`), if any, run now. */
  function startQueued() {
    const q = queued;
    queued = null;
    queueNote.hidden = true;
    if (!q || !ctx.file) return;
    // "Open as SQL" shows the file's rows: t loaded again if a statement may have changed it.
    if (q.view && changed) loadedFor = null;
    run(q.text);
  }

  /** What the SQL worker reads: the file dropped, else the whole file the
   *  page's reader already holds (a server that ignores Range sent it all;
   *  fetching it again would download it twice), else the URL. */
  async function source() {
    if (ctx.source.blob) return { blob: ctx.source.blob };
    const { blob } = await ctx.engine.call("heldBlob", {}).catch(() => ({ blob: null }));
    return blob ? { blob, held: true } : { url: ctx.source.url };
  }

  async function ensureLoaded() {
    if (loadedFor === ctx.gen) return true;
    if (loading) return loading;
    const gen = ctx.gen;
    // This load is current while the file is the same and no Stop (or new
    // file) has put its worker away: one past that touches nothing.
    let eng = null;
    const stale = () => gen !== ctx.gen || engine !== eng;
    const me = (async () => {
      el.dataset.sqlState = "loading";
      stopBtn.hidden = false;
      say(ranOut === gen ? "Loading table t again…" : "Loading table t…");
      const progress = (p) => {
        noteIO(p.io);
        const again = ranOut === gen ? "Loading table t again (the last load ran out of memory): " : "";
        state.textContent = p.total ? `${again || "Loading table t: "}${p.label} ${p.done} of ${p.total}` : `${again}${p.label}…`;
      };
      try {
        if (!engine) await spawn();
        eng = engine;
        if (stale()) return false;
        // What DuckDB can hold, against what t would take: a file whose table
        // cannot fit is refused before any of it is read (a 5 GB file of
        // 750,000,000 rows read 540 MiB in 40 s, then ran out of memory).
        const { memoryLimit: limit } = await eng.call("start", {}, { onProgress: progress });
        if (stale()) return false;
        if (limit?.text) limitNote.textContent = `its memory limit in this browser, ${limit.text}`;
        const need = tableEstimate(ctx.file, loadable());
        if (limit?.bytes && need.bytes > limit.bytes) {
          state.textContent = "Table t is not loaded: it would not fit in DuckDB-Wasm's memory.";
          say(state.textContent);
          fill(
            out,
            errorBox(
              `Table t would take about ${fmtBytes(need.bytes)} of DuckDB's memory (${plural(need.rows, "row")} × ${plural(need.columns, "column")}), more than the ${limit.text} this browser lets DuckDB-Wasm use: it was not loaded, and nothing of the file was read for it.\n\n${INSTEAD}`,
            ),
          );
          el.dataset.sqlState = "error";
          return false;
        }
        const t0 = performance.now();
        const { held, ...src } = await source();
        // (a new file opened, or Stop, while the page's reader answered)
        if (stale()) return false;
        // This load reads the file with a reader of its own: "Read so far"
        // counts it on top of the loads before it (each reads every chunk),
        // but not a copy in memory of what the page's reader downloaded.
        const before = { ...ctx.sqlIO };
        noteIO = (io) => {
          if (!io || gen !== ctx.gen || held) return;
          ctx.sqlIO = { bytes: before.bytes + io.bytes, requests: before.requests + io.requests };
          ctx.updateIO();
        };
        const info = await eng.call("load", { ...src, tokenizers: ctx.registered.map((t) => t.bytes) }, { onProgress: progress });
        noteIO(info.io);
        if (stale()) return false;
        loadedFor = gen;
        ranOut = null;
        const notes = [];
        if (info.skipped.length) notes.push(`left out: ${info.skipped.map((s) => `${brief(s.label)} (${s.reason})`).join(", ")}`);
        if (info.replaced.length) notes.push(`bytes that are not UTF-8 in ${info.replaced.join(", ")} appear as U+FFFD in SQL`);
        tableText = `Table t: ${plural(info.rows, "row")} × ${plural(info.columns.length, "column")}, loaded through Arrow in ${fmtMs(performance.now() - t0)}${notes.length ? `; ${notes.join("; ")}` : ""}.`;
        state.textContent = tableText;
        say(tableText);
        showColumns(info.columns);
        inTable = new Set(info.columns.map((c) => c.c));
        exampleButtons();
        changed = false;
        changedNote.hidden = true;
        el.dataset.sqlState = "ready";
        return true;
      } catch (e) {
        noteIO(e.io);
        if (stale()) return false;
        if (e.kind === "out_of_memory") {
          // What was loaded is given back: DuckDB's memory (one WebAssembly
          // memory, which never shrinks) goes only with its worker.
          engine?.worker.terminate();
          engine = null;
          shown = null;
          ranOut = gen;
          state.textContent = "Table t could not be loaded: DuckDB-Wasm ran out of memory.";
          say(state.textContent);
          fill(out, errorBox(`${e.message}\n\nWhat was loaded is freed: DuckDB-Wasm was stopped to give its memory back. The next Run starts it again and loads table t again from the file, which can run out the same way.\n\n${INSTEAD}`));
          el.dataset.sqlState = "error";
        } else if (e.kind !== "cancelled") {
          state.textContent = "Table t could not be loaded.";
          say(state.textContent);
          fill(out, errorBox(`${e.kind}: ${e.message}`));
          el.dataset.sqlState = "error";
        }
        return false;
      } finally {
        // (a load stopped or of another file leaves the one after it alone)
        if (loading === me) {
          loading = null;
          // (a statement waiting for t keeps Stop, and the focus it may have)
          if (!running) stopBtn.hidden = true;
        }
      }
    })();
    loading = me;
    return me;
  }

  /** The columns the worker loads into t: those whose tokenizer, if any, is registered. */
  function loadable() {
    const f = ctx.file;
    return f.schema.map((_, c) => c).filter((c) => !f.rowGroups.some((rg) => rg.columns[c].tokenizer && !f.tokenizers?.[rg.columns[c].tokenizer - 1]?.resolved));
  }

  /**
   * Says that a statement runs, with its seconds so far (one text change a
   * second), and marks the result on show as the previous statement's
   * until the new one replaces it.
   */
  function startClock() {
    endClock();
    const t0 = performance.now();
    state.textContent = "Running the statement…";
    elapsed.textContent = "0 s";
    clock = setInterval(() => (elapsed.textContent = `${Math.floor((performance.now() - t0) / 1000)} s`), 1000);
    if (out.firstChild) {
      out.classList.add("sql-previous");
      out.prepend(h("p", { class: "muted small sql-previous-note", "data-testid": "sql-previous" }, "The previous statement's result, until this one's comes:"));
    }
  }

  /** The statement is over (done, failed or stopped): the status is table t's again. */
  function endClock() {
    if (clock === null) return;
    clearInterval(clock);
    clock = null;
    elapsed.textContent = "";
    state.textContent = tableText;
    out.classList.remove("sql-previous");
    out.querySelector("[data-testid=sql-previous]")?.remove();
  }

  /** Run and the downloads do nothing while something runs: disabled, the downloads saying why. */
  function busy(on) {
    runBtn.disabled = on;
    for (const b of out.querySelectorAll(".sql-export")) {
      b.disabled = on;
      if (on) b.title = BUSY;
      else b.removeAttribute("title");
    }
  }

  /**
   * Runs `work` as the one thing under way (see `running`), or not at all
   * if something else is. Run or a download button, disabled for the time,
   * would drop the focus to the page: Stop takes it while the work goes on
   * and hands it back at the end (as the Timing tab's Run does).
   */
  async function exclusive(work) {
    if (running) return;
    running = true;
    const id = ++runId;
    const from = document.activeElement;
    focusBack = from === runBtn || from?.classList.contains("sql-export") ? from.dataset.testid : null;
    busy(true);
    if (focusBack) {
      stopBtn.hidden = false;
      stopBtn.focus();
    }
    try {
      await work();
    } finally {
      if (id === runId) {
        const back = focusBack && (document.activeElement === stopBtn || document.activeElement === document.body) ? el.querySelector(`[data-testid="${focusBack}"]`) : null;
        focusBack = null;
        running = false;
        busy(false);
        stopBtn.hidden = true;
        if (back && !back.disabled) back.focus();
        else if (back) runBtn.focus();
        startQueued();
      }
    }
  }

  /**
   * `text` put in the editor (as an edit Ctrl+Z takes back) and run: now,
   * or if something runs, as soon as it ends, said under the editor (the
   * result on show is never that of another statement than the editor's).
   * `view`: the Data tab's view ("Open as SQL"), which shows the file's rows.
   */
  function writeAndRun(text, { view = false } = {}) {
    write(text);
    if (!running) {
      if (view && changed) loadedFor = null;
      return run(text);
    }
    queued = { text, view };
    // (Stop during a download ends the download alone: t stays.)
    queueNote.textContent = exporting
      ? "The statement in the editor runs as soon as the download being written ends. Stop ends the download now, then it runs."
      : "The statement in the editor runs as soon as the one running ends. Stop ends that one now: DuckDB starts again, loads table t again, then runs it.";
    queueNote.hidden = false;
    say(queueNote.textContent);
  }

  /** The result on show, in the order `sort` says; `note`, if any, under its summary. */
  function showResult(note = null) {
    const sortedBy = sort ? ` · sorted by ${shown.columns.find((c) => c.key === sort.key)?.label} ${sort.desc ? "descending" : "ascending"}` : "";
    const script = shown.statements > 1 ? ` · the last of ${shown.statements} statements, run one by one` : "";
    const summary = h("p", { class: "muted small", "data-testid": "sql-summary" }, `${plural(shown.numRows, "row")} × ${plural(shown.columns.length, "column")} in ${fmtMs(shown.ms)}${script}${sortedBy}`);
    const saveAs = (format) => h("button", { type: "button", class: "small sql-export", "data-testid": `sql-export-${format}`, disabled: running, title: running ? BUSY : null, onclick: () => exportResult(format) }, `Download ${format.toUpperCase()}`);
    const exports = h("div", { class: "button-row" }, saveAs("csv"), saveAs("json"), h("span", { class: "muted small" }, "the rows in the order shown"));
    // The cell selected was one of the rows before (another statement's,
    // or this one's in another order): the panel forgets it with them.
    lastCell = null;
    fill(side, hint());
    fill(out, summary, exports, note, h("div", { class: "data-main" }, grid.el, side));
    const eng = engine;
    grid.setSource({
      total: shown.numRows,
      sortable: true,
      emptyText: "The query returned no rows.",
      columns: shown.columns,
      fetch: (start, count) => eng.call("rows", { start, count }),
    });
  }

  /**
   * The result on show as a file: its rows in the order shown (the worker
   * writes it, saying how many so far). Stop ends the download alone.
   */
  async function exportResult(format) {
    await exclusive(async () => {
      stopBtn.hidden = false;
      const what = format.toUpperCase();
      const ac = new AbortController();
      exporting = ac;
      state.textContent = `Writing the ${what}…`;
      say(`Writing the ${what} of ${plural(shown.numRows, "row")}`);
      try {
        const res = await engine.call("exportText", { format }, { signal: ac.signal, onProgress: (p) => (state.textContent = `Writing the ${what}: ${fmtInt(p.done)} of ${plural(p.total, "row")}…`) });
        ctx.download(`${ctx.name.replace(/\.cols$/i, "").replace(/[^\w.-]+/g, "_")}-query.${res.ext}`, res.blob);
        state.textContent = tableText;
        say(`The ${what} of ${plural(res.rows, "row")} is written: it downloads.`);
      } catch (e) {
        if (!engine) return; // stopped
        state.textContent = tableText;
        if (e.kind === "cancelled") {
          say(`The ${what} download was stopped; the result stays.`);
          ctx.toast(`The ${what} download was stopped: nothing was downloaded. Table t and the result stay.`);
        } else {
          say(`The ${what} could not be written.`);
          ctx.toast(`The result could not be written: ${errorText(e)}`, "error");
        }
      } finally {
        if (exporting === ac) exporting = null;
      }
    });
  }

  async function run(sqlText) {
    const text = sqlText.trim().replace(/;\s*$/, "");
    if (!text) return;
    await exclusive(async () => {
      const id = runId;
      sort = null;
      statements.add(text);
      showRecent();
      linkNote.hidden = true;
      // The statement is part of a shared link (one too long for an address
      // is left out), marked not to run by itself (sqlrun=0) until it has
      // run to its end: one stopped, cut short by Back or a reload, or
      // failed stays in the address for the editor, not to run again.
      ctx.setUrlState({ sql: text.length <= LONGEST ? text : null, sqlrun: text.length <= LONGEST ? "0" : null });
      if (!(await ensureLoaded())) return;
      stopBtn.hidden = false;
      el.dataset.sqlState = "running";
      // (said before it runs: a failed script may have run some of its statements)
      if (mayChangeTable(text)) {
        changed = true;
        changedNote.hidden = false;
      }
      startClock();
      say("Running the statement…");
      try {
        // (the editor's line where `text` starts: the lines trim() took off before it)
        const line = 1 + (sqlText.match(/^\s*/)[0].match(/\n/g)?.length ?? 0);
        const res = await engine.call("query", { sql: text, line });
        endClock();
        if (id === runId) ctx.setUrlState({ sqlrun: null });
        shown = { columns: res.columns, numRows: res.numRows, ms: res.ms, statements: res.statements };
        state.dataset.rows = String(res.numRows);
        if (queued) {
          // Another statement is in the editor now, and runs next: this
          // one's rows are not shown under it.
          shown = null;
          fill(out);
          return;
        }
        showResult();
        say(`Done: ${plural(res.numRows, "row")} × ${plural(res.columns.length, "column")}.`);
        el.dataset.sqlState = "done";
      } catch (e) {
        if (!engine) return; // stopped
        endClock();
        shown = null;
        if (queued) {
          // (the statement in the editor now runs next: this one's error is said aside)
          fill(out);
          ctx.toast(`The statement before the one in the editor failed: ${errorText(e)}`, "error");
          return;
        }
        fill(out, errorBox(errorText(e)));
        say("The statement failed.");
        el.dataset.sqlState = "error";
      }
    });
  }

  const sameSort = (a, b) => (a ? !!b && a.key === b.key && a.desc === b.desc : !b);

  /**
   * A header click orders the rows already in hand (the worker keeps the
   * whole result) and never runs the statement again: it may have changed
   * something (INSERT ... RETURNING, CREATE, nextval(), a script), and even
   * a plain SELECT may give other rows the second time (random(), now()).
   * DuckDB still decides the order (see the worker's sort), so it is the
   * same as an ORDER BY. `next` takes effect only if the sort starts (else
   * the header would show a sort never done).
   */
  async function sortShown(next) {
    await exclusive(async () => {
      const was = sort;
      sort = next;
      sorting = true;
      stopBtn.hidden = false;
      el.dataset.sqlState = "running";
      // A sort from the keyboard (S in the grid) leaves the grid with the
      // focus, on the column sorted by, as the Data tab's does (the result
      // drawn again took the grid out of the page a moment, and the focus with it).
      const focused = grid.el.contains(document.activeElement);
      const col = grid.selection.col;
      const by = shown.columns.find((c) => c.key === next?.key)?.label;
      state.textContent = next ? `Sorting ${plural(shown.numRows, "row")} by ${nameString(by)} ${next.desc ? "descending" : "ascending"}…` : `Putting ${plural(shown.numRows, "row")} back in the statement's order…`;
      try {
        await engine.call("sort", { key: next ? next.key : null, desc: !!next?.desc });
        state.textContent = tableText;
        showResult();
        if (focused) {
          grid.el.focus({ preventScroll: true });
          grid.select(0, col, { scroll: false });
        }
        el.dataset.sqlState = "done";
      } catch (e) {
        if (!engine) return; // stopped
        state.textContent = tableText;
        // The rows stay on show, in the order they had; the message says why they did not sort.
        const label = shown.columns.find((c) => c.key === next?.key)?.label;
        sort = was;
        sortAfter = undefined; // (asked for from the sort that failed)
        showResult(errorBox(`Could not sort by ${label}: ${errorText(e)}`));
        el.dataset.sqlState = "error";
      } finally {
        sorting = false;
      }
    });
    if (sortAfter !== undefined) {
      const then = sortAfter;
      sortAfter = undefined;
      if (shown && engine && !sameSort(then, sort)) sortShown(then);
    }
  }

  /**
   * Table t's columns with their SQL types: a click writes the column's
   * quoted name into the statement where the cursor is. A wide table lists
   * LISTED at a time, found by a filter on the name (as the row list does).
   */
  function showColumns(columns) {
    let filter = "";
    const list = h("div", { class: "button-row sql-column-list" });
    const draw = () => {
      const want = filter.trim();
      const matching = columns.filter((c) => nameHas(c.label, want));
      fill(
        list,
        matching.slice(0, LISTED).map((c) =>
          h("button", { type: "button", class: "small sql-column", title: `write ${quote(c.label)} into the statement`, "data-testid": "sql-column", onclick: () => insertName(c.label) }, brief(c.label), " ", h("span", { class: "type-tag" }, SQL_TYPES[c.type] ?? c.type)),
        ),
        matching.length > LISTED ? h("span", { class: "muted small" }, `and ${plural(matching.length - LISTED, "more column")}: the filter finds them`) : null,
        matching.length === 0 ? h("span", { class: "muted small" }, "No column's name has that in it.") : null,
      );
    };
    const search =
      columns.length > FILTER_FROM
        ? h("input", { type: "search", class: "sql-column-filter", placeholder: "filter by name", "aria-label": "filter table t's columns by name", "data-testid": "sql-column-filter", oninput: (ev) => ((filter = ev.target.value), draw()) })
        : null;
    draw();
    fill(tableCols, h("details", { open: columns.length <= FILTER_FROM }, h("summary", { class: "small" }, `Columns of t (${fmtInt(columns.length)}): click one to write its name`), search, list));
  }

  /** `name` quoted into the statement, over the selection or at the cursor. */
  function insertName(name) {
    write(quote(name), editor.selectionStart, editor.selectionEnd);
  }

  /** The Data tab's view as a statement over the columns `held` (t's), or null where it has none (said in a toast). */
  function statementOf(view, held) {
    const made = viewSql({ schema: ctx.file.schema, labels: ctx.labels, ...view, inTable: held, units: ctx.timeUnits });
    if (made.error) ctx.toast(`This view cannot be written in SQL: ${made.error}.`, "error");
    return made.error ? null : made.sql;
  }

  /** The recent statements' menu (made again as each runs): choosing one puts it in the editor (it does not run). */
  function showRecent() {
    const list = statements.list();
    const pick = (text) => {
      recent.open = false;
      write(text);
    };
    fill(
      recentBody,
      list.length
        ? list.map((text) => h("button", { type: "button", class: "menu-item recent-item", title: text, onclick: () => pick(text) }, brief(text.replace(/\s+/g, " "), 120)))
        : h("p", { class: "muted small" }, "No statement has run in this browser tab yet."),
      h("p", { class: "muted small" }, "Alt+↑ and Alt+↓ in the editor step through them. They are kept in this browser tab until it closes."),
      list.length
        ? h("button", { type: "button", class: "small", "data-testid": "sql-recent-clear", onclick: () => { statements.clear(); showRecent(); } }, "Forget them")
        : null,
    );
  }

  /** Statements to try: over the columns t holds once it is loaded (a column left out of t would be an error), else none of them. */
  function exampleButtons() {
    const f = ctx.file;
    const inT = (c) => inTable?.has(c) ?? false;
    const firstText = f.schema.findIndex((c, i) => c.type === "string" && inT(i));
    const list = [
      ["Count rows", "SELECT count(*) AS rows FROM t"],
      ["Summarize", "SUMMARIZE t"],
      ["First 1,000 rows", "SELECT * FROM t LIMIT 1000"],
    ];
    if (firstText >= 0) list.push([`Top ${ctx.labels[firstText]}`, `SELECT ${quote(ctx.labels[firstText])}, count(*) AS n FROM t GROUP BY ALL ORDER BY n DESC LIMIT 20`]);
    const time = Object.keys(ctx.timeUnits).map(Number).find(inT);
    if (time !== undefined && ctx.timeUnits[time] === "us") list.push([`${ctx.labels[time]} by month`, `SELECT date_trunc('month', make_timestamp(${quote(ctx.labels[time])})) AS month, count(*) AS n FROM t GROUP BY ALL ORDER BY month`]);
    fill(examples, h("span", { class: "muted small" }, "Try: "), list.map(([label, sql]) => h("button", { type: "button", class: "small", onclick: () => writeAndRun(sql) }, label)));
  }

  return {
    render() {
      queued = null;
      exporting = null;
      stop();
      say(""); // (a new file: nothing was stopped that the person started)
      record.reset();
      linked = null;
      linkNote.hidden = true;
      inTable = null;
      changed = false;
      changedNote.hidden = true;
      fill(tableCols);
      tableText = "";
      state.textContent = "";
      el.dataset.sqlState = "idle";
      if (!ctx.file) return;
      editor.value = "SELECT * FROM t LIMIT 100";
      exampleButtons();
      fill(out);
      fill(
        el,
        h("p", { class: "lead" }, "SQL over this file with DuckDB-Wasm, which comes with this page and loads the first time this tab opens (about 8 MB compressed). The file's columns are table ", h("code", {}, "t"), ", read into DuckDB through Apache Arrow; nothing leaves this browser tab."),
        h(
          "p",
          { class: "muted small", "data-testid": "sql-size-help" },
          "Table t is held whole in DuckDB-Wasm's memory, which cannot grow past ",
          limitNote,
          ", results and your own tables included. In it a value takes its width (1 to 8 bytes for a number), a text or bytes value 16 bytes and its bytes past 12: five columns such as flights-3m's (a date, two small integers, two short strings) take about 45 bytes a row, so some 70 million rows fill it. A file whose table would take more is refused before any of it is read; the Data tab works on files of any size.",
        ),
        h(
          "form",
          {
            class: "sql-form",
            onsubmit: (ev) => {
              ev.preventDefault();
              run(editor.value);
            },
          },
          editor,
          h("div", { class: "button-row" }, runBtn, stopBtn, recent, h("span", { class: "muted small" }, "Ctrl+Enter runs; Alt+↑ and Alt+↓, the statements before. Click a result column to sort the rows by it (the statement does not run again).")),
        ),
        examples,
        statusLine,
        announce,
        queueNote,
        linkNote,
        changedNote,
        tableCols,
        out,
      );
    },
    async activate() {
      if (!ctx.file || loadedFor === ctx.gen) return;
      if (ctx.build && !ctx.build.duckdb) {
        state.textContent = "DuckDB-Wasm is not part of this build of the site (scripts/build-site --no-duckdb).";
        el.dataset.sqlState = "unavailable";
        return;
      }
      if (!(await ensureLoaded()) || linked === null) return;
      const text = linked;
      linked = null;
      await run(text);
    },
    /** Whether the Data tab's view has no statement (said in a toast), before the tab changes. */
    refuses(view) {
      return statementOf(view, new Set(ctx.file.schema.keys())) === null;
    },
    /** The Data tab's view ({ cols, filters, sort }) as a statement over table t, run. */
    async fromView(view) {
      const gen = ctx.gen;
      linked = null; // (this view is what the person asked for now)
      if (ctx.build && !ctx.build.duckdb) return;
      // The rows shown must be the file's: t loaded again if a statement may
      // have changed it (after the statement running, if one is).
      if (changed && loadedFor === ctx.gen && !running) loadedFor = null;
      if (!(await ensureLoaded()) || gen !== ctx.gen) return;
      const sql = statementOf(view, inTable);
      if (sql === null) return;
      // While a statement (a sort, a download) runs, the view's waits for
      // it to end, or for Stop (DuckDB's tables of your own stay unless you stop).
      await writeAndRun(sql, { view: true });
    },
    /**
     * A link's statement (untrusted: it runs in DuckDB, which reads only
     * table t): in the editor now, run when this tab first shows the file,
     * if it only reads (sqltext.js) and had run to its end (`run`: the
     * address's sqlrun is not 0). Else it waits for Run, said in a note: a
     * reload must not drop or change t again, nor start again a statement
     * that was stopped or failed.
     */
    linked(text, { run = true } = {}) {
      editor.value = text;
      const reads = readsOnly(text);
      linked = run && reads ? text : null;
      linkNote.hidden = linked !== null;
      linkNote.textContent = !run
        ? "The link's statement had not finished (it was stopped, or failed) when the link was made: it is in the editor, not run. Press Run to run it."
        : "The link's statement may change table t or other tables (it is not only a query): it is in the editor, not run. Press Run to run it.";
    },
  };
}

/** The browser tab's sessionStorage, or null where it is refused (an opaque origin, storage off). */
function tabStorage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
