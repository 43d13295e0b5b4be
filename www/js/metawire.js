// The footer's row groups and the file's layout as the worker sends them to
// the page: field by field in typed arrays, not an object a chunk. A reply
// of 165,600 chunk objects (each with its two statistics' byte arrays) took
// the page's thread 617 ms to receive, and 100,000 took 262 ms; the same
// facts as a few dozen arrays are copied, and the page makes the objects
// again (unpackMeta), a fraction of that. Every field of the package's
// ChunkMeta and Region comes back as it was: numbers (or null) from a
// Float64Array, byte arrays from one buffer, anything else (strings,
// bigints) in a plain array.

const NUM = 0;
const BYTES = 1;
const ANY = 2;

/** `objects`' fields as columns: { keys, kinds, cols }. */
function packObjects(objects) {
  const keys = [];
  const seen = new Set();
  for (const o of objects.slice(0, 64)) for (const k of Object.keys(o)) if (!seen.has(k)) seen.add(k), keys.push(k);
  // (A field the first ones lack, in any later object: every key found.)
  for (const o of objects) for (const k in o) if (!seen.has(k)) seen.add(k), keys.push(k);
  const kinds = [];
  const cols = [];
  for (const k of keys) {
    let kind = NUM;
    for (const o of objects) {
      const v = o[k];
      if (v === null || v === undefined || typeof v === "number") continue;
      if (v instanceof Uint8Array && kind !== ANY) kind = BYTES;
      else {
        kind = ANY;
        break;
      }
    }
    // Bytes mixed with numbers, or null among bytes: kept as they are.
    if (kind === BYTES && objects.some((o) => !(o[k] instanceof Uint8Array))) kind = ANY;
    // (A field some objects lack, undefined in them: absent again.)
    if (kind === NUM) {
      // null as a NaN with a mark; undefined (absent) as its own mark.
      const values = new Float64Array(objects.length);
      const marks = new Uint8Array(objects.length);
      objects.forEach((o, i) => {
        const v = o[k];
        if (typeof v === "number") values[i] = v;
        else marks[i] = v === null ? 1 : 2;
      });
      cols.push({ values, marks });
    } else if (kind === BYTES) {
      const ends = new Float64Array(objects.length);
      let n = 0;
      objects.forEach((o, i) => (ends[i] = n += o[k].length));
      const bytes = new Uint8Array(n);
      let at = 0;
      for (const o of objects) bytes.set(o[k], at), (at += o[k].length);
      cols.push({ ends, bytes });
    } else cols.push({ values: objects.map((o) => o[k]) });
    kinds.push(kind);
  }
  return { keys, kinds, cols, length: objects.length };
}

/** The objects of packObjects(), made again. */
function unpackObjects({ keys, kinds, cols, length }) {
  // Each field's values first (absent: undefined), then the objects.
  let absent = false;
  const values = keys.map((k, j) => {
    const col = cols[j];
    if (kinds[j] === ANY) {
      absent ||= col.values.includes(undefined);
      return col.values;
    }
    const out = new Array(length);
    if (kinds[j] === NUM) {
      const { values: v, marks } = col;
      for (let i = 0; i < length; i++) out[i] = marks[i] === 0 ? v[i] : marks[i] === 1 ? null : ((absent = true), undefined);
    } else {
      // Each a copy of its own, as the package gives them (a view of one
      // buffer would send the whole buffer along wherever one goes).
      const { ends, bytes } = col;
      for (let i = 0; i < length; i++) out[i] = bytes.slice(i ? ends[i - 1] : 0, ends[i]);
    }
    return out;
  });
  const make = absent ? null : maker(keys);
  const out = new Array(length);
  if (make) for (let i = 0; i < length; i++) out[i] = make(values, i);
  else
    for (let i = 0; i < length; i++) {
      const o = {};
      keys.forEach((k, j) => values[j][i] !== undefined && (o[k] = values[j][i]));
      out[i] = o;
    }
  return out;
}

/** A function making one object of `keys` from the fields' values (v[j][i]),
 *  as a literal: ten times quicker than setting each key by name (100,000
 *  chunks of 18 fields took 118 ms so). Null where code cannot be made here
 *  (a page whose Content-Security-Policy forbids it): keys by name then. */
function maker(keys) {
  try {
    return new Function("v", "i", `return { ${keys.map((k, j) => `${JSON.stringify(k)}: v[${j}][i]`).join(", ")} };`);
  } catch {
    return null;
  }
}

/** The row groups and layout of the open reply, packed: { rowGroups, chunks, layout }. */
export function packMeta(rowGroups, layout) {
  return {
    rowGroups: packObjects(rowGroups.map(({ columns, ...rg }) => ({ ...rg, columnCount: columns.length }))),
    chunks: packObjects(rowGroups.flatMap((rg) => rg.columns)),
    layout: packObjects(layout),
  };
}

/** packMeta's { rowGroups, chunks, layout } as the package gives them. */
export function unpackMeta(packed) {
  const chunks = unpackObjects(packed.chunks);
  let at = 0;
  const rowGroups = unpackObjects(packed.rowGroups).map(({ columnCount, ...rg }) => ({ ...rg, columns: chunks.slice(at, (at += columnCount)) }));
  return { rowGroups, layout: unpackObjects(packed.layout) };
}
