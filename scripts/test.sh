#!/usr/bin/env bash
# The test command: installs what is missing, then lint, type-check, build, every jest test and the real-n8n
# end-to-end run (SKIP_E2E=1 leaves that out). Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
# Install scripts stay off: nothing here needs one (isolated-vm ships prebuilt binaries) and one dev
# dependency's preinstall insists on pnpm. `npm install` rather than `npm ci`: npm 11.19's ci rejects this
# lock file for optional platform bindings the registry lacks (npm/cli#9846); install keeps the locked tree.
if [[ ! -d node_modules/n8n-core ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm install --ignore-scripts --no-audit --no-fund --loglevel=error
fi
npm run lint
npm run typecheck
npm run build
mkdir -p .e2e
npx jest --json --outputFile=.e2e/jest-results.json "$@"
read -r passed failed < <(node -p 'const r=require("./.e2e/jest-results.json"); r.numPassedTests+" "+r.numFailedTests')
# The package in a real n8n 2.40.7, installed as users install it (about 5 minutes, 4 more the first time).
if [[ "${SKIP_E2E:-0}" != 1 ]]; then
  bash scripts/e2e-n8n.sh | tee .e2e/e2e.log
  read -r e2e_passed e2e_failed < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' .e2e/e2e.log | tail -n 1)
  passed=$((passed + e2e_passed)) failed=$((failed + e2e_failed))
fi
echo "tests: $passed passed, $failed failed"
