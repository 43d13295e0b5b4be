// Byte sizes as the page writes them (www/js/format.js), in Node without a
// browser: a size that rounds up to the next unit is written in that unit.

import { test } from "node:test";
import assert from "node:assert/strict";
import { fmtBytes } from "../../www/js/format.js";

test("fmtBytes: binary units, and a size rounding up to 1024 of a unit is written in the next", () => {
  const cases = [
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.00 KiB"],
    [390_758, "382 KiB"],
    [102_370, "100 KiB"],
    [1024 * 1024 - 1, "1.00 MiB"],
    [1024 * 1024 - 600, "1023 KiB"],
    [1024 * 1024, "1.00 MiB"],
    [10 * 1024 * 1024 - 1, "10.0 MiB"],
    [1024 ** 3 - 1, "1.00 GiB"],
    [1024 ** 4 * 2000, "2000 TiB"],
    [null, "—"],
  ];
  for (const [n, want] of cases) assert.equal(fmtBytes(n), want, `fmtBytes(${n})`);
});
