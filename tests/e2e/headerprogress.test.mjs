// The chunk headers' load of a dropped file whose headers lie far apart
// (each one a read of its own: the bytes between are more than the page
// reads for nothing, chunkheaders.js HEADER_READ_FACTOR) takes seconds;
// the status line says how far it is, as other long work does: "Reading
// chunk headers: 1,234 of 5,000 chunk headers", rising, never past the
// chunks there are.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openInspector, waitState } from "./harness.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

const GROUPS = 5000;
const APART = 9000; // more than the package's 8 KiB between a request's ranges
let ins;
let filePath;

before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "columns-e2e-headers-"));
  const schema = [{ name: "n", type: "int32", nullable: false }];
  const built = buildFile(schema, Array.from({ length: GROUPS }, (_, i) => ({ offset: 5 + i * APART, columns: [[i]] })));
  filePath = path.join(dir, "far-headers.cols");
  fs.writeFileSync(filePath, materialize(built));
  ins = await openInspector();
});

after(async () => {
  await ins?.close();
  if (filePath) fs.rmSync(path.dirname(filePath), { recursive: true, force: true });
});

test("a dropped file of 5,000 chunk headers far apart: the status line counts the headers read as they come", async () => {
  const { page, log } = ins;
  // Every text the status line shows, as it changes.
  await page.evaluate(() => {
    window.statusTexts = [];
    const el = document.getElementById("status-text");
    new MutationObserver(() => window.statusTexts.push(el.textContent)).observe(el, { childList: true, subtree: true, characterData: true });
  });
  await page.setInputFiles("[data-testid=file-input]", filePath);
  await waitState(page, "ready", 120_000);
  const texts = await page.evaluate(() => window.statusTexts);
  assert.ok(texts.some((t) => t === "Reading chunk headers…"), texts.slice(0, 20).join(" | "));
  const counts = texts.flatMap((t) => {
    const m = /^Reading chunk headers: ([\d,]+) of 5,000 chunk headers$/.exec(t);
    return m ? [Number(m[1].replaceAll(",", ""))] : [];
  });
  assert.ok(counts.length >= 2, `counts shown: ${counts.join(", ")} (of ${texts.length} status texts: ${[...new Set(texts)].slice(0, 12).join(" | ")})`);
  assert.ok(counts.every((n, k) => n > 0 && n <= GROUPS && (k === 0 || n >= counts[k - 1])), counts.join(", "));
  assert.ok(counts[0] < GROUPS, "said while under way");
  // The headers came: the chunk table has every chunk's encoded size.
  assert.equal(await page.evaluate(() => document.getElementById("status-text").textContent), "");
  assert.deepEqual(log.errors, []);
});
