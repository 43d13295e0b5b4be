// What helps write a statement in the SQL tab. A link's `sql` is put in
// the editor and runs once table t is loaded (when the SQL tab first shows
// the file); a statement run becomes the address's `sql`; Alt+Up/Down and
// the Recent menu bring back earlier ones, which a reload keeps (the
// browser tab's sessionStorage). Table t's columns are listed with their
// SQL types (DuckDB's own DESCRIBE is the reference) and a click writes a
// name into the statement. Results are checked against the corpus JSON.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { openInspector, corpus, waitState, tab, runSql, sqlColumn, sqlReady, dropFile } from "./harness.mjs";
import { expectedPath, readJson } from "../node/corpus.mjs";
import { buildFile, materialize } from "../node/synth.mjs";

let ins;
before(async () => {
  ins = await openInspector({ viewport: { width: 1400, height: 900 } }, { mounts: { "/corpus/": corpus } });
});
after(async () => {
  await ins?.close();
});

const FILE = "/corpus/real/diamonds.optimized.cols";
const BY_CUT = "SELECT cut, count(*) AS n, sum(price) AS total FROM t GROUP BY cut ORDER BY cut";

/** BY_CUT's rows, from the corpus JSON: [cut, n, total] as text, by cut. */
function byCut() {
  const want = readJson(expectedPath(path.join(corpus, "real/diamonds.optimized.cols")));
  const [g] = want.row_groups;
  const cut = g.values[want.schema.findIndex((s) => s.name === "cut")];
  const price = g.values[want.schema.findIndex((s) => s.name === "price")];
  const groups = new Map();
  cut.forEach((c, r) => {
    const x = groups.get(c) ?? [0, 0];
    groups.set(c, [x[0] + 1, x[1] + price[r]]);
  });
  return [...groups].sort(([a], [b]) => (a < b ? -1 : 1)).map(([c, [n, total]]) => [c, String(n), String(total)]);
}

async function resultRows(page) {
  const cols = [];
  for (let k = 0; k < 3; k++) cols.push(await sqlColumn(page, k));
  return cols[0].map((_, r) => cols.map((c) => c[r]));
}

const address = (page) => new URL(page.url()).searchParams;
const editor = (page) => page.inputValue("[data-testid=sql-input]");
const sqlState = (page) => page.getAttribute("[data-testid=panel-sql]", "data-sql-state");

/** Opens `query` (the page's address after ?) and waits until the file shows. */
async function openLink(page, query) {
  await page.goto(`${ins.server.base}?${query}`);
  await waitState(page, "ready");
}

test("a link's statement runs when the link opens on the SQL tab, and again when it is opened on another tab and the SQL tab shown", async () => {
  const { page } = ins;
  const expected = byCut();
  assert.equal(expected.length, 5, "diamonds has five cuts");
  await openLink(page, `url=${encodeURIComponent(FILE)}&tab=sql&sql=${encodeURIComponent(BY_CUT)}`);
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  assert.equal(await editor(page), BY_CUT);
  assert.deepEqual(await resultRows(page), expected);
  assert.equal(address(page).get("sql"), BY_CUT);

  // On the Data tab, the statement waits for the SQL tab: DuckDB is not started before.
  const other = "SELECT cut, count(*) AS n, sum(price) AS total FROM t WHERE price > 5000 GROUP BY cut ORDER BY cut";
  await openLink(page, `url=${encodeURIComponent(FILE)}&tab=data&sql=${encodeURIComponent(other)}`);
  assert.equal(await sqlState(page), "idle");
  await tab(page, "sql");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  assert.equal(await editor(page), other);
  const rows = await resultRows(page);
  assert.equal(rows.length, 5);
  assert.ok(rows.every(([, n], k) => Number(n) < Number(expected[k][1])), "fewer rows in every group than without the condition");

  // Shown again, the tab does not run it a second time.
  await tab(page, "data");
  await tab(page, "sql");
  assert.equal(await sqlState(page), "done");
});

test("a statement run is the address's sql; Alt+Up and Alt+Down step through the statements run; the Recent menu lists them, newest first, and a reload keeps them", async () => {
  const { page } = ins;
  await openLink(page, `url=${encodeURIComponent(FILE)}&tab=sql`);
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
  assert.equal(address(page).get("sql"), null);
  const first = "SELECT count(*) AS n FROM t";
  const second = "SELECT max(price) AS most FROM t";
  assert.equal((await runSql(page, first)).state, "done");
  assert.equal(address(page).get("sql"), first);
  assert.equal((await runSql(page, `${second};`)).state, "done");
  assert.equal(address(page).get("sql"), second, "the statement as run (its last ; taken off)");
  assert.deepEqual(await sqlColumn(page, 0), [String(Math.max(...byCutPrices()))]);
  // One that fails is kept too: it is what the person wrote.
  assert.equal((await runSql(page, "SELECT nope FROM t")).state, "error");
  assert.equal(address(page).get("sql"), "SELECT nope FROM t");

  await page.fill("[data-testid=sql-input]", "SELECT 1 -- a draft");
  await page.focus("[data-testid=sql-input]");
  const steps = [];
  for (const key of ["Alt+ArrowUp", "Alt+ArrowUp", "Alt+ArrowUp", "Alt+ArrowUp", "Alt+ArrowDown", "Alt+ArrowDown", "Alt+ArrowDown", "Alt+ArrowDown"]) {
    await page.keyboard.press(key);
    steps.push(await editor(page));
  }
  // (the statements of the test before were run in this browser tab too: they come after these)
  assert.deepEqual(steps.slice(0, 3), ["SELECT nope FROM t", second, first]);
  assert.deepEqual(steps.slice(4), [steps[2], second, "SELECT nope FROM t", "SELECT 1 -- a draft"]);
  assert.equal(await sqlState(page), "error", "stepping runs nothing");

  // Run again, a statement moves to the front, once.
  assert.equal((await runSql(page, first)).state, "done");
  await page.click("[data-testid=sql-recent-toggle]");
  const listed = await page.$$eval("[data-testid=sql-recent-list] .recent-item", (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(listed.slice(0, 3), [first, "SELECT nope FROM t", second]);
  assert.equal(listed.filter((x) => x === first).length, 1);
  assert.ok(listed.includes(BY_CUT), "the link's statement, run, is listed too");
  // Choosing one puts it in the editor and runs nothing.
  await page.click(`[data-testid=sql-recent-list] .recent-item[title="${second}"]`);
  assert.equal(await editor(page), second);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "sql-input");
  assert.equal(await page.evaluate(() => document.querySelector("[data-testid=sql-recent]").open), false);
  assert.equal(address(page).get("sql"), first, "the address keeps the statement last run");

  // A reload opens the link again (running its statement) and keeps the list.
  await page.reload();
  await waitState(page, "ready");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  assert.equal(await editor(page), first);
  await page.click("[data-testid=sql-recent-toggle]");
  assert.deepEqual((await page.$$eval("[data-testid=sql-recent-list] .recent-item", (bs) => bs.map((b) => b.textContent))).slice(0, 3), [first, "SELECT nope FROM t", second]);
  // Forgotten, they stay forgotten after a reload.
  await page.click("[data-testid=sql-recent-clear]");
  assert.equal(await page.$$eval("[data-testid=sql-recent-list] .recent-item", (bs) => bs.length), 0);
  assert.match(await page.textContent("[data-testid=sql-recent-list]"), /No statement has run in this browser tab yet/);
  await page.keyboard.press("Escape");
  await page.reload();
  await waitState(page, "ready");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  // (the link's statement ran again on the reload: the one listed)
  assert.deepEqual(await page.$$eval("[data-testid=sql-recent-list] .recent-item", (bs) => bs.map((b) => b.title)), [first]);
});

test("the address keeps a statement stopped, cut short by Back or failed in the editor, not to run by itself again; a link's statement that changes t waits for Run", async () => {
  const { page } = ins;
  const SLOW = "SELECT count(*) AS n FROM range(100000000000) a WHERE a.range % 7 = 3";
  const notRunAgain = async (sql, note) => {
    await waitState(page, "ready");
    await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
    // (a link's statement starts at once once t is loaded: given time, it would have)
    await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
    assert.equal(await sqlState(page), "ready", `${sql} did not run`);
    assert.equal(await editor(page), sql);
    assert.equal(address(page).get("sql"), sql);
    assert.match(await page.textContent("[data-testid=sql-link-note]"), note);
    assert.ok(await page.isVisible("[data-testid=sql-link-note]"));
  };
  await openLink(page, `url=${encodeURIComponent(FILE)}&tab=sql`);
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=ready]", { timeout: 120_000 });
  // Stopped, then reloaded.
  await page.fill("[data-testid=sql-input]", SLOW);
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  await page.click("[data-testid=sql-stop]");
  await page.reload();
  await notRunAgain(SLOW, /had not finished .* not run\. Press Run/);
  // Left running for another file, then Back.
  await page.click("[data-testid=sql-run]");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=running]");
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.fill("[data-testid=url-input]", "/corpus/real/birdstrikes.optimized.cols");
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.goBack();
  await notRunAgain(SLOW, /had not finished/);
  // Failed, then reloaded.
  assert.equal((await runSql(page, "SELECT nope FROM t")).state, "error");
  await page.reload();
  await notRunAgain("SELECT nope FROM t", /had not finished/);
  // A statement that changes t, run to its end: the reload does not drop t again.
  assert.equal((await runSql(page, "DROP TABLE t")).state, "done");
  await page.reload();
  await notRunAgain("DROP TABLE t", /may change table t.* not run\. Press Run/);
  assert.equal((await runSql(page, "SELECT count(*) AS n FROM t")).state, "done");
  assert.deepEqual(await sqlColumn(page, 0), [String(byCutPrices().length)]);
  assert.equal(await page.isVisible("[data-testid=sql-link-note]"), false, "the note goes once a statement runs");
  // A link's query still runs by itself.
  await page.reload();
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 120_000 });
  assert.equal(await page.isVisible("[data-testid=sql-link-note]"), false);
});

/** Every price of diamonds, from the corpus JSON. */
function byCutPrices() {
  const want = readJson(expectedPath(path.join(corpus, "real/diamonds.optimized.cols")));
  return want.row_groups[0].values[want.schema.findIndex((s) => s.name === "price")];
}

test("a statement too long for an address runs but is neither linked nor listed; another file opened forgets the link's statement", async () => {
  const { page } = ins;
  const long = `SELECT count(*) AS n FROM t WHERE price > 0 ${"AND price > 0 ".repeat(700)}`.trim();
  assert.ok(long.length > 8192);
  const r = await runSql(page, long);
  assert.equal(r.state, "done");
  assert.equal(await sqlColumn(page, 0).then((c) => c[0]), String(byCutPrices().length));
  assert.equal(address(page).get("sql"), null);
  await page.click("[data-testid=sql-recent-toggle]");
  const listed = await page.$$eval("[data-testid=sql-recent-list] .recent-item", (bs) => bs.map((b) => b.title));
  assert.ok(!listed.includes(long));
  await page.keyboard.press("Escape");

  assert.equal((await runSql(page, "SELECT 42 AS answer")).state, "done");
  assert.equal(address(page).get("sql"), "SELECT 42 AS answer");
  // Another file, from the URL field: not where the link was.
  await page.evaluate(() => (document.body.dataset.state = ""));
  await page.fill("[data-testid=url-input]", "/corpus/real/birdstrikes.optimized.cols");
  await page.click("[data-testid=url-open]");
  await waitState(page, "ready");
  assert.equal(address(page).get("sql"), null);
  assert.equal(await editor(page), "SELECT * FROM t LIMIT 100");
});

const chips = (page) => page.$$eval("[data-testid=sql-column]", (bs) => bs.map((b) => [b.firstChild.textContent.trim(), b.querySelector(".type-tag").textContent]));

test("table t's columns, every type: their names and SQL types as DuckDB's DESCRIBE gives them; a click writes the quoted name over the selection", async () => {
  const { page } = ins;
  const file = path.join(corpus, "valid/all_types_small.cols");
  const want = readJson(expectedPath(file));
  await dropFile(page, file);
  await sqlReady(page);
  const listed = await chips(page);
  assert.deepEqual(listed.map(([name]) => name), want.schema.map((s) => s.name));
  assert.equal(new Set(want.schema.map((s) => s.type)).size, 13, "all 13 types");
  // (13 rows at a time: the grid draws only the rows in sight)
  const described = [];
  for (const offset of [0, 13]) {
    const r = await runSql(page, `SELECT column_name, column_type FROM (DESCRIBE t) LIMIT 13 OFFSET ${offset}`);
    assert.equal(r.state, "done", r.text);
    const [names, types] = [await sqlColumn(page, 0), await sqlColumn(page, 1)];
    described.push(...names.map((name, i) => [name, types[i]]));
  }
  assert.deepEqual(listed, described);
  // 26 columns: more than 20, so listed closed, with a filter.
  assert.equal(await page.evaluate(() => document.querySelector("[data-testid=sql-columns] details").open), false);
  await page.click("[data-testid=sql-columns] summary");
  assert.ok(await page.isVisible("[data-testid=sql-column-filter]"));

  // Over a selection: "SELECT [x] FROM t" with x selected.
  await page.fill("[data-testid=sql-input]", "SELECT x FROM t");
  await page.evaluate(() => document.querySelector("[data-testid=sql-input]").setSelectionRange(7, 8));
  const k = want.schema.findIndex((s) => s.type === "int16");
  await page.click(`[data-testid=sql-column] >> nth=${k}`);
  assert.equal(await editor(page), `SELECT "${want.schema[k].name}" FROM t`);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), "sql-input");
  // At the cursor: after the name, a comma and another.
  await page.keyboard.type(", ");
  const j = want.schema.findIndex((s) => s.type === "string");
  await page.click(`[data-testid=sql-column] >> nth=${j}`);
  assert.equal(await editor(page), `SELECT "${want.schema[k].name}", "${want.schema[j].name}" FROM t`);
  assert.equal((await runSql(page, await editor(page))).state, "done");
  const show = (v) => (v === null ? "NULL" : String(v));
  const rows = want.row_groups.flatMap((g) => g.values[k].map(show));
  assert.deepEqual(await sqlColumn(page, 0), rows);

  // What the page writes in the editor, Ctrl+Z takes back: a column's name,
  // a recalled statement, an example (which runs) over what was typed.
  await page.fill("[data-testid=sql-input]", "");
  await page.focus("[data-testid=sql-input]");
  await page.keyboard.type("SELECT  FROM t -- typed");
  await page.evaluate(() => document.querySelector("[data-testid=sql-input]").setSelectionRange(7, 7));
  await page.click(`[data-testid=sql-column] >> nth=${k}`);
  assert.equal(await editor(page), `SELECT "${want.schema[k].name}" FROM t -- typed`);
  await page.keyboard.press("Control+z");
  assert.equal(await editor(page), "SELECT  FROM t -- typed");
  await page.keyboard.press("Alt+ArrowUp");
  assert.notEqual(await editor(page), "SELECT  FROM t -- typed");
  await page.keyboard.press("Control+z");
  assert.equal(await editor(page), "SELECT  FROM t -- typed");
  await page.click(".sql-examples button >> nth=0");
  await page.waitForSelector("[data-testid=panel-sql][data-sql-state=done]", { timeout: 60_000 });
  assert.notEqual(await editor(page), "SELECT  FROM t -- typed");
  await page.focus("[data-testid=sql-input]");
  await page.keyboard.press("Control+z");
  assert.equal(await editor(page), "SELECT  FROM t -- typed");
});

test("a table t of a few columns: listed open, with no filter", async () => {
  const { page } = ins;
  await dropFile(page, path.join(corpus, "real/birdstrikes.optimized.cols"));
  await sqlReady(page);
  assert.equal(await page.evaluate(() => document.querySelector("[data-testid=sql-columns] details").open), true);
  assert.equal(await page.$("[data-testid=sql-column-filter]"), null);
  const want = readJson(expectedPath(path.join(corpus, "real/birdstrikes.optimized.cols")));
  assert.deepEqual((await chips(page)).map(([name]) => name), want.schema.map((s) => s.name));
});

test("a wide table t: its columns listed closed, 200 at a time, the others found by a filter on the name", async () => {
  const { page } = ins;
  const C = 230;
  const schema = Array.from({ length: C }, (_, c) => ({ name: c === 3 ? 'a "quoted" name' : `col_${c}`, type: c % 2 ? "string" : "int32", nullable: false }));
  const bytes = materialize(buildFile(schema, [{ offset: 5, columns: schema.map((s, c) => (s.type === "string" ? [`v${c}`] : [c])) }]));
  await dropFile(page, { name: "wide.cols", bytes });
  await sqlReady(page);
  assert.equal(await page.evaluate(() => document.querySelector("[data-testid=sql-columns] details").open), false);
  await page.click("[data-testid=sql-columns] summary");
  let listed = await chips(page);
  assert.equal(listed.length, 200);
  assert.deepEqual(listed.slice(0, 2), [["col_0", "INTEGER"], ["col_1", "VARCHAR"]]);
  assert.match(await page.textContent("[data-testid=sql-columns]"), /and 30 more columns: the filter finds them/);
  await page.fill("[data-testid=sql-column-filter]", "COL_22");
  listed = await chips(page);
  assert.deepEqual(listed.map(([n]) => n), ["col_22", ...Array.from({ length: 10 }, (_, i) => `col_${220 + i}`)]);
  await page.fill("[data-testid=sql-column-filter]", "nothing");
  assert.deepEqual(await chips(page), []);
  assert.match(await page.textContent("[data-testid=sql-columns]"), /No column's name has that in it/);
  await page.fill("[data-testid=sql-column-filter]", "col_229");
  await page.fill("[data-testid=sql-input]", "SELECT  FROM t");
  await page.evaluate(() => document.querySelector("[data-testid=sql-input]").setSelectionRange(7, 7));
  await page.click("[data-testid=sql-column]");
  assert.equal((await runSql(page, await editor(page))).state, "done");
  assert.deepEqual(await sqlColumn(page, 0), ["v229"]);
  // A name with quotes in it, written so that DuckDB reads it back.
  await page.fill("[data-testid=sql-column-filter]", '"');
  await page.fill("[data-testid=sql-input]", "SELECT  FROM t");
  await page.evaluate(() => document.querySelector("[data-testid=sql-input]").setSelectionRange(7, 7));
  await page.click("[data-testid=sql-column]");
  assert.equal(await editor(page), 'SELECT "a ""quoted"" name" FROM t');
  assert.equal((await runSql(page, await editor(page))).state, "done");
  assert.deepEqual(await sqlColumn(page, 0), ["v3"]);
});

test("no page errors", () => {
  assert.deepEqual(ins.log.errors, []);
});
