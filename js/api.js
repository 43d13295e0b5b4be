// The public API every entry point exports (browser, Node, pool worker):
// wasm-bindgen's generated classes, plus what generated code cannot say by
// itself: that a call came before the module was initialised, that an
// object was already freed, and what `fromBytes` was given when it is not
// bytes. Each failure is a ColumnsError with a kind.
//
// "columns-wasm-glue" is wasm-bindgen's web-target output; tools/package.mjs
// bundles it in (it is not a runtime dependency).
import * as glue from "columns-wasm-glue";
import { Column, ColumnsError, boolBitsOf, columnFromParts, describe, flag, handBack, known, option, reused, settle } from "./column.js";
import { RowGroupStream, Scope, ScopedColumn, scopedColumns } from "./scoped.js";

export { Column, ColumnsError, ScopedColumn };

const state = { ready: false, module: null };

/** @internal Called by an entry point once the instance exists. */
export function initialised(module) {
  state.ready = true;
  state.module = module;
}

/** @internal Whether the module is instantiated on this thread. */
export function isReady() {
  return state.ready;
}

/** The compiled WebAssembly.Module (the pool sends it to its workers). */
function compiledModule() {
  return state.module;
}

function ensureReady(what) {
  if (!state.ready) {
    throw new ColumnsError(
      `${what} was called before the WebAssembly module was initialised: \`await init()\` first (Node needs none)`,
      "not_initialized",
    );
  }
}

/** Wraps `fn` so that it first checks `check(this)` and the names in its
 *  options (`known`, by `OPTIONS[key]`); async methods reject instead of
 *  throwing. While it runs, `this` is in `running`. */
function guarded(fn, check, key, name) {
  const [at, keys] = OPTIONS[key] ?? [];
  return function (...args) {
    try {
      check(this);
      if (keys) known(args[at], name, keys);
    } catch (e) {
      if (ASYNC.test(key)) return Promise.reject(e);
      throw e;
    }
    // (A static, or a detached call: no object to free.)
    if (typeof this !== "object" || this === null) return fn.apply(this, args);
    const outer = running.has(this);
    running.add(this);
    try {
      return fn.apply(this, args);
    } finally {
      if (!outer) running.delete(this);
    }
  };
}

// Objects a call is running on (its synchronous part): free() from a
// getter or callback that call reached would pull the object from under it.
const running = new WeakSet();

// Methods that return a promise: their misuse rejects, as their other errors do.
const ASYNC = /Async|^loadChunkHeaders$|^fromBlob$/;

// The options the module's methods take: where their options argument is,
// and its names (the methods js/ adds check theirs with `optionsOf`).
const READ = [2, "reuse, boolBits, signal"];
const ABORT = [2, "signal"];
const OPTIONS = { readColumn: READ, readColumns: READ, readColumnAsync: READ, readColumnsAsync: READ, inspectChunkAsync: ABORT, loadChunkHeaders: [0, "signal"], fromBlob: ABORT, fromAsyncBuffer: ABORT };

// Files whose scoped read has lent views now, and those whose free() waits
// for that loan to end (freeing would release the memory the views show).
const lending = new WeakSet();
const freeing = new WeakSet();

/** Every method and getter of a generated class checks that the object is
 *  one of its own (another class's pointer, or none, would reach the
 *  module) and still alive: after free() wasm-bindgen would only say "null
 *  pointer passed to rust". */
function guardInstances(cls, name) {
  /** The object's pointer (0 once freed), or a bad_argument for any
   *  other `this`: a Proxy that throws when asked is one too. */
  const pointer = (self) => {
    let mine = false;
    let ptr;
    let threw = "";
    try {
      mine = self instanceof cls;
      ptr = self.__wbg_ptr;
    } catch {
      threw = " that threw when read";
    }
    if (!mine || typeof ptr !== "number") {
      // (`new ColumnsFile()` makes an object that holds no file.)
      throw new ColumnsError(`${name} methods need a ${name} made by this package${mine && !threw ? `, not by new ${name}()` : `; this is ${describe(self)}${threw}`}`, "bad_argument");
    }
    return freeing.has(self) ? 0 : ptr;
  };
  const alive = (self) => {
    if (!pointer(self)) throw new ColumnsError(`this ${name} was freed (free() was called)`, "freed");
  };
  const skip = new Set(["constructor", "free", "__destroy_into_raw"]);
  for (const key of Reflect.ownKeys(cls.prototype)) {
    if (typeof key !== "string" || skip.has(key)) continue;
    const d = Object.getOwnPropertyDescriptor(cls.prototype, key);
    if (typeof d.value === "function") d.value = guarded(d.value, alive, key, key);
    if (d.get) d.get = guarded(d.get, alive);
    Object.defineProperty(cls.prototype, key, d);
  }
  // A second free() is harmless, as closing twice usually is. Inside a
  // scoped read's callback it takes effect when the callback returns.
  const free = cls.prototype.free;
  cls.prototype.free = function () {
    if (!pointer(this)) return;
    if (lending.has(this)) freeing.add(this);
    else if (running.has(this)) throw new ColumnsError(`free() was called while a call on this ${name} was running (from a getter it called): free it once that call returns`, "busy");
    else free.call(this);
  };
  if (typeof Symbol.dispose === "symbol" && cls.prototype[Symbol.dispose]) cls.prototype[Symbol.dispose] = cls.prototype.free;
}

/** Every static method checks that the module is initialised. */
function guardStatics(cls, name) {
  for (const key of Object.getOwnPropertyNames(cls)) {
    const d = Object.getOwnPropertyDescriptor(cls, key);
    if (typeof d.value !== "function" || key.startsWith("__")) continue;
    d.value = guarded(d.value, () => ensureReady(`${name}.${key}()`), key, `${name}.${key}`);
    Object.defineProperty(cls, key, d);
  }
}

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

/**
 * @internal The bytes of an ArrayBuffer, SharedArrayBuffer or any
 * ArrayBufferView (Uint8Array, Buffer, DataView, Float64Array, ...), as a
 * Uint8Array over the same memory; a ColumnsError naming what it got otherwise.
 */
function toBytes(x, what) {
  try {
    return viewOf(x, what);
  } catch (e) {
    if (e instanceof ColumnsError) throw e;
    // A revoked Proxy or a throwing getter: what it is cannot even be asked.
    const err = new ColumnsError(`${what} needs bytes; what it got threw when inspected`, "bad_argument");
    err.cause = e;
    throw err;
  }
}

function viewOf(x, what) {
  // (An empty one may be a view of a detached buffer: checked below.)
  if (x instanceof Uint8Array && x.byteLength > 0) return x;
  const view = ArrayBuffer.isView(x);
  // By tag, not instanceof, so buffers from another realm (iframe, vm) pass too.
  const t = tag(x);
  if (!view && t !== "ArrayBuffer" && t !== "SharedArrayBuffer") {
    const hint = Array.isArray(x)
      ? " (use Uint8Array.from(array))"
      : typeof Blob === "function" && x instanceof Blob
        ? " (use ColumnsFile.fromBlob for a Blob or File)"
        : typeof Response === "function" && x instanceof Response
          ? " (pass await response.arrayBuffer())"
          : "";
    throw new ColumnsError(`${what} needs an ArrayBuffer, a Uint8Array or another ArrayBufferView; it got ${describe(x)}${hint}`, "bad_argument");
  }
  try {
    return view ? new Uint8Array(x.buffer, x.byteOffset, x.byteLength) : new Uint8Array(x);
  } catch (e) {
    // The only way these fail: a buffer detached (transferred elsewhere).
    const err = new ColumnsError(`${what} was given ${view ? "a view of " : ""}a detached ArrayBuffer (it was transferred elsewhere)`, "bad_argument");
    err.cause = e;
    throw err;
  }
}

export const ColumnsFile = glue.ColumnsFile;
const unguardedFree = ColumnsFile.prototype.free;
let memory = null;
const wasmMemoryObject = () => (memory ??= glue.wasmMemory());

/** Options checked to be an object (undefined and null: none) that names
 *  only `keys` (see `known`). */
function optionsOf(options, method, keys) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") throw new ColumnsError(`${method}'s options must be an object; got ${describe(options)}`, "bad_argument");
  known(options, method, keys);
  return options;
}

function checkCallback(callback, method) {
  if (typeof callback !== "function") throw new ColumnsError(`${method} needs a callback function as its second argument; got ${describe(callback)}`, "bad_argument");
}

/** An options object's AbortSignal, if it has one (anything else is left
 *  for the read itself to refuse). */
function signalOf(options) {
  try {
    const signal = options?.signal;
    return typeof AbortSignal === "function" && signal instanceof AbortSignal ? signal : null;
  } catch {
    return null;
  }
}

/** The `aborted` error of a read whose signal fired, as the reads' own. */
function abortedError(signal) {
  const e = new ColumnsError("the read was aborted", "aborted");
  e.cause = signal.reason;
  return e;
}

const isThenable = (x) => x !== null && (typeof x === "object" || typeof x === "function") && typeof x.then === "function";

/** Calls `callback` with the lent columns `desc` describes, and ends the
 *  loan when it returns or throws; a promise returned is refused. */
function lend(file, rowGroup, desc, callback) {
  const scope = new Scope(wasmMemoryObject());
  lending.add(file);
  let result;
  try {
    result = callback({ rowGroup, numRows: desc[0], columns: scopedColumns(scope, desc, rowGroup) });
  } finally {
    scope.end();
    if (!freeing.has(file)) file.__endScope();
    endLoan(file);
  }
  if (isThenable(result)) {
    throw new ColumnsError(
      "readRowGroupScoped's callback returned a promise, but its columns were released when it returned: use readRowGroupScopedAsync",
      "bad_argument",
    );
  }
  return result;
}

/** A loan of the file's buffers has ended: a free() asked for during it happens now. */
function endLoan(file) {
  lending.delete(file);
  if (freeing.has(file)) {
    freeing.delete(file);
    unguardedFree.call(file);
  }
}

// Scoped reads of one file wait for each other (one loan at a time), and
// the files whose async callback is running now.
const queues = new WeakMap();
const inCallback = new WeakSet();
const ignore = () => {};

Object.assign(ColumnsFile.prototype, {
  /** Calls `callback({ rowGroup, numRows, columns })` with the row group's
   *  columns lent: views of the file's own buffers, valid until it returns. */
  readRowGroupScoped(rowGroup, callback, options) {
    checkCallback(callback, "readRowGroupScoped");
    const desc = this.__scopedRead(rowGroup, option(optionsOf(options, "readRowGroupScoped", "columns"), "columns", "readRowGroupScoped"));
    return lend(this, rowGroup, desc, callback);
  },

  /** readRowGroupScoped for any file, fetching the chunks first; a
   *  callback's promise is waited for before the columns are released. */
  readRowGroupScopedAsync(rowGroup, callback, options) {
    const read = async () => {
      checkCallback(callback, "readRowGroupScopedAsync");
      const o = optionsOf(options, "readRowGroupScopedAsync", "columns, signal");
      const columns = option(o, "columns", "readRowGroupScopedAsync");
      // A stream of one row group, in the file's own buffers (mode 2).
      const stream = new RowGroupStream((deliver) => this.__rowGroups(rowGroup, columns, 2, o, deliver), true, wasmMemoryObject());
      lending.add(this);
      try {
        const { value } = await stream.next();
        inCallback.add(this);
        return await callback(value);
      } finally {
        inCallback.delete(this);
        await stream.return();
        endLoan(this);
      }
    };
    // Queued behind the running callback, a call made inside it would wait
    // for a callback that waits for it: refused, as the synchronous form's is.
    if (inCallback.has(this)) {
      return Promise.reject(new ColumnsError("readRowGroupScopedAsync while a scoped read's callback of the same file runs: awaited in that callback, it would wait for itself", "busy"));
    }
    // Waiting in the queue, the call still answers its signal at once; the
    // queue goes on behind the read before it either way.
    const before = queues.get(this) ?? Promise.resolve();
    const signal = signalOf(options);
    const run = settle(before, signal).then(read, () => {
      throw abortedError(signal);
    });
    queues.set(this, Promise.all([before, run.then(ignore, ignore)]));
    return run;
  },
});
guardInstances(ColumnsFile, "ColumnsFile");

/** `for await (const { rowGroup, numRows, columns } of file.rowGroupsAsync(options))`.
 *  Not guarded like the methods above: every error, a freed file's
 *  included, rejects the iteration's first step. */
ColumnsFile.prototype.rowGroupsAsync = function (options) {
  let scoped = false;
  let error = null;
  let o;
  try {
    o = optionsOf(options, "rowGroupsAsync", "rowGroups, columns, readAhead, boolBits, scoped, reuse, signal");
    scoped = flag(option(o, "scoped", "rowGroupsAsync"), "scoped");
    // Lent columns take neither (wasm hands the copying reads' to JS), but
    // a wrong type is refused all the same.
    if (scoped) reused(o), boolBitsOf(o);
  } catch (e) {
    error = e; // the first step rejects with it
  }
  const start = (deliver) => {
    if (error) throw error;
    const [rowGroups, columns] = ["rowGroups", "columns"].map((k) => option(o, k, "rowGroupsAsync"));
    // Through the prototype's guarded method: a `this` that is not a file is a bad_argument.
    return ColumnsFile.prototype.__rowGroups.call(this, rowGroups, columns, scoped ? 1 : 0, o, deliver);
  };
  // (A guarded getter: throws `freed` once the file is.)
  return new RowGroupStream(start, scoped, wasmMemoryObject(), () => this.numRows);
};
{
  const fromBytes = ColumnsFile.fromBytes;
  ColumnsFile.fromBytes = function (bytes, registry) {
    return fromBytes.call(this, toBytes(bytes, "ColumnsFile.fromBytes"), registry);
  };
}
{
  // The two sources' commonest mix-up, named (their own checks would say
  // only that a size is undefined). A source's shape is a bad_source.
  const { fromBlob, fromAsyncBuffer } = ColumnsFile;
  // (What throws when looked at, a revoked Proxy, is left to the checks after.)
  const is = (test) => {
    try {
      return test();
    } catch {
      return false;
    }
  };
  const mixUp = (message) => Promise.reject(new ColumnsError(message, "bad_source"));
  ColumnsFile.fromBlob = function (blob, ...rest) {
    if (is(() => ArrayBuffer.isView(blob) || /^(Shared)?ArrayBuffer$/.test(tag(blob)))) return mixUp("ColumnsFile.fromBlob needs a Blob or File; bytes go to ColumnsFile.fromBytes");
    return fromBlob.call(this, blob, ...rest);
  };
  ColumnsFile.fromAsyncBuffer = function (source, ...rest) {
    if (is(() => source instanceof Blob)) return mixUp("ColumnsFile.fromAsyncBuffer needs a { byteLength, slice(start, end) } object; a Blob or File goes to ColumnsFile.fromBlob");
    return fromAsyncBuffer.call(this, source, ...rest);
  };
}
guardStatics(ColumnsFile, "ColumnsFile");

{
  const register = glue.TokenizerRegistry.prototype.register;
  glue.TokenizerRegistry.prototype.register = function (bytes) {
    return register.call(this, toBytes(bytes, "TokenizerRegistry.register"));
  };
}
guardInstances(glue.TokenizerRegistry, "TokenizerRegistry");
/** The generated class, whose constructor would fail obscurely before init(). */
export class TokenizerRegistry extends glue.TokenizerRegistry {
  constructor() {
    ensureReady("new TokenizerRegistry()");
    super();
  }
}

export function wasmMemory() {
  ensureReady("wasmMemory()");
  return glue.wasmMemory();
}

// Bundling renames classes ("a n", "TokenizerRegistry2"); error messages
// name the package's own by their constructors' names, so these are set.
for (const [cls, name] of [[Column, "Column"], [ColumnsError, "ColumnsError"], [ColumnsFile, "ColumnsFile"], [ScopedColumn, "ScopedColumn"], [TokenizerRegistry, "TokenizerRegistry"], [RowGroupStream, "RowGroupStream"]]) {
  Object.defineProperty(cls, "name", { value: name });
}

/** Not public API: what the worker pool (pool.js, a separate file) needs. */
export const internal = {
  compiledModule,
  describe,
  toBytes,
  optionsOf,
  option,
  known,
  settle,
  abortedError,
  handBack,
  reused,
  boolBitsOf,
  /** A Column around buffers a worker transferred, refillable when handed back. */
  columnFromParts,
};
