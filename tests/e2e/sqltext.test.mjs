// www/js/sqltext.js without a browser: where a script's statements end,
// and which statements may change table t (so that "Open as SQL" loads it
// again) and which only read it. Quoted text, quoted names and comments
// are not words of the statement, and their semicolons end nothing.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mayChangeTable, readsOnly, statementsOf } from "../../www/js/sqltext.js";

test("statements that change tables, or which table t names, in any case and place", () => {
  for (const sql of [
    "DELETE FROM t WHERE x < 0",
    "update t set x = 1",
    "INSERT INTO t SELECT * FROM t",
    "insert or replace into t values (1)",
    "DROP TABLE t",
    "CREATE OR REPLACE TABLE t AS SELECT 1",
    "create temp table t as select 1",
    "CREATE VIEW t AS SELECT 1",
    "ALTER TABLE t DROP COLUMN x",
    "TRUNCATE t",
    "SELECT 1; DELETE FROM t",
    "WITH d AS (SELECT 1) DELETE FROM t",
    "MERGE INTO t USING s ON t.x = s.x WHEN MATCHED THEN DELETE",
    "ATTACH ':memory:' AS other",
    "USE other",
    "COPY t FROM 'x.csv'",
    "PREPARE p AS DELETE FROM t",
    "-- a comment\nDelete From \"t\"",
    "SELECT 'it''s' AS a; DELETE FROM t",
    "SELECT \"a\"\"b\" FROM t; drop table t",
  ]) assert.equal(mayChangeTable(sql), true, sql);
});

test("statements that only read: the words above inside strings, quoted names, comments, or parts of other words", () => {
  for (const sql of [
    "SELECT * FROM t LIMIT 100",
    "SELECT 'DELETE FROM t' AS s",
    "SELECT \"update\", \"drop\" FROM t",
    "SELECT count(*) FROM t -- delete later",
    "SELECT /* drop table t */ 1",
    "SELECT * REPLACE (x + 1 AS x) FROM t",
    "SELECT replace(s, 'a', 'b'), created_at, updated, used, deleted_flag FROM t",
    "SELECT E'it\\'s DELETE' AS s",
    "SELECT $$ drop table t $$ AS s, $q$ update $q$ AS u",
    "SUMMARIZE t",
    "SELECT * FROM t ORDER BY rowid",
  ]) assert.equal(mayChangeTable(sql), false, sql);
});

test("an unclosed string, name or comment hides the rest (DuckDB would refuse it anyway)", () => {
  assert.equal(mayChangeTable("SELECT 'a; DELETE FROM t"), false);
  assert.equal(mayChangeTable("SELECT /* a; DELETE FROM t"), false);
  assert.equal(mayChangeTable("DELETE FROM t WHERE s = 'unclosed"), true);
});

test("a script's statements: split at each ; outside quotes and comments, each trimmed; empty ones and comments alone dropped", () => {
  assert.deepEqual(statementsOf("SELECT 1 AS a; SELECT 2 AS b"), ["SELECT 1 AS a", "SELECT 2 AS b"]);
  assert.deepEqual(statementsOf("SELECT 1;"), ["SELECT 1"]);
  assert.deepEqual(statementsOf(" ;; SELECT 1 ; ; -- the end;\n"), ["SELECT 1"]);
  assert.deepEqual(statementsOf("SELECT 'a;b', \"c;d\", $$e;f$$, E'g\\';h' /* i; */ -- j;\nFROM t; SELECT 2"), ["SELECT 'a;b', \"c;d\", $$e;f$$, E'g\\';h' /* i; */ -- j;\nFROM t", "SELECT 2"]);
  assert.deepEqual(statementsOf("-- only a comment"), []);
  assert.deepEqual(statementsOf("SELECT 'unclosed; DELETE FROM t"), ["SELECT 'unclosed; DELETE FROM t"]);
});

test("statements that only read, which a link may run by itself: queries, DESCRIBE, SHOW, SUMMARIZE, EXPLAIN, reading PRAGMAs; comments first", () => {
  for (const sql of ["SELECT 1", "  -- why\n/* a */ select * from t", "WITH a AS (SELECT 1) SELECT * FROM a", "VALUES (1)", "FROM t", "DESCRIBE t", "SHOW TABLES", "SUMMARIZE t", "EXPLAIN SELECT 1", "PRAGMA table_info('t')", "SELECT 1; SELECT 2", "(SELECT 1)".slice(1, -1)])
    assert.equal(readsOnly(sql), true, sql);
  for (const sql of ["DROP TABLE t", "INSERT INTO t VALUES (1)", "CREATE TABLE u AS SELECT 1", "SELECT 1; DELETE FROM t", "WITH d AS (SELECT 1) DELETE FROM t", "EXPLAIN ANALYZE DELETE FROM t", "SET threads = 1", "PRAGMA threads = 1", "INSTALL httpfs", "CALL dbgen(sf = 1)", "CHECKPOINT", "-- only a comment", ""])
    assert.equal(readsOnly(sql), false, sql);
});
