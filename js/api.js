// The public API every entry point exports (browser, Node, pool worker):
// wasm-bindgen's generated classes, plus what generated code cannot say by
// itself: that a call came before the module was initialised, that an
// object was already freed, and what `fromBytes` was given when it is not
// bytes. Each failure is a ColumnsError with a kind.
//
// "columns-wasm-glue" is wasm-bindgen's web-target output; tools/package.mjs
// bundles it in (it is not a runtime dependency).
import * as glue from "columns-wasm-glue";
import { Column, ColumnsError, adopt, handBack } from "./column.js";

export { Column, ColumnsError };

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
      `${what} was called before the WebAssembly module was initialised: \`await init()\` first ` +
        "(import init from \"columns-wasm\"; Node needs no init())",
      "not_initialized",
    );
  }
}

/** Wraps `fn` so that it first checks `check(this)`; async methods reject instead of throwing. */
function guarded(fn, check, returnsPromise) {
  return function (...args) {
    try {
      check(this);
    } catch (e) {
      if (returnsPromise) return Promise.reject(e);
      throw e;
    }
    return fn.apply(this, args);
  };
}

// Methods that return a promise: their misuse rejects, as their other errors do.
const ASYNC = /Async$|^loadChunkHeaders$|^fromBlob$/;

/** Every method and getter of a generated class checks that the object is
 *  still alive: after free() wasm-bindgen would only say "null pointer passed to rust". */
function guardInstances(cls, name) {
  const alive = (self) => {
    if (self.__wbg_ptr === 0) {
      throw new ColumnsError(`this ${name} was freed (free() was called on it); it cannot be used any more`, "freed");
    }
  };
  const skip = new Set(["constructor", "free", "__destroy_into_raw", "__handle"]);
  for (const key of Reflect.ownKeys(cls.prototype)) {
    if (typeof key !== "string" || skip.has(key)) continue;
    const d = Object.getOwnPropertyDescriptor(cls.prototype, key);
    if (typeof d.value === "function") d.value = guarded(d.value, alive, ASYNC.test(key));
    if (d.get) d.get = guarded(d.get, alive, false);
    Object.defineProperty(cls.prototype, key, d);
  }
  // A second free() is harmless, as closing twice usually is.
  const free = cls.prototype.free;
  cls.prototype.free = function () {
    if (this.__wbg_ptr !== 0) free.call(this);
  };
  if (typeof Symbol.dispose === "symbol" && cls.prototype[Symbol.dispose]) cls.prototype[Symbol.dispose] = cls.prototype.free;
}

/** Every static method checks that the module is initialised. */
function guardStatics(cls, name) {
  for (const key of Object.getOwnPropertyNames(cls)) {
    const d = Object.getOwnPropertyDescriptor(cls, key);
    if (typeof d.value !== "function" || key.startsWith("__")) continue;
    d.value = guarded(d.value, () => ensureReady(`${name}.${key}()`), ASYNC.test(key));
    Object.defineProperty(cls, key, d);
  }
}

const tag = (x) => Object.prototype.toString.call(x).slice(8, -1);

/** What a value is, for an error message: "a string", "Blob", ... */
function describe(x) {
  if (x === null) return "null";
  if (x === undefined) return "undefined";
  if (typeof x !== "object" && typeof x !== "function") return `a ${typeof x}`;
  const name = x.constructor?.name || tag(x);
  if (Array.isArray(x)) return "an Array (a plain array is not bytes: use Uint8Array.from(array))";
  if (typeof x.then === "function") return `a ${name} (await it first)`;
  if (typeof Blob === "function" && x instanceof Blob) return `a ${name} (use ColumnsFile.fromBlob for a Blob or File)`;
  if (typeof Response === "function" && x instanceof Response) return "a Response (pass await response.arrayBuffer())";
  return `a ${name}`;
}

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
    throw new ColumnsError(`${what} needs an ArrayBuffer, a Uint8Array or another ArrayBufferView; it got ${describe(x)}`, "bad_argument");
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
guardInstances(ColumnsFile, "ColumnsFile");
{
  const fromBytes = ColumnsFile.fromBytes;
  ColumnsFile.fromBytes = function (bytes, registry) {
    return fromBytes.call(this, toBytes(bytes, "ColumnsFile.fromBytes"), registry);
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

/** Not public API: what the worker pool (pool.js, a separate file) needs. */
export const internal = {
  compiledModule,
  toBytes,
  handBack,
  /** A Column around buffers a worker transferred, refillable when handed back. */
  columnFromParts: (type, length, nullCount, values, validity, boolBits = false) => adopt(new Column(type, length, nullCount, values, validity, boolBits)),
};
