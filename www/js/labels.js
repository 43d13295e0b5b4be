// Column names may repeat (comparison.cols has i, i, f, s, s). Wherever a
// name is not unique the page adds the column's index: "i #0", "i #1".
// The same labels name the columns in exports, Arrow and SQL, and DuckDB
// (table t) tells names apart without regard to ASCII case: x and X are
// one name there, so they repeat here too ("x #0", "X #1").

/** A name as DuckDB compares names: ASCII letters in one case (no other letters folded). */
const nameKey = (name) => name.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** One unique label per column (case aside). A name no other column has
 *  is its column's label, always, and no label of a repeated name is a
 *  name any column has (names a, a, "a #1" give "a #0", "a #1#", "a #1"),
 *  so a label that is a column's name always means that column. */
export function columnLabels(schema) {
  const keys = schema.map((col) => nameKey(col.name));
  const count = new Map();
  for (const k of keys) count.set(k, (count.get(k) || 0) + 1);
  const used = new Set(keys);
  return schema.map((col, c) => {
    if (count.get(keys[c]) === 1) return col.name;
    let label = `${col.name} #${c}`;
    while (used.has(nameKey(label))) label += "#";
    used.add(nameKey(label));
    return label;
  });
}

/** A name for a menu's option text, where CSS cannot isolate a part: between
 *  U+2068 and U+2069, so a direction control inside it (an override) ends
 *  with it instead of reversing the option's own words after it. */
export const isolated = (name) => `\u2068${name}\u2069`;

/** A name inside a sentence, cut after `max` UTF-16 units with an ellipsis:
 *  a name can be any length (200,000 characters have been seen), and a
 *  notice or a heading is not the place to show it all; the Schema holds
 *  every name whole. The cut never splits a surrogate pair. */
export function brief(name, max = 200) {
  if (name.length <= max) return name;
  const end = name.charCodeAt(max - 1) >= 0xd800 && name.charCodeAt(max - 1) < 0xdc00 ? max - 1 : max;
  return `${name.slice(0, end)}…`;
}

/** A column's label as an SQL identifier (table t's columns are named by their labels). */
export const quoteName = (name) => `"${name.replaceAll('"', '""')}"`;

/** Whether a column's name holds a filter's text, case aside (the Schema's
 *  filter, the column picker and the chunk table's filter all ask this). */
export const nameHas = (name, text) => text === "" || name.toLowerCase().includes(text.toLowerCase());
