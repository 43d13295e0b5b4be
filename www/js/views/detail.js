// Column detail: what the encoding did with one chunk, its blocks, and
// whether the footer's statistics agree with the decoded values.

import { h, fill } from "../dom.js";
import { fmtBytes, fmtInt, statNode, textNode, valueNode, plural, fmtRange, RANGE_TITLE, nameNode, nameString } from "../format.js";
import { errorBox, indexField, selectField, timeUnitField } from "../common.js";
import { decodedSize, ratio, fmtRatioValue, sizeLegend, sizeTitle } from "../sizes.js";
import { createProfile } from "./profile.js";
import { chunkFailure, parseHeader, tagLabel, tagCell } from "../chunkstate.js";
import { brief, isolated } from "../labels.js";

/** A size as "10.6 KiB (10,888 B)": a narrow card may break the line
 *  between the two parts, never inside one. */
const exact = (n) => (n < 1024 ? h("span", { class: "nowrap" }, `${fmtInt(n)} B`) : h("span", {}, h("span", { class: "nowrap" }, fmtBytes(n)), " ", h("span", { class: "nowrap" }, `(${fmtInt(n)} B)`)));

const kv = (rows) =>
  h(
    "dl",
    { class: "kv" },
    rows.filter(Boolean).map(([k, v, testid]) => [h("dt", {}, k), h("dd", { "data-testid": testid }, v instanceof Node ? v : String(v))]),
  );

function bytesText(type, b) {
  // Bytes as everywhere else: 0x and the hex ("0x" alone when empty).
  if (type === "bytes") return valueNode("bytes", b || new Uint8Array(0), { maxChars: 400 });
  if (!b || b.length === 0) return h("span", { class: "v-empty" }, "(empty)");
  return h("span", { class: "v-str" }, "“", textNode(b, 200), "”");
}

function encodingFacts(d, type, rows, cm, f) {
  const values = rows - cm.nullCount;
  switch (d.kind) {
    case "Plain":
      return [["Layout", type === "string" || type === "bytes" ? "per value: uint32 length, then the bytes" : "fixed-width values back to back"], ["Values", fmtInt(values)]];
    case "RLEBitpack":
      return [["Layout", "one bit per value, most significant bit first"], ["true", fmtInt(d.trues), "enc-trues"], ["false", fmtInt(values - d.trues)]];
    case "Delta":
      return [["Layout", "n × int64: the first value, then differences"], ["First value", d.first === null ? "—" : String(d.first), "enc-first"], ["Min delta", d.minDelta === null ? "—" : String(d.minDelta), "enc-min-delta"], ["Max delta", d.maxDelta === null ? "—" : String(d.maxDelta), "enc-max-delta"], ["Values", fmtInt(values)]];
    case "Dict":
      return [
        ["Dictionary size", fmtInt(d.size), "enc-dict-size"],
        ["Index bit width", `${d.indexWidth} bits`, "enc-index-width"],
        ["Index bytes", fmtBytes(d.indexBytes)],
        ["Entry bytes", fmtBytes(d.entryBytes)],
        ["Values per entry", d.size ? (values / d.size).toFixed(1) : "—"],
      ];
    case "OffsetBytes":
      return [["Layout", "uint32 count, uint32 offsets, then the concatenated values"], ["Data bytes", fmtBytes(d.dataBytes)], ["Values", fmtInt(values)]];
    case "Affix":
      return [
        ["Prefix", h("span", {}, bytesText(type, d.prefix), h("span", { class: "muted" }, ` ${d.prefix.length} B`)), "enc-prefix"],
        ["Suffix", h("span", {}, bytesText(type, d.suffix), h("span", { class: "muted" }, ` ${d.suffix.length} B`)), "enc-suffix"],
        ["Middle bytes", fmtBytes(d.middleBytes)],
        ["Saved", `${fmtBytes((d.prefix.length + d.suffix.length) * Math.max(0, values - 1))} of repeated affixes`],
      ];
    case "Tokenized": {
      const tz = cm.tokenizer ? f.tokenizers[cm.tokenizer - 1] : null;
      return [
        ["Representation", d.representation, "enc-representation"],
        ["Boundaries", d.boundaries, "enc-boundaries"],
        ["Values", fmtInt(d.values)],
        ["Tokens", fmtInt(d.tokens), "enc-tokens"],
        ["Tokens per value", d.values ? (d.tokens / d.values).toFixed(1) : "—"],
        ["Escapes", `${fmtInt(d.escapes)}${d.tokens ? ` (${((100 * d.escapes) / d.tokens).toFixed(1)}% of tokens are raw bytes)` : ""}`, "enc-escapes"],
        ["Table length", fmtInt(d.tableLength)],
        d.bitsWidth !== null && d.bitsWidth !== undefined ? ["Bits per id", `${d.bitsWidth}`] : null,
        ["Id stream", fmtBytes(d.idBytes)],
        ["Tokenizer", tz ? h("span", {}, h("code", { class: "digest" }, tz.digest), tz.resolved ? h("span", { class: "ok-badge" }, " resolved") : h("span", { class: "warn-badge" }, " missing")) : "—"],
      ];
    }
    default:
      return Object.entries(d).map(([k, v]) => [k, String(v)]);
  }
}

function checksTable(report, cm, type, rows) {
  const footer = {
    nullCount: fmtInt(cm.nullCount),
    min: statNode(type, cm.minRaw, { allNull: cm.nullCount === rows, maxChars: 60 }),
    max: statNode(type, cm.maxRaw, { allNull: cm.nullCount === rows, maxChars: 60 }),
    minLen: fmtInt(cm.minLen),
    maxLen: fmtInt(cm.maxLen),
  };
  const d = report.decoded;
  // The decoded min and max by their bytes, laid out as the footer's, so
  // both columns show a value alike (text that is not UTF-8 as \xNN, not
  // U+FFFD). Empty with values present: the empty value.
  const stat = (raw) =>
    raw.length === 0 && d.nullCount < rows && (type === "string" || type === "bytes") ? valueNode(type, raw, { maxChars: 60 }) : statNode(type, raw, { allNull: d.nullCount === rows, maxChars: 60 });
  const decoded = d ? { nullCount: fmtInt(d.nullCount), min: stat(d.minRaw), max: stat(d.maxRaw), minLen: fmtInt(d.minLen), maxLen: fmtInt(d.maxLen) } : {};
  const bad = report.checks.filter((c) => !c.agrees);
  return h(
    "div",
    { class: "checks" },
    report.checks.length === 0
      ? null
      : h("div", { class: "scroll-x" }, h(
      "table",
      { class: "data compact", "data-testid": "detail-checks" },
      h("thead", {}, h("tr", {}, h("th", {}, "Statistic"), h("th", {}, "Footer (as stored)"), h("th", {}, "Decoded values"), h("th", {}, "Agree?"))),
      h(
        "tbody",
        {},
        report.checks.map((c) =>
          h(
            "tr",
            { "data-testid": "check-row", "data-field": c.field, "data-agrees": String(c.agrees), class: c.agrees ? "" : "mismatch" },
            h("td", {}, c.field),
            h("td", { class: "stat" }, footer[c.field] ?? "—"),
            h("td", { class: "stat" }, decoded[c.field] ?? "—"),
            h("td", {}, c.agrees ? h("span", { class: "ok-badge" }, "✓ agree") : h("span", { class: "bad-badge" }, "✗ mismatch"), !c.agrees && report.knownWriterBug ? h("span", { class: "muted small" }, " known writer bug") : null),
          ),
        ),
      ),
    )),
    report.checks.length === 0 ? h("p", { class: "muted" }, "Not checked: the values could not be decoded.") : null,
    bad.length && report.knownWriterBug
      ? h("p", { class: "notice", "data-testid": "writer-bug-note" }, `${plural(bad.length, "statistic", "statistics")} ${bad.length === 1 ? "disagrees" : "disagree"}. This is the reference writer's known bug for bytes columns: after an empty value its min/max and lengths are wrong (MaxVal can carry trailing bytes of other values, MinLen/MaxLen cover only the values after the last empty one). The data is fine; the footer is not.`)
      : bad.length
        ? h("p", { class: "error-inline", "data-testid": "stats-mismatch" }, `${plural(bad.length, "statistic", "statistics")} ${bad.length === 1 ? "disagrees" : "disagree"} with the decoded values, and this type is not known to be affected by a writer bug: the footer or the data may be damaged.`)
        : report.knownWriterBug && report.checks.length
          ? h("p", { class: "muted small", "data-testid": "writer-bug-note" }, "This type is affected by the reference writer's known bytes-statistics bug (after an empty value); in this chunk the statistics agree.")
          : null,
  );
}

function blocksTable(report) {
  const maxRaw = Math.max(1, ...report.blocks.map((b) => b.rawLength));
  return h(
    "div",
    { class: "table-wrap short" },
    h(
      "table",
      { class: "data compact", "data-testid": "detail-blocks" },
      h("thead", {}, h("tr", {}, ["Block", "Offset", "Stored", "Encoded", "Ratio", ""].map((x, i) => h("th", { class: i && i < 5 ? "num" : "", title: { Offset: "where the block's compressed bytes start, in bytes from the start of the file", Stored: "compressed bytes of this block in the file", Encoded: sizeTitle("encoded"), Ratio: "encoded ÷ stored, for this block" }[x] }, x)))),
      h(
        "tbody",
        {},
        report.blocks.map((b, i) =>
          h(
            "tr",
            { "data-testid": "block-row" },
            h("td", {}, String(i)),
            h("td", { class: "num" }, fmtInt(b.offset)),
            // (rounded in the cell, as every size table here: the exact bytes in its title)
            h("td", { class: "num", title: `${fmtInt(b.storedLength)} B` }, fmtBytes(b.storedLength)),
            h("td", { class: "num", title: `${fmtInt(b.rawLength)} B` }, fmtBytes(b.rawLength)),
            h("td", { class: "num" }, fmtRatioValue(ratio(b.rawLength, b.storedLength))),
            h("td", { class: "bar-cell" }, h("span", { class: "bar raw", style: { width: `${(100 * b.rawLength) / maxRaw}%` } }), h("span", { class: "bar stored", style: { width: `${(100 * b.storedLength) / maxRaw}%` } })),
          ),
        ),
      ),
    ),
  );
}

/** A chunk's own 18-byte header, as bytes and as the fields they hold. */
function headerCard(header) {
  if (!header) return null;
  const field = (v) => (v === null ? h("span", { class: "muted" }, "— (the chunk is shorter)") : exact(v));
  return h(
    "section",
    { class: "card", "data-testid": "detail-header" },
    h("h3", {}, "Chunk header (its first 18 bytes)"),
    h("p", {}, h("code", { class: "hexline", "data-testid": "detail-header-bytes" }, [...header.bytes].map((b) => b.toString(16).padStart(2, "0")).join(" "))),
    kv([
      ["Encoding tag", header.encodingTag === null ? "—" : `${header.encodingTag} (${tagLabel("encoding", header.encodingTag)})`, "detail-header-encoding"],
      ["Codec tag", header.codecTag === null ? "—" : `${header.codecTag} (${tagLabel("codec", header.codecTag)})`, "detail-header-codec"],
      ["Null bitmap length", field(header.bitmapLength)],
      ["Encoded length", field(header.rawLength)],
      ["Data length", field(header.dataLength)],
      ["Block count", header.blockCount === null ? "—" : fmtInt(header.blockCount)],
    ]),
  );
}

/** The footer's statistics of a chunk, as stored. */
function footerStatsCard(cm, type, rows) {
  const allNull = cm.nullCount === rows;
  return h(
    "section",
    { class: "card", "data-testid": "detail-footer-stats" },
    h("h3", {}, "Footer statistics (as stored)"),
    kv([
      ["Nulls", fmtInt(cm.nullCount), "detail-footer-nulls"],
      ["Min", statNode(type, cm.minRaw, { allNull, maxChars: 60 }), "detail-footer-min"],
      ["Max", statNode(type, cm.maxRaw, { allNull, maxChars: 60 }), "detail-footer-max"],
      ["Min len", fmtInt(cm.minLen)],
      ["Max len", fmtInt(cm.maxLen)],
    ]),
  );
}

export function createDetail(ctx, el) {
  let token = 0;
  const body = h("div", { class: "detail-body", "data-testid": "detail-view" });
  const profile = createProfile(ctx);

  function controls() {
    const f = ctx.file;
    return h(
      "div",
      { class: "toolbar" },
      indexField("Row group", f.rowGroups.length, ctx.sel.g, (v) => ctx.select(Number(v), ctx.sel.c, "detail"), "detail-rg", (g) => `${g} (${plural(f.rowGroups[g].numRows, "row")})`),
      selectField("Column", f.schema.map((col, c) => ({ value: c, label: `${c}: ${isolated(nameString(ctx.labels[c]))} (${col.type})` })), ctx.sel.c, (v) => ctx.select(ctx.sel.g, Number(v), "detail"), "detail-col"),
      timeUnitField(ctx, ctx.sel.c, "detail-time-unit"),
      h("button", { type: "button", "data-testid": "detail-preview", onclick: () => ctx.previewChunk(ctx.sel.g, ctx.sel.c) }, "Show these rows in Data"),
    );
  }

  async function load() {
    const f = ctx.file;
    const my = ++token;
    if (!f.rowGroups.length) {
      fill(el, h("p", { class: "notice" }, "This file has no row groups, so there are no chunks to inspect."));
      return;
    }
    if (!f.schema.length) {
      fill(el, h("p", { class: "notice" }, "This file has no columns, so there are no chunks to inspect."));
      return;
    }
    const { g, c } = ctx.sel;
    const cm = f.rowGroups[g].columns[c];
    const col = f.schema[c];
    const rows = f.rowGroups[g].numRows;
    // The chunk's heading is drawn at once, from the footer, and stays while
    // the report comes: a view that opens this one from the keyboard (a
    // table's row) puts the focus on it (app.js, showTab).
    const title = h("h2", { class: "detail-title", tabindex: -1, "data-testid": "detail-title", "data-focus-on-show": "" }, "Chunk: ", h("span", { class: "colname" }, nameNode(ctx.labels[c])), " ", h("span", { class: "type-tag" }, col.type), col.nullable ? h("span", { class: "type-tag" }, "nullable") : null, h("span", { class: "muted" }, ` · row group ${g} · ${plural(rows, "row")}`));
    // A field of the toolbar that changed the chunk (from the keyboard, an
    // arrow key on a select) is drawn anew: the focus goes to its successor,
    // not to the page's body.
    const field = el.querySelector(".toolbar")?.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    fill(el, controls(), profile.el, title, body);
    if (field) el.querySelector(`.toolbar [data-testid="${field}"]`)?.focus();
    fill(body, h("p", { class: "muted" }, "Inspecting…"));
    // Asked for before the profile: the worker then holds this chunk's
    // bytes for the report, and the profile's pass takes them from there.
    const inspecting = ctx.call("inspect", { g, c }, `Inspecting row group ${g}, column ${brief(col.name)}`);
    profile.show(c);
    let res;
    try {
      res = await inspecting;
    } catch (e) {
      if (my !== token) return;
      fill(body, errorBox(e, { title: "This chunk could not be inspected", schema: f.schema, testid: "detail-error" }));
      return;
    }
    if (my !== token) return;
    const failure = res.failure ? chunkFailure(ctx, g, c) || { error: res.failure.error, header: parseHeader(res.failure.header) } : null;
    if (!res.report) {
      // The chunk does not inspect: what the footer and its header say.
      const claim = (v) => (v === null || v === undefined ? "—" : h("span", {}, exact(v), h("span", { class: "warn-text small" }, " as its header claims")));
      fill(
        body,
        errorBox(failure.error, { title: "Reading this chunk fails", schema: f.schema, testid: "detail-error" }),
        h(
          "div",
          { class: "cards" },
          h(
            "section",
            { class: "card", "data-testid": "detail-chunk" },
            h("h3", {}, "Chunk"),
            kv([
              ["Byte range", h("span", { title: RANGE_TITLE, "data-testid": "detail-range" }, fmtRange(cm.byteOffset, cm.byteOffset + cm.byteLength))],
              ["Encoding", tagCell(cm.encoding, failure.encoding, "detail-encoding-conflict"), "detail-encoding-name"],
              ["Codec", tagCell(cm.codec, failure.codec, "detail-codec-conflict"), "detail-codec"],
              ["Stored", h("span", { title: sizeTitle("stored") }, exact(cm.byteLength)), "detail-stored"],
              ["Encoded", claim(failure.header?.rawLength ?? cm.rawLength), "detail-raw"],
              ["Decoded", h("span", { class: "muted" }, "— (the chunk does not read)"), "detail-decoded"],
              ["Blocks", (failure.header?.blockCount ?? cm.blockCount) === null ? "—" : `${fmtInt(failure.header?.blockCount ?? cm.blockCount)} (as its header claims)`, "detail-block-count"],
            ]),
          ),
          headerCard(failure.header),
          footerStatsCard(cm, col.type, rows),
        ),
      );
      return;
    }
    const r = res.report;
    const d = r.detail;
    // A chunk that fails to read may also lie about its size.
    const claimed = r.error ? h("span", { class: "warn-text small", "data-testid": "detail-claimed" }, " as its header claims (the chunk does not read)") : null;
    fill(
      body,
      r.error ? errorBox(r.error, { title: "Reading this chunk fails", schema: f.schema, testid: "detail-error", compact: r.error.kind === "unknown_tokenizer" }) : null,
      h(
        "div",
        { class: "cards" },
        h(
          "section",
          { class: "card", "data-testid": "detail-chunk" },
          h("h3", {}, "Chunk"),
          kv([
            ["Byte range", h("span", { title: RANGE_TITLE, "data-testid": "detail-range" }, fmtRange(cm.byteOffset, cm.byteOffset + cm.byteLength))],
            ["Encoding", r.encoding, "detail-encoding-name"],
            ["Codec", r.codec, "detail-codec"],
            ["Stored", h("span", { title: sizeTitle("stored") }, exact(cm.byteLength)), "detail-stored"],
            ["  of which blocks", exact(r.dataLength)],
            ["  header, block table, null bitmap", h("span", {}, exact(cm.byteLength - r.dataLength), r.nullBitmapLength ? [" ", h("span", { class: "nowrap" }, `(bitmap ${fmtInt(r.nullBitmapLength)} B)`)] : null)],
            ["Encoded", h("span", { title: sizeTitle("encoded") }, exact(r.rawLength), claimed), "detail-raw"],
            ["Decoded", (() => {
              // Inspecting reads the chunk, so its size is known unless it does not read.
              const d = decodedSize(col.type, rows, { ...cm, rawLength: r.rawLength }, ctx.decoded.get(`${g}:${c}`));
              return d === null ? h("span", { class: "muted" }, "— (the chunk does not read)") : h("span", { title: sizeTitle("decoded") }, exact(d));
            })(), "detail-decoded"],
            ["Compression ratio", h("span", { title: sizeTitle("ratio") }, fmtRatioValue(ratio(r.rawLength, cm.byteLength)), r.rawLength === 0 ? h("span", { class: "muted small" }, ` (nothing encoded: ${cm.nullCount === rows && rows ? "every value is null" : "no values"})`) : null, r.error ? claimed.cloneNode(true) : null), "detail-ratio"],
            ["Blocks", fmtInt(r.blocks.length), "detail-block-count"],
          ]),
        ),
        h("section", { class: "card", "data-testid": "detail-encoding" }, h("h3", {}, `Encoding: ${d ? d.kind : r.encoding}`), d ? kv(encodingFacts(d, col.type, rows, cm, f)) : h("p", { class: "muted" }, "No detail: the encoded stream could not be read.")),
        failure ? headerCard(failure.header) : null,
        h("section", { class: "card wide" }, h("h3", {}, "Footer statistics vs decoded values"), checksTable(r, cm, col.type, rows)),
      ),
      h(
        "h3",
        {},
        `Blocks (${r.blocks.length})`,
        // The bars' key by swatches drawn as the bars are: "light" and
        // "dark" were true in one colour scheme only (in the dark one the
        // faint encoded bar is the darker).
        h("span", { class: "muted small", "data-testid": "blocks-key" }, " — each compressed on its own; bars: ", h("span", { class: "nowrap" }, h("span", { class: "bar raw bar-key", "data-testid": "blocks-key-raw" }), " encoded (outlined)"), " and ", h("span", { class: "nowrap" }, h("span", { class: "bar stored bar-key", "data-testid": "blocks-key-stored" }), " stored (solid)")),
      ),
      blocksTable(r),
      sizeLegend(),
    );
  }

  return {
    render() {
      token++;
      profile.reset();
      fill(el);
    },
    activate: load,
    /** The column's values shown another way (ctx.setTimeUnit): the profile again, from what it counted. */
    timeUnitsChanged: () => profile.refresh(),
  };
}
