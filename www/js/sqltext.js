// Reading the text of what is typed in the SQL tab, outside its string
// literals, quoted names and comments: where one statement ends and the
// next begins (so that a script's statements run one by one, the last
// one's result shown), and whether a statement may have changed table t
// (so that "Open as SQL" loads t from the file again before it shows the
// Data tab's rows: else a DELETE run before would quietly drop some).
//
// DuckDB-Wasm says neither (given a script, it shows the result of one of
// its statements, not always the last), so this reads the words. Erring
// on the side of "may have changed" costs one load of t; a miss would
// show other rows.

// INSERT, UPDATE, DELETE, MERGE: rows. CREATE (OR REPLACE), DROP, ALTER,
// TRUNCATE: tables, and a temporary t hiding the loaded one. COPY, IMPORT,
// ATTACH, DETACH, USE: tables from elsewhere, or another t by its name.
const CHANGES = /\b(?:insert|update|delete|merge|create|drop|alter|truncate|copy|import|attach|detach|use)\b/i;

// '…' ('' inside), E'…' (\' inside), "…" ("" inside), $tag$…$tag$, -- to
// the line's end, /* … */; each may be cut off by the end of the text.
const QUOTED = String.raw`[eE]'(?:[^'\\]|\\[\s\S]|'')*(?:'|$)|'(?:[^']|'')*(?:'|$)|"(?:[^"]|"")*(?:"|$)|\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)`;

/** `sql` with its string literals, quoted names and comments blanked out. */
function words(sql) {
  return sql.replace(new RegExp(QUOTED, "g"), " ");
}

/** The statements of `sql` (split at each ; outside quotes and comments),
 *  each as typed, trimmed; none that holds no word. */
export function statementsOf(sql) {
  return statementSpans(sql).map((s) => s.text);
}

/** statementsOf's statements as { text, line }: `line` the line of `sql`
 *  (from 1) where the statement starts, to name it by the editor's line. */
export function statementSpans(sql) {
  const text = String(sql);
  const out = [];
  let from = 0;
  const cut = (to) => {
    const part = text.slice(from, to);
    const s = part.trim();
    if (!words(s).trim()) return;
    const at = from + part.length - part.trimStart().length;
    out.push({ text: s, line: 1 + (text.slice(0, at).match(/\n/g)?.length ?? 0) });
  };
  for (const m of text.matchAll(new RegExp(`${QUOTED}|;`, "g"))) {
    if (m[0] !== ";") continue;
    cut(m.index);
    from = m.index + 1;
  }
  cut(text.length);
  return out;
}

/** Whether running `sql` may have changed what table t holds. */
export function mayChangeTable(sql) {
  return CHANGES.test(words(String(sql)));
}

// What a statement that only reads starts with (its first word outside
// comments). PRAGMA only with the names that read, not those that set.
const READS = /^(?:select|with|values|from|describe|show|summarize|explain)\b|^pragma\s+(?:table_info|show_tables|show_tables_expanded|show|database_list|database_size|storage_info|version|platform|functions|collations|user_agent|metadata_info)\b/i;

/**
 * Whether every statement of `sql` only reads (a conservative check: each
 * starts with SELECT, WITH, VALUES, FROM, DESCRIBE, SHOW, SUMMARIZE,
 * EXPLAIN or a reading PRAGMA, and none has a word that changes tables):
 * such a statement may run by itself when a link opens; any other waits
 * for the person to press Run.
 */
export function readsOnly(sql) {
  const list = statementsOf(sql);
  return list.length > 0 && list.every((s) => READS.test(words(s).trim())) && !mayChangeTable(sql);
}

/** Whether `sql` (one statement) is an INSTALL (FORCE INSTALL too), which DuckDB answers with no error and no extension here. */
export function installs(sql) {
  return /^(?:force\s+)?install\b/i.test(words(String(sql)).trim());
}
