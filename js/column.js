// The JavaScript side of a decoded column. Rust fills it with JS-owned
// typed arrays (one bulk copy per buffer); everything here is plain JS so a
// column outlives the wasm instance and needs no free().

const utf8 = new TextDecoder("utf-8", { fatal: false });

export class Column {
  constructor(type, length, nullCount, values, validity) {
    /** Column type name: "int64", "string", ... */
    this.type = type;
    /** Number of rows. */
    this.length = length;
    /** Number of null rows. */
    this.nullCount = nullCount;
    /** Typed array, or { offsets, data } for string and bytes. */
    this.values = values;
    /** null when there are no nulls; else bit i (LSB first) set = row i valid. */
    this.validity = validity;
    /** Milliseconds spent per stage of this read, when measured. */
    this.timings = null;
  }

  /** Whether row i holds a value (not null). */
  isValid(i) {
    const v = this.validity;
    return v === null ? i < this.length : ((v[i >> 3] >> (i & 7)) & 1) === 1;
  }

  /** Plain JS values: numbers, bigints, booleans, strings (UTF-8 with
   *  replacement), Uint8Array for bytes, null for nulls. */
  toArray() {
    const n = this.length;
    const out = new Array(n);
    const v = this.values;
    const valid = this.validity === null ? null : (i) => this.isValid(i);
    if (this.type === "string" || this.type === "bytes") {
      const { offsets, data } = v;
      const text = this.type === "string";
      for (let i = 0; i < n; i++) {
        if (valid && !valid(i)) { out[i] = null; continue; }
        const s = data.subarray(offsets[i], offsets[i + 1]);
        out[i] = text ? utf8.decode(s) : s.slice();
      }
    } else if (this.type === "bool") {
      for (let i = 0; i < n; i++) out[i] = valid && !valid(i) ? null : v[i] === 1;
    } else {
      for (let i = 0; i < n; i++) out[i] = valid && !valid(i) ? null : v[i];
    }
    return out;
  }
}

/** Every failure the package reports: `kind` names the error class (see
 *  the README), `rowGroup`, `column` and `offset` say where, when known. */
export class ColumnsError extends Error {
  constructor(message, kind, rowGroup, column, offset) {
    super(message);
    this.name = "ColumnsError";
    this.kind = kind;
    this.rowGroup = rowGroup;
    this.column = column;
    this.offset = offset;
  }

  /** A plain object, so the error survives postMessage and JSON. */
  toJSON() {
    const { name, message, kind, rowGroup, column, offset } = this;
    return { name, message, kind, rowGroup, column, offset };
  }
}
