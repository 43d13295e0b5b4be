#!/usr/bin/env bash
# Runs the page's end-to-end tests in headless Chromium against the built
# site: builds pkg/ (web target) when missing, writes site/ afresh
# (scripts/build-site), then runs every test file here.
# E2E_SLOW=1 tests/e2e/run.sh runs them with the page's deferred work
# (short timers, animation frames, worker replies) made late, to bring out
# tests that read the page before it has drawn (see harness.mjs).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f pkg/columns_wasm.js ]; then
  source scripts/env.sh
  scripts/build web
fi
test -d tools/test/node_modules/playwright-core || (cd tools/test && npm ci --no-audit --no-fund)
scripts/build-site --no-build
start=$(date +%s)
node --test --test-reporter=spec --test-concurrency=1 tests/e2e/ "$@"
echo "[e2e] done in $(( $(date +%s) - start )) s"
