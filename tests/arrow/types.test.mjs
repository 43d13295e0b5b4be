// js/arrow.d.ts, checked by the TypeScript compiler (--strict, no
// skipLibCheck) beside the package's own declarations and apache-arrow's,
// with a file that uses every export as the README does, and calls that
// must not compile.

import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { packageTypes, projectRoot } from "./support.mjs";

const here = import.meta.dirname;

const usage = `
import { toArrowTable, toArrowTableAsync, toArrowVector, uniqueNames, type ArrowTableOptions, type StringsAs } from "./arrow.js";
import { ColumnsFile } from "./columns_wasm.js";
import { tableToIPC, type Table, type Vector, type DataType } from "apache-arrow";

export function use(bytes: Uint8Array): Uint8Array {
  const file = ColumnsFile.fromBytes(bytes);
  const options: ArrowTableOptions = { rowGroups: [0], columns: ["price", 2], strings: "auto" };
  const table: Table = toArrowTable(file, options);
  const col = file.readColumn(0, 0, { boolBits: true });
  const packed: boolean = col.boolBits;
  const bits: Uint8Array = col.boolBitmap();
  const vector: Vector<DataType> = toArrowVector(col.pin(), { strings: "binary" });
  const names: string[] = uniqueNames(file.schema.map((c) => c.name));
  // Options held in readonly arrays (as const) are accepted.
  const fixed = { rowGroups: [0] as const, columns: ["price", 2] as const };
  void toArrowTable(file, fixed);
  void uniqueNames(names as readonly string[]);
  const s: StringsAs = "utf8";
  // An option forwarded as undefined compiles under exactOptionalPropertyTypes.
  void toArrowTable(file, { rowGroups: undefined, columns: undefined, strings: undefined });
  void [packed, bits, vector, names, s];
  return tableToIPC(table, "stream");
}

export async function later(file: ColumnsFile): Promise<number> {
  const table = await toArrowTableAsync(file);
  const pooled = await toArrowTableAsync({ meta: file, readColumns: async () => file.readColumns(null, null) });
  return table.numRows + pooled.numRows;
}

declare const file: ColumnsFile;
// @ts-expect-error strings takes "utf8", "binary" or "auto"
toArrowTable(file, { strings: "latin1" });
// @ts-expect-error a Column, not a number
toArrowVector(3);
// @ts-expect-error row groups are numbers
toArrowTable(file, { rowGroups: ["0"] });
`;

test("arrow.d.ts compiles with --strict (and exactOptionalPropertyTypes, noUncheckedIndexedAccess) against the package's and apache-arrow's declarations", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arrow-types-"));
  try {
    fs.copyFileSync(path.join(projectRoot, "js", "arrow.d.ts"), path.join(dir, "arrow.d.ts"));
    fs.copyFileSync(packageTypes, path.join(dir, "columns_wasm.d.ts"));
    fs.writeFileSync(path.join(dir, "usage.ts"), usage);
    // apache-arrow's types resolve from this folder's node_modules.
    fs.symlinkSync(path.join(here, "node_modules"), path.join(dir, "node_modules"));
    const tsc = path.join(here, "node_modules", "typescript", "bin", "tsc");
    let out = "";
    try {
      // esnext.disposable: the package's ColumnsFile declares [Symbol.dispose].
      execFileSync(process.execPath, [tsc, "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess", "--noEmit", "--target", "es2022", "--lib", "es2022,dom,esnext.disposable",
        "--module", "esnext", "--moduleResolution", "bundler", "--types", "node", "usage.ts"], { cwd: dir, encoding: "utf8" });
    } catch (e) {
      out = `${e.stdout}${e.stderr}`;
    }
    assert.equal(out, "", "tsc reported errors");
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
});
