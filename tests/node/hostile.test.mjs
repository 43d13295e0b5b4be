// Issue 12, "no trap, ever": every case of hostile-cases.mjs either ends as
// it should (a ColumnsError of a documented kind, named by the case, or a
// checked result), and afterwards the same file and registry still read
// correctly (a column compared with the corpus JSON, a tokenizer registered).

import { test } from "node:test";
import assert from "node:assert/strict";
import { ERROR_KINDS } from "../js/check.mjs";
import { loadApi } from "./corpus.mjs";
import { cases, context, outcome } from "./hostile-cases.mjs";

const api = loadApi();
const ctx = context(api);

for (const [call, expect, run, check] of cases) {
  test(call, async () => {
    let result;
    let error = null;
    try {
      result = await run(ctx);
    } catch (e) {
      error = e;
    }
    if (expect === "ok") {
      assert.equal(error, null, `expected success, got ${error && outcome(error)}`);
      assert.ok(check(result, ctx), `the result does not hold: ${JSON.stringify(result, (k, v) => (typeof v === "bigint" ? `${v}n` : k === "requests" ? v.length : v))}`);
    } else {
      assert.ok(error !== null, `expected ${expect.join(" or ")}, but it succeeded`);
      if (typeof api.ColumnsError === "function") assert.ok(error instanceof api.ColumnsError, outcome(error));
      assert.equal(error.name, "ColumnsError", outcome(error));
      assert.ok(ERROR_KINDS.includes(error.kind), `undocumented kind ${error.kind}`);
      assert.ok(expect.includes(error.kind), `expected ${expect.join(" or ")}, got ${error.kind}: ${error.message}`);
      assert.ok(typeof error.message === "string" && error.message.length < 2000, "a message of bounded length");
    }
    await ctx.stillWorks();
  });
}
