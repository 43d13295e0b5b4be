// Pieces shared by several views: error boxes, tokenizer hints, pickers.

import { h } from "./dom.js";
import { fmtInt, nameNode, nameString } from "./format.js";
import { UNIT_LABEL } from "./timefmt.js";
import { nameHas } from "./labels.js";

const HINTS = {
  truncated: "The file is shorter than its own structure says: it was probably cut short while copying or downloading.",
  bad_magic: "This is not a columns file of this format version (files start and end with the 4 bytes ABCD).",
  unsupported_version: "The version byte after the magic is not 1 or 2.",
  corrupt_footer: "The footer (the file's table of contents at the end) cannot be decoded.",
  corrupt_chunk: "This column chunk's bytes are inconsistent; other chunks may still read.",
  unsupported_codec: "The chunk uses a compression codec this reader does not decode.",
  unsupported_encoding: "The chunk uses an encoding this reader does not know.",
  unknown_tokenizer: "The chunk is tokenized with a tokenizer that has not been supplied. Drop its tokenizer.json on the page.",
  invalid_tokenizer: "That file is not a usable tokenizer.json (a Hugging Face tokenizer with a BPE model vocab).",
  bad_source: "The bytes could not be read from the source.",
  too_large: "Too large to handle in this browser tab.",
  cancelled: "Stopped on request.",
};

// Other formats people drop here by mistake, known by their first bytes.
const LOOKALIKES = [
  [/magic is "PAR1"/, "a Parquet file"],
  [/magic is "ARRO"/, "an Arrow IPC file"],
  [/magic is 0x504b0304/, "a ZIP archive"],
  [/magic is 0x1f8b/, "a gzip-compressed file (decompress it first)"],
];

// What to do about a URL that failed, by the HTTP status or the fetch
// failure urlbuffer.js puts in its message.
const SOURCE_HINTS = [
  [/HTTP 40[34]\b|HTTP 410\b/, "The server has no file at this address, or will not give it: check the URL (paths are case-sensitive) and that the file is public."],
  [/HTTP 401\b/, "The server wants a login for this file; this page sends none. Download the file and use Open file… to read it from disk."],
  [/HTTP 5\d\d\b/, "The server failed to answer: try again in a moment; if it keeps failing, the server's owner has to look."],
  [/HTTP 416\b/, "The server refused the byte range asked for: the file may have changed on the server while it was being read. Open the URL again."],
  [/Access-Control-Expose-Headers/, "The server lets this page read its files (CORS) but hides the header that says which bytes came: it must also send Access-Control-Expose-Headers: Content-Range (and Accept-Ranges, ETag). Or download the file and use Open file… to read it from disk."],
  [/Failed to fetch|NetworkError|Load failed/, "The server could not be reached, or it is on another origin and does not let this page read its files: it must send Access-Control-Allow-Origin (CORS) and expose Content-Range. Check the URL, or download the file and use Open file… to read it from disk."],
];

// A file too large to download whole, from a server that will not send it in parts.
const WHOLE_HINT = "This server sends only whole files (it ignores HTTP Range requests), and this file is too large to hold whole in a browser tab. Serve it from a host that answers Range requests (most static hosts and object stores do), or download it and use Open file…, which reads it in parts.";

function hintFor(err) {
  if (err.kind === "too_large" && /ignores Range requests/.test(err.message || "")) return WHOLE_HINT;
  const like = err.kind === "bad_magic" && LOOKALIKES.find(([re]) => re.test(err.message || ""));
  if (like) return `This looks like ${like[1]}, not a columns file (columns files start and end with the 4 bytes ABCD).`;
  const source = err.kind === "bad_source" && SOURCE_HINTS.find(([re]) => re.test(err.message || ""));
  return source ? source[1] : HINTS[err.kind];
}

/** A readable, safe box for an error { kind, message, rowGroup, column, offset }. */
export function errorBox(err, { title, schema, testid = "error-box", compact = false } = {}) {
  const loc = [];
  if (err.rowGroup !== null && err.rowGroup !== undefined) loc.push(`row group ${err.rowGroup}`);
  if (err.column !== null && err.column !== undefined) {
    const name = schema?.[err.column]?.name;
    loc.push(name !== undefined ? `column ${err.column} (“${nameString(name)}”)` : `column ${err.column}`);
  }
  if (err.offset !== null && err.offset !== undefined) loc.push(`byte offset ${fmtInt(err.offset)}`);
  const digest = err.kind === "unknown_tokenizer" ? /\b([0-9a-f]{64})\b/.exec(err.message || "")?.[1] : null;
  return h(
    "div",
    { class: ["error-box", compact && "compact"], role: "alert", "data-testid": testid, "data-kind": err.kind, title: compact ? err.message : undefined },
    title ? h("div", { class: "error-title" }, title) : null,
    h(
      "div",
      { class: "error-line" },
      h("span", { class: "kind-badge", "data-testid": "error-kind" }, err.kind || "error"),
      // A missing tokenizer in a compact box: the hint below says it all.
      compact && digest
        ? h("span", { class: "error-hint", "data-testid": "missing-digest" }, "Drop the tokenizer.json whose SHA-256 is ", h("code", { class: "digest" }, digest), " anywhere on the page to read this column, or ", chooseButton())
        : h("span", { class: "error-message", "data-testid": "error-message" }, loc.length && !compact ? withoutLocation(err.message || "") : err.message || ""),
    ),
    loc.length && !compact ? h("div", { class: "error-loc", "data-testid": "error-location" }, "Location: ", loc.join(", ")) : null,
    digest && !compact ? h("div", { class: "error-hint", "data-testid": "missing-digest" }, "Drop the tokenizer.json whose SHA-256 is ", h("code", { class: "digest" }, digest), " anywhere on the page to read it, or ", chooseButton()) : null,
    HINTS[err.kind] && !digest && !compact ? h("div", { class: "error-hint", "data-testid": "error-hint" }, hintFor(err)) : null,
  );
}

/** A package message without the "(row group 0, column 1, byte offset 103)"
 *  it ends with: the box's Location line says it, with the column's name. */
const withoutLocation = (m) => m.replace(/ \((?:row group|column|byte offset) \d+(?:, (?:row group|column|byte offset) \d+)*\)$/, "");

/** Opens the file chooser for tokenizer.json files (app.js listens for data-action). */
const chooseButton = () => h("button", { type: "button", class: "small primary", "data-action": "choose-tokenizer", "data-testid": "choose-tokenizer" }, "Choose tokenizer…");

let uid = 0;
/** A labelled <select>. options: [{ value, label }] */
export function selectField(label, options, value, onchange, testid) {
  const id = `f${++uid}`;
  const sel = h("select", { id, "data-testid": testid, onchange: () => onchange(sel.value) }, options.map((o) => h("option", { value: String(o.value), selected: String(o.value) === String(value) }, o.label)));
  return h("label", { class: "field", for: id }, h("span", { class: "field-label" }, label), sel);
}

/**
 * A field choosing one of `count` numbered things (row groups), or, with
 * `all` (its label), every one ("all"): a select naming each (`name(i)`)
 * while there are at most PICKER_SHOWN, else a number box "of <count>"
 * (empty for all), as a select of 5,000 options cost about 85 ms each time
 * it was drawn. A number outside 0 .. count - 1 goes back to the choice.
 */
export function indexField(label, count, value, onchange, testid, name, { all = null } = {}) {
  const every = all === null ? [] : [{ value: "all", label: all }];
  if (count <= PICKER_SHOWN) return selectField(label, [...every, ...Array.from({ length: count }, (_, i) => ({ value: i, label: name(i) }))], value, onchange, testid);
  const id = `f${++uid}`;
  const text = (v) => (v === "all" ? "" : String(v));
  let chosen = value;
  const box = h("input", {
    id,
    type: "number",
    min: 0,
    max: count - 1,
    step: 1,
    value: text(value),
    placeholder: all ?? "",
    style: { width: `${String(count - 1).length + 4}ch` },
    "data-testid": testid,
    onchange: () => {
      const t = box.value.trim();
      const v = Number(t);
      if (t === "" && all !== null) chosen = "all";
      else if (t !== "" && Number.isInteger(v) && v >= 0 && v < count) chosen = String(v);
      else {
        box.value = text(chosen);
        return;
      }
      onchange(chosen);
    },
  });
  return h("label", { class: "field", for: id }, h("span", { class: "field-label" }, label), h("span", {}, box, ` of ${fmtInt(count)}`));
}

// The Unix time units an integer column can be shown in (32 bits hold seconds only).
const TIME_UNITS = { int32: ["s"], uint32: ["s"], int64: ["s", "ms", "us", "ns"], uint64: ["s", "ms", "us", "ns"] };

/**
 * How column c's values show: numbers, or dates of a Unix time unit, as
 * the person chooses (ctx.setTimeUnit); the unit the page guessed says so.
 * null for a column that is not an integer of 32 or 64 bits.
 */
export function timeUnitField(ctx, c, testid, label = "Show values as") {
  const units = TIME_UNITS[ctx.file.schema[c].type];
  if (!units) return null;
  const now = ctx.timeUnits[c] || "";
  const guessed = ctx.timeSource[c] === "guessed";
  const options = [{ value: "", label: "numbers" }, ...units.map((u) => ({ value: u, label: `dates, epoch ${UNIT_LABEL[u]}${guessed && u === now ? " (guessed)" : ""}` }))];
  return selectField(label, options, now, (v) => ctx.setTimeUnit(c, v || null), testid);
}

/**
 * A checkbox list of columns with filter, all and none. Returns
 * { el, get(): number[], set(list) }.
 */
export function columnPicker(schema, selected, onchange, { testid = "column-picker", label = "Columns", placeholder = "filter columns" } = {}) {
  const chosen = new Set(selected);
  const list = h("div", { class: "picker-list", role: "group", "aria-label": label });
  const summary = h("span", { class: "picker-summary" });
  const filter = h("input", { type: "search", placeholder, "aria-label": placeholder, class: "picker-filter", oninput: () => draw() });
  // Items are made when first shown, and at most PICKER_SHOWN at once (the
  // filter narrows the rest): 5,000 row groups drawn as 5,000 checkboxes
  // took the Timing tab 0.9 s to show.
  const items = new Map(); // index -> { box, label }
  const item = (i) => {
    if (items.has(i)) return items.get(i);
    const box = h("input", {
      type: "checkbox",
      value: String(i),
      checked: chosen.has(i),
      "data-testid": `${testid}-col`,
      onchange: () => {
        if (box.checked) chosen.add(i);
        else chosen.delete(i);
        summary.textContent = summaryText();
        onchange([...chosen].sort((a, b) => a - b));
      },
    });
    const it = { box, label: h("label", { class: "picker-item" }, box, h("span", { class: "picker-name" }, nameNode(schema[i].name)), h("span", { class: "type-tag" }, schema[i].type)) };
    items.set(i, it);
    return it;
  };
  const summaryText = () => `${fmtInt(chosen.size)} of ${fmtInt(schema.length)} selected`;
  let matching = [];
  function draw() {
    const q = filter.value;
    matching = [];
    schema.forEach((col, i) => nameHas(col.name, q) && matching.push(i));
    const shown = matching.slice(0, PICKER_SHOWN).map((i) => {
      const it = item(i);
      it.box.checked = chosen.has(i);
      return it.label;
    });
    const rest = matching.length - shown.length;
    if (rest > 0) shown.push(h("p", { class: "muted picker-more", "data-testid": `${testid}-more` }, `and ${fmtInt(rest)} more: type in the filter to find them (All and None take them too)`));
    list.replaceChildren(...shown);
    summary.textContent = summaryText();
  }
  const setAll = (on) => {
    chosen.clear();
    if (on) for (const i of matching) chosen.add(i);
    draw();
    onchange([...chosen].sort((a, b) => a - b));
  };
  const el = h(
    "fieldset",
    { class: "picker", "data-testid": testid },
    h("legend", {}, label, " ", summary),
    h("div", { class: "picker-tools" }, filter, h("button", { type: "button", class: "small", "data-testid": `${testid}-all`, onclick: () => setAll(true) }, "All"), h("button", { type: "button", class: "small", "data-testid": `${testid}-none`, onclick: () => setAll(false) }, "None")),
    list,
  );
  draw();
  return { el, get: () => [...chosen].sort((a, b) => a - b) };
}

/** The most items a picker shows at once. */
export const PICKER_SHOWN = 200;

/** Which columns use tokenizer table entry `index` (1-based). */
export function columnsUsingTokenizer(file, index) {
  const out = new Set();
  for (const rg of file.rowGroups) rg.columns.forEach((cm, c) => cm.tokenizer === index && out.add(c));
  return [...out];
}

export const shortDigest = (d) => `${d.slice(0, 12)}…`;
