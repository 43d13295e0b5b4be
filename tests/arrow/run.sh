#!/usr/bin/env bash
# The columns-wasm/arrow tests: installs this folder's pinned apache-arrow
# and DuckDB-Wasm (npm ci, skipped when the lock file has not changed since
# the last install), then runs every *.test.mjs here against the built
# package (scripts/build first) and its arrow.js (js/arrow.js when the
# build does not ship one).
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -f node_modules/.stamp ] || ! cmp -s package-lock.json node_modules/.stamp; then
  echo "[arrow] installing apache-arrow and @duckdb/duckdb-wasm (tests/arrow/)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.stamp
fi
exec node --test "$@" ./*.test.mjs
