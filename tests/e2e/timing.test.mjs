// The Timing tab as a person uses it (movielens.optimized: 7 columns, 2
// row groups): runs side by side say what each covered, a choice of
// nothing leaves the run on show, blank numbers mean the defaults shown,
// progress counts warm-ups and runs apart, a stop is said once, runs from
// memory claim no read time, and the focus stays somewhere a keyboard can
// go on from.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { dropFile, corpus, tab, shot } from "./harness.mjs";
import { timingSettings, runTiming, openOnTiming } from "./timingrun.mjs";

let inspector, page, log;

before(async () => {
  inspector = await openOnTiming();
  ({ page, log } = inspector);
});

after(async () => {
  await inspector?.close();
});

/** Picks the columns and row groups (indices) a run is to time. */
async function choose(cols, rgs) {
  await page.click("[data-testid=timing-columns-none]");
  for (const c of cols) await page.check(`[data-testid=timing-columns-col][value="${c}"]`);
  await page.click("[data-testid=timing-rowgroups-none]");
  for (const g of rgs) await page.check(`[data-testid=timing-rowgroups-col][value="${g}"]`);
}

const settings = (opts) => timingSettings(page, opts);

const runOnce = (key) => runTiming(page, key);

const focused = () => page.evaluate(() => {
  const e = document.activeElement;
  return !e || e === document.body ? "body" : e.dataset.testid || e.getAttribute("aria-label") || e.tagName;
});

async function removeAllRuns() {
  while (await page.$("[data-testid=timing-compare] thead button")) await page.click("[data-testid=timing-compare] thead button >> nth=0");
}

test("Runs side by side: each run's header says what it covered, and times over other columns or row groups say theirs", async () => {
  await choose([0, 1, 2, 3, 4, 5, 6], [0, 1]);
  await settings({ scope: "whole" });
  await runOnce(); // #1: every column of both row groups in one read
  await choose([1], [0]);
  await runOnce(); // #2: one column of one row group in one read
  await page.check("[data-testid=timing-scope-column]");
  await runOnce(); // #3: column 1 over row group 0
  await page.click("[data-testid=timing-rowgroups-all]");
  await runOnce(); // #4: column 1 over both row groups
  await runOnce(); // #5: the same again

  const heads = await page.$$eval("[data-testid=timing-compare-coverage]", (els) => els.map((e) => e.textContent));
  assert.deepEqual(heads, [
    "7 columns × 2 row groups, in one read",
    "1 column × 1 row group, in one read",
    "1 column, each over 1 row group",
    "1 column, each over 2 row groups",
    "1 column, each over 2 row groups",
  ]);
  // The header's title names them.
  const titles = await page.$$eval("[data-testid=timing-compare] thead th", (t) => t.slice(1).map((x) => x.title));
  assert.match(titles[1], /^Columns: title\. Row groups: 0\. movielens\.optimized\.cols, \d{4}-/);
  assert.match(titles[0], /^Columns: movieId, title, year, genres, userId, rating, timestamp\. Row groups: 0–1\./);

  const row = (key) => page.$$eval(`[data-testid=timing-compare-row][data-key="${key}"] td`, (tds) => tds.slice(1).map((td) => ({ text: td.textContent, differs: td.dataset.coverage === "differs" })));
  const whole = await row("whole");
  assert.deepEqual(whole.map((c) => c.differs), [true, true, false, false, false]);
  assert.match(whole[0].text, /^[\d.]+ m?s \(7 columns × row groups 0–1\)$/);
  assert.match(whole[1].text, /^[\d.]+ m?s \(1 column × row group 0\)$/);
  const col = await row("c1");
  assert.deepEqual(col.map((c) => c.differs), [false, false, true, true, true]);
  assert.match(col[2].text, /^[\d.]+ m?s \(row group 0\)$/);
  assert.match(col[3].text, /^[\d.]+ m?s \(row groups 0–1\)$/);
  assert.match(await page.textContent("[data-testid=timing-compare-note]"), /not comparable/);
  await shot(page, "timing-compare");

  // Run #3 removed, column 1's times all cover the same: nothing marked.
  await page.click('[data-testid=timing-compare] thead button[aria-label="remove run 3"]');
  const after = await row("c1");
  assert.deepEqual(after.map((c) => c.differs), [false, false, false, false]);
  assert.ok(after.slice(2).every((c) => /^[\d.]+ m?s$/.test(c.text)), JSON.stringify(after));
  await removeAllRuns();
});

test("Run timing with no column chosen says so and leaves the run on show, still exportable", async () => {
  await choose([1], [0]);
  await settings();
  await runOnce();
  const label = await page.textContent("[data-testid=timing-run-label]");
  const said = () => page.waitForFunction(() => /Choose at least one column/.test(document.querySelector("[data-testid=panel-timing]").textContent));
  await page.click("[data-testid=timing-columns-none]");
  await page.click("[data-testid=timing-run]");
  await said();
  assert.equal(await page.$eval("[data-testid=timing-run-label]", (e) => e.textContent).catch(() => "no run on show"), label);
  assert.equal(await page.textContent("[data-testid=timing-choose]"), "Choose at least one column and one row group.");
  await shot(page, "timing-choose");
  assert.ok(await page.isVisible("[data-testid=timing-chart]"));
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-json]")]);
  assert.equal(JSON.parse(fs.readFileSync(await download.path(), "utf8")).columns[0].index, 1);
  // The next run takes the word away; no row group chosen, it is said again.
  await choose([1], [0]);
  await runOnce();
  assert.ok(await page.isHidden("[data-testid=timing-choose]"));
  const label2 = await page.textContent("[data-testid=timing-run-label]");
  assert.notEqual(label2, label);
  await choose([1], []);
  await page.click("[data-testid=timing-run]");
  await said();
  assert.equal(await page.$eval("[data-testid=timing-run-label]", (e) => e.textContent).catch(() => "no run on show"), label2);
  assert.ok(await page.isVisible("[data-testid=timing-choose]"));
  await removeAllRuns();
});

test("blank Runs and Warm-ups fields run the defaults they showed (15 and 3)", async () => {
  await choose([1], [0]);
  await settings({ runs: "", warmups: "" });
  await runOnce();
  assert.match(await page.textContent(".timing-results p.muted.small"), /^15 runs per column in randomized order after 3 warm-ups \(excluded\)/);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-json]")]);
  const json = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
  assert.equal(json.runs, 15);
  assert.equal(json.warmups, 3);
  // The fields say what ran.
  assert.equal(await page.inputValue("[data-testid=timing-runs]"), "15");
  assert.equal(await page.inputValue("[data-testid=timing-warmups]"), "3");
  await removeAllRuns();
});

/** The progress line's texts while a run goes on, each once. */
async function progressTexts(fn) {
  await page.evaluate(() => {
    window.__progress = [];
    const el = document.querySelector("[data-testid=timing-progress] + span");
    window.__progressWatch = new MutationObserver(() => el.textContent && window.__progress.at(-1) !== el.textContent && window.__progress.push(el.textContent));
    window.__progressWatch.observe(el, { childList: true, characterData: true, subtree: true });
  });
  await fn();
  return page.evaluate(() => {
    window.__progressWatch.disconnect();
    return window.__progress;
  });
}

/** Checks the progress texts of a run: each "warm-up k of W" or "run k of R", in order, warm-ups first (the worker posts at most every 50 ms, so not every step is seen). */
function checkProgress(texts, W, R) {
  const steps = texts.filter((t) => /^(warm-up|run) \d/.test(t)).map((t) => {
    const m = /^(warm-up|run) (\d+) of (\d+)$/.exec(t);
    assert.ok(m, `progress text: ${t}`);
    assert.equal(Number(m[3]), m[1] === "run" ? R : W, `progress text: ${t}`);
    assert.ok(Number(m[2]) >= 1 && Number(m[2]) <= Number(m[3]), `progress text: ${t}`);
    return [m[1] === "run" ? W + Number(m[2]) : Number(m[2]), t];
  });
  assert.ok(steps.some(([, t]) => t.startsWith("warm-up")) && steps.some(([, t]) => t.startsWith("run")), JSON.stringify(texts));
  for (let i = 1; i < steps.length; i++) assert.ok(steps[i][0] > steps[i - 1][0], JSON.stringify(texts));
}

test("progress counts warm-ups and runs apart: warm-up k of all warm-ups, then run k of all runs", async () => {
  // Per column: 7 columns x 4 warm-ups, then 7 columns x 20 runs.
  await choose([0, 1, 2, 3, 4, 5, 6], [0, 1]);
  await settings({ runs: "20", warmups: "4", mode: "file" });
  checkProgress(await progressTexts(runOnce), 28, 140);
  // A whole read: 4 warm-ups, then 40 runs.
  await settings({ runs: "40", warmups: "4", scope: "whole", mode: "file" });
  checkProgress(await progressTexts(runOnce), 4, 40);
  await removeAllRuns();
});

/** Starts a long run (by Enter on Run timing, or a click) and resolves once its runs (not its first read) are under way. */
async function startLong(byKey) {
  await choose([0, 1, 2, 3, 4, 5, 6], [0, 1]);
  await settings({ runs: "1000", warmups: "0", mode: "file" });
  if (byKey) {
    await page.focus("[data-testid=timing-run]");
    await page.keyboard.press("Enter");
  } else await page.click("[data-testid=timing-run]");
  await page.waitForFunction(() => /^run \d/.test(document.querySelector("[data-testid=timing-progress] + span")?.textContent || ""), null, { timeout: 60_000 });
}

test("a stopped run says so once, plainly", async () => {
  await startLong(false);
  await page.click("[data-testid=timing-stop]");
  await page.waitForSelector("[data-testid=timing-error][data-kind=cancelled]");
  assert.equal((await page.innerText("[data-testid=timing-error]")).trim(), "Timing stopped on request: none of its runs is kept.");
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
});

test("keyboard: while a run goes on the focus is on Stop; once stopped, on Run timing", async () => {
  await startLong(true);
  // The Run button is disabled while the run goes on.
  assert.equal(await focused(), "timing-stop");
  await page.keyboard.press("Enter");
  await page.waitForSelector("[data-testid=timing-error][data-kind=cancelled]");
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])");
  assert.equal(await focused(), "timing-run");
});

test("runs from memory read nothing: no read time in the summary CSV, the JSON or the split's tooltip", async () => {
  await choose([1], [0, 1]);
  await settings({ runs: "3", warmups: "0", mode: "memory" });
  await runOnce();
  const tip = await page.getAttribute("[data-testid=timing-result-row] .split", "title");
  assert.doesNotMatch(tip, /read/);
  assert.match(tip, /^decompress /);
  const [csvDl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-csv]")]);
  const [head, line] = fs.readFileSync(await csvDl.path(), "utf8").trim().split("\n").map((l) => l.split(","));
  assert.equal(line[head.indexOf("read_ms")], "");
  const [jsonDl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-json]")]);
  const json = JSON.parse(fs.readFileSync(await jsonDl.path(), "utf8"));
  assert.equal(json.columns[0].medianSplitMs.readMs, null);
  assert.ok(json.columns[0].runs.every((r) => r.readMs === null));
  // Re-read from the file, the read is timed and said.
  await settings({ runs: "3", warmups: "0", mode: "file" });
  await runOnce();
  assert.match(await page.getAttribute("[data-testid=timing-result-row] .split", "title"), /^read \d/);
  const [csv2] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-csv]")]);
  const [head2, line2] = fs.readFileSync(await csv2.path(), "utf8").trim().split("\n").map((l) => l.split(","));
  assert.match(line2[head2.indexOf("read_ms")], /^\d+(\.\d+)?$/);
  await removeAllRuns();
});

test("keyboard: after a run the focus is on Run timing; removing a run puts it on the next run's remove button, then on Run timing", async () => {
  await choose([1], [0]);
  await settings();
  await page.focus("[data-testid=timing-run]");
  for (let i = 0; i < 4; i++) {
    await runOnce("Enter");
    assert.equal(await focused(), "timing-run", `after run ${i + 1}`);
  }
  const ids = await page.$$eval("[data-testid=timing-compare] thead button", (b) => b.map((x) => x.getAttribute("aria-label")));
  assert.ok(ids.length >= 4, JSON.stringify(ids));
  await page.focus(`[data-testid=timing-compare] thead button[aria-label="${ids[0]}"]`);
  await page.keyboard.press("Enter");
  assert.equal(await focused(), ids[1]);
  // The last run's button removed: the one before it takes the focus.
  await page.focus(`[data-testid=timing-compare] thead button[aria-label="${ids.at(-1)}"]`);
  await page.keyboard.press("Enter");
  assert.equal(await focused(), ids.at(-2));
  // Enter again and again: each time on the next button, until one run is
  // left and the table goes; then the focus is back on Run timing.
  while (await page.$("[data-testid=timing-compare]")) {
    assert.match(await focused(), /^remove run \d+$/);
    await page.keyboard.press("Enter");
  }
  assert.equal(await focused(), "timing-run");
});

test("a run that ends while the focus is on a kept run's × leaves it there", async () => {
  await choose([1], [0]);
  await settings();
  await runOnce();
  await runOnce(); // (two runs: the table side by side)
  await choose([0, 1, 2, 3, 4, 5, 6], [0, 1]);
  await settings({ runs: "300" });
  const kept = await page.$$eval("[data-testid=timing-compare] thead button", (b) => b.length);
  await page.click("[data-testid=timing-run]");
  await page.focus("[data-testid=timing-compare] thead button >> nth=0");
  const label = await focused();
  assert.match(label, /^remove run \d+$/);
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])", { timeout: 60_000 });
  assert.equal(await page.$$eval("[data-testid=timing-compare] thead button", (b) => b.length), kept + 1, "the run ended and joined the table");
  assert.equal(await focused(), label);
  await removeAllRuns();
});

test("a blank pool size runs the number of workers the field showed (navigator.hardwareConcurrency, 3 here)", async () => {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => 3 }));
  await page.reload();
  await dropFile(page, path.join(corpus, "real/movielens.optimized.cols"));
  await tab(page, "timing");
  assert.equal(await page.inputValue("[data-testid=timing-pool-size]"), "3");
  await choose([1], [0]);
  await settings({ scope: "pool" });
  await page.fill("[data-testid=timing-pool-size]", "");
  await runOnce();
  assert.match(await page.textContent("[data-testid=timing-run-label]"), /worker pool of 3\b/);
  assert.equal(await page.inputValue("[data-testid=timing-pool-size]"), "3", "the field says what ran");
});

test("a tokenizer arriving during a run keeps the run's buttons (Run disabled, Stop shown) and the settings made", async () => {
  // movielens.tokenized's title column needs GPT-2's tokenizer: until it comes, the form leaves title out.
  await dropFile(page, path.join(corpus, "real/movielens.tokenized.cols"));
  await tab(page, "timing");
  await choose([2, 3, 4, 5, 6], [0, 1]); // (movieId unticked; 1,000 runs of these take long enough)
  await settings({ runs: "1000", warmups: "7", scope: "whole", mode: "memory" });
  await page.check("[data-testid=timing-reuse]");
  const texts = await progressTexts(async () => {
    await page.click("[data-testid=timing-run]");
    await page.waitForSelector("[data-testid=timing-stop]:visible");
    await page.waitForFunction(() => /^run \d/.test(document.querySelector("[data-testid=timing-progress] + span")?.textContent || ""));
  });
  // (the first run from memory of this file loads it, and says how much in the page's units)
  assert.ok(texts.some((t) => /^Loading the whole file \(1\.\d\d MiB\) into memory…$/.test(t)), JSON.stringify(texts));
  const unreadable = await page.textContent("[data-testid=timing-unreadable]");
  await page.setInputFiles("[data-testid=file-input]", path.join(corpus, "tokenizers/gpt2-tokenizer.json"));
  await page.waitForSelector("[data-testid=timing-unreadable]", { state: "detached", timeout: 30_000 });
  assert.match(unreadable, /title/);
  assert.equal(await page.isDisabled("[data-testid=timing-run]"), true, "Run stays disabled while the run goes on");
  assert.equal(await page.isVisible("[data-testid=timing-stop]"), true, "Stop stays");
  assert.equal(await page.inputValue("[data-testid=timing-runs]"), "1000");
  assert.equal(await page.inputValue("[data-testid=timing-warmups]"), "7");
  assert.equal(await page.isChecked("[data-testid=timing-scope-whole]"), true);
  assert.equal(await page.isChecked("[data-testid=timing-mode-memory]"), true);
  assert.equal(await page.isChecked("[data-testid=timing-reuse]"), true);
  // The column the tokenizer makes readable (title) joins the choice; movieId, unticked, stays out.
  const chosen = await page.$$eval("[data-testid=timing-columns-col]", (bs) => bs.filter((b) => b.checked).map((b) => Number(b.value)));
  assert.deepEqual(chosen, [1, 2, 3, 4, 5, 6]);
  await page.click("[data-testid=timing-stop]");
  await page.waitForSelector("[data-testid=timing-run]:not([disabled])", { timeout: 30_000 });
  assert.equal(await page.isVisible("[data-testid=timing-stop]"), false);
});

test("run numbers start at #1 again for each file opened, a run going on meanwhile or not, in the label and the export's name", async () => {
  // The file opened, then one run of a column: its label's number.
  const openAndRun = async (name) => {
    await dropFile(page, path.join(corpus, `real/${name}.cols`));
    await tab(page, "timing");
    await choose([1], [0]);
    await settings();
    await runOnce();
    return (await page.textContent("[data-testid=timing-run-label]")).match(/^Run #(\d+) /)?.[1];
  };
  assert.equal(await openAndRun("movielens.optimized"), "1");
  // Another run going on when the next file opens.
  await startLong(false);
  assert.equal(await openAndRun("diamonds.optimized"), "1");
  const [dl] = await Promise.all([page.waitForEvent("download"), page.click("[data-testid=export-csv]")]);
  assert.match(dl.suggestedFilename(), /^diamonds\.optimized-timing-1-/);
  // And with no run going on: a file after a finished run.
  await runOnce();
  assert.match(await page.textContent("[data-testid=timing-run-label]"), /^Run #2 /);
  assert.equal(await openAndRun("movielens.optimized"), "1");
});

test("no console errors", () => {
  assert.deepEqual(log.errors, []);
});
