#!/usr/bin/env bash
# The test command: installs what is missing, then lint, type-check, build and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
# Install scripts stay off: nothing here needs one (isolated-vm ships prebuilt binaries) and one dev
# dependency's preinstall insists on pnpm.
if [[ ! -d node_modules/n8n-core ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
npm run lint
npm run typecheck
npm run build
npx jest "$@"
