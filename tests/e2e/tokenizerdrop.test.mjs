// A tokenizer.json dropped on the page: what is wrong with one the package
// refuses is said in words (empty, a byte order mark, not JSON), and one
// that registers says whether the file open uses it, or was there already.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { corpus, dropFile, openInspector } from "./harness.mjs";

let inspector, page, log;
const gpt2 = fs.readFileSync(path.join(corpus, "tokenizers/gpt2-tokenizer.json"));

before(async () => {
  inspector = await openInspector();
  ({ page, log } = inspector);
  // movielens.tokenized's title needs GPT-2's tokenizer.
  await dropFile(page, path.join(corpus, "real/movielens.tokenized.cols"));
});

after(async () => {
  await inspector?.close();
});

/** Drops `bytes` as a tokenizer.json named `name` and resolves the toast it brings: { kind, text }. */
async function dropTokenizer(name, bytes) {
  await page.evaluate(() => document.querySelectorAll("#toasts .toast").forEach((t) => t.remove()));
  await page.setInputFiles("[data-testid=file-input]", { name, mimeType: "application/json", buffer: Buffer.from(bytes) });
  await page.waitForSelector("#toasts .toast", { timeout: 30_000 });
  return page.$eval("#toasts .toast", (t) => ({ kind: [...t.classList].find((c) => c !== "toast"), text: t.textContent }));
}

test("refused: an empty file, one with a byte order mark, one that is not JSON: each said in words", async () => {
  const empty = await dropTokenizer("empty.json", new Uint8Array(0));
  assert.deepEqual(empty, { kind: "error", text: "empty.json: invalid_tokenizer: the file is empty" });
  const bom = await dropTokenizer("bom.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), gpt2]));
  assert.equal(bom.kind, "error");
  assert.match(bom.text, /^bom\.json: invalid_tokenizer: the file starts with a UTF-8 byte order mark \(EF BB BF\)/);
  const html = await dropTokenizer("page.json", Buffer.from("\n  <!DOCTYPE html><html><body>not here</body></html>"));
  assert.equal(html.text, "page.json: invalid_tokenizer: the file is not a JSON object: it begins “<!DOCTYPE html><html><bo…”, where a tokenizer.json begins with “{”");
  const blank = await dropTokenizer("blank.json", Buffer.from(" \n\t "));
  assert.equal(blank.text, "blank.json: invalid_tokenizer: the file holds only white space");
  // A JSON object the package refuses keeps the package's own words (they name the place).
  const odd = await dropTokenizer("odd.json", Buffer.from('{"model": 5}'));
  assert.equal(odd.kind, "error");
  assert.match(odd.text, /^odd\.json: invalid_tokenizer: /);
  assert.doesNotMatch(odd.text, /is empty|byte order mark|not a JSON object/);
  assert.match(await page.textContent("[data-testid=tokenizer-missing-msg]"), /to read column title/, "nothing registered");
});

test("registered: one the file does not use says so; one registered already says so", async () => {
  const small = await dropTokenizer("small-tokenizer.json", fs.readFileSync(path.join(corpus, "tokenizers/small-tokenizer.json")));
  assert.equal(small.kind, "warn");
  assert.match(small.text, /^Registered tokenizer small-tokenizer\.json \(SHA-256 [0-9a-f]{16}…\), but movielens\.tokenized\.cols does not use it/);
  const used = await dropTokenizer("gpt2-tokenizer.json", gpt2);
  assert.equal(used.kind, "info");
  assert.match(used.text, /^Registered tokenizer gpt2-tokenizer\.json \(SHA-256 [0-9a-f]{16}…\)$/);
  const again = await dropTokenizer("copy.json", gpt2);
  assert.equal(again.kind, "info");
  assert.match(again.text, /^copy\.json is registered already \(SHA-256 [0-9a-f]{16}…\)$/);
  assert.deepEqual(log.errors, []);
});
