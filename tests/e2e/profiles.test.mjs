// Every column's profile, below the Schema's table: counted on request,
// each figure checked against the corpus JSON; shared with Column detail
// both ways; a column that does not read says why and counts once its
// tokenizer comes.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openInspector, dropFile, tab, corpus } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let ins;

before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } });
});

after(async () => {
  await ins?.close();
});

/** Every row's value of column c of a corpus JSON: numbers (floats from their bits) or strings. */
function values(want, c) {
  const type = want.schema[c].type;
  return want.row_groups.flatMap((rg) => rg.values[c]).map((v) => (v === null ? null : type === "float64" ? Buffer.from(v.slice(2), "hex").readDoubleBE(0) : v));
}

/** What the table says of each column: state, nulls, distinct, min, max, most common. */
const table = (page) =>
  page.$$eval("[data-testid=profiles-row]", (rs) =>
    rs.map((r) => {
      const t = (id) => r.querySelector(`[data-testid=${id}]`)?.textContent ?? null;
      return { c: Number(r.dataset.col), state: r.dataset.state, nulls: t("profiles-nulls"), nullCount: Number(r.querySelector("[data-testid=profiles-nulls]")?.dataset.value), distinct: t("profiles-distinct"), min: t("profiles-min"), max: t("profiles-max"), top: t("profiles-top"), error: t("profiles-error"), spark: !!r.querySelector("[data-testid=profiles-spark]") };
    }),
  );

async function runAll(page) {
  const button = await page.waitForSelector("[data-testid=profiles-run]");
  await button.click();
  // The button clicked goes once the run starts (a wait for a run button
  // could find it still there); once the run ends, its table is drawn a
  // slice of rows at a time, the rows drawn before shown until all are in
  // (data-complete): read before, 180 of 200 columns showed.
  await button.waitForElementState("hidden", { timeout: 60_000 });
  await page.waitForSelector("[data-testid=profiles-done], [data-testid=profiles-run]", { timeout: 60_000 });
  await page.waitForSelector("[data-testid=profiles-table][data-complete='1']", { timeout: 60_000 });
}

test("Profile every column: each column's nulls, distinct values, minimum, maximum and most common value as the corpus JSON has them; a row opens Column detail without counting again", async () => {
  const { page, log } = ins;
  const rel = "real/diamonds.optimized.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  await dropFile(page, path.join(corpus, rel));
  assert.equal(await page.textContent("[data-testid=profiles-run]"), "Profile every column");
  assert.equal((await table(page)).length, 0, "nothing counted before the click");
  // cut's decoded size is not known before its chunks are read.
  const decoded = () => page.$$eval("[data-testid=schema-row]", (rs) => rs.map((r) => r.children[8].textContent));
  assert.equal((await decoded())[1], "…");
  await runAll(page);
  assert.ok(await page.$("[data-testid=profiles-done]"));
  assert.ok(!(await decoded()).includes("…"), `the Schema's decoded sizes once every column is read: ${await decoded()}`);
  const rows = await table(page);
  assert.deepEqual(rows.map((r) => r.c), want.schema.map((_, c) => c));
  for (const [c, s] of want.schema.entries()) {
    const vs = values(want, c);
    const counts = new Map();
    for (const v of vs) counts.set(v, (counts.get(v) ?? 0) + 1);
    const most = Math.max(...counts.values());
    const tops = [...counts].filter(([, n]) => n === most).map(([v]) => String(v));
    const sorted = [...counts.keys()].sort((a, b) => (typeof a === "number" ? a - b : a < b ? -1 : a > b ? 1 : 0));
    const r = rows[c];
    assert.equal(r.state, "done", s.name);
    assert.equal(r.nulls, "0", `${s.name}: nulls`);
    assert.equal(r.distinct, counts.size.toLocaleString("en-US"), `${s.name}: distinct`);
    assert.equal(r.min, String(sorted[0]), `${s.name}: min`);
    assert.equal(r.max, String(sorted.at(-1)), `${s.name}: max`);
    const [value, times] = r.top.split(" × ");
    assert.equal(times, most.toLocaleString("en-US"), `${s.name}: the most common value's rows`);
    assert.ok(tops.includes(value), `${s.name}: ${value} is not one of the most common (${tops.join(", ")})`);
    assert.equal(r.spark, s.type !== "string", `${s.name}: a histogram's shape for numbers only`);
  }

  // The table as TSV: a line a column, in column order, as the corpus JSON counts.
  await page.evaluate(() => delete document.body.dataset.copied);
  await page.click("[data-testid=profiles-copy]");
  await page.waitForFunction(() => document.body.dataset.copied !== undefined);
  const lines = (await page.evaluate(() => document.body.dataset.copied)).split("\n").map((l) => l.split("\t"));
  assert.deepEqual(lines[0], ["column", "type", "nulls", "distinct", "min", "max", "mean", "std", "most common", "its rows", "error"]);
  assert.equal(lines.length, want.schema.length + 1);
  for (const [c, s] of want.schema.entries()) {
    const vs = values(want, c);
    const counts = new Map();
    for (const v of vs) counts.set(v, (counts.get(v) ?? 0) + 1);
    const sorted = [...counts.keys()].sort((a, b) => (typeof a === "number" ? a - b : a < b ? -1 : a > b ? 1 : 0));
    const [name, type, nulls, distinct, min, max, mean, std, top, topRows, error] = lines[c + 1];
    assert.deepEqual([name, type, nulls, distinct, min, max, error], [s.name, s.type, "0", String(counts.size), String(sorted[0]), String(sorted.at(-1)), ""], s.name);
    if (s.type === "string") assert.deepEqual([mean, std], ["", ""], `${s.name}: text has no mean`);
    else {
      // The plain two-pass sums, to 12 digits (the page keeps running sums).
      const m = vs.reduce((a, b) => a + b, 0) / vs.length;
      const sd = Math.sqrt(vs.reduce((a, b) => a + (b - m) ** 2, 0) / (vs.length - 1));
      assert.ok(Math.abs(Number(mean) - m) <= 1e-12 * Math.abs(m), `${s.name}: mean ${mean}, not ${m}`);
      assert.ok(Math.abs(Number(std) - sd) <= 1e-12 * sd, `${s.name}: std ${std}, not ${sd}`);
    }
    assert.equal(counts.get(typeof sorted[0] === "number" ? Number(top) : top), Number(topRows), `${s.name}: ${top} holds ${topRows} rows`);
    assert.equal(Number(topRows), Math.max(...counts.values()), `${s.name}: the most common value's rows`);
  }

  // Sorted by Distinct (most first), as the corpus JSON counts them.
  const distinct = want.schema.map((_, c) => new Set(values(want, c)).size);
  await page.click("[data-testid=profiles-table] th button.sort:text('Distinct')");
  const order = (await table(page)).map((r) => r.c);
  assert.deepEqual(order.map((c) => distinct[c]), [...distinct].sort((a, b) => b - a), `rows by distinct values: ${order}`);

  // A row: Column detail on that column, its profile drawn from what the table counted.
  await page.evaluate(() => {
    window.__profileStates = [];
    // (Column detail's profile card is made when the tab first shows.)
    new MutationObserver((ms) => {
      for (const m of ms) if (m.target.dataset?.testid === "profile") window.__profileStates.push(m.target.dataset.state);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
  });
  await page.click("[data-testid=profiles-row][data-col='6']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=profile][data-state=done][data-col='6']");
  assert.ok(!(await page.evaluate(() => window.__profileStates)).includes("running"), "Column detail counted price again");
  assert.equal(await page.textContent("[data-testid=profile-distinct]"), `${rows[6].distinct} (exact)`);
  // Its time was the pass's, shared with the 9 other columns.
  assert.match(await page.textContent("[data-testid=profile-ms]"), /^ · counted with 9 other columns in [\d.,]+ (ms|s)$/);
  assert.deepEqual([await page.textContent("[data-testid=profile-mean]"), await page.textContent("[data-testid=profile-std]")], lines[7].slice(6, 8), "price's mean and standard deviation, as the TSV has them");
  assert.deepEqual(log.errors, []);
});

test("a column profiled in Column detail is in the Schema's table, and the button counts the others only", async () => {
  const { page, log } = ins;
  await dropFile(page, path.join(corpus, "valid/all_types_small.cols"));
  await tab(page, "detail");
  await page.waitForSelector("[data-testid=profile][data-state=done][data-col='0']");
  assert.match(await page.textContent("[data-testid=profile-ms]"), /^ · [\d.,]+ (ms|s) in the worker$/, "a column counted alone");
  await tab(page, "schema");
  const rows = await table(page);
  assert.deepEqual(rows.map((r) => [r.c, r.state]), [[0, "done"]]);
  // (26 columns: the Schema's table shows its first 25 rows at once, the rest in a later task)
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  const n = (await page.$$("[data-testid=schema-row]")).length;
  assert.equal(await page.textContent("[data-testid=profiles-run]"), `Profile the other ${n - 1} columns`);
  await runAll(page);
  assert.equal((await table(page)).filter((r) => r.state === "done").length, n);

  // c_int64 shown as dates: its minimum a date, and no mean (nor spread), in the table and its TSV alike.
  const tsv = async () => {
    await page.evaluate(() => delete document.body.dataset.copied);
    await page.click("[data-testid=profiles-copy]");
    await page.waitForFunction(() => document.body.dataset.copied !== undefined);
    return (await page.evaluate(() => document.body.dataset.copied)).split("\n").map((l) => l.split("\t"));
  };
  const asNumbers = (await tsv())[9];
  assert.equal(asNumbers[0], "c_int64");
  assert.match(asNumbers[6], /^-?\d/, "a mean while c_int64 shows as numbers");
  assert.ok(await page.$("[data-testid=profiles-row][data-col='8'] [data-testid=profiles-mean]"));
  await page.click("[data-testid=profiles-row][data-col='8']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=profile][data-state=done][data-col='8']");
  await page.selectOption("[data-testid=detail-time-unit]", "s");
  await tab(page, "schema");
  const asDates = (await tsv())[9];
  assert.match(asDates[4], /^\d{4}-\d\d-\d\d|^-\d+-\d\d-\d\d/, `c_int64's minimum as a date: ${asDates[4]}`);
  assert.deepEqual(asDates.slice(6, 8), ["", ""], "no mean or spread of dates in the TSV");
  assert.equal(await page.$("[data-testid=profiles-row][data-col='8'] [data-testid=profiles-mean]"), null, "nor in the table");
  assert.deepEqual(log.errors, []);
});

test("columns whose tokenizer is not supplied say unknown_tokenizer, the others count; once the tokenizers come, the button counts those", async () => {
  const { page, log } = ins;
  await dropFile(page, path.join(corpus, "valid/tokenized_two_tokenizers.cols"));
  await runAll(page);
  const before = await table(page);
  assert.deepEqual(
    before.map((r) => [r.c, r.state, r.error?.split(" ")[0] ?? null]),
    [
      [0, "error", "unknown_tokenizer"],
      [1, "error", "unknown_tokenizer"],
      [2, "error", "unknown_tokenizer"],
      [3, "done", null],
    ],
  );
  await page.setInputFiles(
    "[data-testid=file-input]",
    ["gpt2-tokenizer.json", "small-tokenizer.json"].map((name) => ({ name, mimeType: "application/json", buffer: fs.readFileSync(path.join(corpus, "tokenizers", name)) })),
  );
  await page.waitForSelector("[data-testid=profiles-run]:text('Profile the other 3 columns')");
  await runAll(page);
  const after = await table(page);
  assert.deepEqual(after.map((r) => r.state), ["done", "done", "done", "done"]);
  const want = readJson(expectedPath(path.join(corpus, "valid/tokenized_two_tokenizers.cols")));
  assert.deepEqual(after.map((r) => r.nullCount), want.schema.map((_, c) => values(want, c).filter((v) => v === null).length), "nulls");
  assert.deepEqual(log.errors, []);
});

test("Stop keeps the columns counted; the button then counts the others only", async () => {
  const { page, log } = ins;
  // 200 int32 columns of 50,000 rows, counted 20 together: ten passes,
  // so Stop after the first lands in the run's course (with three, the
  // run once ended before the click).
  const n = 50_000;
  const k = 200;
  const schema = Array.from({ length: k }, (_, c) => ({ name: `c${c}`, type: "int32", nullable: false }));
  const columns = schema.map((_, c) => Array.from({ length: n }, (_, i) => (i * (c + 7)) % 1009));
  await dropFile(page, { name: "wide.cols", bytes: materialize(buildFile(schema, [{ offset: 5, columns }])) });
  // Stop is clicked in the page the moment the first pass's rows are drawn:
  // clicked from here, a loaded machine once let the other nine passes end
  // first, and with every column counted there is no button to wait for.
  await page.evaluate(() => {
    window.__what = [];
    new MutationObserver(() => {
      const t = document.querySelector("[data-testid=profiles-what]")?.textContent;
      if (t && t !== window.__what.at(-1)) window.__what.push(t);
      if (!window.__stopped && document.querySelector("[data-testid=profiles-row]")) {
        const stop = document.querySelector("[data-testid=profiles-stop]");
        if (stop) (window.__stopped = true), stop.click();
      }
    }).observe(document.querySelector("[data-testid=profiles]"), { subtree: true, childList: true, characterData: true });
  });
  await page.click("[data-testid=profiles-run]");
  await page.waitForSelector("[data-testid=profiles-run]");
  assert.equal(await page.evaluate(() => window.__stopped), true, "Stop clicked once the first rows came");
  // The table of the columns counted is drawn a slice of rows at a time: all of them in first.
  await page.waitForSelector("[data-testid=profiles-table][data-complete='1']");
  const done = (await table(page)).length;
  assert.ok(done >= 1 && done < k, `${done} of ${k} columns counted before Stop`);
  assert.equal(await page.textContent("[data-testid=profiles-run]"), `Profile the other ${k - done} columns`);
  // 20 columns counted together, named by the first three.
  assert.equal((await page.evaluate(() => window.__what))[0], `columns 1-20 of ${k}: c0, c1, c2 and 17 others`);
  await runAll(page);
  const rows = await table(page);
  assert.deepEqual(rows.map((r) => r.c), schema.map((_, c) => c));
  // Column c holds (i * (c + 7)) mod 1009: 1,009 distinct values, 0 to 1,008.
  for (const r of rows) assert.deepEqual([r.state, r.distinct, r.min, r.max], ["done", "1,009", "0", "1008"], `c${r.c}`);
  assert.deepEqual(log.errors, []);
});

test("a column whose chunk does not read says why, in the table and in Column detail, and the columns counted with it still count", async () => {
  const { page, log } = ins;
  const rel = "invalid/encoding_unknown.cols";
  const want = readJson(expectedPath(path.join(corpus, rel)));
  assert.equal(want.error, "unsupported_encoding");
  await dropFile(page, path.join(corpus, rel));
  await runAll(page);
  const rows = await table(page);
  await page.waitForSelector("[data-testid=schema-table][data-complete='1']");
  const n = (await page.$$("[data-testid=schema-row]")).length;
  assert.ok(n > 2);
  // Row group 0's column 0 declares an encoding this reader does not know (the JSON's note).
  assert.deepEqual(rows.map((r) => [r.c, r.state]), Array.from({ length: n }, (_, c) => [c, c === 0 ? "error" : "done"]));
  assert.match(rows[0].error, /^unsupported_encoding /);
  await page.click("[data-testid=profiles-row][data-col='0']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=profile][data-state=error][data-col='0']");
  assert.equal(await page.getAttribute("[data-testid=profile-error]", "data-kind"), "unsupported_encoding");
  assert.match(await page.textContent("[data-testid=profile-error] [data-testid=error-location]"), /row group 0, column 0/);
  assert.deepEqual(log.errors, []);
});

test("a 64-bit integer column's mean does not pass for exact: rounded in the table it keeps its exponent, and past 2^53 it says ≈, in Column detail too", async () => {
  const { page, log } = ins;
  const schema = [
    { name: "tera", type: "int64", nullable: false },
    { name: "huge", type: "int64", nullable: false },
  ];
  const tera = [-1099511627776n, -1099511627775n, -1099511627777n, -1099511627770n];
  const huge = [2n ** 60n, 2n ** 60n + 1n, 2n ** 60n + 3n, 2n ** 60n + 7n];
  const file = buildFile(schema, [{ offset: 5, columns: [tera, huge] }]);
  await dropFile(page, { name: "means.cols", bytes: materialize(file) });
  await tab(page, "schema");
  await runAll(page);
  const means = await page.$$eval("[data-testid=profiles-mean]", (els) => els.map((e) => e.textContent));
  assert.deepEqual(means, ["-1.09951e+12", "≈ 1.15292e+18"]);
  await page.click("[data-testid=profiles-row][data-col='1']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=profile][data-state=done][data-col='1']");
  assert.equal(await page.textContent("[data-testid=profile-mean]"), "≈ 1.152921504606847e+18");
  await tab(page, "schema");
  await page.click("[data-testid=profiles-row][data-col='0']");
  await page.waitForSelector("[data-testid=panel-detail]:not([hidden]) [data-testid=profile][data-state=done][data-col='0']");
  assert.equal(await page.textContent("[data-testid=profile-mean]"), "-1099511627774.5", "below 2^53: the double's digits, the exact mean here");
  assert.deepEqual(log.errors, []);
});
