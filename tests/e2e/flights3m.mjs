// The 3,000,000-row file the data-tool tests run on, and the values it
// holds (the tests' oracle). The real one is ../shared/bench/real/
// flights-3m.optimized.cols (not in the repository), with its values in
// the reference reader's JSON beside it; from a fresh clone without it,
// a stand-in of the same shape is written from a seeded PRNG: 3,000,000
// rows in row groups of 65,536 (46 row groups), `date` int64 microseconds
// (Delta + Flate), `delay` and `distance` int16, `origin` and `destination`
// three-letter strings (Plain + Flate), per FORMAT.md sections 3-5. Values
// come from the generator, never from the code under test.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { encodeFooter, TYPES } from "../node/synth.mjs";
import { mulberry32 } from "../../www/js/stats.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHARED = path.resolve(here, "../../../shared/bench/real/flights-3m.optimized.cols");

export const ROWS = 3_000_000;
const PER_GROUP = 65_536;
const BLOCK = 256 * 1024;
const AIRPORTS = ["ATL", "ORD", "DFW", "LAX", "DEN", "PHX", "IAH", "LAS", "DTW", "MSP", "SFO", "EWR", "STL", "CLT", "SLC", "BOS", "LGA", "SEA", "MCO", "PHL", "BWI", "DCA", "IAD", "MDW", "SAN", "TPA", "PIT", "CLE", "CVG", "MEM", "OAK", "SJC", "SNA", "MCI", "BNA", "RDU", "AUS", "HOU", "DAL", "MIA", "FLL", "JFK", "SMF", "ABQ", "BUF", "ALB", "ABE", "YAK"];

/** The stand-in's values, the same on every machine. */
export function generate() {
  const rand = mulberry32(20010101);
  const date = new BigInt64Array(ROWS);
  const delay = new Int16Array(ROWS);
  const distance = new Int16Array(ROWS);
  const origin = new Array(ROWS);
  const destination = new Array(ROWS);
  const start = 978307260000000n; // 2001-01-01 00:01:00 UTC in microseconds
  const span = 181 * 86400; // seconds to 2001-07-01
  let t = 0;
  for (let i = 0; i < ROWS; i++) {
    t += Math.floor(rand() * 2 * (span / ROWS) + 0.5); // sorted, as the real file is
    date[i] = start + BigInt(Math.min(t, span)) * 1000000n;
    const z = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
    delay[i] = Math.max(-80, Math.min(1191, Math.round(5 + 25 * z + (rand() < 0.02 ? rand() * 600 : 0))));
    distance[i] = 31 + Math.floor(rand() ** 2 * 4931);
    const o = Math.floor(rand() ** 1.7 * AIRPORTS.length);
    let d = Math.floor(rand() ** 1.7 * AIRPORTS.length);
    if (d === o) d = (d + 1) % AIRPORTS.length;
    origin[i] = AIRPORTS[o];
    destination[i] = AIRPORTS[d];
  }
  return { date, delay, distance, origin, destination };
}

const u32 = (v) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
};

function flateChunk(encoding, raw, meta) {
  const blocks = [];
  for (let at = 0; at < raw.length || blocks.length === 0; at += BLOCK) {
    const part = raw.subarray(at, Math.min(raw.length, at + BLOCK));
    blocks.push({ raw: part.length, stored: new Uint8Array(zlib.deflateRawSync(part)) });
  }
  const stored = blocks.reduce((s, b) => s + b.stored.length, 0);
  const parts = [Uint8Array.of(encoding, 2), u32(0), u32(raw.length), u32(stored), u32(blocks.length)];
  for (const b of blocks) parts.push(u32(b.raw), u32(b.stored.length));
  for (const b of blocks) parts.push(b.stored);
  const byteLength = parts.reduce((s, p) => s + p.length, 0);
  return { parts, meta: { byteLength, nullCount: 0, encoding, compress: 2, tokenizer: 0, ...meta } };
}

function int16Chunk(v) {
  let min = Infinity;
  let max = -Infinity;
  for (const x of v) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const le = (x) => new Uint8Array(new Int16Array([x]).buffer);
  return flateChunk(1, new Uint8Array(v.buffer, v.byteOffset, v.byteLength), { minVal: le(min), maxVal: le(max), minLen: 2, maxLen: 2 });
}

function dateChunk(v) {
  const d = new BigInt64Array(v.length);
  for (let i = 0; i < v.length; i++) d[i] = i ? v[i] - v[i - 1] : v[0];
  const le = (x) => new Uint8Array(new BigInt64Array([x]).buffer);
  return flateChunk(3, new Uint8Array(d.buffer), { minVal: le(v[0]), maxVal: le(v[v.length - 1]), minLen: 8, maxLen: 8 });
}

function stringChunk(v) {
  const enc = new TextEncoder();
  const raw = new Uint8Array(v.reduce((s, x) => s + 4 + x.length, 0));
  const dv = new DataView(raw.buffer);
  let at = 0;
  let min = null;
  let max = null;
  for (const x of v) {
    dv.setUint32(at, x.length, true);
    raw.set(enc.encode(x), at + 4);
    at += 4 + x.length;
    if (min === null || x < min) min = x;
    if (max === null || x > max) max = x;
  }
  return flateChunk(1, raw, { minVal: enc.encode(min), maxVal: enc.encode(max), minLen: 3, maxLen: 3 });
}

function write(out, v) {
  const magic = Uint8Array.of(0x41, 0x42, 0x43, 0x44);
  const fd = fs.openSync(`${out}.part`, "w");
  fs.writeSync(fd, magic);
  fs.writeSync(fd, Uint8Array.of(1));
  let at = 5;
  const rowGroups = [];
  for (let a = 0; a < ROWS; a += PER_GROUP) {
    const b = Math.min(ROWS, a + PER_GROUP);
    const rg = { numRows: b - a, byteOffset: at, columns: [] };
    for (const chunk of [dateChunk(v.date.subarray(a, b)), int16Chunk(v.delay.subarray(a, b)), int16Chunk(v.distance.subarray(a, b)), stringChunk(v.origin.slice(a, b)), stringChunk(v.destination.slice(a, b))]) {
      for (const p of chunk.parts) fs.writeSync(fd, p);
      at += chunk.meta.byteLength;
      rg.columns.push(chunk.meta);
    }
    rowGroups.push(rg);
  }
  const schema = [["date", "int64"], ["delay", "int16"], ["distance", "int16"], ["origin", "string"], ["destination", "string"]].map(([name, type]) => ({ name, type: TYPES[type], nullable: false }));
  const footer = encodeFooter({ schema, rowGroups });
  fs.writeSync(fd, footer);
  fs.writeSync(fd, u32(footer.length));
  fs.writeSync(fd, magic);
  fs.closeSync(fd);
  fs.renameSync(`${out}.part`, out);
}

/** Values of the real file from the reference reader's JSON. */
function fromJson(jsonGz) {
  const j = JSON.parse(zlib.gunzipSync(fs.readFileSync(jsonGz)).toString("utf8"));
  const v = { date: new BigInt64Array(ROWS), delay: new Int16Array(ROWS), distance: new Int16Array(ROWS), origin: new Array(ROWS), destination: new Array(ROWS) };
  let at = 0;
  for (const rg of j.row_groups) {
    const [d, dl, ds, o, de] = rg.values;
    for (let i = 0; i < rg.num_rows; i++) {
      v.date[at + i] = BigInt(d[i]);
      v.delay[at + i] = dl[i];
      v.distance[at + i] = ds[i];
      v.origin[at + i] = o[i];
      v.destination[at + i] = de[i];
    }
    at += rg.num_rows;
  }
  if (at !== ROWS) throw new Error(`the JSON has ${at} rows`);
  return v;
}

/**
 * { file, dir, name, kind: "shared" | "synthetic", values }: the shared
 * file when it is there, else the stand-in (written once to the temp dir).
 */
export function flights3m() {
  if (fs.existsSync(SHARED) && process.env.E2E_SYNTHETIC !== "1") {
    return { file: SHARED, dir: path.dirname(SHARED), name: path.basename(SHARED), kind: "shared", values: fromJson(SHARED.replace(/\.cols$/, ".json.gz")) };
  }
  const dir = path.join(os.tmpdir(), "columns-e2e");
  fs.mkdirSync(dir, { recursive: true });
  const name = "flights-3m-synthetic-v1.cols";
  const file = path.join(dir, name);
  const values = generate();
  if (!fs.existsSync(file)) write(file, values);
  return { file, dir, name, kind: "synthetic", values };
}
