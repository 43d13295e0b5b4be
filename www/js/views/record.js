// A selected cell's whole row as a list of its columns' names and values,
// at the foot of the Data and SQL side panels: the grid shows a few columns
// at a time, this one the row. Picking a field selects its cell in the grid.

import { h, fill } from "../dom.js";
import { nameHas } from "../labels.js";
import { plural, nameNode, nameString } from "../format.js";
import { cellNode, unreadableNode } from "./grid.js";

// At most this many fields listed (a 4,000-column row would be 4,000
// buttons at every selection); a filter by name, offered past FILTER_FROM
// columns, finds the others. (The SQL tab's list of table t's columns
// goes by the same two.)
export const LISTED = 200;
export const FILTER_FROM = 20;
const VALUE_CHARS = 80;

/**
 * The row list of one grid's side panel. It keeps, from one selection to
 * the next, whether it is open, its filter, and (when a field was picked)
 * where the list was scrolled and which field had the focus, since each
 * selection draws the panel anew.
 *   node(cell, matches): the list for `cell` (with columns and rowValues,
 *     as the grid hands it over); matches(column, value), if given, marks
 *     the fields a search found. A field picked selects its cell in `grid`.
 *   settle(): once the node is on the page, its scroll and focus back.
 *   reset(): another file opened: its filter and place forgotten.
 */
export function createRecord(grid) {
  let open = true;
  let filter = "";
  let kept = null; // { col, scrollTop, focused }
  let list = null;

  function items(cell, matches) {
    const cols = cell.columns || [];
    // (a filter typed for a wider row does not apply where none is offered)
    const want = cols.length > FILTER_FROM ? filter.trim() : "";
    const matching = [];
    for (let j = 0; j < cols.length; j++) if (nameHas(cols[j].label, want)) matching.push(j);
    // The selected field always among those listed: past the first LISTED,
    // the list is the LISTED around it (End in the grid selects the last).
    const pos = matching.indexOf(cell.col);
    const from = pos >= LISTED ? Math.min(pos - (LISTED >> 1), matching.length - LISTED) : 0;
    const out = matching.slice(from, from + LISTED).map((j) => {
      const c = cols[j];
      const v = cell.rowValues[j];
      const found = !!matches?.(c, v);
      return h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: ["record-field", found && "match"],
            "aria-description": found ? "found by the search" : null,
            "data-field": j,
            "aria-current": j === cell.col ? "true" : null,
            title: `select this cell in the grid (${nameString(c.label)})`,
            onclick: (ev) => {
              // From the keyboard (no pointer: detail 0) the focus stays on
              // the field; from a pointer it goes to the grid, whose arrow
              // keys go on from the cell picked.
              kept = { col: j, scrollTop: list.scrollTop, focused: ev.detail === 0 };
              grid.select(cell.row, j);
              if (ev.detail !== 0) grid.el.focus({ preventScroll: true });
            },
          },
          h("span", { class: "record-name" }, nameNode(c.label)),
          h("span", { class: "record-value" }, v === undefined ? unreadableNode() : cellNode(c, v, VALUE_CHARS)),
        ),
      );
    });
    if (from > 0) out.unshift(h("li", { class: "muted small record-more", "data-testid": "record-before" }, `${plural(from, "column")} before these${cols.length > FILTER_FROM ? "; the filter finds them" : ""}`));
    const after = matching.length - from - LISTED;
    if (after > 0) out.push(h("li", { class: "muted small record-more", "data-testid": "record-more" }, `and ${plural(after, "more column")}${cols.length > FILTER_FROM ? "; the filter finds them" : ""} (Copy row copies them all)`));
    if (!matching.length) out.push(h("li", { class: "muted small record-more" }, "No column's name holds this text."));
    return out;
  }

  function node(cell, matches = null) {
    const cols = cell.columns || [];
    list = h("ul", { class: "record-list", "data-testid": "record-list" });
    fill(list, items(cell, matches));
    const search = cols.length > FILTER_FROM
      ? h("input", {
          type: "search",
          class: "record-filter",
          placeholder: "filter by column name",
          "aria-label": "filter the row's columns by name",
          "data-testid": "record-filter",
          value: filter,
          oninput: (ev) => {
            filter = ev.target.value;
            fill(list, items(cell, matches));
          },
        })
      : null;
    const details = h(
      "details",
      { class: "record", "data-testid": "record", open },
      h("summary", {}, `Whole row · ${plural(cols.length, "column")}`),
      search,
      list,
    );
    details.addEventListener("toggle", () => (open = details.open));
    return details;
  }

  function settle() {
    if (!kept || !list?.isConnected) return;
    list.scrollTop = kept.scrollTop;
    if (kept.focused) list.querySelector(`.record-field[data-field="${kept.col}"]`)?.focus({ preventScroll: true });
    kept = null;
  }

  /** Another file: its rows have other columns (the list stays open or closed). */
  function reset() {
    filter = "";
    kept = null;
  }

  return { node, settle, reset };
}
