#!/usr/bin/env bash
# Runs the page's end-to-end test in headless Chromium.
# Assumes pkg/ is built (scripts/build web) and playwright-core is installed
# in tools/test/ (scripts/setup --test, or: cd tools/test && npm ci).
set -euo pipefail
cd "$(dirname "$0")/../.."
test -f pkg/columns_wasm.js || { echo "pkg/ is not built: run scripts/build web" >&2; exit 1; }
test -d tools/test/node_modules/playwright-core || (cd tools/test && npm ci --no-audit --no-fund)
exec node --test --test-reporter=spec tests/e2e/ "$@"
