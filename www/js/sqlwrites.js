// Whether a statement run in the SQL tab may have changed table t, so that
// "Open as SQL" loads t from the file again before it shows the Data tab's
// rows (else a DELETE run before would quietly drop some of them).
//
// DuckDB-Wasm does not say what a statement did, so this reads its words:
// outside string literals, quoted names and comments, any word of a
// statement that changes tables (or which table t names). Erring on the
// side of yes costs one load of t; a miss would show other rows.

// INSERT, UPDATE, DELETE, MERGE: rows. CREATE (OR REPLACE), DROP, ALTER,
// TRUNCATE: tables, and a temporary t hiding the loaded one. COPY, IMPORT,
// ATTACH, DETACH, USE: tables from elsewhere, or another t by its name.
const CHANGES = /\b(?:insert|update|delete|merge|create|drop|alter|truncate|copy|import|attach|detach|use)\b/i;

/** `sql` with its string literals, quoted names and comments blanked out. */
function words(sql) {
  // '…' ('' inside), E'…' (\' inside), "…" ("" inside), $tag$…$tag$, -- to the line's end, /* … */.
  return sql.replace(/[eE]'(?:[^'\\]|\\[\s\S]|'')*(?:'|$)|'(?:[^']|'')*(?:'|$)|"(?:[^"]|"")*(?:"|$)|\$([A-Za-z_]\w*)?\$[\s\S]*?(?:\$\1\$|$)|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g, " ");
}

/** Whether running `sql` may have changed what table t holds. */
export function mayChangeTable(sql) {
  return CHANGES.test(words(String(sql)));
}
