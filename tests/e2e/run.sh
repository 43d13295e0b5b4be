#!/usr/bin/env bash
# Runs the page's end-to-end test in headless Chromium.
# Assumes pkg/ is built (scripts/build web) and tools/node_modules is
# installed (scripts/setup, or: cd tools && npm ci).
set -euo pipefail
cd "$(dirname "$0")/../.."
test -f pkg/columns_wasm.js || { echo "pkg/ is not built: run scripts/build web" >&2; exit 1; }
test -d tools/node_modules/playwright-core || (cd tools && npm ci)
exec node --test --test-reporter=spec tests/e2e/ "$@"
