#!/usr/bin/env node
// Writes bench/data/flights-like.cols: a synthetic, deterministic stand-in
// for the "flights-like data" of issue 5 (many Delta integer columns, about
// 55 MB encoded, 8.5 MB stored), which the shared bench files do not cover.
//
//   node bench/flights.mjs [OUT]        (bench/run calls it when the file is
//                                        missing or this generator changed)
//
// One year of flights from one airport, sorted by day and scheduled
// departure, with columns shaped like nycflights13's integer ones. Every
// column is Delta-encoded (n × int64 LE: the first value, then wrapping
// differences), compressed with Flate (raw DEFLATE, zlib's default level)
// in blocks cut every 256 KiB of the encoded stream, as the reference
// writer does (FORMAT.md sections 3-5). A version 1 file, no nulls, footer
// statistics as the writer records them. Values come from a seeded PRNG
// (sfc32), never Math.random, so the file is the same byte for byte on
// every machine with the same zlib.
//
// After writing, the file is read back with columns-wasm (pkg/node.cjs) and
// every value of every column is compared with the generated arrays, and
// every chunk's footer statistics with its data; any difference fails.

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { encodeFooter, TYPES } from "../tests/node/synth.mjs";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(benchDir, "..");
const out = path.resolve(process.argv[2] ?? path.join(benchDir, "data", "flights-like.cols"));

const ROWS = 430_000;
const ROW_GROUPS = 4; // equal row groups of ROWS / ROW_GROUPS rows
const BLOCK = 256 * 1024; // bytes of encoded stream per Flate block
const ENCODING_DELTA = 3;
const CODEC_FLATE = 2;

// ---------------------------------------------------------------- PRNG

/** sfc32 (Chris Doty-Humphrey's small fast counting generator). */
function sfc32(a, b, c, d) {
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
const rand = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, 2013);
for (let i = 0; i < 20; i++) rand(); // mix the seed in
const uniform = (lo, hi) => lo + (hi - lo) * rand();
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)); // inclusive
const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
const exponential = (mean) => -mean * Math.log(1 - rand());
/** Index drawn from cumulative weights. */
function pick(cumulative) {
  const x = rand() * cumulative[cumulative.length - 1];
  let lo = 0, hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
const cumulate = (weights) => {
  let s = 0;
  return weights.map((w) => (s += w));
};

// ---------------------------------------------------------------- the data

const COLUMNS = [
  ["year", "int16"], ["month", "int16"], ["day", "int16"],
  ["dep_time", "int16"], ["sched_dep_time", "int16"], ["dep_delay", "int16"],
  ["arr_time", "int16"], ["sched_arr_time", "int16"], ["arr_delay", "int16"],
  ["flight", "int32"], ["tail_id", "int32"], ["air_time", "int32"], ["distance", "int32"],
  ["hour", "int16"], ["minute", "int16"], ["time_hour", "int64"],
];

function generate() {
  const cols = Object.fromEntries(COLUMNS.map(([name, type]) => [name, type === "int64" ? new Float64Array(ROWS) : new Int32Array(ROWS)]));

  // Destinations: distance, time zone shift, popularity, flight numbers.
  const dests = Array.from({ length: 105 }, (_, i) => {
    const distance = i < 3 ? int(4000, 4983) : Math.round(Math.min(2600, 90 + exponential(700)));
    const flights = Array.from({ length: int(10, 120) }, () => (rand() < 0.5 ? int(1, 2200) : int(2201, 8500)));
    return { distance, tz: distance < 700 ? 0 : distance < 1200 ? -1 : distance < 1800 ? -2 : -3, flights };
  });
  const destCum = cumulate(dests.map((_, i) => 1 / (i + 4)));
  // Aircraft (tail numbers as integer ids): some fly far more often.
  const tailCum = cumulate(Array.from({ length: 4000 }, () => 0.2 + exponential(1)));
  // Scheduled departures: minutes of the day, busy mornings and evenings.
  const slotWeights = Array.from({ length: 1440 }, (_, m) => {
    if (m < 300) return 0;
    const h = m / 60;
    const w = 0.3 + Math.exp(-((h - 8) ** 2) / 4) + 0.8 * Math.exp(-((h - 17) ** 2) / 6);
    return m % 5 === 0 ? w * 4 : w * 0.3; // schedules favour round minutes
  });
  const slotCum = cumulate(slotWeights);

  // Flights per day: fewer on Saturdays, some busy days; exactly ROWS in all.
  const days = [];
  for (let t = Date.UTC(2013, 0, 1); t < Date.UTC(2014, 0, 1); t += 86400e3) {
    const d = new Date(t);
    const dow = d.getUTCDay();
    days.push({ t, month: d.getUTCMonth() + 1, day: d.getUTCDate(), weight: (dow === 6 ? 0.75 : 1) * uniform(0.92, 1.08), bad: rand() < 0.08 });
  }
  const wsum = days.reduce((s, d) => s + d.weight, 0);
  let acc = 0, row = 0;
  for (const [k, d] of days.entries()) {
    acc += d.weight;
    const end = k === days.length - 1 ? ROWS : Math.round((acc / wsum) * ROWS);
    const n = end - row;
    const sched = Array.from({ length: n }, () => pick(slotCum)).sort((a, b) => a - b);
    const hhmm = (m) => {
      const x = ((m % 1440) + 1440) % 1440;
      return Math.floor(x / 60) * 100 + (x % 60);
    };
    // Rows in order of actual departure, as in nycflights13.
    const day = sched.map((s) => {
      const dest = dests[pick(destCum)];
      const late = d.bad ? 1.8 : 1;
      const depDelay = Math.round(rand() < 0.6 ? -uniform(0, 16) : Math.min(1300, exponential(32 * late * (0.6 + s / 1440))));
      return { s, dest, depDelay };
    });
    day.sort((a, b) => a.s + a.depDelay - (b.s + b.depDelay) || a.s - b.s);
    for (const { s, dest, depDelay } of day) {
      const schedAir = Math.round(dest.distance / 7.4 + 28);
      const airTime = Math.max(20, Math.round(dest.distance / 7.9 + 14 + (4 + dest.distance / 250) * normal()));
      const arrDelay = Math.round(depDelay + airTime + 14 - schedAir + 16 * normal());
      const schedArr = s + schedAir + 60 * dest.tz;
      cols.year[row] = 2013;
      cols.month[row] = d.month;
      cols.day[row] = d.day;
      cols.sched_dep_time[row] = hhmm(s);
      cols.dep_delay[row] = depDelay;
      cols.dep_time[row] = hhmm(s + depDelay);
      cols.sched_arr_time[row] = hhmm(schedArr);
      cols.arr_delay[row] = arrDelay;
      cols.arr_time[row] = hhmm(schedArr + arrDelay);
      cols.flight[row] = dest.flights[int(0, dest.flights.length - 1)];
      cols.tail_id[row] = 1 + pick(tailCum);
      cols.air_time[row] = airTime;
      cols.distance[row] = dest.distance;
      cols.hour[row] = Math.floor(s / 60);
      cols.minute[row] = s % 60;
      cols.time_hour[row] = d.t / 1000 + 5 * 3600 + Math.floor(s / 60) * 3600; // UTC seconds, EST
      row++;
    }
  }
  if (row !== ROWS) throw new Error(`generated ${row} rows, expected ${ROWS}`);
  return cols;
}

// ---------------------------------------------------------------- the file

const u32 = (v) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
};
const WIDTH = { int16: 2, int32: 4, int64: 8 };
/** A value's Plain fixed-width bytes (footer statistics). */
function plainBytes(type, v) {
  const b = new Uint8Array(WIDTH[type]);
  const dv = new DataView(b.buffer);
  if (type === "int16") dv.setInt16(0, v, true);
  else if (type === "int32") dv.setInt32(0, v, true);
  else dv.setBigInt64(0, BigInt(v), true);
  return b;
}

/** A Delta + Flate chunk of `values` (numbers, all exact integers). */
function deltaFlateChunk(type, values) {
  const n = values.length;
  const stream = new BigInt64Array(n);
  let prev = 0;
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    stream[i] = BigInt(i === 0 ? v : v - prev); // |v| < 2^53: no wrap happens
    prev = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const raw = new Uint8Array(stream.buffer);
  const blocks = [];
  for (let at = 0; at < raw.length || blocks.length === 0; at += BLOCK) {
    const part = raw.subarray(at, Math.min(raw.length, at + BLOCK));
    blocks.push({ raw: part.length, stored: new Uint8Array(zlib.deflateRawSync(part)) });
  }
  const stored = blocks.reduce((s, b) => s + b.stored.length, 0);
  const header = [Uint8Array.of(ENCODING_DELTA, CODEC_FLATE), u32(0), u32(raw.length), u32(stored), u32(blocks.length)];
  for (const b of blocks) header.push(u32(b.raw), u32(b.stored.length));
  const parts = [...header, ...blocks.map((b) => b.stored)];
  const byteLength = parts.reduce((s, p) => s + p.length, 0);
  const meta = {
    byteLength, nullCount: 0, minVal: plainBytes(type, min), maxVal: plainBytes(type, max),
    minLen: WIDTH[type], maxLen: WIDTH[type], encoding: ENCODING_DELTA, compress: CODEC_FLATE, tokenizer: 0,
  };
  return { parts, meta, raw: raw.length, stored };
}

function build(cols) {
  const magic = Uint8Array.of(0x41, 0x42, 0x43, 0x44);
  const parts = [magic, Uint8Array.of(1)];
  let at = 5, raw = 0, stored = 0;
  const rowGroups = [];
  const per = ROWS / ROW_GROUPS;
  for (let g = 0; g < ROW_GROUPS; g++) {
    const rg = { numRows: per, byteOffset: at, columns: [] };
    for (const [name, type] of COLUMNS) {
      const chunk = deltaFlateChunk(type, cols[name].subarray(g * per, (g + 1) * per));
      parts.push(...chunk.parts);
      at += chunk.meta.byteLength;
      raw += chunk.raw;
      stored += chunk.stored;
      rg.columns.push(chunk.meta);
    }
    rowGroups.push(rg);
  }
  const footer = encodeFooter({ schema: COLUMNS.map(([name, type]) => ({ name, type: TYPES[type], nullable: false })), rowGroups });
  parts.push(footer, u32(footer.length), magic);
  const bytes = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    bytes.set(p, o);
    o += p.length;
  }
  return { bytes, raw, stored };
}

// ---------------------------------------------------------------- verify

function verify(bytes, cols) {
  const entry = path.join(project, "pkg", "node.cjs");
  if (!fs.existsSync(entry)) throw new Error("cannot verify the file: pkg/ is not built (scripts/build)");
  const { ColumnsFile } = createRequire(import.meta.url)(entry);
  const file = ColumnsFile.fromBytes(bytes);
  const fail = (msg) => {
    throw new Error(`flights-like.cols does not read back as generated: ${msg}`);
  };
  try {
    if (Number(file.numRows) !== ROWS) fail(`${file.numRows} rows, expected ${ROWS}`);
    const schema = file.schema;
    if (schema.length !== COLUMNS.length || schema.some((s, c) => s.name !== COLUMNS[c][0] || s.type !== COLUMNS[c][1] || s.nullable)) {
      fail(`schema ${JSON.stringify(schema)}`);
    }
    let start = 0;
    for (let g = 0; g < file.rowGroups.length; g++) {
      const n = file.rowGroups[g].numRows;
      for (let c = 0; c < COLUMNS.length; c++) {
        const [name, type] = COLUMNS[c];
        const meta = file.rowGroups[g].columns[c];
        if (meta.encoding !== "Delta" || meta.codec !== "Flate") fail(`${name}: ${meta.encoding}/${meta.codec}`);
        const col = file.readColumn(g, c);
        try {
          const want = cols[name];
          if (col.length !== n || col.values.length !== n || col.nullCount !== 0) fail(`row group ${g} ${name}: ${col.length} values`);
          for (let i = 0; i < n; i++) {
            const got = type === "int64" ? Number(col.values[i]) : col.values[i];
            if (got !== want[start + i]) fail(`row group ${g} ${name} row ${i}: ${got}, expected ${want[start + i]}`);
          }
        } finally {
          col.free?.();
        }
        const report = file.inspectChunk(g, c);
        const bad = report.checks.filter((k) => !k.agrees).map((k) => k.field);
        if (report.error || bad.length || report.checks.length === 0) fail(`row group ${g} ${name}: statistics ${bad.join(", ")} ${report.error ?? ""}`);
      }
      start += n;
    }
    if (start !== ROWS) fail(`row groups hold ${start} rows`);
  } finally {
    file.free?.();
  }
}

// ---------------------------------------------------------------- main

{
  const t0 = performance.now();
  const cols = generate();
  const { bytes, raw, stored } = build(cols);
  verify(bytes, cols);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const tmp = `${out}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, out);
  const mb = (v) => (v / 1e6).toFixed(2);
  console.log(
    `wrote ${path.relative(process.cwd(), out)}: ${ROWS} rows × ${COLUMNS.length} Delta/Flate columns in ${ROW_GROUPS} row groups; ` +
      `encoded ${mb(raw)} MB, stored ${mb(stored)} MB (${(raw / stored).toFixed(2)}×), file ${mb(bytes.length)} MB; verified in ${((performance.now() - t0) / 1e3).toFixed(1)} s`,
  );
}
