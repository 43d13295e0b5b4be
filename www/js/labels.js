// Column names may repeat (comparison.cols has i, i, f, s, s). Wherever a
// name is not unique the page adds the column's index: "i #0", "i #1".
// The same labels name the columns in exports, Arrow and SQL.

/** One unique label per column. */
export function columnLabels(schema) {
  const count = new Map();
  for (const col of schema) count.set(col.name, (count.get(col.name) || 0) + 1);
  const used = new Set();
  return schema.map((col, c) => {
    let label = count.get(col.name) > 1 ? `${col.name} #${c}` : col.name;
    while (used.has(label)) label += "#";
    used.add(label);
    return label;
  });
}

/** Whether column c's name appears more than once. */
export const nameRepeats = (schema, c) => schema.some((o, i) => i !== c && o.name === schema[c].name);

/** A name for a menu's option text, where CSS cannot isolate a part: between
 *  U+2068 and U+2069, so a direction control inside it (an override) ends
 *  with it instead of reversing the option's own words after it. */
export const isolated = (name) => `\u2068${name}\u2069`;
