// The SQL tab's recent statements: newest first, each once (run again, it
// moves to the front), kept for the browser tab's life in sessionStorage
// (a reload keeps them; nothing is written anywhere else). Statements can
// hold values from the file, so they are not kept past the tab.
//   createStatements(storage) -> { list(), add(text), clear(), step(current, by) }

/** Statements kept. */
export const KEPT = 50;
/** A statement longer than this (characters) is run but not kept, nor put in a link. */
export const LONGEST = 8192;
const KEY = "columns-inspector.sql-statements";

/** `storage`: a Storage, or null (or one that throws: disabled, full) to keep them in memory only. */
export function createStatements(storage) {
  let items = [];
  try {
    const saved = JSON.parse(storage?.getItem(KEY) ?? "[]");
    // (written by this page, but a tab's storage is anyone's to edit: checked)
    if (Array.isArray(saved)) items = saved.filter((s) => typeof s === "string" && s.length > 0 && s.length <= LONGEST).slice(0, KEPT);
  } catch {
    items = [];
  }
  // Where Alt+Up/Down stand: -1 on the text being written (`draft`), else
  // on items[at]; any other edit starts again from the draft.
  let at = -1;
  let draft = "";

  const save = () => {
    try {
      storage?.setItem(KEY, JSON.stringify(items));
    } catch {
      // kept in memory only
    }
  };

  return {
    list: () => items.slice(),
    /** A statement run: first in the list. */
    add(text) {
      at = -1;
      if (!text || text.length > LONGEST) return;
      items = [text, ...items.filter((s) => s !== text)].slice(0, KEPT);
      save();
    },
    /** Forgets them all (the tab's storage too). */
    clear() {
      items = [];
      at = -1;
      try {
        storage?.removeItem(KEY);
      } catch {
        // kept in memory only
      }
    },
    /**
     * The statement `by` steps older (+1) or newer (-1) than the one shown,
     * from `current` (the editor's text): null at either end. Edited since
     * the last step, `current` is the draft the newest end returns to.
     */
    step(current, by) {
      if (at < 0 || items[at] !== current) {
        at = -1;
        draft = current;
      }
      let next = at + by;
      // (the statement already in the editor is passed over: just run, it is the newest)
      while (next >= 0 && next < items.length && items[next] === current) next += by;
      if (next < -1 || next >= items.length) return null;
      at = next;
      return at < 0 ? draft : items[at];
    },
  };
}
