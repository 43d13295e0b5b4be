// Columns lent, not copied: views of decoded values that stay in the
// module's memory, valid while one callback (readRowGroupScoped) or one
// loop iteration (rowGroupsAsync with { scoped: true }) runs, because the
// reader decodes the next row group into the same buffers.
//
// Using a lent column after its scope has ended fails loudly: its getters
// throw a `released` ColumnsError, and every view made of the module's
// memory is detached when a scope ends (WebAssembly.Memory grow(0) gives
// the memory a new ArrayBuffer and detaches the old one, per the JS API),
// so a typed array kept from inside the scope has length 0 and its methods
// throw, instead of showing the next row group's values. The package's own
// cached views of the memory (wasm-bindgen's) check for detachment and are
// remade. Memory growth detaches views too, so a column remakes its views
// when it finds them detached while its scope is still open.

import { Column, ColumnsError, columnFromViews, lent, mine, notMine, placeOf, views } from "./column.js";

const RELEASED = "this column was lent by a scoped read whose callback (or loop step) has ended: copy what you keep inside it (column.copy())";

const released = () => new ColumnsError(RELEASED, "released");
// A lent column's plain fields, once its scope ends.
const GONE = { get: () => { throw released(); } };
const FIELDS_GONE = { type: GONE, length: GONE, nullCount: GONE, boolBits: GONE, timings: GONE };

/** One callback's (or loop iteration's) loan of the module's memory. */
export class Scope {
  constructor(memory) {
    this.memory = memory;
    this.live = true;
    this.columns = [];
  }

  /** Ends the loan: its columns refuse access from now on, and every view
   *  of the module's memory made so far is detached. */
  end() {
    if (!this.live) return;
    this.live = false;
    for (const c of this.columns) Object.defineProperties(c, FIELDS_GONE);
    this.memory.grow(0);
  }
}

/** Entries per column in a description from Rust (src/wasm/scoped.rs):
 *  type, length, nullCount, then pointer and length of values, offsets and
 *  validity, then its index. The description starts with the row count. */
const FIELDS = 10;

/** The lent columns a description of row group `g` names, in the order asked for. */
export function scopedColumns(scope, desc, g) {
  const out = [];
  for (let k = 1; k + FIELDS <= desc.length; k += FIELDS) out.push(new ScopedColumn(scope, desc.slice(k, k + FIELDS), g));
  return out;
}

/** A decoded column chunk lent for one scope: the same fields and methods
 *  as a Column, over the module's memory. */
export class ScopedColumn {
  #scope;
  #at;
  #buffer = null;
  #values = null;
  #validity = null;

  constructor(scope, desc, g) {
    // (Lent by the package's reads only: one made here would lend nothing.)
    if (!(scope instanceof Scope)) throw notMine("ScopedColumn", ", not by new ScopedColumn()");
    lent.add(this);
    this.#scope = scope;
    /** Column type name: "int64", "string", ... */
    this.type = desc[0];
    /** Number of rows. */
    this.length = desc[1];
    /** Number of null rows. */
    this.nullCount = desc[2];
    this.#at = desc.slice(3, 9);
    placeOf.set(this, [g, desc[9]]);
    /** Bools are one byte per row in a lent column. */
    this.boolBits = false;
    this.timings = null;
    scope.columns.push(this);
  }

  /** Whether its scope has ended (every other access then throws). */
  get released() {
    mine(this, isLent, "ScopedColumn");
    return !this.#scope.live;
  }

  /** Typed array, or { offsets, data } for string and bytes: views of the
   *  module's memory, valid until the scope ends. */
  get values() {
    ScopedColumn.#check(this);
    return this.#values;
  }

  /** null when there are no nulls; else bit i (LSB first) set = row i valid. */
  get validity() {
    ScopedColumn.#check(this);
    return this.#validity;
  }

  /** A Column with copies of the values, in JavaScript memory: it outlives the scope. */
  copy() {
    ScopedColumn.#check(this);
    return columnFromViews(this.type, this.length, this.nullCount, this.#values, this.#validity, null, placeOf.get(this));
  }

  // (Static: called on another object, a private method would throw a
  // TypeError before it could say what is wrong.)
  static #check(c) {
    mine(c, isLent, "ScopedColumn");
    if (!c.#scope.live) throw released();
    // Views are made on first use, and remade when memory growth detached them.
    if (c.#buffer === null || c.#buffer.byteLength === 0) c.#view();
  }

  #view() {
    const buffer = this.#scope.memory.buffer;
    [this.#values, this.#validity] = views(buffer, this.type, this.nullCount, this.#at);
    this.#buffer = buffer;
  }
}
const isLent = (x) => lent.has(x);

// The same methods as a Column (they read the fields through the getters above).
for (const name of ["isValid", "toArray", "boolBitmap"]) ScopedColumn.prototype[name] = Column.prototype[name];

const DONE = Object.freeze({ value: undefined, done: true });
const ignore = () => {};

// A stream dropped unfinished (no `break`, no return(): `await
// stream.next()` to peek at the first row group) would leave its reading
// waiting forever for an answer, its buffers held in wasm memory. So the
// reading reaches the stream only while a step is asked for, and once a
// dropped stream is collected, its reading is told to stop and its lent
// columns are released.
const dropped = new FinalizationRegistry((held) => {
  held.scope?.end();
  held.ack?.(false);
});

/**
 * The async iterator `rowGroupsAsync` returns. `start(deliver)` starts the
 * reading (src/wasm/scoped.rs), which calls `deliver(rowGroup, numRows,
 * columns)` with each row group and waits for the promise it returns: true
 * when the next is asked for, false when the loop ended early. The reading
 * ends (and its buffers go) when every row group was delivered, on an
 * error, or on `return()` (a `break` out of `for await`).
 */
export class RowGroupStream {
  #start;
  #scoped;
  #memory;
  #driver = null;
  #pending = null;
  // What the reading may reach (see `dropped`): the stream only while a
  // step is asked for, the answer it waits for, the lent columns' scope.
  #held = { stream: null, ack: null, scope: null };
  #done = false;
  #queue = Promise.resolve();

  #check;

  /** `check()` throws when the file was freed since: the next step then
   *  ends the stream and rejects with that. */
  constructor(start, scoped, memory, check = () => {}) {
    this.#start = start;
    this.#scoped = scoped;
    this.#memory = memory;
    this.#check = check;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** The next row group: `{ rowGroup, numRows, columns }`. */
  next() {
    return this.#serial(() => this.#next());
  }

  /** Stops reading (what `break` calls): nothing more is fetched, and the
   *  stream's memory is released when the promise resolves. */
  return(value) {
    return this.#serial(() => this.#return(value));
  }

  // Calls run one after the other, as the iterator protocol queues them.
  #serial(f) {
    const p = this.#queue.then(f);
    this.#queue = p.then(ignore, ignore);
    return p;
  }

  async #next() {
    if (this.#done) return DONE;
    if (this.#driver !== null) {
      try {
        this.#check();
      } catch (e) {
        await this.#return();
        throw e;
      }
    }
    this.#release();
    const batch = new Promise((resolve, reject) => (this.#pending = { resolve, reject }));
    const held = this.#held;
    held.stream = this;
    if (this.#driver === null) {
      try {
        this.#driver = this.#start(RowGroupStream.#deliverer(held));
      } catch (e) {
        this.#done = true;
        this.#pending = null;
        throw e;
      }
      dropped.register(this, held);
      RowGroupStream.#watch(this.#driver, held);
    } else {
      this.#go(true);
    }
    return batch;
  }

  // The reading's callbacks, made where `held` is all they can reach (a
  // closure made inside a method shares its scope with the method's other
  // closures, `this` included).
  static #deliverer(held) {
    return (g, rows, columns) => held.stream?.#deliver(g, rows, columns) ?? false;
  }

  static #watch(driver, held) {
    driver.then(
      () => held.stream?.#finish(null),
      (e) => held.stream?.#finish(e),
    );
  }

  #deliver(rowGroup, numRows, columns) {
    const held = this.#held;
    if (this.#scoped) columns = scopedColumns((held.scope = new Scope(this.#memory)), columns, rowGroup);
    held.stream = null;
    const p = this.#pending;
    this.#pending = null;
    p?.resolve({ value: { rowGroup, numRows, columns }, done: false });
    return new Promise((resolve) => (held.ack = resolve));
  }

  #go(on) {
    const ack = this.#held.ack;
    this.#held.ack = null;
    ack?.(on);
  }

  // (And lets go of the stream: `held` is what `dropped` keeps of it, so
  // a stream that ended, left there, kept itself and its file for good.)
  #release() {
    this.#held.scope?.end();
    this.#held.scope = this.#held.stream = null;
  }

  #finish(error) {
    this.#done = true;
    this.#release();
    const p = this.#pending;
    this.#pending = null;
    if (p) error === null ? p.resolve(DONE) : p.reject(error);
  }

  async #return(value) {
    if (!this.#done) {
      this.#done = true;
      this.#release();
      if (this.#driver !== null) {
        this.#go(false);
        await this.#driver.catch(ignore);
      }
    }
    return { value, done: true };
  }
}
