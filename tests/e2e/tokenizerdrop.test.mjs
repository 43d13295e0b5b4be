// A tokenizer.json dropped on the page: what is wrong with one the package
// refuses is said in words (empty, not JSON), and one that registers says
// whether the file open uses it (and, of one that starts with a byte order
// mark, that the mark is part of its SHA-256), or was there already.

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

test("refused: an empty file, one that is not JSON (a byte order mark before it passed over): each said in words", async () => {
  const empty = await dropTokenizer("empty.json", new Uint8Array(0));
  assert.deepEqual(empty, { kind: "error", text: "empty.json: invalid_tokenizer: the file is empty" });
  const list = await dropTokenizer("list.json", Buffer.from("[1,2,3]\n"));
  assert.equal(list.text, "list.json: invalid_tokenizer: the file is not a JSON object: it begins “[1,2,3]”, where a tokenizer.json begins with “{”", "(its line break is not quoted as a character of its own)");
  // A byte order mark is passed over, by the package and by these words.
  const markedList = await dropTokenizer("marked-list.json", Buffer.from("\ufeff[1,2,3]\n"));
  assert.equal(markedList.text, "marked-list.json: invalid_tokenizer: the file is not a JSON object: it begins “[1,2,3]”, where a tokenizer.json begins with “{”");
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

test("registered: one the file does not use says so (and of one that starts with a byte order mark, that its SHA-256 covers the mark); one registered already says so", async () => {
  // The package reads past the mark; the digest is of the bytes with it, so not the one the file names.
  const bom = await dropTokenizer("bom.json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), gpt2]));
  assert.equal(bom.kind, "warn");
  assert.match(bom.text, /^Registered tokenizer bom\.json \(SHA-256 [0-9a-f]{16}…\), but movielens\.tokenized\.cols does not use it: its tokenizer table names the SHA-256 each of its columns needs\. This one starts with a UTF-8 byte order mark \(EF BB BF\), which its SHA-256 covers: saved without the mark, it may be the one the file names\.$/);
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

test("a file with no tokenized columns says so of a tokenizer; tokenizers dropped with a .cols file are judged against that file, once open", async () => {
  await page.reload(); // (no tokenizer registered)
  await dropFile(page, path.join(corpus, "real/diamonds.optimized.cols"));
  const small = fs.readFileSync(path.join(corpus, "tokenizers/small-tokenizer.json"));
  const none = await dropTokenizer("small-tokenizer.json", small);
  assert.equal(none.kind, "warn");
  assert.match(none.text, /, but diamonds\.optimized\.cols has no tokenized columns\.$/);
  // Both tokenizers with movielens.tokenized: no word against diamonds, which it replaces; then one of small's, which movielens does not use.
  await page.reload();
  await dropFile(page, path.join(corpus, "real/diamonds.optimized.cols"));
  await page.evaluate(() => {
    window.__toasts = [];
    new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((t) => window.__toasts.push(t.textContent)))).observe(document.querySelector("#toasts"), { childList: true });
    document.body.dataset.state = "";
  });
  await page.setInputFiles("[data-testid=file-input]", [path.join(corpus, "tokenizers/small-tokenizer.json"), path.join(corpus, "tokenizers/gpt2-tokenizer.json"), path.join(corpus, "real/movielens.tokenized.cols")]);
  await page.waitForSelector("body[data-state=ready]");
  await page.waitForFunction(() => window.__toasts.some((t) => /^small-tokenizer\.json: /.test(t)));
  const said = await page.evaluate(() => window.__toasts);
  assert.deepEqual(said.filter((t) => /diamonds/.test(t)), [], JSON.stringify(said));
  assert.deepEqual(said.filter((t) => /does not use it|no tokenized columns/.test(t)), ["small-tokenizer.json: movielens.tokenized.cols does not use it: its tokenizer table names the SHA-256 each of its columns needs."]);
  assert.equal(await page.$("[data-testid=tokenizer-missing]"), null, "gpt2 reads its title");
});

test("several files at once (chosen or dropped): the one named .cols opens, and the toast names the file opened and those left out", async () => {
  const png = { name: "image.png", mimeType: "image/png", buffer: Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), Buffer.alloc(64)]) };
  const nulls = fs.readFileSync(path.join(corpus, "valid/nulls.cols"));
  const said = async () => page.waitForFunction(() => window.__toasts.find((t) => /^Opened /.test(t))).then((h) => h.jsonValue());
  const watch = () =>
    page.evaluate(() => {
      window.__toasts = [];
      new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach((t) => window.__toasts.push(t.textContent)))).observe(document.querySelector("#toasts"), { childList: true });
      document.body.dataset.state = "";
    });
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  await watch();
  await page.setInputFiles("[data-testid=file-input]", [png, { name: "nulls.cols", mimeType: "application/octet-stream", buffer: nulls }]);
  await page.waitForSelector("body[data-state=ready], body[data-state=error]");
  assert.equal(await page.title(), "nulls.cols — columns inspector");
  assert.equal(await said(), "Opened nulls.cols; one file at a time: image.png left out.");
  // Dropped: the same, whichever comes first; with no .cols name among them, the first (as before).
  const drop = (files) =>
    page.evaluate((files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
      window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
  await page.reload();
  await page.waitForSelector("body[data-ready='1']");
  await watch();
  await drop([{ name: "nulls.COLS", bytes: [...nulls] }, { name: "image.png", bytes: [...png.buffer] }, { name: "notes.txt", bytes: [...Buffer.from("hello")] }]);
  await page.waitForSelector("body[data-state=ready], body[data-state=error]");
  assert.equal(await page.title(), "nulls.COLS — columns inspector");
  assert.equal(await said(), "Opened nulls.COLS; one file at a time: image.png, notes.txt left out.");
  await watch();
  await drop([{ name: "data.bin", bytes: [...nulls] }, { name: "image.png", bytes: [...png.buffer] }]);
  await page.waitForSelector("body[data-state=ready], body[data-state=error]");
  assert.equal(await page.title(), "data.bin — columns inspector");
  assert.equal(await said(), "Opened data.bin; one file at a time: image.png left out.");
  assert.deepEqual(log.errors, []);
});

test("a file name with a right-to-left override: the tokenizer's toast holds it apart and shows the override as the grid does (the digest after it reads forwards); so does the window title", async () => {
  await page.reload();
  await dropFile(page, { name: "movies\u202Eslx.cols", bytes: fs.readFileSync(path.join(corpus, "real/movielens.tokenized.cols")) });
  assert.equal(await page.title(), "movies\\u202eslx.cols — columns inspector");
  const used = await dropTokenizer("<b>tok</b>\u202Enosj.json", gpt2);
  assert.match(used.text, /^Registered tokenizer <b>tok<\/b>\\u202enosj\.json \(SHA-256 [0-9a-f]{16}…\)$/);
  const name = await page.$eval("#toasts .toast bdi", (b) => ({ text: b.textContent, marks: [...b.querySelectorAll(".ctl")].map((m) => m.title) }));
  assert.equal(name.text, "<b>tok</b>\\u202enosj.json");
  assert.match(name.marks[0], /U\+202E/);
  assert.equal(await page.$("#toasts .toast b"), null);
  const again = await dropTokenizer("copy\u202E.json", gpt2);
  assert.match(again.text, /^copy\\u202e\.json is registered already \(SHA-256 [0-9a-f]{16}…\)$/);
  const bad = await dropTokenizer("bad\u202E.json", new Uint8Array(0));
  assert.equal(bad.text, "bad\\u202e.json: invalid_tokenizer: the file is empty");
  assert.deepEqual(log.errors, []);
});
