// Shortens the names the wasm and its glue share. wasm-bindgen names each
// import after its function plus a 16-hex-digit hash
// (`__wbg_subarray_17bf932578402c1d`), each closure trampoline export
// likewise, and every import's module by its path; every name is written
// once in the .wasm and once in the glue, and the hashes do not compress:
// about 3 KB gzip of what a browser downloads. Here each becomes a short
// name in both, consistently. A name is renamed only where the glue uses
// it in exactly the expected places (a module: once, as a key of the
// import object; an import: once, as the key of its function; an export:
// as `wasm.NAME`, the glue's own same-named wrappers being local
// functions), so a glue this does not understand is left as it is.
//   shortenNames(wasmBytes, glueText) -> { wasm, glue }

const IMPORT_SECTION = 2;
const EXPORT_SECTION = 7;

/** An unsigned LEB128 at `at.i` (advanced past it). */
export function readU32(b, at) {
  let v = 0;
  let shift = 0;
  for (;;) {
    const byte = b[at.i++];
    v |= (byte & 0x7f) << shift;
    if (!(byte & 0x80)) return v >>> 0;
    shift += 7;
  }
}

function u32(v) {
  const out = [];
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

const utf8 = new TextDecoder();
const enc = new TextEncoder();

/** A length-prefixed UTF-8 name at `at.i` (advanced past it). */
export function readName(b, at) {
  const n = readU32(b, at);
  const s = utf8.decode(b.subarray(at.i, at.i + n));
  at.i += n;
  return s;
}

const name = (s) => {
  const bytes = enc.encode(s);
  return [...u32(bytes.length), ...bytes];
};

// Skips an import's descriptor (function, table, memory, global, tag).
function skipLimits(b, at) {
  const flags = b[at.i++];
  readU32(b, at);
  if (flags & 1) readU32(b, at);
}

function skipImportDesc(b, at) {
  const kind = b[at.i++];
  if (kind === 0) readU32(b, at);
  else if (kind === 1) {
    at.i++; // reference type
    skipLimits(b, at);
  } else if (kind === 2) skipLimits(b, at);
  else if (kind === 3) at.i += 2; // value type, mutability
  else if (kind === 4) {
    at.i++;
    readU32(b, at);
  } else throw new Error(`unknown import kind ${kind}`);
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const count = (text, re) => (text.match(re) || []).length;

// Short names: a, b, ..., z, aa, ab, ... (valid JS identifiers, unlike the
// decimal numbers that would sort first).
function* shortNames(prefix) {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (let len = 1; ; len++) {
    const idx = new Array(len).fill(0);
    for (;;) {
      yield prefix + idx.map((i) => letters[i]).join("");
      let k = len - 1;
      while (k >= 0 && ++idx[k] === letters.length) idx[k--] = 0;
      if (k < 0) break;
    }
  }
}

/**
 * The glue hands the wasm a JS snippet module whole (`import * as importN`),
 * which makes a bundler build a namespace object of every export; the wasm
 * takes only a few (`settle`), so the import object gets just those, by
 * name. Left as it is unless the glue names the namespace exactly twice.
 */
function namedSnippetImports(text, modules, fieldsOf) {
  for (const short of new Set(modules.values())) {
    const key = new RegExp(`"${escape(short)}": (import\\d+),`);
    const ns = key.exec(text)?.[1];
    const fields = [...(fieldsOf.get(short) ?? [])];
    if (!ns || count(text, new RegExp(`\\b${ns}\\b`, "g")) !== 2 || !fields.every((f) => /^[A-Za-z_$][\w$]*$/.test(f))) continue;
    const decl = new RegExp(`import \\* as ${ns} from ("[^"]+"|'[^']+');?`);
    if (!decl.test(text)) continue;
    const local = (f) => `${ns}_${f}`;
    text = text.replace(decl, (_, from) => `import { ${fields.map((f) => `${f} as ${local(f)}`).join(", ")} } from ${from};`);
    text = text.replace(key, `"${short}": { ${fields.map((f) => `${f}: ${local(f)}`).join(", ")} },`);
  }
  return text;
}

export function shortenNames(wasm, glue) {
  const b = wasm;
  if (!(b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d)) throw new Error("not a wasm module");
  const importNames = shortNames("i");
  const exportNames = shortNames("x");
  const moduleNames = shortNames("m");
  const modules = new Map();
  const fieldsOf = new Map(); // short module name -> the fields imported from it
  const parts = [b.subarray(0, 8)];
  let text = glue;
  const at = { i: 8 };
  while (at.i < b.length) {
    const start = at.i;
    const id = b[at.i++];
    const size = readU32(b, at);
    const body = at.i;
    const end = body + size;
    if (id !== IMPORT_SECTION && id !== EXPORT_SECTION) {
      parts.push(b.subarray(start, end));
      at.i = end;
      continue;
    }
    const out = [];
    const n = readU32(b, at);
    out.push(...u32(n));
    for (let k = 0; k < n; k++) {
      if (id === IMPORT_SECTION) {
        let module = readName(b, at);
        // A module is named once in the glue, as the key of its import object.
        if (!modules.has(module)) {
          const key = new RegExp(`"${escape(module)}": import`, "g");
          const short = count(text, key) === 1 ? moduleNames.next().value : module;
          text = text.replace(key, `"${short}": import`);
          modules.set(module, short);
        }
        module = modules.get(module);
        const field = readName(b, at);
        if (!fieldsOf.has(module)) fieldsOf.set(module, new Set());
        fieldsOf.get(module).add(field);
        const descStart = at.i;
        skipImportDesc(b, at);
        let short = field;
        // The glue defines the import once, as `NAME: function(`, and names it nowhere else.
        const key = new RegExp(`\\b${escape(field)}: function\\(`, "g");
        if (field.length > 3 && count(text, key) === 1 && count(text, new RegExp(`\\b${escape(field)}\\b`, "g")) === 1) {
          short = importNames.next().value;
          text = text.replace(key, `${short}: function(`);
        }
        out.push(...name(module), ...name(short), ...b.subarray(descStart, at.i));
      } else {
        const field = readName(b, at);
        const descStart = at.i;
        at.i++; // kind
        readU32(b, at);
        let short = field;
        // Those the glue calls as `wasm.NAME` (its other mentions are its
        // own local wrappers); the memory keeps its name.
        const uses = new RegExp(`\\bwasm\\.${escape(field)}\\b`, "g");
        if (field !== "memory" && field.length > 2 && count(text, uses) > 0) {
          short = exportNames.next().value;
          text = text.replace(uses, `wasm.${short}`);
        }
        out.push(...name(short), ...b.subarray(descStart, at.i));
      }
    }
    if (at.i !== end) throw new Error(`section ${id}: parsed ${at.i - body} of ${size} bytes`);
    parts.push(Uint8Array.of(id, ...u32(out.length), ...out));
  }
  text = namedSnippetImports(text, modules, fieldsOf);
  const total = parts.reduce((s, p) => s + p.length, 0);
  const result = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    result.set(p, o);
    o += p.length;
  }
  return { wasm: result, glue: text };
}
