// A grid's selected range of cells (Shift with a click or an arrow key), in
// its side panel: how many rows and columns, copies as TSV or JSON, and
// what its number cells add up to. Shared by the Data and SQL tabs.

import { h, fill } from "../dom.js";
import { fmtInt, scalarText, plural } from "../format.js";
import { brief } from "../labels.js";
import { copyText, copyValue, flatNote, rangeText, unreadableNote } from "./cells.js";

// The most cells a range copies or sums: its text is built in the page.
export const RANGE_CELLS_MAX = 1_000_000;
// A range's sums wait this long for the range to stop changing (Shift+arrow held).
const SUM_DELAY = 200;
const SUMMED = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"]);
const summed = (c) => SUMMED.has(c.type) && !c.unit;
const cellsOf = (box) => (box.r1 - box.r0 + 1) * (box.c1 - box.c0 + 1);
const same = (a, b) => !!a && !!b && a.r0 === b.r0 && a.r1 === b.r1 && a.c0 === b.c0 && a.c1 === b.c1;

/**
 * What a range's number cells add up to: count, sum, minimum, maximum and
 * mean, over every number column in it (as a spreadsheet's status bar).
 * Integers only: exact (BigInt); with a float column, as doubles, marked ≈
 * when an integer's digits went past what a double holds. The minimum and
 * maximum are cells' own values, compared exactly and shown as their
 * column shows them. NaN and the cells whose chunk does not read
 * (`unreadable`, a count a column) are left out and said.
 */
export function rangeSums(columns, rows, unreadable = []) {
  const ks = columns.flatMap((c, k) => (summed(c) ? [k] : []));
  const exact = ks.every((k) => !columns[k].type.startsWith("float"));
  let n = 0;
  let nan = 0;
  let sum = exact ? 0n : 0;
  let rounded = false; // (an integer a double does not hold, in a sum of doubles)
  let min = null; // { v, type }: a BigInt compares exactly with a number too
  let max = null;
  for (const row of rows) {
    for (const k of ks) {
      const v = row[k];
      if (v === null || v === undefined) continue;
      if (!exact && Number.isNaN(Number(v))) {
        nan++;
        continue;
      }
      const x = exact ? BigInt(v) : Number(v);
      if (!exact && typeof v === "bigint" && BigInt(x) !== v) rounded = true;
      n++;
      sum += x;
      if (min === null || v < min.v) min = { v, type: columns[k].type };
      if (max === null || v > max.v) max = { v, type: columns[k].type };
    }
  }
  const bad = ks.reduce((a, k) => a + (unreadable[k] ?? 0), 0);
  const left = [nan && plural(nan, "NaN"), bad && plural(bad, "unreadable cell")].filter(Boolean);
  const skipped = left.length ? ` (${left.join(" and ")} left out)` : "";
  if (n === 0) return `No number in the range${skipped}.`;
  const about = rounded ? "≈ " : "";
  const sumText = exact ? sum.toString() : `${about}${scalarText("float64", sum)}`;
  const mean = exact ? exactMean(sum, n) : `${about}${scalarText("float64", sum / n)}`;
  return `${plural(n, "number")}${skipped}: sum ${sumText}, min ${scalarText(min.type, min.v)}, max ${scalarText(max.type, max.v)}, mean ${mean}`;
}

/** An integer sum's mean: as a double while the sum is one exactly; past
 *  2^53 from the BigInt (a double would print digits it does not hold:
 *  7378697629483821000 for 7378697629483820646.2), to 6 decimals, rounded. */
function exactMean(sum, n) {
  if (Number.isSafeInteger(Number(sum))) return scalarText("float64", Number(sum) / n);
  const N = BigInt(n);
  const a = sum < 0n ? -sum : sum;
  const scaled = (a * 2_000_000n + N) / (2n * N); // the mean × 10^6, rounded half up
  const whole = scaled / 1_000_000n;
  const frac = (scaled % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${sum < 0n ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** The grid's selected range on the clipboard, as TSV (`header`: the
 *  columns' names first) or JSON. */
export async function copyRange(grid, format, header, toast) {
  const box = grid.range;
  if (!box) return;
  if (cellsOf(box) > RANGE_CELLS_MAX) {
    toast(`The range holds ${fmtInt(cellsOf(box))} cells, more than the ${fmtInt(RANGE_CELLS_MAX)} a copy takes: Export writes the rows to a file.`, "error");
    return;
  }
  try {
    const { columns, rows, unreadable } = await grid.rangeValues(box);
    const flat = { n: 0 };
    const text = rangeText(columns, rows, format, header, flat);
    await copyText(text, toast, unreadableNote(unreadable.reduce((a, b) => a + b, 0)) + flatNote(flat.n));
  } catch (e) {
    if (e?.kind !== "cancelled") toast(`Could not copy the range: ${e?.kind ? `${e.kind}: ` : ""}${e?.message || e}`, "error");
  }
}

/** Ctrl+C (Cmd+C) in `grid`: its range as TSV, or else the value of the
 *  cell `selected()` gives (null: none). Data's and SQL's alike. */
export function copyKeys(grid, toast, selected) {
  grid.el.addEventListener("keydown", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey) || ev.key !== "c") return;
    const cell = grid.range ? null : selected();
    if (!grid.range && !cell) return;
    ev.preventDefault();
    if (grid.range) copyRange(grid, "tsv", false, toast);
    else copyValue(cell, toast);
  });
}

/** Fills `side` with range `box` of `grid` (its columns `columns`); the
 *  sums follow once the range has stayed for a moment. */
export function showRange(side, grid, box, columns, toast) {
  const rows = box.r1 - box.r0 + 1;
  const picked = columns.slice(box.c0, box.c1 + 1);
  const cells = cellsOf(box);
  const big = cells > RANGE_CELLS_MAX;
  const any = picked.some(summed);
  const sums = h("p", { class: "small", "data-testid": "range-sums", "aria-live": "polite" }, !any ? "No number column in the range." : big ? `More than ${fmtInt(RANGE_CELLS_MAX)} cells: not summed.` : "Summing…");
  const copy = (label, testid, format, header) => h("button", { type: "button", class: "small", "data-testid": testid, disabled: big, onclick: () => copyRange(grid, format, header, toast) }, label);
  fill(
    side,
    h("div", { class: "value-head" }, h("b", { "data-testid": "range-size" }, `${plural(rows, "row")} × ${plural(picked.length, "column")}`), h("span", { class: "muted" }, ` · ${plural(cells, "cell")}`)),
    h("p", { class: "small" }, picked.map((c, i) => [i ? ", " : "", h("span", { class: "colname" }, brief(c.label))])),
    sums,
    h("div", { class: "button-row" }, copy("Copy (TSV)", "copy-range", "tsv", false), copy("Copy with names (TSV)", "copy-range-header", "tsv", true), copy("Copy (JSON)", "copy-range-json", "json", false)),
    h("p", { class: "muted small" }, "Ctrl+C copies the range as TSV. A click or an arrow key without Shift selects one cell again."),
  );
  if (!any || big) return;
  setTimeout(async () => {
    if (!same(grid.range, box)) return;
    try {
      const { columns: cs, rows: values, unreadable } = await grid.rangeValues(box);
      if (same(grid.range, box)) sums.textContent = rangeSums(cs, values, unreadable);
    } catch (e) {
      if (same(grid.range, box) && e?.kind !== "cancelled") sums.textContent = `Not summed: ${e?.kind ? `${e.kind}: ` : ""}${e?.message || e}`;
    }
  }, SUM_DELAY);
}
