// A virtual grid over any number of rows: only the rows in sight exist in
// the page, fetched a block at a time from a data source (the worker for
// the file, DuckDB for SQL results) and re-rendered on scroll in one
// animation frame. The row-number column and the header stay in place
// while the rest scrolls. Cells are one line; the full value is in the
// title (hover) and in the side panel of the selected cell.
//
// A wide grid (columns wider in all than WINDOW_FROM pixels) draws only
// the columns in sight and MARGIN pixels either side, after a spacer as
// wide as those to their left: drawing every cell of 4,000 columns took
// seconds a frame. The header keeps every column.
//
// Browsers cap an element's height (about 33 million pixels in Chromium),
// so above MAX_PX the scroll range is scaled: the scroll position picks
// the first row in proportion, the scrollbar reaching from the first row
// to the last. A pixel is then many rows (94 of 750 million), and the
// browser keeps the position to whole (device) pixels: a row scrolled to
// by its number (Go to, a link, the keys, N) is pinned as the first row
// drawn for as long as the position stays where that scroll put it, and
// the wheel moves by rows, not by pixels, so every row is drawn where asked.
//
// source: { total, maxRowNumber?, columns: [{ key, label, type, unit?, longest?, digits?, width? }],
//           fetch(start, count) -> Promise<{ ids, columns: [{ cells, error, errors? (per cell) }] }>,
//           sortable?: bool, emptyText?: string,
//           prefetch?: bool (false: nothing is fetched while the grid is hidden),
//           matches?: (column, value) => bool (a cell a search found: marked) }

import { h, fill } from "../dom.js";
import { fmtInt, valueNode, scalarText, nameNode, nameString } from "../format.js";
import { formatTime } from "../timefmt.js";

const ROW_H = 26;
const HEAD_H = 34;
const BLOCK = 128;
const RANGE_PIECE = 4096; // rows a range's values are read in at a time
const MAX_BLOCKS = 64;
/** A block of rows that failed to come (its source down) is asked again, once in sight, after this many ms. */
const RETRY_AFTER = 2000;
// N looks this many rows on (past the selected cell's) for the next cell a
// search found (in a view of the search's rows, every row holds one, in a
// column shown or not).
const FIND_ROWS = 1024;
const LONG_PRESS_MS = 500; // a touch held this long on a cell selects the range to it
const MAX_PX = 8_000_000;
const WINDOW_FROM = 8000;
const MARGIN = 800;

const TEXT_MIN = 112;
const TEXT_MAX = 280;
const WIDTH = { bool: 72, int8: 80, uint8: 80, int16: 88, uint16: 88, int32: 110, uint32: 110, int64: 170, uint64: 170, float32: 120, float64: 140, string: 200, bytes: 200 };
// The characters of each integer type's widest value, its sign included.
const INT_DIGITS = { int8: 4, uint8: 3, int16: 6, uint16: 5, int32: 11, uint32: 10, int64: 20, uint64: 20 };
const FLOATS = new Set(["float32", "float64"]);
const NUMERIC = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]);

export function columnWidth(col) {
  const tag = (col.unit ? col.type.length + 7 : col.type.length) * 7 + 20;
  const head = Math.min(340, 30 + col.label.length * 8.5 + tag);
  // Text sized by its longest value where the footer says it (MaxLen, in
  // bytes: a character's worth each, or two hex digits): a column of
  // one-letter codes need not take a sentence's room. At least an
  // "✗ unreadable" badge's room; long text is cut, and shown whole in the
  // side panel.
  if ((col.type === "string" || col.type === "bytes") && !col.unit && Number.isFinite(col.longest)) {
    // (px per character measured in Chromium: capitals 8.5, lower case 7.1, hex 7.4; digits in the numbers' monospace 7.6)
    const content = 18 + (col.type === "bytes" ? (2 + 2 * col.longest) * 7.5 : col.longest * 8.5);
    return Math.ceil(Math.max(TEXT_MIN, head, Math.min(TEXT_MAX, content)));
  }
  // Integers by their most characters: the footer's min and max where it
  // says them, else the type's widest value (a column of small counts need
  // not take int32's 110 px).
  if (INT_DIGITS[col.type] && !col.unit) return Math.ceil(Math.max(56, head, 18 + (col.digits ?? INT_DIGITS[col.type]) * 7.8));
  return Math.max(col.unit ? 200 : WIDTH[col.type] || 160, head);
}

/** The error of cell k's own chunk (its row group's), else the column's. */
const errorAt = (colData, k) => colData.errors?.[k] ?? colData.error ?? null;

/** A value that is not there because its chunk does not read (never a null). */
export function unreadableNode(error = null, tag = "span") {
  const why = error ? `unreadable: the chunk does not read (${error.kind}: ${error.message})` : "unreadable: the chunk does not read";
  return h(tag, { class: "v-error", "data-kind": "error", title: why, "aria-label": why }, h("span", { "aria-hidden": "true" }, "✗ unreadable"));
}

/** The grid's keys, as a disclosure under the side panel's hint (the
 *  keyboard handler below is what they describe). */
export function gridKeys() {
  const keys = [
    ["← ↑ → ↓, Page Up/Down", "move the selected cell"],
    ["Home / End", "first / last column (with Ctrl: first / last row)"],
    ["Shift + a move or a click", "select a range"],
    ["Ctrl + A", "select every cell"],
    ["Shift + Space, Ctrl + Space", "select the cell's row, its column"],
    ["Ctrl + C", "copy the cell or the range"],
    ["S", "sort by the selected cell's column (again: the other way, a third time: back)"],
    ["< / >", "the column narrower / wider"],
  ];
  return h("details", { class: "grid-keys small", "data-testid": "grid-keys" }, h("summary", {}, "Keys"), h("dl", {}, keys.map(([k, what]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)])));
}

/** A cell's node: times as dates, everything else as the format shows values. */
export function cellNode(col, v, maxChars = 160) {
  if (v === undefined) return unreadableNode();
  if (v !== null && col.unit) return h("span", { class: "v-num v-time", "data-kind": "time", title: `${scalarText(col.type, v)} (${col.unit} since 1970-01-01 UTC)` }, formatTime(v, col.unit));
  return valueNode(col.type, v, { maxChars });
}

// A column's width as a person sets it: dragged (or < and >) within these.
const COL_MIN = 40;
const COL_MAX = 1200;
const COL_STEP = 24;

export function createGrid({ testid = "grid", label = "rows", onSelect, onSort, onResize, sortState = () => null, rowHeader = "row" }) {
  let source = null;
  let generation = 0;
  const blocks = new Map(); // block index -> { data } | { pending: Promise }
  let sel = { row: 0, col: 0 };
  // Whether sel is a cell selected (a click, a key, a link's row), shown
  // so; not after new rows (setSource), where it is only where the keys
  // start from: a cell highlighted there looked selected, and the side
  // panel and Ctrl+C knew of none.
  let chosen = false;
  // The range's other corner (Shift with an arrow key or a click), or null:
  // the selected cell alone.
  let anchor = null;
  let first = 0;
  let frame = 0;
  let widths = [];
  let lefts = [0]; // lefts[k]: the columns before k, in pixels (lefts[n]: all)
  let rowNoWidth = 80;
  let pendingScroll = null;
  // In a scaled grid, the first row drawn while the scroll position is
  // still `top` (as the browser kept it): { row, top }, or null.
  let pinned = null;
  let wheelRest = 0; // pixels of wheel not yet a whole row (a scaled grid)
  let fitted = new Set(); // the float columns measured in this source (fitFloats)

  const head = h("div", { class: "grid-head", role: "row", "aria-rowindex": "1" });
  const body = h("div", { class: "grid-body", role: "rowgroup" });
  const spacer = h("div", { class: "grid-spacer" });
  const sizer = h("div", { class: "grid-sizer" }, head, body, spacer);
  // Not a tab stop of its own (Chromium makes a scrolling box one): the
  // grid is the one stop, and its arrow keys move the selected cell.
  const scroller = h("div", { class: "grid-scroll", tabindex: "-1" }, sizer);
  // Said in words when there is nothing to show (a filter that matches no row).
  const empty = h("p", { class: "grid-empty muted", "data-testid": `${testid}-empty`, role: "status", hidden: true });
  // Said when N (Shift+N) finds no cell: the selection stays, and without
  // words the key would seem not to work.
  const findNote = h("p", { class: "grid-find-note", role: "status", "data-testid": `${testid}-find-note`, hidden: true });
  let findNoteTimer = 0;
  const el = h("div", { class: "grid", role: "grid", tabindex: "0", "data-testid": testid, "aria-label": label, "aria-multiselectable": "true" }, scroller, empty, findNote);
  const rowsEls = [];

  const viewH = () => scroller.clientHeight - HEAD_H;
  const visibleRows = () => Math.max(1, Math.floor(viewH() / ROW_H));
  const fullPx = () => (source ? source.total * ROW_H : 0);
  const scaled = () => fullPx() > MAX_PX;
  // No cell to select: no rows, or no column shown (the Columns menu's
  // None), where a selection's column would be one that is not there.
  const noCells = () => !source || source.total === 0 || source.columns.length === 0;

  function layout() {
    if (!source) return;
    widths = source.columns.map((c) => c.width || columnWidth(c));
    rowNoWidth = Math.max(64, 22 + fmtInt(Math.max(0, (source.maxRowNumber ?? source.total) - 1)).length * 8.6);
    placeColumns();
    const bodyPx = scaled() ? MAX_PX : fullPx();
    sizer.style.height = `${HEAD_H + Math.max(bodyPx, 1)}px`;
    body.style.height = `${Math.max(0, Math.min(bodyPx, viewH()))}px`;
    spacer.style.height = `${Math.max(0, bodyPx - Math.min(bodyPx, viewH()))}px`;
    el.setAttribute("aria-rowcount", String(source.total + 1));
    // (No column shown says so too: the rows' numbers alone said nothing.)
    const none = source.total === 0 || source.columns.length === 0;
    empty.hidden = !none;
    empty.textContent = none ? source.emptyText || "No rows." : "";
    const sortKeys = source.sortable && onSort;
    el.setAttribute("aria-keyshortcuts", sortKeys ? "S < >" : "< >");
    el.setAttribute("aria-colcount", String(source.columns.length + 1));
    const sort = sortState();
    fill(
      head,
      h("div", { class: "grid-cell grid-rowno grid-th", role: "columnheader", style: { width: `${rowNoWidth}px` }, title: "row number in the file (counted from 0 over all row groups)" }, rowHeader),
      source.columns.map((c, k) => {
        const active = sort && sort.key === c.key;
        const mark = active ? (sort.desc ? " ▼" : " ▲") : "";
        const content = [h("span", { class: "colname" }, nameNode(c.label)), h("span", { class: "type-tag" }, c.unit ? `${c.type} · time` : c.tag || c.type), h("span", { class: "sort-mark", "aria-hidden": "true" }, mark)];
        return h(
          "div",
          { class: ["grid-cell", "grid-th", (NUMERIC.has(c.type) || c.numeric) && "num"], role: "columnheader", style: { width: `${widths[k]}px` }, "aria-sort": active ? (sort.desc ? "descending" : "ascending") : "none", "data-col": c.key, "data-testid": `${testid}-header` },
          source.sortable && onSort ? h("button", { type: "button", class: "grid-sort", tabindex: "-1", title: `sort by ${nameString(c.label)} (again: the other way, a third time: file order)`, onclick: () => onSort(c.key) }, content) : content,
          // The keyboard's way is < and > on a selected cell.
          h("span", { class: "col-resize", "aria-hidden": "true", title: "drag to resize; double-click to fit the values in sight", "data-testid": `${testid}-resize`, onpointerdown: (ev) => dragWidth(ev, k), ondblclick: () => fitWidth(k) }),
        );
      }),
    );
  }

  /** Where each column starts (lefts), from `widths`, and the grid's whole width. */
  function placeColumns() {
    lefts = [0];
    for (const w of widths) lefts.push(lefts.at(-1) + w);
    sizer.style.width = `${rowNoWidth + lefts.at(-1)}px`;
  }

  /** Column k at `px` wide (a person's choice, kept by the source's column
   *  and told to onResize): the columns after it move, rows draw again. */
  function setWidth(k, px, done = false) {
    const w = Math.round(Math.max(COL_MIN, Math.min(COL_MAX, px)));
    const c = source.columns[k];
    c.width = widths[k] = w;
    placeColumns();
    head.children[k + 1].style.width = `${w}px`;
    if (done) onResize?.(c.key, w);
    schedule();
  }

  function dragWidth(ev, k) {
    if (ev.button !== 0) return;
    ev.preventDefault();
    const handle = ev.currentTarget;
    const x0 = ev.clientX;
    const w0 = widths[k];
    handle.setPointerCapture(ev.pointerId);
    handle.classList.add("dragging");
    const move = (e) => setWidth(k, w0 + e.clientX - x0);
    const up = (e) => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
      handle.removeEventListener("pointercancel", up);
      handle.classList.remove("dragging");
      setWidth(k, w0 + e.clientX - x0, true);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
    handle.addEventListener("pointercancel", up);
  }

  /** Column k as wide as its header and the widest of its values drawn. */
  function fitWidth(k) {
    const key = String(source.columns[k].key);
    const th = head.children[k + 1];
    const label = th.querySelector(".grid-sort") || th;
    // The header's parts side by side, and each drawn value, at their own widths (+ padding and border).
    let want = [...label.children].filter((e) => !e.classList.contains("col-resize")).reduce((a, e) => a + e.scrollWidth + 6, 0) + 18;
    for (const cell of body.querySelectorAll(`.grid-row:not([hidden]) .grid-cell[data-col="${CSS.escape(key)}"]`)) {
      const inner = cell.firstElementChild;
      want = Math.max(want, (inner ? inner.getBoundingClientRect().width : cell.scrollWidth) + 18);
    }
    setWidth(k, Math.ceil(want), true);
  }

  /** The columns drawn: [k0, k1), every one unless the grid is wide. */
  function columnWindow() {
    const n = source.columns.length;
    if (lefts[n] <= WINDOW_FROM) return [0, n];
    const x0 = scroller.scrollLeft - MARGIN;
    const x1 = scroller.scrollLeft + scroller.clientWidth - rowNoWidth + MARGIN;
    // The first column ending after x0 (binary search), then on to x1.
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lefts[mid + 1] <= x0) lo = mid + 1;
      else hi = mid;
    }
    let k1 = lo;
    while (k1 < n && lefts[k1] < x1) k1++;
    return [lo, Math.max(k1, Math.min(n, lo + 1))];
  }

  function ensureRows(want) {
    const n = visibleRows() + 2;
    while (rowsEls.length < n) {
      const cells = [];
      const row = h("div", { class: "grid-row", role: "row" });
      const no = h("div", { class: "grid-cell grid-rowno", role: "rowheader" });
      // Stands for the columns left of those drawn.
      const lead = h("div", { class: "grid-lead", "aria-hidden": "true" });
      row.append(no, lead);
      rowsEls.push({ row, no, lead, cells });
      body.append(row);
    }
    for (const r of rowsEls) {
      while (r.cells.length < want) {
        const cell = h("div", { class: "grid-cell", role: "gridcell" });
        r.cells.push(cell);
        r.row.append(cell);
      }
      while (r.cells.length > want) r.cells.pop().remove();
    }
  }

  function firstRowFor(scrollTop) {
    const total = source.total;
    if (!scaled()) return Math.floor(scrollTop / ROW_H);
    const maxTop = MAX_PX - viewH();
    const maxFirst = Math.max(0, total - visibleRows());
    return Math.min(maxFirst, Math.round((scrollTop / Math.max(1, maxTop)) * maxFirst));
  }

  function scrollTopFor(row) {
    if (!scaled()) return row * ROW_H;
    const maxFirst = Math.max(1, source.total - visibleRows());
    return (Math.min(row, maxFirst) / maxFirst) * (MAX_PX - viewH());
  }

  /** Scrolls to `row` as the first row drawn; in a scaled grid pins it
   *  (the position the browser keeps can be hundreds of rows off). */
  function scrollToFirst(row) {
    const maxFirst = Math.max(0, source.total - visibleRows());
    row = Math.max(0, Math.min(row, maxFirst));
    scroller.scrollTop = scrollTopFor(row);
    pinned = scaled() ? { row, top: scroller.scrollTop } : null;
    first = row; // (as render will draw it: a key pressed before then moves from here)
    schedule(); // (a position that did not change fires no scroll event)
  }

  function block(b) {
    const hit = blocks.get(b);
    // (a block that failed, its source down a moment, is asked again when
    // next in sight, once RETRY_AFTER has passed: not in a loop of frames)
    if (hit && !(hit.error && performance.now() - hit.at > RETRY_AFTER)) {
      blocks.delete(b);
      blocks.set(b, hit);
      return hit;
    }
    const gen = generation;
    const entry = { data: null, error: null };
    entry.pending = source
      .fetch(b * BLOCK, BLOCK)
      .then((data) => {
        if (gen !== generation) return;
        entry.data = data;
        schedule();
      })
      .catch((e) => {
        if (gen !== generation) return;
        // A fetch cancelled with other work (Stop) is asked again when
        // next in sight; any other error stays, shown in its cells.
        if (e?.kind === "cancelled") blocks.delete(b);
        else [entry.error, entry.at] = [e, performance.now()];
        schedule();
      });
    blocks.set(b, entry);
    while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value);
    return entry;
  }

  /** The selected range, rows r0..r1 and columns c0..c1 (inclusive), or
   *  null when one cell is selected. */
  function range() {
    if (!anchor || (anchor.row === sel.row && anchor.col === sel.col)) return null;
    return { r0: Math.min(anchor.row, sel.row), r1: Math.max(anchor.row, sel.row), c0: Math.min(anchor.col, sel.col), c1: Math.max(anchor.col, sel.col) };
  }

  function cellAt(i) {
    const b = block(Math.floor(i / BLOCK));
    if (!b.data) return { pending: !b.error, error: b.error };
    const k = i - Math.floor(i / BLOCK) * BLOCK;
    return { data: b.data, k };
  }

  function render() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    if (!source) return;
    // No size yet (a hidden tab): rows sized now would be too few once
    // shown, so none is shown until the ResizeObserver sees the real size.
    // The block of the rows to be shown first is fetched now, to be ready,
    // unless the source says fetching costs (a file read over HTTP).
    if (scroller.clientHeight <= HEAD_H) {
      for (const r of rowsEls) r.row.hidden = true;
      const want = pendingScroll ? pendingScroll.row : 0;
      if (source.total > 0 && source.prefetch !== false) block(Math.floor(Math.max(0, Math.min(want, source.total - 1)) / BLOCK));
      return;
    }
    // A scroll asked for before the grid had a size (a hidden tab, a page
    // still laying out) is applied once it has one.
    if (pendingScroll) {
      const { row, col } = pendingScroll;
      pendingScroll = null;
      layout();
      sel = { row: Math.max(0, Math.min(source.total - 1, row)), col: Math.max(0, Math.min(source.columns.length - 1, col)) };
      chosen = true;
      scrollToFirst(sel.row - 2);
      notify();
    }
    const [k0, k1] = columnWindow();
    ensureRows(k1 - k0);
    const box = range();
    const top = scroller.scrollTop;
    if (pinned && (!scaled() || top !== pinned.top)) pinned = null; // (scrolled since, or no longer scaled)
    first = pinned ? Math.min(pinned.row, Math.max(0, source.total - visibleRows())) : Math.min(firstRowFor(top), Math.max(0, source.total - 1));
    const offset = scaled() ? 0 : top - first * ROW_H;
    const n = rowsEls.length;
    // Ask for the blocks around the window too, so scrolling on finds them ready.
    const lastRow = Math.min(source.total, first + n) - 1;
    for (let i = first; i <= lastRow; i += BLOCK) block(Math.floor(i / BLOCK));
    if (lastRow >= 0) block(Math.floor(lastRow / BLOCK));
    for (let j = 0; j < n; j++) {
      const i = first + j;
      const r = rowsEls[j];
      r.row.style.transform = `translateY(${j * ROW_H - offset}px)`;
      if (i >= source.total) {
        r.row.hidden = true;
        continue;
      }
      r.row.hidden = false;
      r.row.setAttribute("aria-rowindex", String(i + 2));
      r.row.dataset.row = String(i);
      const at = cellAt(i);
      const id = at.data ? at.data.ids[at.k] : null;
      r.no.textContent = id === null ? "…" : fmtInt(id); // (i is a place in the view, not a file row)
      r.no.style.width = `${rowNoWidth}px`;
      r.row.dataset.fileRow = id === null ? "" : String(id);
      r.lead.style.width = `${lefts[k0]}px`;
      for (let k = k0; k < k1; k++) {
        const c = source.columns[k];
        const cell = r.cells[k - k0];
        cell.style.width = `${widths[k]}px`;
        const inRange = box !== null && i >= box.r0 && i <= box.r1 && k >= box.c0 && k <= box.c1;
        const on = chosen && sel.row === i && sel.col === k;
        cell.className = `grid-cell${NUMERIC.has(c.type) || c.numeric ? " num" : ""}${on ? " selected" : ""}${inRange ? " in-range" : ""}`;
        if (inRange) cell.setAttribute("aria-selected", "true");
        else cell.removeAttribute("aria-selected");
        cell.dataset.col = String(c.key);
        cell.dataset.row = String(i);
        cell.setAttribute("aria-colindex", String(k + 2));
        cell.id = on ? `${testid}-active` : "";
        if (at.error) {
          cell.textContent = "!";
          cell.title = `${at.error.message || String(at.error)} (moving in the grid asks again)`;
          cell.dataset.kind = "error";
          continue;
        }
        if (!at.data) {
          cell.textContent = "…";
          cell.title = "";
          cell.dataset.kind = "pending";
          continue;
        }
        const colData = at.data.columns[k];
        const v = colData.cells[at.k];
        const err = errorAt(colData, at.k);
        const node = v === undefined ? unreadableNode(err) : cellNode(c, v);
        cell.replaceChildren(node);
        // Marked for the eye, and said to a screen reader.
        if (source.matches?.(c, v)) {
          cell.classList.add("match");
          cell.setAttribute("aria-description", "found by the search");
        } else cell.removeAttribute("aria-description");
        cell.dataset.kind = node.dataset.kind;
        cell.title = v === undefined && err ? `${err.kind}: ${err.message}` : node.title || titleOf(node);
      }
    }
    el.setAttribute("aria-activedescendant", `${testid}-active`);
    fitFloats(k0, k1);
  }

  /** Float columns widened to their widest value in the first rows drawn:
   *  the footer does not bound their digits (0.1 + 0.2 takes 19). Once a
   *  source, never narrower, and then kept as a person's width is. */
  function fitFloats(k0, k1) {
    for (let k = k0; k < k1; k++) {
      const c = source.columns[k];
      if (!FLOATS.has(c.type) || c.unit || c.width || fitted.has(k)) continue;
      let chars = -1;
      for (const r of rowsEls) {
        const cell = r.cells[k - k0];
        if (r.row.hidden || cell.dataset.kind === "pending") continue;
        chars = Math.max(chars, cell.dataset.kind === "num" ? cell.textContent.length : 0);
      }
      if (chars < 0) continue; // no row of it drawn yet
      fitted.add(k);
      // (18 px of padding and border, 7.6 px a character of the numbers' monospace, as columnWidth)
      const want = Math.ceil(18 + chars * 7.6);
      if (want > widths[k]) setWidth(k, Math.min(TEXT_MAX, want), true);
    }
  }

  const titleOf = (node) => {
    const t = node.textContent;
    return t.length > 18 ? (t.length > 2000 ? `${t.slice(0, 2000)}…` : t) : "";
  };

  function schedule() {
    if (!frame) frame = requestAnimationFrame(render);
  }

  scroller.addEventListener("scroll", schedule, { passive: true });
  // The wheel in a scaled grid moves by rows, as it does in any other (by
  // pixels it went 100 x 94 rows a notch in 750 million); the scrollbar
  // still jumps in proportion.
  scroller.addEventListener("wheel", (ev) => {
    if (!source || !scaled() || ev.ctrlKey || Math.abs(ev.deltaY) <= Math.abs(ev.deltaX)) return;
    ev.preventDefault();
    const px = ev.deltaY * (ev.deltaMode === 1 ? ROW_H : ev.deltaMode === 2 ? viewH() : 1) + wheelRest;
    const rows = Math.trunc(px / ROW_H);
    wheelRest = px - rows * ROW_H;
    if (ev.deltaX) scroller.scrollLeft += ev.deltaX;
    if (rows) scrollToFirst(first + rows);
  }, { passive: false });
  // Rendered in the observer's callback, before the frame is painted: a tab
  // just shown never shows rows sized for its hidden state.
  new ResizeObserver(() => {
    if (source) {
      layout();
      render();
    }
  }).observe(scroller);

  /** Selects a cell; `extend`: the range from the anchor (the cell
   *  selected before, if none yet) to it, else the cell alone. */
  function select(row, col, { scroll = true, extend = false } = {}) {
    if (noCells()) return;
    anchor = extend ? (anchor ?? { ...sel }) : null;
    sel = { row: Math.max(0, Math.min(source.total - 1, row)), col: Math.max(0, Math.min(source.columns.length - 1, col)) };
    chosen = true;
    if (scroll) {
      const vis = visibleRows();
      if (sel.row < first || sel.row >= first + vis) {
        scrollToFirst(sel.row < first ? sel.row : sel.row - vis + 1);
      }
      // Horizontally: bring the cell out from under the row-number column:
      // its start right of it (at scrollLeft `start` or less), its end in
      // sight too (`end` or more) where it fits; a cell wider than the
      // room shows its start (its end brought in put its start under the
      // row numbers).
      const start = lefts[sel.col];
      const end = rowNoWidth + lefts[sel.col] + widths[sel.col] - scroller.clientWidth;
      if (scroller.scrollLeft > start) scroller.scrollLeft = start;
      else if (scroller.scrollLeft < end) scroller.scrollLeft = Math.min(start, end);
    }
    findNote.hidden = true;
    schedule();
    notify();
  }

  function sayNotFound(text) {
    findNote.textContent = text;
    findNote.hidden = false;
    clearTimeout(findNoteTimer);
    findNoteTimer = setTimeout(() => (findNote.hidden = true), 6000);
  }

  /** Selects the next (dir 1) or previous (-1) cell `source.matches`
   *  marks, row by row, within FIND_ROWS rows; false (and says so) if none. */
  async function findMatch(dir) {
    const match = source?.matches;
    if (!match) return false;
    const gen = generation;
    const from = sel; // (a selection made while rows load wins)
    const n = source.columns.length;
    let r = sel.row;
    let c = sel.col + dir;
    for (let seen = 0; seen <= FIND_ROWS && r >= 0 && r < source.total; seen++) {
      const b = block(Math.floor(r / BLOCK));
      if (!b.data) await b.pending;
      if (gen !== generation || sel !== from) return false;
      if (!b.data) {
        sayNotFound(`The search for the next cell stopped: rows on the way could not be read (their cells say why).`);
        return false;
      }
      const k = r % BLOCK;
      for (; c >= 0 && c < n; c += dir) {
        if (match(source.columns[c], b.data.columns[c].cells[k])) {
          select(r, c);
          return true;
        }
      }
      r += dir;
      c = dir > 0 ? 0 : n - 1;
    }
    const way = dir > 0 ? "after" : "before";
    // (Every row of a search's view holds a cell found, but maybe only in a column not shown.)
    sayNotFound(r >= 0 && r < source.total ? `No cell the search found in the columns shown, in the ${fmtInt(FIND_ROWS)} rows ${way} this one.` : `No cell the search found ${way} this one, in the columns shown.`);
    return false;
  }

  async function notify() {
    if (!onSelect || !source || source.columns.length === 0) return;
    const { row, col } = sel;
    const b = block(Math.floor(row / BLOCK));
    if (!b.data) await b.pending;
    if (!b.data || row !== sel.row || col !== sel.col) return;
    const k = row % BLOCK;
    const value = b.data.columns[col].cells[k];
    // (an error only for a cell that does not read: errorAt answers with the column's for any other)
    onSelect({ row, col, columns: source.columns, column: source.columns[col], value, error: value === undefined ? errorAt(b.data.columns[col], k) : null, id: b.data.ids[k], rowValues: source.columns.map((c, j) => b.data.columns[j].cells[k]), range: range() });
  }

  el.addEventListener("keydown", (ev) => {
    if (noCells()) return;
    const vis = visibleRows();
    const moves = {
      ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1],
      PageDown: [vis, 0], PageUp: [-vis, 0],
    };
    let { row, col } = sel;
    if (moves[ev.key]) {
      row += moves[ev.key][0];
      col += moves[ev.key][1];
    } else if (ev.key === "Home") {
      if (ev.ctrlKey || ev.metaKey) row = 0;
      col = 0;
    } else if (ev.key === "End") {
      if (ev.ctrlKey || ev.metaKey) row = source.total - 1;
      col = source.columns.length - 1;
    } else if ((ev.key === "a" || ev.key === "A") && (ev.ctrlKey || ev.metaKey) && !ev.altKey) {
      // Every cell: the range from the first to the last, the view left where it is.
      ev.preventDefault();
      anchor = null;
      sel = { row: 0, col: 0 };
      select(source.total - 1, source.columns.length - 1, { scroll: false, extend: true });
      return;
    } else if (ev.key === " " && !ev.altKey && (ev.shiftKey !== (ev.ctrlKey || ev.metaKey))) {
      // As in spreadsheets: Shift+Space the selected cell's row, Ctrl+Space
      // its column (every row of the view), as a range.
      ev.preventDefault();
      anchor = null;
      if (ev.shiftKey) {
        sel = { row, col: 0 };
        select(row, source.columns.length - 1, { scroll: false, extend: true });
      } else {
        sel = { row: 0, col };
        select(source.total - 1, col, { scroll: false, extend: true });
      }
      return;
    } else if ((ev.key === "n" || ev.key === "N") && !ev.ctrlKey && !ev.metaKey && !ev.altKey && source.matches) {
      ev.preventDefault();
      findMatch(ev.shiftKey ? -1 : 1);
      return;
    } else if ((ev.key === "<" || ev.key === ">") && !ev.ctrlKey && !ev.metaKey && !ev.altKey && source.columns[col]) {
      ev.preventDefault();
      setWidth(col, widths[col] + (ev.key === ">" ? COL_STEP : -COL_STEP), true);
      return;
    } else if ((ev.key === "s" || ev.key === "S") && !ev.ctrlKey && !ev.metaKey && !ev.altKey && source.sortable && onSort && source.columns[col]) {
      // The keyboard's way to the header's sort button (not a tab stop of its own).
      ev.preventDefault();
      onSort(source.columns[col].key);
      return;
    } else return;
    ev.preventDefault();
    select(row, col, { extend: ev.shiftKey });
  });
  // The mouse: a press selects its cell (with Shift, the range to it); a
  // drag from there selects the range to the cell under the pointer. The
  // press makes no text selection of its own.
  const cellUnder = (ev) => {
    const cell = ev.target?.closest?.(".grid-cell[data-row]");
    if (!cell || cell.classList.contains("grid-rowno") || !source) return null;
    return { row: Number(cell.dataset.row), col: source.columns.findIndex((c) => String(c.key) === cell.dataset.col) };
  };
  let dragging = false;
  // A click that no press of the mouse began (a screen reader's, a
  // script's) selects as a press does.
  let pressed = false;
  body.addEventListener("mousedown", (ev) => {
    if (press?.done) return; // (the mouse events a long press ends with: the range stays)
    pressed = true;
    const at = ev.button === 0 && cellUnder(ev);
    if (!at) return;
    ev.preventDefault();
    select(at.row, at.col, { scroll: false, extend: ev.shiftKey });
    el.focus({ preventScroll: true });
    dragging = true;
  });
  body.addEventListener("mousemove", (ev) => {
    if (!dragging) return;
    if (!(ev.buttons & 1)) {
      dragging = false;
      return;
    }
    const at = cellUnder(ev);
    if (at && (at.row !== sel.row || at.col !== sel.col)) select(at.row, at.col, { scroll: false, extend: true });
  });
  // A drag past the grid's edge scrolls it, the faster the farther the
  // pointer is, and stretches the range to the cell at that edge.
  let pointer = null; // where a drag's pointer is (client pixels)
  let edgeFrame = 0;
  function dragPastEdge() {
    edgeFrame = 0;
    if (!dragging || !pointer || !source) return;
    const box = scroller.getBoundingClientRect();
    const top = box.top + HEAD_H;
    const bottom = box.top + scroller.clientHeight;
    const left = box.left + rowNoWidth;
    const right = box.left + scroller.clientWidth;
    const past = (v, lo, hi) => (v < lo ? v - lo : v > hi ? v - hi : 0);
    const dy = past(pointer.y, top, bottom);
    const dx = past(pointer.x, left, right);
    if (!dx && !dy) return;
    const step = (d) => Math.sign(d) * Math.min(ROW_H * 8, 4 + Math.abs(d) / 2);
    // (in a scaled grid by rows: a pixel there is many)
    if (dy && scaled()) scrollToFirst(first + Math.sign(dy) * Math.max(1, Math.round(Math.abs(step(dy)) / ROW_H)));
    else if (dy) scroller.scrollTop += step(dy);
    if (dx) scroller.scrollLeft += step(dx);
    render(); // (now, so the cells at the edge are the rows scrolled to)
    const at = cellUnder({ target: document.elementFromPoint(Math.min(Math.max(pointer.x, left + 1), right - 1), Math.min(Math.max(pointer.y, top + 1), bottom - 1)) });
    if (at && at.col >= 0 && (at.row !== sel.row || at.col !== sel.col)) select(at.row, at.col, { scroll: false, extend: true });
    edgeFrame = requestAnimationFrame(dragPastEdge);
  }
  window.addEventListener("mousemove", (ev) => {
    if (!dragging) return;
    if (!(ev.buttons & 1)) {
      dragging = false; // (released where no mouseup came)
      return;
    }
    pointer = { x: ev.clientX, y: ev.clientY };
    if (!edgeFrame) edgeFrame = requestAnimationFrame(dragPastEdge);
  });
  // A touch screen has no Shift and its drag scrolls: a finger held still
  // on a cell for LONG_PRESS_MS selects the range to it. Not every browser
  // says so with a context menu event (iOS never does), so the page times
  // the press itself; where the event comes, it is taken instead.
  let press = null; // a touch on a cell: { id, x, y, at, timer, done }
  const stretch = (p) => {
    clearTimeout(p.timer);
    if (p.done) return;
    p.done = true;
    select(p.at.row, p.at.col, { scroll: false, extend: true });
  };
  const forget = () => {
    clearTimeout(press?.timer);
    press = null;
  };
  body.addEventListener(
    "pointerdown",
    (ev) => {
      forget();
      const at = ev.pointerType === "touch" && cellUnder(ev);
      if (!at || at.col < 0) return;
      const p = { id: ev.pointerId, x: ev.clientX, y: ev.clientY, at, done: false };
      p.timer = setTimeout(() => stretch(p), LONG_PRESS_MS);
      press = p;
    },
    { passive: true },
  );
  // Moved (a scroll) or lifted before its time: a tap, or no press at all.
  body.addEventListener("pointermove", (ev) => press && !press.done && ev.pointerId === press.id && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 10 && forget(), { passive: true });
  for (const t of ["pointerup", "pointercancel"]) body.addEventListener(t, (ev) => press && !press.done && ev.pointerId === press.id && forget(), { passive: true });
  body.addEventListener("contextmenu", (ev) => {
    if (!press) return; // (a mouse's menu stays)
    ev.preventDefault();
    stretch(press);
  });
  window.addEventListener("blur", () => (dragging = false));
  window.addEventListener("mouseup", () => {
    dragging = false;
    setTimeout(() => (pressed = false)); // (after the click the release makes, if any)
  });
  body.addEventListener("click", (ev) => {
    if (press?.done) return forget();
    const at = !pressed && cellUnder(ev);
    pressed = false;
    if (!at) return;
    select(at.row, at.col, { scroll: false, extend: ev.shiftKey });
    el.focus({ preventScroll: true });
  });

  /** The values of range `box`, row by row (each the range's columns), from
   *  the blocks at hand or read in pieces, and how many cells of each column
   *  do not read; throws { kind: "cancelled" } if the grid shows other rows
   *  meanwhile. */
  async function rangeValues(box) {
    const gen = generation;
    const out = [];
    const unreadable = new Array(box.c1 - box.c0 + 1).fill(0); // cells whose chunk does not read (undefined in `rows`)
    for (let r = box.r0; r <= box.r1; ) {
      const hit = blocks.get(Math.floor(r / BLOCK))?.data;
      const start = hit ? Math.floor(r / BLOCK) * BLOCK : r;
      const data = hit ?? (await source.fetch(r, Math.min(RANGE_PIECE, box.r1 - r + 1)));
      if (gen !== generation) throw Object.assign(new Error("the grid shows other rows now"), { kind: "cancelled" });
      const n = Math.min(data.ids.length - (r - start), box.r1 - r + 1);
      if (n <= 0) break;
      for (let i = r - start; i < r - start + n; i++) {
        const row = [];
        for (let k = box.c0; k <= box.c1; k++) {
          const v = data.columns[k].cells[i];
          row.push(v);
          if (v === undefined) unreadable[k - box.c0]++;
        }
        out.push(row);
      }
      r += n;
    }
    return { columns: source.columns.slice(box.c0, box.c1 + 1), rows: out, unreadable };
  }

  return {
    el,
    /** Shows another source (or the same with new rows): forgets fetched blocks. */
    setSource(src, { keepScroll = false } = {}) {
      source = src;
      generation++;
      blocks.clear();
      findNote.hidden = true; // (it spoke of the rows shown before)
      fitted = new Set();
      // A range among no columns holds no cell (Ctrl+C would copy it).
      if (src.columns.length === 0) anchor = null;
      if (!keepScroll) {
        // A scroll asked for in the rows shown before (Go to row, a link's
        // row) and not yet drawn is not a place in these.
        pendingScroll = null;
        pinned = null;
        scroller.scrollTop = 0;
        sel = { row: 0, col: Math.min(sel.col, Math.max(0, src.columns.length - 1)) };
        anchor = null;
        chosen = false;
      }
      layout();
      schedule();
    },
    /** Re-reads the header (sort marks) without dropping data. */
    refreshHeader() {
      layout();
      schedule();
    },
    scrollToRow(row, col = sel.col) {
      pendingScroll = { row, col };
      schedule();
    },
    get selection() {
      return { ...sel };
    },
    /** The selected range ({ r0, r1, c0, c1 }), or null: one cell. */
    get range() {
      return range();
    },
    rangeValues,
    get firstRow() {
      return first;
    },
    scroller,
    select,
  };
}
