// Tables from the adapter loaded into DuckDB-Wasm (its blocking Node build)
// the way an application would: Arrow IPC bytes (tableToIPC) into
// insertArrowFromIPCStream. DuckDB bundles its own apache-arrow, so a Table
// object cannot be handed over directly. Every aggregate DuckDB computes is
// compared with the same aggregate computed here from Column.toArray().

import test from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";
import { buildFile, materialize } from "../node/synth.mjs";
import { adapter, api, arrow, corpusDir, corpusFile, duplicateNamesFile, findPairs, loadTokenizers, readPair, tokenizerDir } from "./support.mjs";

const { toArrowTable } = adapter;
const require = createRequire(import.meta.url);
const duckdb = require("@duckdb/duckdb-wasm/blocking");

async function startDuckDB() {
  const dist = path.dirname(require.resolve("@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm"));
  const bundle = (name) => ({ mainModule: path.join(dist, `duckdb-${name}.wasm`), mainWorker: path.join(dist, `duckdb-node-${name}.worker.cjs`) });
  const db = await duckdb.createDuckDB({ mvp: bundle("mvp"), eh: bundle("eh") }, new duckdb.VoidLogger(), duckdb.NODE_RUNTIME);
  await db.instantiate(() => {});
  return db.connect();
}

const conn = await startDuckDB();
let tableCount = 0;

/** Loads an Arrow table into DuckDB through IPC; returns the SQL table name. */
function load(table) {
  const name = `t${tableCount++}`;
  conn.insertArrowFromIPCStream(arrow.tableToIPC(table, "stream"), { name });
  return name;
}

/** Rows of a query as plain objects (DuckDB's Arrow result, its own copy). */
const rows = (sql) => conn.query(sql).toArray().map((r) => r.toJSON());
const q = (name) => `"${name.replaceAll('"', '""')}"`;

const INTS = new Set(["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]);
const FLOATS = new Set(["float32", "float64"]);

/** What DuckDB should answer for one column, computed from its values
 *  (every row group's toArray(), concatenated). DuckDB orders NaN above
 *  every number; min/max of nothing is null. */
function expectedAggregates(type, values) {
  const present = values.filter((v) => v !== null);
  const out = { count: String(present.length) };
  if (INTS.has(type)) {
    const big = present.map((v) => BigInt(v));
    out.sum = big.length ? String(big.reduce((a, b) => a + b, 0n)) : null;
    out.min = big.length ? String(big.reduce((a, b) => (b < a ? b : a))) : null;
    out.max = big.length ? String(big.reduce((a, b) => (b > a ? b : a))) : null;
  } else if (FLOATS.has(type)) {
    const above = (a, b) => (Number.isNaN(a) ? !Number.isNaN(b) : a > b);
    out.min = present.length ? present.reduce((a, b) => (above(a, b) ? b : a)) : null;
    out.max = present.length ? present.reduce((a, b) => (above(b, a) ? b : a)) : null;
  } else if (type === "bool") {
    out.trues = String(present.filter((v) => v === true).length);
  } else {
    // string/bytes as their exact bytes (latin1 keeps every byte value apart).
    out.bytes = present.length ? String(present.reduce((a, b) => a + b.length, 0)) : null;
    out.distinct = String(new Set(present.map((b) => Buffer.from(b).toString("latin1"))).size);
  }
  return out;
}

/** The same aggregates from DuckDB, one SELECT per table. `arrow`: the
 *  column's Arrow type (a string column is VARCHAR or BLOB). */
function duckAggregates(tname, fields) {
  const parts = ["count(*)::VARCHAR AS n"];
  fields.forEach(({ name, type, arrow: at }, k) => {
    const c = q(name);
    parts.push(`count(${c})::VARCHAR AS c${k}_count`);
    if (INTS.has(type)) parts.push(`sum(${c})::VARCHAR AS c${k}_sum`, `min(${c})::VARCHAR AS c${k}_min`, `max(${c})::VARCHAR AS c${k}_max`);
    else if (FLOATS.has(type)) parts.push(`min(${c})::DOUBLE AS c${k}_min`, `max(${c})::DOUBLE AS c${k}_max`);
    else if (type === "bool") parts.push(`(count(*) FILTER (WHERE ${c}))::VARCHAR AS c${k}_trues`);
    else parts.push(`sum(${at === "Utf8" ? "strlen" : "octet_length"}(${c}))::VARCHAR AS c${k}_bytes`, `count(DISTINCT ${c})::VARCHAR AS c${k}_distinct`);
  });
  return rows(`SELECT ${parts.join(", ")} FROM ${tname}`)[0];
}

/** Equal as DuckDB and JS numbers: NaN is NaN, -0 is 0. */
const agree = (a, b) => a === b || (Number.isNaN(a) && Number.isNaN(b));

const tokenizers = loadTokenizers(api, tokenizerDir);
function open(bytes) {
  const registry = new api.TokenizerRegistry();
  for (const t of tokenizers) registry.register(t);
  return api.ColumnsFile.fromBytes(bytes, registry);
}

test("DuckDB starts from the pinned package", () => {
  assert.equal(rows("SELECT 40 + 2 AS x")[0].x, 42);
});

test("every valid corpus file, through IPC into DuckDB (strings \"auto\"): counts, nulls, sums, min/max, trues, byte totals and distinct values agree", () => {
  const files = findPairs(corpusDir).pairs.map(readPair).filter((f) => !("error" in f.expected));
  let checked = 0;
  const kinds = { Utf8: 0, Binary: 0 };
  let columns = 0;
  for (const f of files) {
    const file = open(f.bytes);
    // "auto": several files hold invalid UTF-8 in string columns, which DuckDB refuses as VARCHAR.
    const table = toArrowTable(file, { strings: "auto" });
    const tname = load(table);
    const names = table.schema.fields.map((x) => x.name);
    assert.deepEqual(rows(`DESCRIBE ${tname}`).map((r) => r.column_name), names, `${f.name}: DuckDB kept every name`);
    const fields = file.schema.map((sc, c) => ({ name: names[c], type: sc.type, arrow: String(table.schema.fields[c].type) }));
    const got = duckAggregates(tname, fields);
    assert.equal(got.n, String(file.numRows), `${f.name}: count(*)`);
    fields.forEach(({ name, type, arrow: at }, c) => {
      // Strings as their bytes (toArray() decodes them), everything else as toArray() gives it.
      const values = file.rowGroups.flatMap((_, g) => (type === "string" ? binaryValues(file.readColumn(g, c)) : file.readColumn(g, c).toArray()));
      for (const [key, want] of Object.entries(expectedAggregates(type, values))) {
        const have = got[`c${c}_${key}`];
        if (!agree(have, want)) assert.fail(`${f.name} column ${name} (${type}): DuckDB ${key} = ${have}, the column's values give ${want}`);
      }
      if (type === "string") kinds[at]++;
      columns++;
    });
    conn.query(`DROP TABLE ${tname}`);
    checked++;
  }
  assert.ok(checked >= 50, `${checked} files checked`);
  assert.ok(kinds.Utf8 > 10 && kinds.Binary > 10, `string columns as VARCHAR ${kinds.Utf8}, as BLOB ${kinds.Binary}`);
  console.log(`# DuckDB agreed on ${columns} columns of ${checked} files (string columns: ${kinds.Utf8} VARCHAR, ${kinds.Binary} BLOB)`);
});

/** A string/bytes column's values as exact bytes (null for nulls). */
function binaryValues(col) {
  const { offsets, data } = col.values;
  return Array.from({ length: col.length }, (_, i) => (col.isValid(i) ? data.subarray(offsets[i], offsets[i + 1]) : null));
}

test("a file without row groups: a Table with the schema and no batches, an empty DuckDB table with the types", () => {
  const file = open(corpusFile("valid/no_row_groups").bytes);
  const table = toArrowTable(file);
  assert.equal(table.numRows, 0);
  assert.equal(table.batches.length, 0);
  assert.deepEqual(table.schema.fields.map((f) => f.name), file.schema.map((c) => c.name));
  const tname = load(table);
  assert.deepEqual(rows(`DESCRIBE ${tname}`).map((r) => r.column_type), ["INTEGER", "VARCHAR", "DOUBLE", "USMALLINT", "BOOLEAN"]);
  assert.equal(rows(`SELECT count(*)::VARCHAR AS n FROM ${tname}`)[0].n, "0");
  conn.query(`DROP TABLE ${tname}`);
});

test("diamonds (strings as Utf8): a string GROUP BY agrees with the columns' own values", () => {
  const file = open(corpusFile("real/diamonds.default").bytes);
  const tname = load(toArrowTable(file));
  const cut = file.readColumn(0, 1).toArray();
  const price = file.readColumn(0, 6).toArray();
  const carat = file.readColumn(0, 0).toArray();
  const want = new Map();
  cut.forEach((k, i) => {
    const g = want.get(k) ?? { n: 0, sum: 0, min: Infinity, max: -Infinity };
    g.n++;
    g.sum += price[i];
    g.min = Math.min(g.min, carat[i]);
    g.max = Math.max(g.max, carat[i]);
    want.set(k, g);
  });
  const got = rows(`SELECT cut, count(*)::VARCHAR AS n, sum(price)::VARCHAR AS sum, min(carat) AS min, max(carat) AS max FROM ${tname} GROUP BY cut ORDER BY cut`);
  assert.deepEqual(got.map((r) => r.cut), [...want.keys()].sort());
  assert.ok(got.length >= 5, "diamonds has five cuts");
  for (const r of got) {
    const w = want.get(r.cut);
    assert.deepEqual({ n: r.n, sum: r.sum, min: r.min, max: r.max }, { n: String(w.n), sum: String(w.sum), min: w.min, max: w.max }, r.cut);
  }
  conn.query(`DROP TABLE ${tname}`);
});

test("nulls.cols (4 row groups): null counts per column and a GROUP BY over a nullable string agree", () => {
  const file = open(corpusFile("valid/nulls").bytes);
  const table = toArrowTable(file);
  assert.equal(table.batches.length, 4);
  const tname = load(table);
  file.schema.forEach((sc, c) => {
    const values = file.rowGroups.flatMap((_, g) => file.readColumn(g, c).toArray());
    const nulls = values.filter((v) => v === null).length;
    const got = rows(`SELECT (count(*) - count(${q(sc.name)}))::VARCHAR AS nulls FROM ${tname}`)[0].nulls;
    assert.equal(got, String(nulls), `${sc.name}: nulls`);
  });
  // The Utf8 column, grouped: DuckDB's groups (NULL included) are the values' own.
  const strings = file.rowGroups.flatMap((_, g) => file.readColumn(g, 1).toArray());
  const want = new Map();
  for (const s of strings) want.set(s, (want.get(s) ?? 0) + 1);
  const got = rows(`SELECT ${q(file.schema[1].name)} AS k, count(*)::VARCHAR AS n FROM ${tname} GROUP BY 1`);
  assert.equal(got.length, want.size);
  for (const r of got) assert.equal(r.n, String(want.get(r.k)), `group ${r.k}`);
  conn.query(`DROP TABLE ${tname}`);
});

test("duplicate names (i, i, f, s, s, i_1) arrive as the Table names them, and DuckDB agrees on each column", () => {
  const { bytes } = duplicateNamesFile();
  const file = api.ColumnsFile.fromBytes(bytes);
  const tname = load(toArrowTable(file));
  assert.deepEqual(rows(`DESCRIBE ${tname}`).map((r) => r.column_name), ["i", "i_2", "f", "s", "s_1", "i_1"]);
  const [i, i2, , s, s1, i1] = file.schema.map((_, c) => file.rowGroups.flatMap((_, g) => file.readColumn(g, c).toArray()));
  const got = rows(`SELECT sum(i)::VARCHAR AS a, sum(i_2)::VARCHAR AS b, count(DISTINCT s)::VARCHAR AS c, max(s_1) AS d, sum(i_1)::VARCHAR AS e FROM ${tname}`)[0];
  const sum = (xs) => String(xs.reduce((a, b) => a + BigInt(b), 0n));
  // max over strings: DuckDB compares bytes, as a byte-wise sort of UTF-8 does.
  const present = s1.filter((x) => x !== null);
  const maxBytes = present.reduce((a, b) => (Buffer.compare(Buffer.from(b), Buffer.from(a)) > 0 ? b : a));
  assert.deepEqual(got, { a: sum(i), b: sum(i2), c: String(new Set(s.filter((x) => x !== null)).size), d: maxBytes, e: sum(i1) });
  conn.query(`DROP TABLE ${tname}`);
});

test("names that differ only in case (id, ID, Id_1, a, A): the Table's names are the ones DuckDB keeps, and each reads its own column", () => {
  const names = ["id", "ID", "Id_1", "a", "A"];
  const schema = names.map((name) => ({ name, type: "int32", nullable: false }));
  const file = api.ColumnsFile.fromBytes(materialize(buildFile(schema, [{ columns: names.map((_, c) => [c * 10 + 1, c * 10 + 2]) }])));
  const table = toArrowTable(file);
  const fields = table.schema.fields.map((f) => f.name);
  const tname = load(table);
  // Were two names the same to DuckDB, it would rename one, and SQL written
  // with the Table's names would read another column.
  assert.deepEqual(rows(`DESCRIBE ${tname}`).map((r) => r.column_name), fields);
  fields.forEach((name, c) => {
    assert.deepEqual(rows(`SELECT sum(${q(name)})::VARCHAR AS s FROM ${tname}`)[0].s, String(c * 20 + 3), name);
  });
  conn.query(`DROP TABLE ${tname}`);
});

test("strings with invalid UTF-8: DuckDB refuses some as Utf8 and stores others unchecked; \"auto\" and \"binary\" load the exact bytes", () => {
  const hex = (b) => Buffer.from(b).toString("hex").toUpperCase();
  const invalid = (file, c) => file.rowGroups.flatMap((_, g) => binaryValues(file.readColumn(g, c))).filter((b) => b !== null && !isUtf8(b));

  // tokenized_optimized's text column: refused at insert.
  const tok = open(corpusFile("valid/tokenized_optimized").bytes);
  const t = tok.schema.findIndex((sc) => sc.name === "text_gpt2");
  assert.ok(t >= 0 && invalid(tok, t).length > 0, "text_gpt2 holds invalid UTF-8");
  assert.throws(() => load(toArrowTable(tok, { columns: [t] })), /Invalid unicode/);

  // enc_plain_none's edge_string: accepted as VARCHAR with its bytes unchecked,
  // so the problem would surface later, in whatever string function meets them.
  const plain = open(corpusFile("valid/enc_plain_none").bytes);
  const e = plain.schema.findIndex((sc) => sc.name === "edge_string");
  const bad = invalid(plain, e);
  assert.ok(bad.length > 0, "edge_string holds invalid UTF-8");
  const accepted = load(toArrowTable(plain, { columns: [e] }));
  const stored = rows(`SELECT hex(edge_string) AS h FROM ${accepted}`).map((r) => r.h);
  for (const b of bad) assert.ok(stored.includes(hex(b)), `VARCHAR holds ${hex(b)}`);
  conn.query(`DROP TABLE ${accepted}`);

  // "auto" makes both BLOB (what "binary" does for every string column): exact bytes, every row.
  for (const [file, c] of [[tok, t], [plain, e]]) {
    for (const strings of ["auto", "binary"]) {
      const table = toArrowTable(file, { columns: [c], strings });
      assert.equal(String(table.schema.fields[0].type), "Binary");
      const tname = load(table);
      const name = q(table.schema.fields[0].name);
      const want = file.rowGroups.flatMap((_, g) => binaryValues(file.readColumn(g, c))).map((b) => (b === null ? null : hex(b)));
      const got = rows(`SELECT hex(${name}) AS h FROM ${tname}`).map((r) => r.h);
      // hex(NULL) is NULL; the rows come back in insertion order for a plain scan.
      assert.deepEqual(got, want);
      conn.query(`DROP TABLE ${tname}`);
    }
  }
});

function isUtf8(bytes) {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
