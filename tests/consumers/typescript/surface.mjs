// The hand-written declarations against the code they describe, so that
// neither can drift: every value the installed package exports at run time
// (Node ESM entry, the pool module and columns-wasm/http) and every member of its classes is
// declared, and every declared one exists; every error kind the sources can
// produce is in the ErrorKind union. Uses TypeScript's compiler API to read
// the .d.ts files. Prints "ok" or the differences.
//   node surface.mjs
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import * as api from "columns-wasm";
import * as poolApi from "columns-wasm/pool";
import * as httpApi from "columns-wasm/http";

const here = path.dirname(fileURLToPath(import.meta.url));
const project = path.resolve(here, "../../..");
const pkgDir = path.join(here, "node_modules/columns-wasm");
// Exported for the package's own pool module, not for users (__internal
// is declared, as unknown, and so checked like any export).
const INTERNAL = new Set(["__wrap", "__destroy_into_raw", "__handle", "arrays", "fromWasm", "setTimings", "__scopedRead", "__endScope", "__rowGroups", "__check"]);

const problems = [];

/** Declared exports of a .d.ts: values (name -> declaration) and type names. */
function declarations(file) {
  const src = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const values = new Map();
  const types = new Map();
  for (const s of src.statements) {
    const exported = ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Export;
    if (!exported) continue;
    const isDefault = ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Default;
    if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s)) values.set(isDefault ? "default" : s.name.text, s);
    else if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) values.set(d.name.text, d);
    else if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) types.set(s.name.text, s);
  }
  return { values, types };
}

const memberName = (m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : m.name?.getText());
/** Instance and static member names of a declared class or interface. */
function members(decl) {
  const inst = new Set();
  const stat = new Set();
  for (const m of decl.members) {
    if (ts.isConstructorDeclaration(m) || !m.name) continue;
    const name = memberName(m);
    if (name.startsWith("[")) continue; // [Symbol.dispose]: checked below
    const isStatic = ts.getCombinedModifierFlags(m) & ts.ModifierFlags.Static;
    (isStatic ? stat : inst).add(name);
  }
  return { inst, stat };
}

/** Own member names of a runtime class (prototype and statics), minus what every class has. */
function runtimeMembers(cls, base = Object) {
  const inst = new Set(Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== "constructor" && !INTERNAL.has(n)));
  const stat = new Set(Object.getOwnPropertyNames(cls).filter((n) => !["length", "name", "prototype"].includes(n) && !INTERNAL.has(n)));
  // A subclass (TokenizerRegistry over the generated class): its parent's members are its own.
  for (let p = Object.getPrototypeOf(cls.prototype); p && p !== base.prototype; p = Object.getPrototypeOf(p)) {
    for (const n of Object.getOwnPropertyNames(p)) if (n !== "constructor" && !INTERNAL.has(n)) inst.add(n);
  }
  return { inst, stat };
}

function same(what, declared, actual) {
  for (const n of declared) if (!actual.has(n)) problems.push(`${what}: ${n} is declared but does not exist`);
  for (const n of actual) if (!declared.has(n)) problems.push(`${what}: ${n} exists but is not declared`);
}

/** Fields set by constructors, on instances we can make in Node (others are taken as declared):
 *  a plain ColumnsError, and one a failure made with a `cause` (a detached buffer). */
const INSTANCES = {
  ColumnsError: () => {
    const detached = new ArrayBuffer(8);
    structuredClone(detached, { transfer: [detached] });
    try {
      api.ColumnsFile.fromBytes(detached);
    } catch (e) {
      return [new api.ColumnsError("m", "internal"), e];
    }
    throw new Error("fromBytes took a detached ArrayBuffer");
  },
};
/** Methods one class of the package calls on another, not for users. */
const PACKAGE_ONLY = { ColumnsPool: ["read", "close", "spawn"] };

function checkModule(label, dts, runtime) {
  const { values, types } = declarations(dts);
  same(`${label} exports`, new Set(values.keys()), new Set(Object.keys(runtime).filter((n) => !INTERNAL.has(n))));
  for (const [name, decl] of values) {
    if (!ts.isClassDeclaration(decl)) continue;
    const cls = runtime[name];
    const d = members(decl);
    const r = runtimeMembers(cls, cls.prototype instanceof Error ? Error : Object);
    for (const n of PACKAGE_ONLY[name] ?? []) r.inst.delete(n);
    if (INSTANCES[name]) for (const n of INSTANCES[name]().flatMap(Object.keys)) r.inst.add(n);
    else for (const m of decl.members) if (ts.isPropertyDeclaration(m)) r.inst.add(memberName(m));
    same(`${label} ${name} (instance)`, d.inst, r.inst);
    same(`${label} ${name} (static)`, d.stat, r.stat);
    const disposable = decl.members.some((m) => m.name?.getText() === "[Symbol.dispose]");
    if (disposable !== (typeof Symbol.dispose === "symbol" && typeof cls.prototype[Symbol.dispose] === "function")) {
      problems.push(`${label} ${name}: [Symbol.dispose] declared ${disposable}, at run time ${!disposable}`);
    }
  }
  return types;
}

const types = checkModule("columns-wasm", path.join(pkgDir, "columns_wasm.d.ts"), api);
// In Node, columns-wasm/pool is Node's pool (the "node" condition), with its own declarations.
checkModule("columns-wasm/pool", path.join(pkgDir, "pool-node.d.ts"), poolApi);
const httpTypes = checkModule("columns-wasm/http", path.join(pkgDir, "http.d.ts"), httpApi);

// What asyncBufferFromUrl resolves to (over a fetch that answers HEAD
// with a size and Accept-Ranges): declared as UrlAsyncBuffer.
{
  const fetch = async () => new Response(null, { status: 200, headers: { "Content-Length": "10", "Accept-Ranges": "bytes" } });
  const source = await httpApi.asyncBufferFromUrl("http://127.0.0.1:9/x.cols", { fetch });
  same("columns-wasm/http UrlAsyncBuffer", members(httpTypes.get("UrlAsyncBuffer")).inst, new Set(Object.keys(source)));
}

// Column: a runtime class whose instances carry their fields; declared as ColumnOf<T>.
{
  const col = api.ColumnsFile.fromBytes(fs.readFileSync(path.join(here, "data.cols"))).readColumn(0, 0);
  const actual = new Set([...Object.keys(col), ...runtimeMembers(api.Column).inst]);
  same("Column", members(types.get("ColumnOf")).inst, actual);
}

// ScopedColumn: lent by a scoped read; declared as ScopedColumnOf<T>.
{
  const file = api.ColumnsFile.fromBytes(fs.readFileSync(path.join(here, "data.cols")));
  const col = file.readRowGroupScoped(0, ({ columns }) => columns[0]);
  const actual = new Set([...Object.keys(col), ...runtimeMembers(api.ScopedColumn).inst]);
  same("ScopedColumn", members(types.get("ScopedColumnOf")).inst, actual);
  file.free();
}

// Every kind the sources can throw is declared.
{
  const union = types.get("ErrorKind").type;
  const declared = new Set(union.types.map((t) => t.literal.text));
  const found = new Map();
  const scan = (where, patterns) => {
    const files = fs.statSync(where).isFile() ? [where] : fs.readdirSync(where, { recursive: true }).map((f) => path.join(where, f));
    for (const file of files) {
      if (!fs.statSync(file).isFile() || file.endsWith(".d.ts")) continue;
      const text = fs.readFileSync(file, "utf8");
      for (const re of patterns) for (const [, kind] of text.matchAll(re)) found.set(kind, path.relative(project, file));
    }
  };
  // Rust: ErrorKind::as_str and the wasm layer's own kinds; JS: new ColumnsError(..., "kind").
  scan(path.join(project, "src/error.rs"), [/=> "([a-z_]+)",?\s*$/gm]);
  scan(path.join(project, "src/wasm"), [/(?:usage_error|wrap)\(\s*"([a-z_]+)"/g]);
  // JS, parsed: new ColumnsError(message, "kind"), { kind: "kind" }, e.kind ?? "kind".
  for (const f of fs.readdirSync(path.join(project, "js")).filter((f) => /\.m?js$/.test(f))) {
    const file = path.join(project, "js", f);
    const src = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const str = (n) => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : null);
    (function visit(n) {
      let kind = null;
      // (columns-wasm/http makes its ColumnsErrors with a class of its own, HttpError.)
      if (ts.isNewExpression(n) && /^(ColumnsError|HttpError)$/.test(n.expression.getText())) kind = str(n.arguments?.[1]);
      else if (ts.isPropertyAssignment(n) && n.name.getText() === "kind") kind = str(n.initializer);
      else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && /\.kind$/.test(n.left.getText())) kind = str(n.right);
      if (kind) found.set(kind, path.relative(project, file));
      ts.forEachChild(n, visit);
    })(src);
  }
  if (process.env.SURFACE_DEBUG) console.log([...found.keys()].sort().join(" "));
  for (const [kind, where] of found) if (!declared.has(kind)) problems.push(`error kind "${kind}" (${where}) is not in ErrorKind`);
  if (found.size < 15) problems.push(`found only ${found.size} error kinds in the sources: the scan is broken`);
}

console.log(problems.length ? problems.join("\n") : "ok");
