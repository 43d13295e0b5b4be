// A value of 20 MB in the page: the grid's cell decodes only what it shows,
// the side panel lays out its first 100,000 characters and says so, and
// Copy value still copies all of it. textNode (www/js/format.js), which
// decodes only a prefix of a long value, is held to the whole value's
// decoding at every cut, in sequences of 1 to 4 bytes and invalid ones.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { openInspector, waitState, tab, gridDrawn } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const BIG = "abcdefghij".repeat(2_000_000) + "END";
const SCHEMA = [{ name: "id", type: "int32", nullable: false }, { name: "doc", type: "string", nullable: true }];
const bytes = materialize(buildFile(SCHEMA, [{ offset: 5, columns: [[1, 2, 3], ["short", BIG, null]] }]));
let ins;

before(async () => {
  ins = await openInspector();
});

after(async () => {
  await ins?.close();
});

test("textNode shows the first n characters of a value, and … after them only when there are more, whatever byte the cut falls on", async () => {
  const { page } = ins;
  // Text of 1-, 2-, 3- and 4-byte sequences, then with invalid bytes among them.
  const samples = ["a", "é", "€", "😀", "aé€😀", "😀😀😀😀😀😀😀😀😀😀a", "é€é€é€é€é€é€é€"].map((t) => [...Buffer.from(t.repeat(9))]);
  samples.push([0x61, 0xff, 0xe2, 0x82, 0x61, 0xf0, 0x9f, 0x98, 0x80, 0x80, 0x62, 0xc3].flatMap((b) => [b, b === 0x61 ? 0x62 : 0x63]).concat([...Buffer.from("😀😀😀😀")]));
  const out = await page.evaluate(async (samples) => {
    const { textNode } = await import(new URL("js/format.js", location.href).href);
    const text = (frag) => {
      const div = document.createElement("div");
      div.append(frag);
      return { text: div.textContent, more: !!div.querySelector(".more") };
    };
    return samples.map((s) => {
      const bytes = Uint8Array.from(s);
      return { whole: text(textNode(bytes)), cuts: Array.from({ length: 40 }, (_, n) => text(textNode(bytes, n + 1))) };
    });
  }, samples);
  for (const [i, { whole, cuts }] of out.entries()) {
    assert.equal(whole.more, false);
    if (i < 7) assert.equal(whole.text, Buffer.from(samples[i]).toString("utf8"), "valid UTF-8 shows as itself");
    else assert.match(whole.text, /\\xff/, "an invalid byte shows as \\xNN");
    // The whole value's characters; an invalid byte's escape takes the room of its 4.
    const chars = whole.text.match(/\\x[0-9a-f]{2}|[\s\S]/gu);
    for (const [k, cut] of cuts.entries()) {
      const n = k + 1;
      let room = n;
      let taken = 0;
      while (taken < chars.length && room > 0) room -= chars[taken++].length === 4 ? 4 : 1;
      const want = chars.slice(0, taken).join("");
      assert.equal(cut.text, taken < chars.length ? `${want}…` : want, `sample ${i} cut at ${n} characters`);
      assert.equal(cut.more, taken < chars.length, `sample ${i} cut at ${n}: … when more`);
    }
  }
});

test("a 20 MB value: its cell shows its first characters, the side panel its first 100,000 and says so, and Copy value copies all of it", async () => {
  const { page, log } = ins;
  await page.setInputFiles("[data-testid=file-input]", [{ name: "bigvalue.cols", mimeType: "application/octet-stream", buffer: Buffer.from(bytes) }]);
  await waitState(page, "ready");
  await tab(page, "data");
  await gridDrawn(page);
  const cell = `[data-testid=data-grid] .grid-row[data-row="1"] .grid-cell[data-col="1"]`;
  assert.equal(await page.textContent(cell), `${BIG.slice(0, 160)}…`);
  await page.click(cell);
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 1");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), `${BIG.slice(0, 100_000)}…`);
  assert.equal(await page.textContent("[data-testid=cell-panel-size]"), "20,000,003 bytes; the first 100,000 characters shown (Copy value copies them all)");
  await page.click("[data-testid=copy-cell]");
  const copied = await page.evaluate(async () => {
    const t = await navigator.clipboard.readText();
    return { length: t.length, head: t.slice(0, 20), tail: t.slice(-13) };
  });
  assert.deepEqual(copied, { length: BIG.length, head: BIG.slice(0, 20), tail: BIG.slice(-13) });
  // A short value says nothing of a cut.
  await page.click(`[data-testid=data-grid] .grid-row[data-row="0"] .grid-cell[data-col="1"]`);
  await page.waitForFunction(() => document.querySelector("[data-testid=cell-panel-where]")?.textContent === "Row 0");
  assert.equal(await page.textContent("[data-testid=cell-panel-value]"), "short");
  assert.equal(await page.textContent("[data-testid=cell-panel-size]"), "5 bytes");
  assert.deepEqual(log.errors, []);
});

test("Column detail of the 20 MB value's chunk: its profile and statistics show the value's start, and its lengths in full", async () => {
  const { page, log } = ins;
  await tab(page, "detail");
  await page.selectOption("[data-testid=detail-col]", "1");
  await page.waitForSelector("[data-testid=profile-lengths]", { timeout: 60_000 });
  assert.equal(await page.textContent("[data-testid=profile-lengths]"), "5 to 20,000,003, mean 10,000,004.0");
  // The minimum, the profile's and the footer's, each cut short, and agreeing.
  const min = await page.textContent("[data-testid=profile-min]");
  assert.ok(min.startsWith(`${BIG.slice(0, 50)}`) && min.length < 400, `the minimum's start, cut short: ${min.length} characters`);
  assert.match(min, /… footer: abcdefghij.*… ✓ agree$/s);
  await page.waitForSelector("[data-testid=check-row][data-field=min]");
  const check = await page.$eval("[data-testid=check-row][data-field=min]", (r) => ({ agrees: r.dataset.agrees, text: r.textContent }));
  assert.equal(check.agrees, "true");
  assert.ok(check.text.length < 1000, `the statistic's row shows the value's start: ${check.text.length} characters`);
  assert.deepEqual(log.errors, []);
});
