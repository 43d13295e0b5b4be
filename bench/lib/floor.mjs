// The inflate floor (issues 5 and 9): raw DEFLATE decoding alone of every
// Flate block of a columns file, by bench/floor's wasm module (plain
// exports, no wasm-bindgen), built with columns-wasm's release settings and
// its inflater, in the same page or process as the readers.
//
// Untimed setup per file, shared by its decoders: every block copied into
// the module's memory once, one output region per chunk of its exact raw
// length; then each of the three decoders (ours, zune-inflate, miniz_oxide)
// inflates everything once: their outputs must be identical, every block
// exactly its raw length, and where the stream is the values themselves
// (Plain and Delta chunks) it is checked against the values columns-wasm
// decodes (Delta: the prefix sum of the stream is the column; Plain: the
// stream is the non-null values' bytes, strings with length prefixes). Other
// encodings (Dict, Affix, Tokenized, ...) rest on the three-way agreement.
// A timed run is one export call per block; its check compares both ends of
// every block's output (overwritten between runs, so each run must write them).


/** The floor module's export each floor reader calls. */
export const FLOORS = { floorOurs: "ours_inflate", floorZune: "zune_inflate", floorMiniz: "miniz_inflate" };
export const isFloor = (reader) => reader in FLOORS;

const FLOOR_EDGE = 16; // bytes at each end of a block's output that every run's check compares

/** Instantiates the floor module. It links columns-wasm's code, whose
 *  JavaScript-boundary imports the floor never calls: each is a stub that throws. */
async function instantiateFloor(module) {
  const imports = {};
  for (const { module: m, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== "function") throw new Error(`floor module imports a ${kind} (${m}.${name})`);
    (imports[m] ??= {})[name] = () => {
      throw new Error(`floor: unexpected call to ${m}.${name}`);
    };
  }
  return (await WebAssembly.instantiate(module, imports)).exports;
}

/**
 * Sets up the floor of one columns file (`input`: { bytes, registry }) and
 * returns it, or null when the file has no Flate block. Needs
 * `libs.floorModule` (a compiled WebAssembly.Module of bench/floor) and
 * columns-wasm (for the block table and the value check).
 */
export async function prepareFloor(libs, input, id, log = () => {}) {
  const t0 = performance.now();
  const floor = await floorSetup(libs, input.bytes, input.registry);
  if (!floor) return null;
  const { blocks, stored, raw, columns, checked } = floor.info;
  log(`floor ${id}: ${blocks} Flate blocks of ${columns.length} columns, ${stored} → ${raw} bytes; 3 decoders agree; ${checked} of ${floor.chunks.length} chunks checked against the values (Plain, Delta); ${(performance.now() - t0).toFixed(0)} ms`);
  return floor;
}

/**
 * The Flate chunks of an open columns-wasm file, in file order, each with
 * its blocks ({ at, inLen, outLen }: `at` an offset in the file). Also
 * bench/floor-ab.mjs's block table.
 */
export function flateChunks(file) {
  const chunks = [];
  file.rowGroups.forEach((group, g) =>
    group.columns.forEach((meta, c) => {
      if (meta.codec !== "Flate") return;
      const report = file.inspectChunk(g, c);
      if (report.error) throw new Error(`floor: chunk ${g}/${c} does not decode: ${report.error}`);
      const blocks = report.blocks.map((b) => ({ at: b.offset, inLen: b.storedLength, outLen: b.rawLength }));
      chunks.push({ g, c, rows: group.numRows, encoding: meta.encoding, raw: report.rawLength, blocks });
    }),
  );
  return chunks;
}

async function floorSetup(libs, bytes, registry) {
  const file = libs.ColumnsFile.fromBytes(bytes, registry);
  try {
    const schema = file.schema;
    const chunks = [];
    const blocks = [];
    for (const { blocks: own, ...chunk } of flateChunks(file)) {
      chunks.push({ ...chunk, first: blocks.length, count: own.length });
      blocks.push(...own);
    }
    const n = blocks.length;
    if (n === 0) return null;
    const x = await instantiateFloor(libs.floorModule);
    const stored = blocks.reduce((s, b) => s + b.inLen, 0);
    const raw = blocks.reduce((s, b) => s + b.outLen, 0);
    const inBase = x.alloc(stored);
    const outBase = x.alloc(raw);
    if (!inBase || !outBase) throw new Error("floor: alloc failed");
    const fl = { x, n, inPtr: new Uint32Array(n), inLen: new Uint32Array(n), outPtr: new Uint32Array(n), outLen: new Uint32Array(n), chunks };
    let mem = new Uint8Array(x.memory.buffer);
    let inAt = inBase, outAt = outBase;
    blocks.forEach((b, i) => {
      mem.set(bytes.subarray(b.at, b.at + b.inLen), inAt);
      [fl.inPtr[i], fl.inLen[i], fl.outPtr[i], fl.outLen[i]] = [inAt, b.inLen, outAt, b.outLen];
      inAt += b.inLen;
      outAt += b.outLen;
    });
    for (const ch of chunks) ch.at = fl.outPtr[ch.first]; // a chunk's blocks inflate back to back: its stream

    let reference = null;
    let checked = 0;
    for (const [reader, fn] of Object.entries(FLOORS)) {
      mem = new Uint8Array(x.memory.buffer);
      mem.fill(0, outBase, outBase + raw);
      for (let i = 0; i < n; i++) {
        const r = x[fn](fl.inPtr[i], fl.inLen[i], fl.outPtr[i], fl.outLen[i], 1); // 1: zune copies all of its output
        if (r !== fl.outLen[i]) throw new Error(`floor ${reader}: block ${i} gave ${r}, expected ${fl.outLen[i]} bytes`);
      }
      mem = new Uint8Array(x.memory.buffer); // the decoders may have grown the memory
      const out = mem.subarray(outBase, outBase + raw);
      if (reference === null) {
        for (const ch of chunks) checked += checkFloorChunk(file, ch, mem.subarray(ch.at, ch.at + ch.raw)) ? 1 : 0;
        reference = out.slice();
      } else if (!sameBytes(out, reference)) {
        throw new Error(`floor ${reader}: output differs from ${Object.keys(FLOORS)[0]}'s`);
      }
    }
    // What every run's check compares: both ends of every block's output.
    fl.edges = new Uint8Array(n * 2 * FLOOR_EDGE);
    for (let i = 0; i < n; i++) {
      const [head, tail] = floorEdges(fl, i);
      fl.edges.set(mem.subarray(...head), i * 2 * FLOOR_EDGE);
      fl.edges.set(mem.subarray(...tail), i * 2 * FLOOR_EDGE + FLOOR_EDGE);
    }
    const columns = [...new Set(chunks.map((ch) => ch.c))].sort((a, b) => a - b);
    fl.info = { blocks: n, stored, raw, columns, columnNames: columns.map((c) => schema[c].name), checked };
    return fl;
  } finally {
    file.free?.();
  }
}

/** [start, end) of block i's first and last FLOOR_EDGE output bytes (at most its length). */
function floorEdges(fl, i) {
  const k = Math.min(FLOOR_EDGE, fl.outLen[i]);
  const start = fl.outPtr[i], end = start + fl.outLen[i];
  return [[start, start + k], [end - k, end]];
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  const w = a.length >> 2;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const a4 = new Int32Array(a.buffer, a.byteOffset, w), b4 = new Int32Array(b.buffer, b.byteOffset, w);
    for (let i = 0; i < w; i++) if (a4[i] !== b4[i]) return false;
    for (let i = w * 4; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const INT_BITS = { int8: [8, true], int16: [16, true], int32: [32, true], int64: [64, true], uint8: [8, false], uint16: [16, false], uint32: [32, false], uint64: [64, false] };

/** The inflated stream of one chunk against columns-wasm's decoded column,
 *  where the stream is the values (Plain, Delta); returns whether it could
 *  check. The stream holds the non-null values only. */
function checkFloorChunk(file, ch, stream) {
  if (ch.encoding !== "Plain" && ch.encoding !== "Delta") return false;
  const col = file.readColumn(ch.g, ch.c);
  const fail = (msg) => {
    throw new Error(`floor check, row group ${ch.g} column ${ch.c} (${ch.encoding}): ${msg}`);
  };
  try {
    if (col.length !== ch.rows) fail(`columns-wasm decoded ${col.length} of ${ch.rows} rows`);
    const v = col.values;
    const valid = col.validity ? (i) => ((col.validity[i >> 3] >> (i & 7)) & 1) === 1 : () => true;
    const n = ch.rows - col.nullCount;
    if (ch.encoding === "Delta") {
      const type = file.schema[ch.c].type;
      const [bits, signed] = INT_BITS[type] ?? fail(`Delta on ${type}`);
      if (stream.length !== 8 * n) fail(`stream of ${stream.length} bytes for ${n} values`);
      const deltas = new BigInt64Array(stream.slice().buffer);
      const narrow = signed ? (x) => BigInt.asIntN(bits, x) : (x) => BigInt.asUintN(bits, x);
      let sum = 0n;
      for (let i = 0, k = 0; i < ch.rows; i++) {
        if (!valid(i)) continue;
        sum = BigInt.asIntN(64, sum + deltas[k++]);
        if (narrow(sum) !== BigInt(v[i])) fail(`row ${i}: prefix sum ${narrow(sum)}, columns-wasm ${v[i]}`);
      }
    } else if (v.offsets) {
      const dv = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
      let at = 0;
      for (let i = 0; i < ch.rows; i++) {
        if (!valid(i)) continue;
        if (at + 4 > stream.length) fail(`stream ends before value ${i}`);
        const len = dv.getUint32(at, true);
        const [a, b] = [v.offsets[i], v.offsets[i + 1]];
        if (b - a !== len || !sameBytes(stream.subarray(at + 4, at + 4 + len), v.data.subarray(a, b))) fail(`value ${i} differs`);
        at += 4 + len;
      }
      if (at !== stream.length) fail(`stream has ${stream.length - at} bytes after the last value`);
    } else {
      const w = v.BYTES_PER_ELEMENT;
      if (file.schema[ch.c].type === "bool") return false; // one byte per value, but 0/1 semantics: left to the agreement
      if (stream.length !== w * n) fail(`stream of ${stream.length} bytes for ${n} values of ${w} bytes`);
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      for (let i = 0, k = 0; i < ch.rows; i++) {
        if (!valid(i)) continue;
        if (!sameBytes(stream.subarray(k * w, (k + 1) * w), bytes.subarray(i * w, (i + 1) * w))) fail(`value ${i} differs`);
        k++;
      }
    }
    return true;
  } finally {
    col.free?.();
  }
}

/** One floor decoder over every block of its file; `FLOORS[reader]` names the export. */
export function floorReader(reader) {
  const fn = FLOORS[reader];
  return (libs, input) => {
    const fl = input.floor;
    const f = fl.x[fn];
    return {
      async run() {
        const { n, inPtr, inLen, outPtr, outLen } = fl;
        const status = new Int32Array(n);
        // The fifth argument is zune's `copy` (0: its own vector is its
        // output; only the edges are copied); the other exports ignore it.
        for (let i = 0; i < n; i++) status[i] = f(inPtr[i], inLen[i], outPtr[i], outLen[i], 0);
        return status;
      },
      verify(status) {
        const mem = new Uint8Array(fl.x.memory.buffer);
        for (const ch of fl.chunks) {
          for (let i = ch.first; i < ch.first + ch.count; i++) {
            if (status[i] !== fl.outLen[i]) throw new Error(`block ${i}: ${fn} returned ${status[i]}, expected ${fl.outLen[i]} bytes`);
            const [head, tail] = floorEdges(fl, i);
            const want = fl.edges.subarray(i * 2 * FLOOR_EDGE, (i + 1) * 2 * FLOOR_EDGE);
            if (!sameBytes(mem.subarray(...head), want.subarray(0, head[1] - head[0])) || !sameBytes(mem.subarray(...tail), want.subarray(FLOOR_EDGE, FLOOR_EDGE + tail[1] - tail[0]))) {
              throw new Error(`block ${i}: ${fn}'s output differs at its ends`);
            }
          }
        }
        return `${fl.n} blocks, exact lengths and ends`;
      },
      // Both ends of every block's output are overwritten with the complement
      // of their right bytes, so the next run's check passes only if that run
      // wrote every one of them again.
      release() {
        const mem = new Uint8Array(fl.x.memory.buffer);
        for (let i = 0; i < fl.n; i++) {
          const want = fl.edges.subarray(i * 2 * FLOOR_EDGE, (i + 1) * 2 * FLOOR_EDGE);
          const [[h0, h1], [t0, t1]] = floorEdges(fl, i);
          for (let j = h0; j < h1; j++) mem[j] = ~want[j - h0];
          for (let j = t0; j < t1; j++) mem[j] = ~want[FLOOR_EDGE + j - t0];
        }
      },
    };
  };
}
