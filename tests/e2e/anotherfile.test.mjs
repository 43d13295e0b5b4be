// Work under way on one file when another opens: what it finishes, or how
// it ends, belongs to the file it was started on. A column profile of the
// old file is never drawn in the new file's view. (And an export keeps its
// place in the page while its own file's views are drawn again.) A is flights-3m (see
// flights3m.mjs: 46 row groups, so a profile or an export of it takes a
// while), opened by URL; B a small file through the file input.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { serve, launch, newPage, dropFile, waitState, twoFrames, tab } from "./harness.mjs";
import { flights3m, ROWS } from "./flights3m.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let server, browser, data;

// B: column 0 is text ("beta-0" ...), nothing like A's column 0 (dates of 2001).
const B = {
  name: "b.cols",
  bytes: materialize(buildFile([{ name: "word", type: "string", nullable: false }], [{ offset: 5, columns: [Array.from({ length: 300 }, (_, i) => `beta-${i % 7}`)] }])),
};

before(async () => {
  data = flights3m();
  server = await serve({ mounts: { "/data/": data.dir } });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.stop();
});

const aUrl = () => `/data/${data.name}`;

/** A opened by its URL in the Data tab, its first rows drawn. */
async function openAInData(page) {
  await page.goto(`${server.base}?url=${encodeURIComponent(aUrl())}&tab=data`);
  await waitState(page, "ready", 60_000);
  await page.waitForSelector("[data-testid=data-grid] .grid-row[data-file-row='0']", { timeout: 60_000 });
}

/**
 * In the page: the worker's answer to the next operation named by
 * window.__hold.armed ("profiles", a column profile's call, at first) is held until
 * window.__hold.release(), as if the worker had sent it that late; and
 * every text the profile card shows is recorded with the window title of
 * that moment (which names the file shown). With window.__hold.failNext
 * set, the held answer is let through as an error instead.
 */
function instrument() {
  const hold = (window.__hold = { armed: "profiles", id: null, held: [] });
  hold.release = () => {
    hold.id = null;
    for (const go of hold.held.splice(0)) go();
  };
  const send = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (msg, ...rest) {
    if (hold.armed && msg?.op === hold.armed) {
      hold.id = msg.id;
      hold.armed = null;
    }
    return send.call(this, msg, ...rest);
  };
  const Base = window.Worker;
  window.Worker = class extends Base {
    addEventListener(type, fn, opts) {
      if (type !== "message") return super.addEventListener(type, fn, opts);
      return super.addEventListener(
        type,
        (ev) => {
          if (hold.id !== null && ev.data?.id === hold.id && !ev.data.progress) {
            // failNext: the answer comes as the worker's error for a job whose file went.
            const failed = hold.failNext && { data: { id: ev.data.id, ok: false, error: { kind: "cancelled", message: "another file was opened", rowGroup: null, column: null, offset: null } } };
            hold.failNext = false;
            hold.held.push(() => fn.call(this, failed || ev));
          }
          else fn.call(this, ev);
        },
        opts,
      );
    }
  };
  window.__profileSeen = [];
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
      const el = document.querySelector("[data-testid=profile]");
      if (!el) return;
      const seen = window.__profileSeen;
      const now = { title: document.title, text: el.textContent, state: el.dataset.state };
      const last = seen[seen.length - 1];
      if (!last || last.title !== now.title || last.text !== now.text || last.state !== now.state) seen.push(now);
    }).observe(document.body, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ["data-state"] });
  });
}

/** B opened, its profile drawn; then A's held answer let through. Resolves what the card showed while B was open. */
async function openBThenRelease(page) {
  await dropFile(page, B);
  await page.waitForFunction(() => {
    const el = document.querySelector("[data-testid=profile]");
    return el?.dataset.state === "done" && /beta-/.test(el.textContent);
  }, null, { timeout: 60_000 });
  // A's answer came (held) while B was being opened and profiled.
  await page.waitForFunction(() => window.__hold.held.length === 1, null, { timeout: 60_000 });
  await page.evaluate(() => window.__hold.release());
  await twoFrames(page);
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  await twoFrames(page);
  return page.evaluate(() => window.__profileSeen.filter((s) => s.title.startsWith("b.cols")));
}

/** A's profile (its 3,000,000 rows, its dates of 2001) or the end of A's run (stopped, failed) shown while B (300 rows) is open. */
const A_LIKE = new RegExp(`${ROWS.toLocaleString("en-US")}|2001-|Profile stopped|could not be profiled`);
const stale = (seen) => seen.filter((s) => A_LIKE.test(s.text) || (s.state !== "done" && s.state !== "running")).map((s) => ({ state: s.state, text: s.text.slice(0, 240) }));

test("a column profile of the previous file is never drawn in the next file's view, finished or stopped", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  try {
    await context.addInitScript(instrument);
    // A's profile of `date` (column 0) runs to its end; the answer is held.
    await page.goto(`${server.base}?url=${encodeURIComponent(aUrl())}&tab=detail`);
    await waitState(page, "ready", 60_000);
    await page.waitForFunction(() => window.__hold.held.length === 1, null, { timeout: 180_000 });
    assert.equal(await page.getAttribute("[data-testid=profile]", "data-state"), "running");
    let seen = await openBThenRelease(page);
    assert.deepEqual(stale(seen), [], "A's finished profile was drawn while B was shown");
    assert.match(await page.textContent("[data-testid=profile]"), /beta-/);
    assert.equal(await page.getAttribute("[data-testid=profile]", "data-state"), "done");

    // A again, and B opened while A's profile still runs: what A's run
    // ends with (stopped, or failed for want of its file) is held too.
    await page.evaluate(() => {
      window.__hold.armed = "profiles";
      window.__profileSeen.length = 0;
    });
    await page.evaluate(() => (document.body.dataset.state = ""));
    await page.fill("[data-testid=url-input]", aUrl());
    await page.press("[data-testid=url-input]", "Enter");
    await waitState(page, "ready", 60_000);
    await page.waitForFunction(() => /Profiling date: values of row group ([3-9]|\d\d) /.test(document.getElementById("status-text").textContent), null, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => window.__hold.held.length), 0, "A's profile still runs");
    seen = await openBThenRelease(page);
    assert.deepEqual(stale(seen), [], "the end of A's stopped profile was drawn while B was shown");
    assert.match(await page.textContent("[data-testid=profile]"), /beta-/);
    assert.equal(await page.getAttribute("[data-testid=profile]", "data-state"), "done");
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("an export under way when another file opens is stopped, and the page says so: nothing downloaded, nothing claims it was done", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  const downloads = [];
  page.on("download", (d) => downloads.push(d.suggestedFilename()));
  try {
    await openAInData(page);
    await page.click("[data-testid=export-toggle]");
    await page.check("[data-testid=export-format-csv]");
    await page.click("[data-testid=export-run]");
    // Under way: its first block of 65,536 rows written, of 46.
    await page.waitForFunction(() => document.querySelector("[data-testid=export-progress]")?.value > 0, null, { timeout: 60_000 });
    assert.equal(await page.textContent("[data-testid=export-result]"), "", "not done yet");
    await dropFile(page, B);
    await page.waitForFunction((name) => document.querySelector("[data-testid=toasts]").textContent.includes(`Export of ${name} stopped: another file was opened.`), data.name, { timeout: 30_000 });
    // The export's call has ended (the status line no longer shows it), and
    // B's Data tab shows B with an export menu of its own, untouched.
    await page.waitForFunction(() => !/Exporting/.test(document.getElementById("status-text").textContent), null, { timeout: 30_000 });
    assert.equal(await page.getAttribute("[data-testid=data-status]", "data-total"), "300");
    assert.equal(await page.textContent("[data-testid=export-result]"), "");
    assert.equal(await page.isHidden("[data-testid=export-progress]"), true);
    // Whatever a finished call would download has had its turn.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
    assert.deepEqual(downloads, [], "no export was offered as a download");
    assert.doesNotMatch(await page.textContent("[data-testid=toasts]"), /downloaded|written/);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("a sort under way when another file opens ends without a word over the new file: no 'Stopped', no error", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  try {
    await context.addInitScript(instrument);
    await openAInData(page);
    await page.click("[data-testid=data-grid-header][data-col='3'] button");
    await page.waitForFunction(() => document.querySelector("[data-testid=data-progress]")?.value > 0, null, { timeout: 60_000 });
    // B's open answered only once the sort has ended: the page hears of the
    // sort's end while A is still shown and B is on its way. From then on,
    // whatever the page says of the sort (a toast, an error box) is recorded.
    await page.evaluate(() => {
      window.__hold.armed = "open";
      document.body.dataset.state = "";
      window.__said = [];
      new MutationObserver(() => {
        const toasts = document.getElementById("toasts").textContent;
        const error = document.querySelector("[data-testid=data-error]")?.textContent;
        if (/Stopped|could not/.test(toasts) || error) window.__said.push(`${toasts} | ${error || ""}`);
      }).observe(document.body, { childList: true, characterData: true, subtree: true });
    });
    await page.setInputFiles("[data-testid=file-input]", { name: B.name, mimeType: "application/octet-stream", buffer: Buffer.from(B.bytes) });
    await page.waitForFunction(() => window.__hold.id !== null && !document.getElementById("panel-data").dataset.busy, null, { timeout: 60_000 });
    await page.evaluate(() => window.__hold.release());
    await waitState(page, "ready");
    await twoFrames(page);
    assert.deepEqual(await page.evaluate(() => window.__said), [], "the sort's end was told over the file being opened");
    assert.equal(await page.getAttribute("[data-testid=data-status]", "data-total"), "300");
    assert.match(await page.textContent("[data-testid=data-status]"), /in file order/);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("a timing run of the previous file is never shown in the next file's Timing tab, finished or failed", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  // A: a small file of its own (its column "alpha"); its run's answer is held until B is shown.
  const A = { name: "a.cols", bytes: materialize(buildFile([{ name: "alpha", type: "int32", nullable: false }], [{ offset: 5, columns: [Array.from({ length: 1000 }, (_, i) => i)] }])) };
  try {
    await context.addInitScript(instrument);
    await page.goto(server.base);
    for (const armedFor of ["finished", "failed"]) {
      await dropFile(page, A);
      await tab(page, "timing");
      await page.waitForSelector("[data-testid=timing-form]");
      await page.evaluate(() => (window.__hold.armed = "timing"));
      await page.fill("[data-testid=timing-runs]", "1");
      await page.fill("[data-testid=timing-warmups]", "0");
      if (armedFor === "failed") {
        // A run that fails: the file's worker no longer has it when asked
        // (as when B's open overtakes it), so it answers with an error.
        await page.evaluate(() => (window.__hold.failNext = true));
      }
      await page.click("[data-testid=timing-run]");
      await page.waitForFunction(() => window.__hold.held.length === 1, null, { timeout: 60_000 });
      await dropFile(page, B);
      await tab(page, "timing");
      await page.waitForFunction(() => document.title.startsWith("b.cols") && document.querySelector("[data-testid=timing-form]")?.textContent.includes("word"), null, { timeout: 60_000 });
      await page.evaluate(() => window.__hold.release());
      await twoFrames(page);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      const results = await page.$eval("#panel-timing", (el) => ({ rows: el.querySelectorAll("[data-testid=timing-result-row], [data-testid=timing-whole-row], [data-testid=timing-compare-row]").length, error: el.querySelector("[data-testid=timing-error]")?.textContent ?? null, text: el.textContent }));
      assert.equal(results.rows, 0, `A's ${armedFor} run was shown in B's Timing tab`);
      assert.equal(results.error, null, `A's ${armedFor} run's end was shown in B's Timing tab`);
      assert.doesNotMatch(results.text, /alpha/);
      assert.equal(await page.isHidden("[data-testid=timing-progress]"), true);
    }
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("an export writes the rows of the view it started with, though a sort comes while it runs", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  try {
    await openAInData(page);
    // Two columns shown (date, which the file holds in ascending order, and delay), to keep the CSV small.
    await page.click("[data-testid=data-columns-toggle]");
    await page.click("[data-testid=data-columns-none]");
    await page.check("[data-testid=data-columns-col][value='0']");
    await page.check("[data-testid=data-columns-col][value='1']");
    await page.click("[data-testid=data-columns-toggle]");
    await page.click("[data-testid=export-toggle]");
    await page.check("[data-testid=export-format-csv]");
    const download = page.waitForEvent("download", { timeout: 180_000 });
    await page.click("[data-testid=export-run]");
    await page.waitForFunction(() => document.querySelector("[data-testid=export-progress]")?.value > 0, null, { timeout: 60_000 });
    // Sort by delay while it runs (its menu closed: it covers the header), and see the sort end before the export does.
    await page.click("[data-testid=export-toggle]");
    await page.click("[data-testid=data-grid-header][data-col='1'] button");
    await page.waitForFunction(() => /sorted by delay/.test(document.querySelector("[data-testid=data-status]").textContent), null, { timeout: 120_000 });
    const mid = await page.evaluate(() => ({ value: document.querySelector("[data-testid=export-progress]").value, result: document.querySelector("[data-testid=export-result]").textContent }));
    assert.ok(mid.value < 1 && mid.result === "", `the export was still running when the sort ended (${JSON.stringify(mid)})`);
    // And show one column fewer before it ends: the line it ends with counts what it wrote.
    await page.click("[data-testid=data-columns-toggle]");
    await page.uncheck("[data-testid=data-columns-col][value='1']");
    await page.click("[data-testid=data-columns-toggle]");
    const lines = fs.readFileSync(await (await download).path(), "utf8").split("\r\n");
    await page.waitForFunction(() => /downloaded/.test(document.querySelector("[data-testid=export-result]").textContent), null, { timeout: 30_000 });
    assert.match(await page.textContent("[data-testid=export-result]"), new RegExp(`^${ROWS.toLocaleString("en-US")} rows × 2 columns, `));
    assert.equal(lines[0], "date,delay");
    assert.equal(lines.length, ROWS + 2, "header, every row once, the final line break");
    // In file order, as the view was when it started: dates never go back.
    let back = 0;
    for (let i = 2; i <= ROWS; i++) if (BigInt(lines[i].slice(0, lines[i].indexOf(","))) < BigInt(lines[i - 1].slice(0, lines[i - 1].indexOf(",")))) back++;
    assert.equal(back, 0, "rows of another order were written after the sort");
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("an export keeps its progress, its Stop and the line it ends with while the same file's columns are shown another way", async () => {
  const { page, context, log } = await newPage(browser, server.origin);
  try {
    await page.goto(`${server.base}?url=${encodeURIComponent(aUrl())}&tab=data`);
    await waitState(page, "ready", 60_000);
    await page.waitForSelector("[data-testid=data-grid] .grid-row[data-file-row='0'] .grid-cell[data-col='0']:not([data-kind=pending])", { timeout: 60_000 });
    // A cell of `date` selected first: its panel offers the choice of numbers or dates.
    await page.click("[data-testid=data-grid] .grid-cell[data-row='0'][data-col='0']");
    await page.waitForSelector("[data-testid=cell-time-unit]");
    await page.click("[data-testid=export-toggle]");
    await page.check("[data-testid=export-format-csv]");
    const download = page.waitForEvent("download", { timeout: 180_000 });
    download.catch(() => {}); // awaited below, unless an assertion fails first
    await page.click("[data-testid=export-run]");
    await page.waitForFunction(() => document.querySelector("[data-testid=export-progress]")?.value > 0, null, { timeout: 60_000 });
    // `date` shown as numbers while the export runs: the grid, the panel and the export's options follow.
    await page.selectOption("[data-testid=cell-time-unit]", "");
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector("[data-testid=data-grid] .grid-cell[data-row='0'][data-col='0']")?.textContent), null, { timeout: 30_000 });
    const mid = await page.evaluate(() => {
      const bar = document.querySelector("[data-testid=export-progress]");
      return { barShown: !bar.hidden, value: bar.value, runDisabled: document.querySelector("[data-testid=export-run]").disabled, result: document.querySelector("[data-testid=export-result]").textContent };
    });
    assert.deepEqual({ ...mid, value: mid.value > 0 && mid.value < 1 }, { barShown: true, value: true, runDisabled: true, result: "" }, "the export under way is still shown as under way");
    await download;
    await page.waitForFunction(() => /downloaded/.test(document.querySelector("[data-testid=export-result]").textContent), null, { timeout: 30_000 });
    assert.match(await page.textContent("[data-testid=export-result]"), /^3,000,000 rows × 5 columns, .* downloaded in /);
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
