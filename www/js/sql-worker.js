// SQL over the open file: a worker that hosts DuckDB-Wasm (its "eh"
// bundle, which needs no cross-origin isolation; DuckDB runs in a worker
// of its own that this one starts) and a reader of its own for the file.
// The file's readable columns become table `t` through Arrow, one row group
// at a time (so only one row group's data is ever in flight); query results
// stay here and the page asks for the rows it shows. Started only when the
// SQL tab is first opened; everything it loads comes with the site.

import { init, ColumnsFile, TokenizerRegistry } from "./columns.js";
import { openUrl } from "./urlbuffer.js";
import { loadArrow, arrowSchema, recordBatch, ipcStreamWriter, asUtf8, ARROW_URL } from "./arrowdata.js";
import { brief, columnLabels, quoteName as quote } from "./labels.js";
import { CHUNK_KINDS } from "./chunkkinds.js";
import { formatTime } from "./timefmt.js";
import { textFormat } from "./exporttext.js";
import { hex, scalarText, fmtBytes, plural } from "./format.js";
import { EXPORT_LIMIT } from "./sizes.js";
import { installs, statementSpans } from "./sqltext.js";
import { firstModuleTrouble, moduleTrouble, wasmTrouble } from "./served.js";

// A result's rows written to a CSV or JSON file in pieces of this many.
const ROWS_A_PIECE = 10_000;
// The rows of a result written first, spread over it, whose bytes say
// what the whole CSV or JSON would take (refused over EXPORT_LIMIT).
const SAMPLE_ROWS = 1000;
// The calls the page asked to stop (Engine's signal): an export stops at its next piece.
const aborted = new Set();

const DUCKDB_DIR = new URL("../vendor/duckdb/", import.meta.url);
let duck = null; // { db, conn, version, sortConn }
let result = null; // { table, columns, readers, order }: order (Int32Array | null) is the rows' shown order
let loaded = null; // { columns: [...], rows, skipped }

const ready = init();

const LOCKDOWN = [
  "SET autoinstall_known_extensions = false",
  "SET autoload_known_extensions = false",
  "SET allow_community_extensions = false",
  "SET enable_external_access = false",
  "SET lock_configuration = true",
];

// Row groups loaded into table t at once: at most this many rows, or
// stored bytes (more when one row group alone is larger).
const LOAD_ROWS = 65_536;
const LOAD_BYTES = 8 * 1024 * 1024;
const LOAD_AHEAD = 3;


function usage(kind, message) {
  return Object.assign(new Error(message), { kind });
}

function errorInfo(e) {
  const kind = typeof e?.kind === "string" ? e.kind : "sql";
  const msg = String(e?.message ?? e);
  return { kind, message: kind === "sql" ? sqlMessage(msg) : msg, rowGroup: e?.rowGroup ?? null, column: e?.column ?? null, offset: e?.offset ?? null, io: e?.io ?? null };
}

const OFFLINE = "This page's DuckDB never fetches anything from outside the site: it comes without extensions and does not install or load any, and it reads only table t (no URLs, no files).";

const LOCKED = "Settings are locked on this page: DuckDB starts with extensions, URLs and files turned off, and the lock keeps a statement from turning them back on, so that the page stays offline. No setting can be changed here.";

// (DuckDB-Wasm's memory is one WebAssembly memory: 4 GiB at most, less as
// the browser allows, and a result is copied out of it whole.)
const MEMORY_WORDS = "the memory this browser lets DuckDB-Wasm use";
const MEMORY = `The result is larger than ${MEMORY_WORDS}. Narrow it: fewer columns or rows (WHERE, LIMIT), or an aggregate.`;

// DuckDB out of memory (a statement, or an insert into t), or the worker
// refused an allocation; DuckDB's own text then goes on about SET
// memory_limit and temp_directory, which the page keeps locked.
const OUT_OF_MEMORY = /malloc of size \d+ failed|Out of Memory Error|could not allocate block|Array buffer allocation failed/i;

/**
 * DuckDB-Wasm hands some errors over as JSON ({"exception_type":
 * "TransactionContext", "exception_message": ...}): the message in it, as
 * DuckDB words its others ("TransactionContext Error: ...").
 */
function unwrapJson(msg) {
  // (after the page's own "row group 3: ", if any)
  const k = msg.indexOf('{"exception_');
  if (k < 0) return msg;
  try {
    const j = JSON.parse(msg.slice(k));
    if (typeof j?.exception_message !== "string") return msg;
    return `${msg.slice(0, k)}${j.exception_type ? `${j.exception_type} Error: ` : ""}${j.exception_message}`;
  } catch {
    return msg;
  }
}

/** An out-of-memory message's first paragraph cut before DuckDB's advice ("Database is launched in in-memory mode ... SET memory_limit"). */
const memoryCause = (msg) => unwrapJson(msg).split("\n")[0].trim();

/**
 * DuckDB's message as the user should read it: each paragraph once (the
 * Wasm build repeats the "LINE 1: ... ^" block), and where a statement
 * needs something the page keeps off (an extension, a URL or a file), that
 * said plainly instead of DuckDB's advice to install or to turn on
 * auto-loading, which cannot work here.
 */
function sqlMessage(msg) {
  msg = unwrapJson(msg);
  // (its advice is to change settings this page locks)
  if (OUT_OF_MEMORY.test(msg)) return `${memoryCause(msg)}\n\n${MEMORY}`;
  const paragraphs = [];
  for (const p of msg.split("\n\n")) if (p.trim() && !paragraphs.includes(p)) paragraphs.push(p);
  const ext = /but it exists in the (\w+) extension/.exec(msg);
  if (ext) {
    const first = paragraphs[0].replace(/\s*$/, "");
    const rest = paragraphs.slice(1).filter((p) => !/^(Please try installing|Alternatively, consider enabling|INSTALL |SET auto)/.test(p.trim()));
    return [first, `The ${ext[1]} extension is not bundled with this page. ${OFFLINE}`, ...rest].join("\n\n");
  }
  if (/file system operations are disabled|Loading external extensions is disabled/.test(msg)) {
    paragraphs.splice(1, 0, OFFLINE);
  } else if (/configuration has been locked/.test(msg)) {
    // Any SET: what the lock is for, not the fetching paragraph beside it.
    paragraphs.splice(1, 0, LOCKED);
  }
  return paragraphs.join("\n\n");
}

async function startDuckDB(post) {
  if (duck) return duck;
  post({ label: "loading DuckDB-Wasm (eh bundle)" });
  const moduleUrl = new URL("duckdb-browser.mjs", DUCKDB_DIR).href;
  const workerUrl = new URL("duckdb-browser-eh.worker.js", DUCKDB_DIR).href;
  const wasmUrl = new URL("duckdb-eh.wasm", DUCKDB_DIR).href;
  // Asked beside the module's load: DuckDB's worker, given a .wasm it
  // cannot compile (served as application/octet-stream, say), never answers.
  const wasmChecked = wasmTrouble(wasmUrl);
  let mod;
  try {
    mod = await import(moduleUrl);
  } catch (e) {
    // Missing (a site built with --no-duckdb, or not copied whole), or
    // there but served so that the browser refuses to run it.
    const trouble = await firstModuleTrouble([moduleUrl, ARROW_URL.href]);
    if (!trouble || trouble.missing) {
      throw usage("not_built", `DuckDB-Wasm is not part of this site (${trouble ? trouble.message : e.message}); scripts/build-site without --no-duckdb adds it`);
    }
    throw usage("load_failed", `DuckDB-Wasm did not load: ${trouble.message}. (${e.message})`);
  }
  const trouble = await wasmChecked;
  if (trouble) throw usage("load_failed", `DuckDB-Wasm's WebAssembly cannot be compiled: ${trouble.message}.`);
  const worker = new Worker(workerUrl);
  // DuckDB-Wasm does not listen for its worker's failures: a worker that
  // does not load or dies would leave instantiate() waiting for ever.
  let failed;
  const workerFailed = new Promise((_, reject) => {
    failed = (ev) => reject(ev);
    worker.addEventListener("error", failed);
  });
  workerFailed.catch(() => {});
  const db = new mod.AsyncDuckDB(new mod.VoidLogger(), worker);
  post({ label: "compiling DuckDB's WebAssembly" });
  try {
    await Promise.race([db.instantiate(wasmUrl), workerFailed]);
  } catch (e) {
    worker.terminate();
    if (e instanceof Event) {
      const why = (await moduleTrouble(workerUrl)) || (await wasmTrouble(wasmUrl));
      throw usage("load_failed", `DuckDB-Wasm's worker failed${e.message ? ` (${e.message})` : ""}${why ? `: ${why.message}` : ""}.`);
    }
    const why = await wasmTrouble(wasmUrl);
    throw usage("load_failed", `DuckDB-Wasm's WebAssembly did not start: ${why ? why.message : e?.message ?? e}.`);
  }
  worker.removeEventListener("error", failed);
  const conn = await db.connect();
  // Nothing is fetched from outside the site: DuckDB would otherwise install
  // and load an extension from its own server the first time a statement
  // needs one (json_extract, read_parquet, an https:// path, ...). Off, and
  // so is every access beyond table t (remote URLs, files); then locked, so
  // a statement cannot turn them back on.
  for (const setting of LOCKDOWN) await conn.query(setting);
  // What table t and every result must fit in (the page refuses a file whose
  // t would take more): DuckDB's memory_limit as it sets it for this
  // browser, "3.1 GiB" in Chromium, as bytes (to its one decimal).
  const limitText = String((await conn.query("SELECT current_setting('memory_limit') AS m")).getChildAt(0).get(0));
  duck = { db, conn, version: await db.getVersion(), memoryLimit: { text: limitText, bytes: humanBytes(limitText) } };
  return duck;
}

/** "3.1 GiB" (DuckDB's way of writing a size) as bytes, or null. */
function humanBytes(text) {
  const m = /^\s*([\d.]+)\s*([a-z]+)\s*$/i.exec(text);
  const unit = { bytes: 1, b: 1, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 }[m?.[2].toLowerCase()];
  return unit ? Math.round(Number(m[1]) * unit) : null;
}

const enc = new TextEncoder();

const TYPE_NAMES = {
  Bool: "bool", Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64", Uint8: "uint8", Uint16: "uint16", Uint32: "uint32", Uint64: "uint64",
  Float32: "float32", Float64: "float64", Utf8: "string", LargeUtf8: "string", Binary: "bytes", LargeBinary: "bytes",
};

function typeName(A, t) {
  const name = A.Type[t.typeId];
  if (name === "Int") return `${t.isSigned ? "int" : "uint"}${t.bitWidth}`;
  if (name === "Float") return t.precision === 0 ? "float16" : t.precision === 1 ? "float32" : "float64";
  return TYPE_NAMES[name] || null;
}

const UNITS = ["s", "ms", "us", "ns"];
const pad2 = (n) => String(n).padStart(2, "0");

/** DECIMAL: the unscaled integer (arrow's BigNum as text) with the point put back by the type's scale. */
function decimalText(v, scale) {
  const raw = String(v);
  if (!(scale > 0)) return raw;
  const neg = raw.startsWith("-");
  const digits = (neg ? raw.slice(1) : raw).padStart(scale + 1, "0");
  return `${neg ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** TIME: a count of `unit` since midnight as 12:34:56[.fraction]. */
function timeOfDayText(x, unit) {
  const per = [1n, 1000n, 1000000n, 1000000000n][unit];
  const v = BigInt(x);
  const s = v / per;
  const frac = v % per;
  const text = `${pad2(s / 3600n)}:${pad2((s / 60n) % 60n)}:${pad2(s % 60n)}`;
  return frac ? `${text}.${String(frac).padStart(String(per).length - 1, "0").replace(/0+$/, "")}` : text;
}

/** INTERVAL as DuckDB writes it: "1 month 3 days 04:00:00". */
function intervalText(months, days, nanos) {
  const parts = [];
  const y = Math.trunc(months / 12);
  const mo = months % 12;
  if (y) parts.push(`${y} year${Math.abs(y) === 1 ? "" : "s"}`);
  if (mo) parts.push(`${mo} month${Math.abs(mo) === 1 ? "" : "s"}`);
  if (days) parts.push(`${days} day${Math.abs(days) === 1 ? "" : "s"}`);
  if (nanos || !parts.length) parts.push(`${nanos < 0n ? "-" : ""}${timeOfDayText(nanos < 0n ? -nanos : nanos, 3)}`);
  return parts.join(" ");
}

/**
 * DuckDB's own type for a column Arrow has none for, named in the field's
 * metadata (an arrow.opaque extension): "uhugeint" (16 bytes, little-endian)
 * or "bignum" (VARINT: its own byte form). Else null.
 */
function vendorType(field) {
  const m = field?.metadata;
  if (m?.get("ARROW:extension:name") !== "arrow.opaque") return null;
  try {
    const { type_name: name, vendor_name: vendor } = JSON.parse(m.get("ARROW:extension:metadata"));
    return vendor === "DuckDB" && VENDOR_TEXT[name] ? name : null;
  } catch {
    return null;
  }
}

/** A UHUGEINT's or BIGNUM's bytes as its decimal digits. */
const VENDOR_TEXT = {
  uhugeint: (b) => String(b.reduceRight((a, x) => (a << 8n) | BigInt(x), 0n)),
  // Three bytes of header (top bit set: not negative), then the magnitude
  // big-endian; a negative number has every byte inverted.
  bignum: (b) => {
    const neg = !(b[0] & 0x80);
    let v = 0n;
    for (let k = 3; k < b.length; k++) v = (v << 8n) | BigInt(neg ? ~b[k] & 0xff : b[k]);
    return `${neg && v ? "-" : ""}${v}`;
  },
};

/**
 * For a result column apache-arrow 17 does not hand over as the value
 * (DECIMAL and HUGEINT as an unscaled BigNum, dates and timestamps as
 * milliseconds, TIME as a count, INTERVAL misread): a function (vector, row)
 * -> the value as text, read from the column's own buffers; null otherwise.
 */
function textReader(A, type, vendor = null) {
  const name = A.Type[type.typeId];
  if (vendor) return (vec, i) => VENDOR_TEXT[vendor](vec.get(i));
  const raw = (vec, i, width = 1) => {
    let at = i;
    for (const d of vec.data) {
      if (at < d.length) return { values: d.values, k: (d.offset + at) * width };
      at -= d.length;
    }
    return null;
  };
  if (name === "Decimal") return (vec, i) => decimalText(vec.get(i), type.scale);
  // DuckDB's ±infinity dates and timestamps are the largest values but one
  // (days as int32, the rest as int64): said as DuckDB says them, not as
  // the numbers they are stored as.
  if (name === "Date")
    return (vec, i) => {
      const r = type.unit === 0 ? raw(vec, i) : null;
      const days = r ? r.values[r.k] : null;
      if (days === 2147483647 || days === -2147483647) return days > 0 ? "infinity" : "-infinity";
      return formatTime(BigInt(Math.round(vec.get(i))), "ms").split(" ")[0];
    };
  if (name === "Timestamp") {
    const unit = UNITS[type.unit];
    return (vec, i) => {
      const r = raw(vec, i);
      const x = BigInt(r.values[r.k]);
      if (x === 9223372036854775807n || x === -9223372036854775807n) return x > 0n ? "infinity" : "-infinity";
      return `${formatTime(x, unit)}${type.timezone ? " UTC" : ""}`;
    };
  }
  if (name === "Time") return (vec, i) => timeOfDayText(vec.get(i), type.unit);
  if (name === "Interval") {
    // unit 0: months (int32); 1: days, milliseconds (int32 each); 2: months, days (int32), nanoseconds (int64).
    const width = [1, 2, 4][type.unit];
    return (vec, i) => {
      const { values: v, k } = raw(vec, i, width);
      if (type.unit === 0) return intervalText(v[k], 0, 0n);
      if (type.unit === 1) return intervalText(0, v[k], BigInt(v[k + 1]) * 1000000n);
      return intervalText(v[k], v[k + 1], BigInt.asIntN(64, (BigInt(v[k + 3] >>> 0) << 32n) | BigInt(v[k + 2] >>> 0)));
    };
  }
  return nestedReader(A, type);
}

/** Whether `type` is, or has inside (a child, a dictionary's values), a type of one of `kinds`. */
const holds = (A, type, kinds) => kinds.has(A.Type[type.typeId]) || (type.children || []).some((f) => holds(A, f.type, kinds)) || (type.dictionary ? holds(A, type.dictionary, kinds) : false);

const INTERVAL = new Set(["Interval"]);
const UNION = new Set(["Union", "DenseUnion", "SparseUnion"]);
const NESTED = new Set(["List", "FixedSizeList", "Struct", "Map", ...UNION]);

/** Leaf types textReader reads itself (arrow's own value is wrong or unshown). */
const OWN_TEXT = new Set(["Decimal", "Date", "Timestamp", "Time", "Interval"]);

/** Text written as it is inside a nested value's text (a DECIMAL's digits, a REAL's shortest form): a number, not a quoted string. */
class Bare {
  constructor(text) {
    this.text = text;
  }
}

/** A STRUCT's or MAP's entries, in their order (a JS object would put
 *  integer-like keys first and swallow "__proto__"), keys as text. */
class Entries {
  constructor(pairs) {
    this.pairs = pairs;
  }
}

/**
 * A nested value as text: JSON's shape, with every number bare as the page
 * writes numbers (NaN, Infinity and -0 kept: JSON has none of them, and
 * JSON.stringify wrote null and 0, a value shown as no value) and bytes as
 * 0x and their hex.
 */
function nestedText(x) {
  if (x === null || x === undefined) return "null";
  if (x instanceof Bare) return x.text;
  if (typeof x === "number") return scalarText("float64", x);
  if (typeof x === "bigint" || typeof x === "boolean") return String(x);
  if (typeof x === "string") return JSON.stringify(x);
  if (x instanceof Uint8Array) return `0x${hex(x)}`;
  if (Array.isArray(x)) return `[${x.map(nestedText).join(",")}]`;
  if (x instanceof Entries) return `{${x.pairs.map(([k, v]) => `${JSON.stringify(k)}:${nestedText(v)}`).join(",")}}`;
  return `{${Object.entries(x).map(([k, v]) => `${JSON.stringify(k)}:${nestedText(v)}`).join(",")}}`;
}

/**
 * A LIST, STRUCT or MAP: (vector, row) -> the value as text (nestedText),
 * its DECIMAL, date, time and interval leaves as textReader writes them.
 * Walked over the Data as read (offset 0, buffers whole), never sliced:
 * apache-arrow 17 slices an INTERVAL's values at half their width.
 */
function nestedReader(A, type) {
  if (!NESTED.has(A.Type[type.typeId])) return null;
  const leaves = new WeakMap(); // leaf Data -> { vec, vendor, read }
  // (`field`: the value's Arrow field, whose metadata may name a DuckDB type)
  const at = (data, i, field) => {
    if (!data.getValid(i)) return null;
    const t = data.type;
    const kind = A.Type[t.typeId];
    const child = data.children[0];
    const range = (from, to) => Array.from({ length: to - from }, (_, k) => at(child, from + k, t.children[0]));
    if (kind === "List") return range(data.valueOffsets[i], data.valueOffsets[i + 1]);
    if (kind === "FixedSizeList") return range(i * t.listSize, (i + 1) * t.listSize);
    if (kind === "Struct") return new Entries(t.children.map((f, c) => [f.name, at(data.children[c], i, f)]));
    if (kind === "Map") {
      const [keys, values] = child.children;
      const [kf, vf] = child.type.children;
      const pairs = [];
      for (let k = data.valueOffsets[i]; k < data.valueOffsets[i + 1]; k++) {
        const key = at(keys, k, kf);
        pairs.push([typeof key === "string" ? key : nestedText(key), at(values, k, vf)]);
      }
      return new Entries(pairs);
    }
    // A UNION is the value of its member in use.
    if (UNION.has(kind)) {
      const c = t.typeIdToChildIndex[data.typeIds[i]];
      return at(data.children[c], t.mode === A.UnionMode.Dense ? data.valueOffsets[i] : i, t.children[c]);
    }
    let leaf = leaves.get(data);
    if (!leaf) {
      const vendor = vendorType(field);
      leaves.set(data, (leaf = { vec: new A.Vector([data]), vendor, read: vendor || OWN_TEXT.has(kind) ? textReader(A, t, vendor) : null }));
    }
    const v = leaf.read ? leaf.read(leaf.vec, i) : leaf.vec.get(i);
    if (kind === "Decimal" || leaf.vendor) return new Bare(v);
    // (a REAL comes as the double it is: its own shortest text, as outside a list)
    if (kind === "Float" && t.precision === 1) return new Bare(scalarText("float32", v));
    return v?.toJSON ? v.toJSON() : v;
  };
  // (a UNION's text alone is its member's as a column of it would show it: text unquoted)
  const whole = UNION.has(A.Type[type.typeId]) ? (x) => (typeof x === "string" ? x : nestedText(x)) : nestedText;
  return (vec, i) => {
    for (const d of vec.data) {
      if (i < d.length) return whole(at(d, i));
      i -= d.length;
    }
    return null;
  };
}

function textOf(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v.toJSON === "function") return JSON.stringify(v.toJSON(), (_, x) => (typeof x === "bigint" ? String(x) : x));
  return String(v);
}

const ops = {
  async start(_args, post) {
    const d = await startDuckDB(post);
    return { version: d.version, memoryLimit: d.memoryLimit };
  },

  /** Loads the file's readable columns into table t (replacing it). */
  async load({ blob, url, tokenizers = [] }, post) {
    const { conn } = await startDuckDB(post);
    const A = await loadArrow();
    const registry = new TokenizerRegistry();
    for (const t of tokenizers) registry.register(t);
    // A server that ignores Range requests sends the whole file: its download shows as it comes.
    const onProgress = (p) => post({ label: `reading the file: ${p.label}` });
    const file = blob ? await ColumnsFile.fromBlob(blob, registry) : await ColumnsFile.fromAsyncBuffer((await openUrl(url, { onProgress })).buffer, registry);
    // What this reader has read from the source, with every progress and
    // the answer (or the error): the page counts it in "Read so far".
    const io = () => ({ bytes: file.bytesRead, requests: file.requests });
    post({ label: "reading the file", io: io() });
    let rows = 0; // loaded into t so far
    try {
      const schema = file.schema;
      // (Made anew on each read of the property: once.)
      const groups = file.rowGroups;
      const refs = file.tokenizers;
      const labels = columnLabels(schema);
      const skipped = [];
      // A tokenized column without its tokenizer cannot be read: leave it out and say so.
      let cols = [];
      schema.forEach((col, c) => {
        const missing = groups.some((rg) => rg.columns[c].tokenizer && !refs[rg.columns[c].tokenizer - 1]?.resolved);
        if (missing) skipped.push({ c, label: labels[c], reason: "its tokenizer is not registered" });
        else cols.push(c);
      });
      // t as the statements run since may have left it: a view, a temporary
      // table hiding the loaded one. (Dropping what it is not is an error: let be.)
      for (const what of ["TABLE", "VIEW"]) for (const at of ["temp.", ""]) await conn.query(`DROP ${what} IF EXISTS ${at}t`).catch(() => {});
      // DuckDB makes no table of no columns: say which were left out and why.
      if (cols.length === 0) {
        throw usage(skipped.length ? "unknown_tokenizer" : "bad_argument", skipped.length ? `no column can be loaded into table t: ${skipped.map((s) => brief(s.label)).join(", ")} ${skipped.length === 1 ? "needs a tokenizer" : "need tokenizers"} not registered; drop the tokenizer.json files on the page to read them` : "no column can be loaded into table t: the file has no columns");
      }
      let aSchema = arrowSchema(A, cols.map((c) => ({ name: labels[c], type: schema[c].type })));
      let writer = ipcStreamWriter(A, aSchema);
      const replaced = new Set();
      const G = groups.length;
      let made = false; // table t, made by the first row group's insert
      if (G === 0) await conn.insertArrowFromIPCStream(writer.whole(recordBatch(A, aSchema, cols.map((c) => ({ type: schema[c].type, length: 0, nullCount: 0, validity: null, values: schema[c].type === "string" || schema[c].type === "bytes" ? { offsets: new Uint32Array(1), data: new Uint8Array(0) } : emptyOf(schema[c].type) })))), { name: "t", create: true });
      const failed = (e, g, last = g) => Object.assign(e, { message: `${g === last ? `row group ${g}` : `row groups ${g}–${last}`}: ${e.message}`, io: io() });
      const textOf = (read) =>
        read.map((col, k) => {
          if (col.type !== "string") return col;
          const r = asUtf8(col);
          if (r.replaced) replaced.add(cols[k]);
          return r.col;
        });
      const insert = async (batches) => {
        await conn.insertArrowFromIPCStream(writer.whole(...batches), { name: "t", create: !made });
        made = true;
      };
      // Row group g alone, where a batch has a chunk that does not read;
      // in a row group that has one, each chunk is read by itself.
      const loadGroup = async (g) => {
        let whole = null;
        try {
          whole = await file.readColumnsAsync([g], cols);
        } catch (e) {
          if (!CHUNK_KINDS.has(e?.kind)) throw failed(e, g);
        }
        if (whole) return insert([recordBatch(A, aSchema, textOf(whole))]);
        const read = [];
        const bad = [];
        for (const c of cols) {
          try {
            read.push(await file.readColumnAsync(g, c));
          } catch (e1) {
            if (!CHUNK_KINDS.has(e1?.kind)) throw failed(e1, g);
            bad.push({ c, e: e1 });
          }
        }
        // A chunk that does not read (damaged, ...) takes its column out
        // of t, from here on and from the rows already in.
        for (const { c, e: e1 } of bad) skipped.push({ c, label: labels[c], reason: `row group ${g} does not read: ${e1.kind}` });
        if (bad.length) {
          cols = cols.filter((c) => !bad.some((b) => b.c === c));
          if (cols.length === 0) {
            // Nothing left to load: the list of what was left out, then the error met last.
            const last = bad.at(-1).e;
            throw Object.assign(usage(last.kind, `no column can be loaded into table t: ${skipped.map((s) => `${brief(s.label)} (${s.reason})`).join(", ")}\n\nrow group ${g}: ${last.message}`), { rowGroup: g, io: io() });
          }
          if (made) for (const { c } of bad) await conn.query(`ALTER TABLE t DROP COLUMN ${quote(labels[c])}`);
          aSchema = arrowSchema(A, cols.map((c) => ({ name: labels[c], type: schema[c].type })));
          writer = ipcStreamWriter(A, aSchema);
        }
        await insert([recordBatch(A, aSchema, textOf(read))]);
      };
      // Row groups are read and inserted together, up to LOAD_ROWS rows or
      // LOAD_BYTES stored bytes at once: their chunks, side by side in the
      // file, come in one request, and DuckDB takes them in one insert. One
      // read and one insert per row group took 15 s for 5,000 row groups of
      // 3 rows.
      const batches = [];
      for (let g0 = 0; g0 < G; ) {
        let g1 = g0;
        let n = 0;
        let stored = 0;
        do {
          n += groups[g1].numRows;
          for (const c of cols) stored += groups[g1].columns[c].byteLength;
          g1++;
        } while (g1 < G && n < LOAD_ROWS && stored < LOAD_BYTES);
        batches.push({ gs: Array.from({ length: g1 - g0 }, (_, k) => g0 + k), stored });
        g0 = g1;
      }
      // The next batches are read while one goes into DuckDB (up to
      // LOAD_AHEAD, and past the first only while they hold LOAD_BYTES
      // stored bytes at most): over HTTP each read is a round trip.
      // flights-3m (46 batches) behind 40 ms of latency loaded in 4.4 s
      // one after another, 3.9 with one read ahead, 2.4 as with no latency.
      const read = (gs) => {
        const asked = cols;
        return file.readColumnsAsync(gs, asked).then(
          (flat) => ({ flat, asked }),
          (error) => ({ error, asked }),
        );
      };
      const reads = []; // { got, stored } of the batches asked for and not yet taken, in order
      let nextBatch = 0;
      const ahead = () => {
        for (let held = reads.reduce((n, r) => n + r.stored, 0); nextBatch < batches.length && reads.length < LOAD_AHEAD && (reads.length === 0 || held + batches[nextBatch].stored <= LOAD_BYTES); nextBatch++) {
          const { gs, stored } = batches[nextBatch];
          held += stored;
          reads.push({ got: read(gs), stored });
        }
      };
      ahead();
      for (const { gs } of batches) {
        let got = await reads.shift().got;
        ahead();
        // (read before a chunk that did not read took its column out)
        if (got.asked !== cols) got = await read(gs);
        if (got.error && !CHUNK_KINDS.has(got.error?.kind)) throw failed(got.error, gs[0], gs.at(-1));
        const { flat } = got;
        if (flat) await insert(gs.map((_, k) => recordBatch(A, aSchema, textOf(flat.slice(k * cols.length, (k + 1) * cols.length)))));
        else for (const g of gs) await loadGroup(g);
        for (const g of gs) rows += groups[g].numRows;
        post({ done: gs.at(-1) + 1, total: G, label: "row groups loaded into DuckDB", io: io() });
      }
      loaded = { columns: cols.map((c) => ({ c, label: labels[c], type: schema[c].type })), rows, skipped, replaced: [...replaced].filter((c) => cols.includes(c)).map((c) => labels[c]) };
      return { ...loaded, io: io() };
    } catch (e) {
      // Said plainly, with what was loaded: DuckDB's own words suggest
      // settings this page locks. (The page then stops this worker, the only
      // way to give DuckDB's memory back: a WebAssembly memory never shrinks.)
      if (!OUT_OF_MEMORY.test(String(e?.message))) throw e;
      const total = file.numRows;
      const limit = duck?.memoryLimit?.text;
      throw Object.assign(usage("out_of_memory", `Table t did not fit in ${MEMORY_WORDS}${limit ? ` (${limit})` : ""}: it ran out with ${rows.toLocaleString("en-US")} of ${Number(total).toLocaleString("en-US")} rows loaded (${memoryCause(e.message)}).`), { io: io() });
    } finally {
      file.free();
    }
  },

  /** Runs a statement, or a script's statements one by one (sqltext.js);
   *  the last one's result stays here for `rows`. */
  async query({ sql, line = 1 }) {
    const { conn } = duck || (await startDuckDB(() => {}));
    const A = await loadArrow();
    // (`line`: the editor's line where `sql` starts, its blank lines before cut off)
    const spans = statementSpans(sql);
    const list = spans.map((s) => s.text);
    if (list.length === 0) list.push(sql); // (comments alone: DuckDB says what it says)
    const t0 = performance.now();
    let table;
    for (const [k, one] of list.entries()) {
      try {
        // DuckDB "installs" it without a word (0 rows) and nothing can load
        // it: said as plainly as LOAD's refusal, and not run.
        if (installs(one)) throw new Error(`INSTALL is refused here: extensions are not bundled with this page.\n\n${OFFLINE}`);
        table = await conn.query(one);
      } catch (e) {
        if (list.length === 1) throw e;
        // (DuckDB's "LINE n" counts within the statement: the editor's line says where it is)
        const where = `from line ${line + spans[k].line - 1} of the editor${k ? `; the ${k === 1 ? "one" : k} before it ran` : ""}`;
        throw Object.assign(new Error(`statement ${k + 1} of ${list.length} (${where}): ${e?.message ?? e}`), typeof e?.kind === "string" ? { kind: e.kind } : {});
      }
    }
    const ms = performance.now() - t0;
    const readers = [];
    const columns = table.schema.fields.map((f, i) => {
      const vendor = vendorType(f);
      const type = vendor ? null : typeName(A, f.type);
      readers[i] = type ? null : textReader(A, f.type, vendor);
      const kind = vendor || A.Type[f.type.typeId];
      // Shown as text, tagged with their own type; numbers stay right-aligned.
      // (DuckDB hands a HUGEINT over as a DECIMAL(38,0): a DECIMAL(10,0) is a decimal)
      const decimal = f.type.scale || f.type.precision !== 38 ? `decimal(${f.type.precision},${f.type.scale})` : "hugeint";
      const tag = type ? undefined : { Decimal: decimal, Date: "date", Timestamp: f.type.timezone ? "timestamptz" : "timestamp", Time: "time", Interval: "interval", List: "list", FixedSizeList: "list", Struct: "struct", Map: "map", Union: "union", DenseUnion: "union", SparseUnion: "union", Dictionary: "enum", uhugeint: "uhugeint", bignum: "bignum" }[kind];
      return { key: i, label: f.name, type: type || "string", sqlType: String(f.type), asText: !type, ...(tag ? { tag, numeric: kind === "Decimal" || !!vendor } : {}) };
    });
    result = { table, columns, readers, order: null };
    return { columns, numRows: table.numRows, ms, statements: list.length };
  },

  /**
   * Orders the last result's rows by column `key` (null: the statement's
   * own order) without running its statement again: a statement can change
   * things (INSERT ... RETURNING, nextval(), a script) or give other rows a
   * second time (random()), and the whole result is here already. DuckDB
   * orders, so the order is an ORDER BY's for every type (see orderOf).
   * Ties keep the statement's order.
   */
  async sort({ key, desc }) {
    const r = result;
    if (!r) throw usage("bad_argument", "no result");
    const order = key === null ? null : await orderOf(r.table, key, desc);
    if (result === r) r.order = order;
    return { rows: r.table.numRows };
  },

  /**
   * The last result as a CSV or JSON file, its rows in the order shown,
   * each value as the grid shows it (numbers with all their digits, other
   * types as DuckDB's text); repeated column names made unique as the
   * page's labels are. A Blob, made in pieces of ROWS_A_PIECE rows.
   */
  async exportText({ format }, post, id) {
    const r = result;
    if (!r) throw usage("bad_argument", "no result");
    const { table, columns, readers, order } = r;
    const labels = columnLabels(columns.map((c) => ({ name: c.label })));
    // A DECIMAL (or HUGEINT) comes as text but is a number: bare in JSON.
    const fmt = textFormat(format, labels, columns.map((c) => (c.asText ? (c.numeric ? "float64" : "string") : c.type)), []);
    const vecs = columns.map((_, k) => table.getChildAt(k));
    const text = (k, i) => {
      const vec = vecs[k];
      if (!vec.isValid(i)) return null;
      if (readers[k]) return readers[k](vec, i);
      const v = vec.get(i);
      if (v === null || v === undefined) return null;
      const col = columns[k];
      if (col.asText) return textOf(v);
      if (col.type === "string") return v;
      if (col.type === "bytes") return hex(v);
      if (col.type === "bool") return v ? "true" : "false";
      return scalarText(col.type, v);
    };
    const n = table.numRows;
    const what = `the ${fmt.ext.toUpperCase()} of ${plural(n, "row")} × ${plural(columns.length, "column")}`;
    const instead = "Narrow the result first (fewer columns, WHERE, LIMIT, an aggregate), or export from the Data tab, whose save picker (where the browser has one) writes straight into a file.";
    // What it would take, from SAMPLE_ROWS rows spread over the result: a
    // download over the limit is refused before it is written.
    const sample = Math.min(n, SAMPLE_ROWS);
    let sampled = 0;
    for (let s = 0; s < sample; s++) sampled += enc.encode(fmt.row(columns.map((_, k) => text(k, Math.floor((s * n) / sample)))) + fmt.sep).length;
    const about = sample ? Math.round((sampled / sample) * n) : 0;
    if (about > EXPORT_LIMIT) throw usage("too_large", `${what} would take about ${fmtBytes(about)} (by ${plural(sample, "row")} of it), more than the ${fmtBytes(EXPORT_LIMIT)} a download may take in this tab; nothing was written. ${instead}`);
    const parts = [fmt.head];
    let bytes = enc.encode(fmt.head).length;
    for (let at = 0; at < n; at += ROWS_A_PIECE) {
      // (a turn for the page's Stop to arrive: it ends this export alone, the result stays)
      await new Promise((go) => setTimeout(go, 0));
      if (aborted.delete(id)) throw usage("cancelled", "the download was stopped");
      const lines = [];
      for (let j = at; j < Math.min(n, at + ROWS_A_PIECE); j++) {
        const i = order ? order[j] : j;
        lines.push(fmt.row(columns.map((_, k) => text(k, i))));
      }
      const piece = enc.encode((at === 0 ? "" : fmt.sep) + lines.join(fmt.sep));
      bytes += piece.length;
      // (the sample can fall short of the rows it did not see)
      if (bytes > EXPORT_LIMIT) throw usage("too_large", `${what} passed the ${fmtBytes(EXPORT_LIMIT)} a download may take in this tab after ${plural(Math.min(n, at + ROWS_A_PIECE), "row")}; nothing was downloaded. ${instead}`);
      parts.push(new Blob([piece]));
      post({ done: Math.min(n, at + ROWS_A_PIECE), total: n });
    }
    parts.push(fmt.tail);
    return { blob: new Blob(parts, { type: fmt.mime }), ext: fmt.ext, rows: n };
  },

  /** Rows start .. start + count of the last result, as the grid's cells. */
  async rows({ start, count }) {
    if (!result) throw usage("bad_argument", "no result");
    const { table, columns, readers, order } = result;
    const end = Math.min(table.numRows, start + count);
    const out = columns.map((col, k) => {
      const vec = table.getChildAt(k);
      const read = readers[k];
      const cells = [];
      for (let at = start; at < end; at++) {
        const i = order ? order[at] : at;
        if (!vec.isValid(i)) {
          cells.push(null);
          continue;
        }
        const v = read ? null : vec.get(i);
        if (read) cells.push(enc.encode(read(vec, i)));
        else if (v === null || v === undefined) cells.push(null);
        else if (col.asText) cells.push(enc.encode(textOf(v)));
        else if (col.type === "string") cells.push(enc.encode(v));
        else if (col.type === "bytes") cells.push(new Uint8Array(v));
        else cells.push(v);
      }
      return { cells, error: null };
    });
    const ids = new Float64Array(end - start).map((_, i) => start + i);
    return { start, end, total: table.numRows, ids, columns: out };
  },
};

/**
 * The rows of `table` in order of its column `key` (NULLs last either way),
 * by DuckDB: only that column and each row's place go to it, as a table
 * made and dropped on a connection of the page's own (so no setting, USE or
 * transaction of the user's, open or failed, touches it).
 */
async function orderOf(table, key, desc) {
  const n = table.numRows;
  if (n === 0) return new Int32Array(0);
  const A = await loadArrow();
  const col = table.getChildAt(key);
  const sortKey = sortKeyOf(A, col.type, vendorType(table.schema.fields[key]));
  duck.sortConn ||= await duck.db.connect();
  const conn = duck.sortConn;
  // One batch for each of the column's chunks, so a row's key and its place line up.
  let at = 0;
  const batches = col.data.map((d) => {
    const i = new Int32Array(d.length).map((_, j) => at + j);
    at += d.length;
    return new A.RecordBatch({ ...sortKey.parts(d), i: A.makeData({ type: new A.Int32(), length: d.length, data: i }) });
  });
  // DuckDB-Wasm makes it in a schema (the temp catalog is refused): a name no
  // statement of the user's would pick, there only while no statement runs.
  const name = `columns_wasm_sort_${crypto.randomUUID().replaceAll("-", "")}`;
  await conn.insertArrowFromIPCStream(A.tableToIPC(new A.Table(batches), "stream"), { schema: "main", name, create: true });
  try {
    const sorted = await conn.query(`SELECT i FROM main.${name} ORDER BY ${sortKey.expr} ${desc ? "DESC" : "ASC"} NULLS LAST, i`);
    return Int32Array.from(sorted.getChildAt(0).toArray());
  } finally {
    await conn.query(`DROP TABLE main.${name}`);
  }
}


/**
 * How a result column goes back to DuckDB to be ordered as its type orders:
 * `parts(data)`, the Arrow columns for one chunk of it, and `expr`, what
 * ORDER BY takes over them. Mostly the column as it came.
 */
function sortKeyOf(A, type, vendor) {
  const kind = A.Type[type.typeId];
  // A UHUGEINT's little-endian bytes would sort as a BLOB's: it goes as its
  // two 64-bit halves, put back together by DuckDB. (A BIGNUM's bytes sort
  // as its numbers do: that is what its form is made for.)
  if (vendor === "uhugeint") return { expr: "(h::UHUGEINT << 64) | l::UHUGEINT", parts: (d) => halves(A, d) };
  // An ENUM comes as a dictionary whose codes follow the ENUM's order, which
  // its ORDER BY keeps (the text would sort alphabetically). An ENUM inside a
  // LIST or STRUCT sorts by its text.
  if (kind === "Dictionary") return { expr: "k", parts: (d) => ({ k: d.clone(type.indices) }) };
  // apache-arrow 17 writes an INTERVAL (months, days, nanoseconds: 16 bytes
  // a row) as 8 bytes a row: it goes as its three parts, put back together
  // by DuckDB.
  if (kind === "Interval" && type.unit === 2) return { expr: "to_months(m) + to_days(d) + to_microseconds(ns // 1000)", parts: (d) => intervalParts(A, d) };
  if (holds(A, type, INTERVAL)) throw usage("unsupported", "this page cannot sort by a column with intervals inside (apache-arrow 17 does not write them back for DuckDB); ORDER BY in the statement can");
  return { expr: "k", parts: (d) => ({ k: d }) };
}

/** An INTERVAL chunk's months, days and nanoseconds, as columns m, d, ns (same offset and nulls). */
function intervalParts(A, data) {
  const { offset, length, values: v } = data;
  const end = offset + length;
  const m = new Int32Array(end);
  const d = new Int32Array(end);
  const ns = new BigInt64Array(end);
  for (let j = offset; j < end; j++) {
    m[j] = v[4 * j];
    d[j] = v[4 * j + 1];
    ns[j] = BigInt.asIntN(64, (BigInt(v[4 * j + 3] >>> 0) << 32n) | BigInt(v[4 * j + 2] >>> 0));
  }
  const part = (type, values) => A.makeData({ type, offset, length, nullCount: data.nullCount, nullBitmap: data.nullBitmap, data: values });
  return { m: part(new A.Int32(), m), d: part(new A.Int32(), d), ns: part(new A.Int64(), ns) };
}

/** A UHUGEINT chunk's high and low 64 bits, as columns h, l (same offset and nulls). */
function halves(A, data) {
  const { offset, length } = data;
  const end = offset + length;
  const v = data.values;
  // (a copy: the values need not start 8-aligned in their buffer)
  const words = new BigUint64Array(v.slice(0, end * 16).buffer);
  const h = new BigUint64Array(end);
  const l = new BigUint64Array(end);
  for (let j = offset; j < end; j++) {
    l[j] = words[2 * j];
    h[j] = words[2 * j + 1];
  }
  const part = (values) => A.makeData({ type: new A.Uint64(), offset, length, nullCount: data.nullCount, nullBitmap: data.nullBitmap, data: values });
  return { h: part(h), l: part(l) };
}

function emptyOf(type) {
  const T = { bool: Uint8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array, float32: Float32Array, float64: Float64Array }[type];
  return new T(0);
}

self.onmessage = async (ev) => {
  const { id, op, args, abort } = ev.data;
  // Long DuckDB work stops only by terminating this worker; an export
  // (exportText) stops at its next piece.
  if (abort !== undefined) return void aborted.add(abort);
  const post = (progress) => self.postMessage({ id, progress });
  try {
    await ready;
    if (!ops[op]) throw usage("bad_argument", `unknown operation ${op}`);
    self.postMessage({ id, ok: true, result: await ops[op](args || {}, post, id) });
  } catch (e) {
    self.postMessage({ id, ok: false, error: errorInfo(e) });
  } finally {
    aborted.delete(id);
  }
};

ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ ready: false, error: errorInfo(e) }),
);
