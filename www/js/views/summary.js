// The file facts strip and the tokenizer table.

import { h, fill } from "../dom.js";
import { fmtBytes, fmtInt, fmtMs, plural, nameString } from "../format.js";
import { columnsUsingTokenizer } from "../common.js";

function fact(label, value, testid, title, wide = false) {
  return h("div", { class: ["fact", wide && "fact-wide"], title }, h("dt", {}, label), h("dd", { "data-testid": testid }, value));
}

export function renderFacts(ctx, el) {
  const f = ctx.file;
  const cols = f.schema.length;
  // (a server that ignores Range requests sent the whole file: ctx.ioNote says so below)
  const src = !ctx.source.url ? "local file, read with Blob.slice" : ctx.ioNote ? "URL, downloaded whole (the server ignores Range requests)" : "URL, read with HTTP range requests";
  fill(
    el,
    h(
      "div",
      { class: "file-title" },
      h("h2", { "data-testid": "file-name" }, ctx.name),
      h("span", { class: "muted" }, src),
    ),
    h(
      "dl",
      { class: "facts", "data-testid": "file-summary" },
      fact("Size", h("span", { title: plural(f.byteLength, "byte") }, fmtBytes(f.byteLength)), "fact-size", plural(f.byteLength, "byte")),
      fact("Magic", "ABCD", "fact-magic", "the leading and the trailing magic, both checked when opening"),
      fact("Version", String(f.version), "fact-version"),
      fact("Rows", fmtInt(f.numRows), "fact-rows"),
      fact("Row groups", fmtInt(f.rowGroups.length), "fact-rowgroups"),
      fact("Columns", fmtInt(cols), "fact-columns"),
      fact("Header", `${fmtInt(f.headerLength)} B`, "fact-header", "magic, version and the tokenizer digest table"),
      fact("Footer", h("span", {}, h("span", { "data-testid": "fact-footer-length" }, `${fmtInt(f.footerLength)} B`), h("span", { class: "muted" }, " at "), h("span", { "data-testid": "fact-footer-offset" }, fmtInt(f.footerOffset))), "fact-footer", "footer length and offset", true),
      fact("Opened in", h("span", { "data-open-bytes": f.openBytes, "data-open-requests": f.openRequests }, fmtMs(f.openMs), h("span", { class: "muted" }, ` · ${fmtBytes(f.openBytes)}, ${plural(f.openRequests, "read")}`)), "fact-open", "time and bytes to read the tail, header and footer and decode the footer", true),
      fact("Read so far", h("span", { "data-testid": "io-counter" }), "fact-io", "bytes fetched from the file so far and the number of reads: every view's (chunks read again count again), Timing's (a run from memory loads the whole file once), and the SQL tab's load of table t, which reads every chunk with a reader of its own; not what a Timing worker pool reads of a local file", true),
    ),
    ctx.ioNote ? h("p", { class: "notice" }, ctx.ioNote) : null,
  );
  updateIO(ctx);
}

export function updateIO(ctx) {
  const el = document.querySelector("[data-testid=io-counter]");
  if (!el || !ctx.file) return;
  const f = ctx.file;
  const sql = ctx.sqlIO || { bytes: 0, requests: 0 };
  const bytes = f.bytesRead + sql.bytes;
  const requests = f.requests + sql.requests;
  el.textContent = `${fmtBytes(bytes)}, ${plural(requests, "read")}${sql.requests ? `, of which the SQL tab's table t: ${fmtBytes(sql.bytes)}, ${plural(sql.requests, "read")}` : ""}`;
  el.dataset.bytes = String(bytes);
  el.dataset.requests = String(requests);
}

export function renderTokenizers(ctx, el) {
  const f = ctx.file;
  const reg = ctx.registered;
  const parts = [];
  if (f && f.tokenizers.length) {
    const rows = f.tokenizers.map((t, i) => {
      const users = columnsUsingTokenizer(f, i + 1).map((c) => nameString(ctx.labels[c] ?? f.schema[c].name));
      const known = ctx.manifest?.tokenizers?.find((k) => k.digest === t.digest);
      const mine = reg.find((r) => r.digest === t.digest);
      let status;
      if (t.resolved) {
        status = h("span", { class: "ok-badge" }, "resolved", mine ? h("span", { class: "muted" }, ` · ${mine.name}`) : null);
      } else {
        status = h(
          "div",
          { class: "missing", "data-testid": "tokenizer-missing" },
          h("span", { class: "warn-badge" }, "missing"),
          " ",
          h("span", { "data-testid": "tokenizer-missing-msg" }, "Drop the tokenizer.json whose SHA-256 is ", h("code", { class: "digest" }, t.digest), ` to read ${users.length === 1 ? "column" : "columns"} `, users.map((u, j) => [j ? ", " : "", h("b", {}, u)]), "."),
          known ? h("div", { class: "muted small" }, known.note) : null,
          h("button", { type: "button", class: "small primary", "data-action": "choose-tokenizer", "data-testid": "choose-tokenizer" }, "Choose tokenizer…"),
          known?.sample
            ? h("button", { type: "button", class: "small", "data-testid": "load-sample-tokenizer", onclick: () => ctx.loadSampleTokenizer(known.sample) }, `Load sample ${known.sample.split("/").pop()}`)
            : null,
        );
      }
      return h(
        "tr",
        { "data-testid": "tokenizer-row", "data-digest": t.digest, "data-status": t.resolved ? "resolved" : "missing" },
        h("td", { class: "num" }, String(i + 1)),
        h("td", {}, h("code", { class: "digest" }, t.digest)),
        h("td", {}, users.join(", ") || "—"),
        h("td", {}, status),
      );
    });
    parts.push(
      h("h3", {}, "Tokenizer table ", h("span", { class: "muted" }, "(from the header, in first-use order)")),
      h(
        "div",
        { class: "table-wrap" },
        h(
          "table",
          { class: "data", "data-testid": "tokenizer-table" },
          h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, "SHA-256 of tokenizer.json"), h("th", {}, "Used by"), h("th", {}, "Status"))),
          h("tbody", {}, rows),
        ),
      ),
    );
  }
  fill(el, parts);
  el.hidden = parts.length === 0;
}

/** The tokenizers supplied on this page, with their digests. */
export function renderRegistered(ctx, el) {
  const reg = ctx.registered;
  fill(
    el,
    reg.length
      ? [
          h("span", { class: "muted" }, "Tokenizers supplied: "),
          reg.map((r) =>
            h("span", { class: "chip", "data-testid": "registered-tokenizer", "data-digest": r.digest, title: `SHA-256 ${r.digest}` }, h("b", {}, r.name), " ", h("code", { class: "digest" }, r.digest), h("span", { class: "muted" }, ` · ${fmtBytes(r.size)}`)),
          ),
        ]
      : [],
  );
  el.hidden = reg.length === 0;
}
