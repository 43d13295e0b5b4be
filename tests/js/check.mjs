// Conformance check of the JavaScript API against the corpus (FORMAT.md
// section 7): opens a file through `ColumnsFile`, renders everything it
// reports in the corpus JSON's own value form, and compares that with the
// expected NAME.json key by key, the same things the native runner
// (tests/common/conformance.rs) compares.
//
// Environment-neutral: no Node-only APIs and no imports, so it runs in Node
// and, as a wasm-bindgen snippet, in the browser. The API under test is
// passed in (`ColumnsFile`, `TokenizerRegistry`), never imported.
//
//   await checkFile({ ColumnsFile, TokenizerRegistry, bytes, expected, tokenizers, name, mode })
//     -> null when the file conforms, else a string describing the first difference.
//   mode: "bytes" (fromBytes, synchronous reads; the default), "async"
//   (fromAsyncBuffer over the bytes, readColumnsAsync), "blob" (fromBlob).

/** Type tags of FORMAT.md section 5. */
export const TYPE_TAGS = Object.freeze({
  bool: 1, int8: 2, int16: 3, int32: 4, int64: 5, uint8: 6, uint16: 7, uint32: 8,
  uint64: 9, float32: 10, float64: 11, bytes: 12, string: 13,
});

/** The typed array each column type must come back in (`col.values`). */
const ARRAY_OF = Object.freeze({
  bool: "Uint8Array", int8: "Int8Array", int16: "Int16Array", int32: "Int32Array",
  int64: "BigInt64Array", uint8: "Uint8Array", uint16: "Uint16Array", uint32: "Uint32Array",
  uint64: "BigUint64Array", float32: "Float32Array", float64: "Float64Array",
});

/** Every error kind the API documents (ColumnsError in the .d.ts). */
export const ERROR_KINDS = Object.freeze([
  "truncated", "bad_magic", "unsupported_version", "corrupt_footer", "corrupt_chunk",
  "unsupported_codec", "unsupported_encoding", "unknown_tokenizer", "out_of_range",
  "invalid_tokenizer", "too_large", "not_in_memory", "bad_source", "bad_argument", "aborted",
  "busy", "released",
]);

const TOKENIZED = 7; // encoding tag

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });
const lossyUtf8 = new TextDecoder("utf-8");
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function hex(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

/** A string value in corpus form: the text, or {hex} when not valid UTF-8. */
function textJson(bytes) {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return { hex: hex(bytes) };
  }
}

function f32Bits(x) {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, x);
  return "0x" + dv.getUint32(0).toString(16).padStart(8, "0");
}

function f64Bits(x) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return "0x" + dv.getBigUint64(0).toString(16).padStart(16, "0");
}

function bitsAreNaN(bits, width) {
  const v = BigInt(bits);
  return width === 32
    ? ((v >> 23n) & 0xffn) === 0xffn && (v & 0x7fffffn) !== 0n
    : ((v >> 52n) & 0x7ffn) === 0x7ffn && (v & 0xfffffffffffffn) !== 0n;
}

function short(v) {
  const s = JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));
  return s === undefined ? String(v) : s.length > 120 ? s.slice(0, 120) + "..." : s;
}

/** Describes anything thrown, for failure messages. */
export function describeThrown(e) {
  if (e instanceof Error) return `${e.constructor?.name ?? "Error"}${typeof e.kind === "string" ? ` [${e.kind}]` : ""}: ${e.message}`;
  return `non-Error ${typeof e}: ${short(e)}`;
}

/** A thrown value that is a proper API error: an Error with a documented string kind. */
export function isApiError(e) {
  return e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && typeof e.kind === "string" && ERROR_KINDS.includes(e.kind);
}

/** Compares every key of `expected` (except the top-level free-text `note`)
 *  with `actual`; returns the first difference by its path, or null. */
export function compare(path, expected, actual) {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, read ${short(actual)}`;
    if (expected.length !== actual.length) return `${path}: expected ${expected.length} items, read ${actual.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = compare(`${path}[${i}]`, expected[i], actual[i]);
      if (d) return d;
    }
    return null;
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return `${path}: expected ${short(expected)}, read ${short(actual)}`;
    for (const k of Object.keys(expected)) {
      if (path === "" && k === "note") continue;
      const p = `${path}.${k}`;
      if (!(k in actual) || actual[k] === undefined) return `${p}: the reader reports nothing for this key`;
      const d = compare(p, expected[k], actual[k]);
      if (d) return d;
    }
    return null;
  }
  return expected === actual ? null : `${path}: expected ${short(expected)}, read ${short(actual)}`;
}

/** A statistic (`min`/`max`, in toArray() form) in corpus form, checked
 *  against its raw bytes where JS cannot carry the value exactly. */
function statJson(type, value, raw, where) {
  if (value === null) return null;
  switch (type) {
    case "bool":
      if (typeof value !== "boolean") throw `${where}: bool statistic is ${typeof value}`;
      return value;
    case "int64":
    case "uint64":
      if (typeof value !== "bigint") throw `${where}: ${type} statistic is ${typeof value}, not bigint`;
      return value.toString();
    case "float32":
    case "float64": {
      if (typeof value !== "number") throw `${where}: ${type} statistic is ${typeof value}`;
      const width = type === "float32" ? 32 : 64;
      // A JS number cannot carry a NaN payload: take the bits from the raw
      // statistic then, after checking that it is a NaN too.
      if (Number.isNaN(value)) {
        const bits = "0x" + hex(Uint8Array.from(raw).reverse());
        if (raw.length !== width / 8 || !bitsAreNaN(bits, width)) throw `${where}: statistic is NaN but its raw bytes ${hex(raw)} are not`;
        return bits;
      }
      return width === 32 ? f32Bits(value) : f64Bits(value);
    }
    case "string": {
      if (typeof value !== "string") throw `${where}: string statistic is ${typeof value}`;
      const j = textJson(raw);
      if (typeof j === "string") {
        if (j !== value) throw `${where}: statistic ${short(value)} is not its raw bytes ${short(j)}`;
        return value;
      }
      if (value !== lossyUtf8.decode(raw)) throw `${where}: statistic ${short(value)} is not the lossy text of its raw bytes`;
      return j;
    }
    case "bytes":
      if (!(value instanceof Uint8Array)) throw `${where}: bytes statistic is not a Uint8Array`;
      return hex(value);
    default:
      if (typeof value !== "number") throw `${where}: ${type} statistic is ${typeof value}`;
      return value;
  }
}

/** A decoded column's values in corpus form, read from `values`/`validity`
 *  (exact), after checking the column's shape. Throws a string on a defect. */
export function columnJson(col, type, where = "column") {
  if (col === null || typeof col !== "object") throw `${where}: not a column object`;
  if (col.type !== type) throw `${where}: column type ${short(col.type)}, schema says ${type}`;
  const n = col.length;
  if (!Number.isInteger(n) || n < 0) throw `${where}: bad length ${short(n)}`;
  const validity = col.validity;
  let nulls = 0;
  if (validity !== null) {
    if (!(validity instanceof Uint8Array)) throw `${where}: validity is not a Uint8Array or null`;
    if (validity.length !== Math.ceil(n / 8)) throw `${where}: validity has ${validity.length} bytes for ${n} rows`;
  }
  const valid = (i) => validity === null || ((validity[i >> 3] >> (i & 7)) & 1) === 1;
  const out = new Array(n);
  const v = col.values;
  if (type === "string" || type === "bytes") {
    if (v === null || typeof v !== "object" || !(v.offsets instanceof Uint32Array) || !(v.data instanceof Uint8Array)) {
      throw `${where}: ${type} values are not {offsets: Uint32Array, data: Uint8Array}`;
    }
    const { offsets, data } = v;
    if (offsets.length !== n + 1) throw `${where}: ${offsets.length} offsets for ${n} rows`;
    if (offsets[n] > data.length) throw `${where}: last offset ${offsets[n]} past the ${data.length} data bytes`;
    for (let i = 0; i < n; i++) {
      if (offsets[i] > offsets[i + 1]) throw `${where}: offsets decrease at row ${i}`;
      if (!valid(i)) { out[i] = null; nulls++; continue; }
      const b = data.subarray(offsets[i], offsets[i + 1]);
      out[i] = type === "string" ? textJson(b) : hex(b);
    }
  } else {
    const want = ARRAY_OF[type];
    if (want === undefined) throw `${where}: unknown column type ${short(type)}`;
    if (v === null || typeof v !== "object" || v.constructor?.name !== want) throw `${where}: ${type} values are ${v?.constructor?.name ?? typeof v}, not ${want}`;
    if (v.length !== n) throw `${where}: ${v.length} values for ${n} rows`;
    const dv = new DataView(v.buffer, v.byteOffset, v.byteLength);
    for (let i = 0; i < n; i++) {
      if (!valid(i)) { out[i] = null; nulls++; continue; }
      switch (type) {
        case "bool":
          if (v[i] > 1) throw `${where}: bool value ${v[i]} at row ${i}`;
          out[i] = v[i] === 1;
          break;
        case "int64":
        case "uint64":
          out[i] = v[i].toString();
          break;
        case "float32":
          out[i] = "0x" + dv.getUint32(i * 4, LITTLE_ENDIAN_HOST).toString(16).padStart(8, "0");
          break;
        case "float64":
          out[i] = "0x" + dv.getBigUint64(i * 8, LITTLE_ENDIAN_HOST).toString(16).padStart(16, "0");
          break;
        default:
          out[i] = v[i];
      }
    }
  }
  if (col.nullCount !== nulls) throw `${where}: nullCount ${col.nullCount} but validity marks ${nulls} nulls`;
  if (validity === null && nulls !== 0) throw `${where}: internal`;
  return out;
}

/** Checks that `col.toArray()` agrees with the exact corpus-form values. */
export function checkToArray(col, type, json, where = "column") {
  const arr = col.toArray();
  if (!Array.isArray(arr) || arr.length !== json.length) return `${where}: toArray() gave ${arr?.length} items for ${json.length} rows`;
  for (let i = 0; i < json.length; i++) {
    const e = json[i], a = arr[i];
    const bad = () => `${where}: toArray()[${i}] = ${short(a)} disagrees with ${short(e)}`;
    if (e === null) {
      if (a !== null) return bad();
      continue;
    }
    switch (type) {
      case "bool":
        if (a !== e) return bad();
        break;
      case "int64":
      case "uint64":
        if (typeof a !== "bigint" || a.toString() !== e) return bad();
        break;
      case "float32":
      case "float64": {
        if (typeof a !== "number") return bad();
        const w = type === "float32" ? 32 : 64;
        if (bitsAreNaN(e, w) ? !Number.isNaN(a) : (w === 32 ? f32Bits(a) : f64Bits(a)) !== e) return bad();
        break;
      }
      case "string": {
        if (typeof a !== "string") return bad();
        if (typeof e === "string") {
          if (a !== e) return bad();
        } else if (a !== lossyUtf8.decode(fromHex(e.hex))) {
          return bad();
        }
        break;
      }
      case "bytes":
        if (!(a instanceof Uint8Array) || hex(a) !== e) return bad();
        break;
      default:
        if (typeof a !== "number" || a !== e) return bad();
    }
    if (col.isValid(i) !== true) return `${where}: isValid(${i}) is not true for a value`;
  }
  return null;
}

export function fromHex(s) {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(i * 2, 2), 16);
  return out;
}

/** An AsyncBuffer over bytes in memory; `log` (optional array) records each
 *  slice(start, end) call. Resolves asynchronously, like a real source. */
export function memoryAsyncBuffer(bytes, log) {
  return {
    byteLength: bytes.length,
    slice(start, end) {
      if (log) log.push([start, end]);
      return Promise.resolve().then(() => bytes.slice(start, end).buffer);
    },
  };
}

async function open(api, mode, bytes, registry) {
  switch (mode) {
    case "bytes":
      return api.ColumnsFile.fromBytes(bytes, registry);
    case "async":
      return await api.ColumnsFile.fromAsyncBuffer(memoryAsyncBuffer(bytes), registry);
    case "blob":
      return await api.ColumnsFile.fromBlob(new Blob([bytes]), registry);
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

async function readOne(file, mode, g, c) {
  return mode === "bytes" ? file.readColumn(g, c) : await file.readColumnAsync(g, c);
}

function makeRegistry(api, tokenizers) {
  const reg = new api.TokenizerRegistry();
  for (const t of tokenizers) reg.register(t);
  return reg;
}

/** Checks one corpus file: `expected` is its parsed NAME.json. */
export async function checkFile({ ColumnsFile, TokenizerRegistry, bytes, expected, tokenizers = [], name, mode = "bytes" }) {
  const api = { ColumnsFile, TokenizerRegistry };
  const registry = makeRegistry(api, tokenizers);
  try {
    if (typeof expected.error === "string") {
      return await checkError(api, mode, bytes, expected.error, expected.at === "read", registry);
    }
    return await checkValid(api, mode, bytes, expected, name ?? expected.file, registry);
  } catch (e) {
    return typeof e === "string" ? e : `unexpected throw: ${describeThrown(e)}`;
  } finally {
    registry.free();
  }
}

async function checkError(api, mode, bytes, kind, atRead, registry) {
  let file;
  try {
    file = await open(api, mode, bytes, registry);
  } catch (e) {
    if (atRead) return `expected to open (then fail reading with ${kind}), got ${describeThrown(e)}`;
    if (!isApiError(e)) return `expected ${kind}, got ${describeThrown(e)}`;
    return e.kind === kind ? null : `expected ${kind}, got ${describeThrown(e)}`;
  }
  try {
    if (!atRead) return `opened, expected ${kind}`;
    let failures = 0;
    for (let g = 0; g < file.rowGroups.length; g++) {
      for (let c = 0; c < file.schema.length; c++) {
        try {
          await readOne(file, mode, g, c);
        } catch (e) {
          if (!isApiError(e) || e.kind !== kind) return `rg ${g} col ${c}: expected ${kind}, got ${describeThrown(e)}`;
          if (e.rowGroup !== g || e.column !== c) return `rg ${g} col ${c}: error names rowGroup ${e.rowGroup} column ${e.column}`;
          failures++;
        }
      }
    }
    return failures === 0 ? `every column read, expected ${kind}` : null;
  } finally {
    file.free();
  }
}

async function checkValid(api, mode, bytes, expected, name, registry) {
  let file;
  try {
    file = await open(api, mode, bytes, registry);
  } catch (e) {
    return `failed to open: ${describeThrown(e)}`;
  }
  try {
    const actual = await render(file, mode, bytes, name, registry);
    const d = compare("", expected, actual.json);
    if (d) return d;
    for (const [where, col, type, json] of actual.columns) {
      const t = checkToArray(col, type, json, where);
      if (t) return t;
    }
  } finally {
    file.free();
  }
  return await checkMissingTokenizers(api, mode, bytes);
}

/** Everything the API reports about a file, in the corpus JSON's form. */
async function render(file, mode, bytes, name, registry) {
  const schema = file.schema;
  const types = schema.map((s) => s.type);
  const groups = file.rowGroups;
  // Decode first: Blob/AsyncBuffer files learn raw lengths and block
  // counts from the chunk headers they read.
  let decoded;
  if (mode === "bytes") {
    decoded = [];
    for (let g = 0; g < groups.length; g++) for (let c = 0; c < schema.length; c++) decoded.push(file.readColumn(g, c));
    const again = file.readColumns();
    if (again.length !== decoded.length) throw `readColumns() gave ${again.length} columns, expected ${decoded.length}`;
  } else {
    decoded = await file.readColumnsAsync();
  }
  if (!Array.isArray(decoded) || decoded.length !== groups.length * schema.length) {
    throw `reading every column gave ${decoded?.length} columns, expected ${groups.length * schema.length}`;
  }
  const refs = file.tokenizers;
  for (const t of refs) {
    if (t.resolved !== registry.has(t.digest)) throw `tokenizer ${t.digest}: resolved is ${t.resolved}, registry.has says ${!t.resolved}`;
  }
  const digests = refs.map((t) => t.digest);
  const columnsOut = [];
  const rowGroups = file.rowGroups.map((rg, g) => {
    if (rg.columns.length !== schema.length) throw `rg ${g}: ${rg.columns.length} chunks for ${schema.length} columns`;
    const columns = rg.columns.map((cm, c) => {
      const where = `rg ${g} col ${c}`;
      const type = types[c];
      if (cm.tokenizerDigest !== (cm.tokenizer > 0 ? digests[cm.tokenizer - 1] : null)) {
        throw `${where}: tokenizerDigest ${short(cm.tokenizerDigest)} does not match tokenizer ${cm.tokenizer} of the header`;
      }
      if (mode === "bytes") {
        // The chunk header is authoritative: its tags must match the footer's.
        const report = file.inspectChunk(g, c);
        if (report.encoding !== cm.encoding || report.codec !== cm.codec) throw `${where}: footer tags differ from the chunk header`;
        if (report.rawLength !== cm.rawLength || report.blocks.length !== cm.blockCount) throw `${where}: inspectChunk disagrees with rowGroups on raw length or block count`;
      }
      return {
        block_count: cm.blockCount,
        byte_length: cm.byteLength,
        chunk_offset: cm.byteOffset,
        codec: cm.codec,
        codec_tag: cm.codecTag,
        encoding: cm.encoding,
        encoding_tag: cm.encodingTag,
        max: statJson(type, cm.max, cm.maxRaw, `${where} max`),
        max_hex: hex(cm.maxRaw),
        max_len: cm.maxLen,
        min: statJson(type, cm.min, cm.minRaw, `${where} min`),
        min_hex: hex(cm.minRaw),
        min_len: cm.minLen,
        null_count: cm.nullCount,
        raw_length: cm.rawLength,
        tokenizer: cm.tokenizer,
      };
    });
    const values = [];
    for (let c = 0; c < schema.length; c++) {
      const where = `rg ${g} col ${c}`;
      const col = decoded[g * schema.length + c];
      if (col.length !== rg.numRows) throw `${where}: ${col.length} rows, the row group has ${rg.numRows}`;
      const json = columnJson(col, types[c], where);
      columnsOut.push([where, col, types[c], json]);
      values.push(json);
    }
    return { num_rows: rg.numRows, byte_offset: rg.byteOffset, columns, values };
  });
  const total = groups.reduce((s, rg) => s + rg.numRows, 0);
  if (file.numRows !== total) throw `numRows ${file.numRows}, row groups hold ${total}`;
  if (mode === "bytes" && (file.bytesRead !== 0 || file.inMemory !== true)) throw `fromBytes file reports bytesRead ${file.bytesRead}, inMemory ${file.inMemory}`;
  const json = {
    file: name,
    size: file.byteLength,
    version: file.version,
    footer_length: file.footerLength,
    tokenizers: file.version === 1 ? null : digests,
    schema: schema.map((s) => ({ name: s.name, type: s.type, type_tag: TYPE_TAGS[s.type], nullable: s.nullable })),
    row_groups: rowGroups.length === 0 ? null : rowGroups,
  };
  if (bytes.length !== file.byteLength) throw `byteLength ${file.byteLength} for ${bytes.length} bytes`;
  return { json, columns: columnsOut };
}

/** Opened with no tokenizers, every tokenized chunk must be refused with
 *  unknown_tokenizer naming its digest; every other chunk must still read. */
async function checkMissingTokenizers(api, mode, bytes) {
  const file = await open(api, mode, bytes, undefined);
  try {
    if (file.tokenizers.length === 0) return null;
    for (const t of file.tokenizers) if (t.resolved) return `tokenizer ${t.digest} resolved without a registry`;
    const groups = file.rowGroups;
    for (let g = 0; g < groups.length; g++) {
      for (let c = 0; c < groups[g].columns.length; c++) {
        const cm = groups[g].columns[c];
        const tokenized = cm.encodingTag === TOKENIZED;
        let err = null;
        try {
          await readOne(file, mode, g, c);
        } catch (e) {
          err = e;
        }
        const where = `rg ${g} col ${c} without tokenizers`;
        if (tokenized && err === null) return `${where}: tokenized but read without its tokenizer`;
        if (tokenized) {
          const digest = cm.tokenizerDigest;
          if (!isApiError(err) || err.kind !== "unknown_tokenizer" || typeof digest !== "string" || !String(err.message).includes(digest)) {
            return `${where}: expected unknown_tokenizer naming ${digest}, got ${describeThrown(err)}`;
          }
        } else if (err !== null) {
          return `${where}: not tokenized but failed: ${describeThrown(err)}`;
        }
      }
    }
    return null;
  } finally {
    file.free();
  }
}

/** Strings (as UTF-8) or byte arrays end to end: { offsets, data } as a
 *  string column holds them, for tests that build columns by hand. */
export function offsetsAndData(values) {
  const enc = new TextEncoder();
  const parts = values.map((v) => (typeof v === "string" ? enc.encode(v) : Uint8Array.from(v)));
  const offsets = new Uint32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  const data = new Uint8Array(offsets[parts.length]);
  parts.forEach((p, i) => data.set(p, offsets[i]));
  return { offsets, data };
}
