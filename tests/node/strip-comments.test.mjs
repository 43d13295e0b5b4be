// The packaging step that drops comment-only lines from shipped JS must
// never drop code: not after a closing */, not before an inline comment.

import { test } from "node:test";
import assert from "node:assert/strict";
import { stripComments } from "../../tools/strip-comments.mjs";

test("whole-line comments go, code and code-bearing lines stay", () => {
  const input = [
    "a();",
    "/* x */ b();",
    "/**",
    " * doc",
    " */ c();",
    "// gone",
    "/* whole */",
    "  d(); // kept",
    '/* @ts-self-types="./x.d.ts" */',
    "",
    "const s = '// not a comment';",
    "e();",
  ].join("\n");
  assert.equal(
    stripComments(input),
    ["a();", "/* x */ b();", " c();", "  d(); // kept", '/* @ts-self-types="./x.d.ts" */', "const s = '// not a comment';", "e();", ""].join("\n"),
  );
});

test("an unterminated block comment drops the rest, which the parse check then catches", () => {
  assert.equal(stripComments("a();\n/* open\nb();"), "a();\n");
});

test("a multi-line template literal stops it instead of losing a line", () => {
  assert.throws(() => stripComments("const t = `\n// inside the string\n`;"), /template literal/);
  assert.equal(stripComments("const t = `one line`;"), "const t = `one line`;\n");
});
