#!/usr/bin/env node
// The expected values of every benchmark file, as fingerprints (bench/lib/fingerprint.mjs),
// computed once, untimed, from the reference JSON beside each columns file
// (NAME.variant.json.gz: what the format's reference reader sees) and cached
// in bench/data/expected/ID.json with the hash of its source and of the
// fingerprint code, so it is recomputed only when either changes.
// A file without reference JSON (comparison.cols) takes its expected values
// from hyparquet's read of its Parquet twin, an implementation independent of ours.
//
//   node bench/expected.mjs        (FILES as for bench/run; bench/run calls it)

import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import crypto from "node:crypto";
import { fileURLToPath } from "node:url";
import { parquetRead, parquetMetadata } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { colsFiles, expectedName, selectDatasets, diskPath } from "./lib/datasets.mjs";
import { kindOf, fingerprintJson, fingerprintHyparquet } from "./lib/fingerprint.mjs";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(benchDir, "..");
const outDir = path.join(benchDir, "data", "expected");
const sha256 = (buf) => crypto.createHash("sha256").update(buf).digest("hex");
const codeHash = sha256(fs.readFileSync(path.join(benchDir, "lib", "fingerprint.mjs")) + fs.readFileSync(fileURLToPath(import.meta.url)));

fs.mkdirSync(outDir, { recursive: true });
for (const f of colsFiles(selectDatasets(process.env.FILES))) {
  const source = f.expected ?? f.dataset.reference;
  if (!fs.existsSync(diskPath(project, source))) {
    console.log(`[expected] ${f.id}: skipped, ${source} is missing`);
    continue;
  }
  const raw = fs.readFileSync(diskPath(project, source));
  const key = { source, sourceSha256: sha256(raw), code: codeHash };
  const out = path.join(outDir, expectedName(f));
  try {
    const old = JSON.parse(fs.readFileSync(out, "utf8"));
    if (old.source === key.source && old.sourceSha256 === key.sourceSha256 && old.code === key.code) continue;
  } catch {
    // missing or unreadable: compute it
  }
  const t0 = performance.now();
  const doc = f.expected ? fromJson(raw, f) : await fromParquet(raw, f);
  if (doc.rows !== f.dataset.rows || doc.columns.length !== f.dataset.columns) {
    throw new Error(`${source}: ${doc.rows} rows × ${doc.columns.length} columns, expected ${f.dataset.rows} × ${f.dataset.columns}`);
  }
  fs.writeFileSync(out, JSON.stringify({ ...key, ...doc }, null, 1) + "\n");
  console.log(`[expected] ${f.id}: ${doc.columns.length} column fingerprints from ${source} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** From the reference JSON: schema types and every row group's values. */
function fromJson(raw, f) {
  const text = (f.expected.endsWith(".gz") ? zlib.gunzipSync(raw) : raw).toString("utf8");
  const j = JSON.parse(text);
  if (j.file !== path.basename(f.cols)) throw new Error(`${f.expected} describes ${j.file}, not ${path.basename(f.cols)}`);
  const groups = j.row_groups ?? [];
  const columns = j.schema.map((s, c) => ({
    name: s.name,
    type: s.type,
    nullable: s.nullable,
    kind: kindOf(s.type),
    ...fingerprintJson(kindOf(s.type), groups.map((g) => g.values[c])),
  }));
  return { kindSource: "reference JSON", rows: groups.reduce((n, g) => n + g.num_rows, 0), rowGroups: groups.length, columns };
}

/** From hyparquet's read of the reference Parquet file (types from its schema). */
async function fromParquet(raw, f) {
  const buf = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  const meta = parquetMetadata(buf);
  const leaves = meta.schema.filter((el) => el.type !== undefined);
  const byName = new Map(leaves.map((el) => [el.name, []]));
  await parquetRead({ file: buf, compressors, onChunk: (ch) => byName.get(ch.columnName).push(ch) });
  const kind = { INT32: "int", INT64: "int", FLOAT: "f32", DOUBLE: "f64", BOOLEAN: "bool", BYTE_ARRAY: "bytes" };
  const columns = leaves.map((el) => ({ name: el.name, type: el.type, nullable: el.repetition_type === "OPTIONAL", kind: kind[el.type], ...fingerprintHyparquet(kind[el.type], byName.get(el.name)) }));
  return { kindSource: `hyparquet's read of ${f.dataset.reference} (no reference JSON exists)`, rows: Number(meta.num_rows), rowGroups: meta.row_groups.length, columns };
}
