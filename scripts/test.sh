#!/usr/bin/env bash
# The test command: installs what is missing, then lint, type-check, build and every test.
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
npx jest "$@"
