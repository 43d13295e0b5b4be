// Comment-only lines out of shipped JavaScript (used by tools/package.mjs).

/** `src` without whole-line // comments and without /* ... *\/ comments that
 *  start a line; code on the same line as a comment stays. Inside a
 *  multi-line template literal a line could look like a comment, so a line
 *  with an odd number of backticks stops it with an error instead.
 *  tools/package.mjs parse-checks the result. */
export function stripComments(src) {
  const out = [];
  let inBlock = false;
  for (let line of src.split("\n")) {
    if ((line.split("`").length - 1) % 2 === 1) throw new Error(`cannot strip comments safely around a multi-line template literal: ${line.trim()}`);
    if (inBlock) {
      const end = line.indexOf("*/");
      if (end < 0) continue;
      inBlock = false;
      line = line.slice(end + 2); // code after the comment stays
    }
    const t = line.trim();
    if (t.startsWith("/*") && !t.includes("@ts-self-types")) {
      const end = t.indexOf("*/", 2);
      if (end < 0) {
        inBlock = true;
        continue;
      }
      if (end === t.length - 2) continue; // the whole line is the comment
    }
    if (t.startsWith("//") || t === "") continue;
    out.push(line);
  }
  return out.join("\n") + "\n";
}
