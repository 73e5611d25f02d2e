#!/usr/bin/env bash
# The end-to-end layer. Bash only installs what it needs: Node 24 (scripts/node24.sh), n8n 2.40.7 and 1.123.81
# (scripts/n8n-lib.sh, each installed once in .tools and then reused, about 4 minutes each the first time) and
# Debian's chromium for the editor checks, side by side; then it packs this package once, installs the tarball once
# per n8n version as users install it, and runs the typed tests, e2e/*.e2e.ts (jest project e2e/jest.config.js, two
# suites at a time). Their fixtures (e2e/fixtures.ts) start the sandbox and n8n, give each n8n user folder the
# installed package, and stop everything they started. Usage: bash scripts/e2e-n8n.sh [jest args]
# E2E_DIST_BUILT=1: dist/ was just built (scripts/test.sh), pack it as it is. Results: .e2e/e2e-results.json
# (counted by scripts/test.sh). Work files: .e2e/run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUN="${E2E_RUN_DIR:-$ROOT/.e2e/run}"
export E2E_RUN_DIR="$RUN"
rm -rf "$RUN"
mkdir -p "$RUN"

# shellcheck source=scripts/node24.sh
source scripts/node24.sh
# shellcheck source=scripts/n8n-lib.sh
source scripts/n8n-lib.sh

# Quick when scripts/test.sh already installed them in the background.
start_e2e_installs "$ROOT/.e2e/installs"
wait_e2e_installs "$ROOT/.e2e/installs" || exit 1
export E2E_N8N_HOME="$N8N_HOME" E2E_N8N1_HOME="$N8N1_HOME"

# Packed once; prepack would build dist/ a second time when scripts/test.sh has just built it.
mkdir -p "$RUN/pack"
pack_flags=()
[[ "${E2E_DIST_BUILT:-0}" == 1 ]] && pack_flags=(--ignore-scripts)
npm pack "${pack_flags[@]}" --pack-destination "$RUN/pack" >"$RUN/pack.log" 2>&1 || {
	tail -n 25 "$RUN/pack.log"
	exit 1
}
E2E_TARBALL="$(ls "$RUN"/pack/n8n-nodes-cloud4wi-*.tgz | head -n 1)"
export E2E_TARBALL

# Installed once per n8n version, side by side; each suite's user folder links its version's nodes folder.
export E2E_NODES_DIR="$RUN/nodes"
pids=()
for version in "$N8N_VERSION" "$N8N1_VERSION"; do
	install_tarball "$E2E_NODES_DIR/$version" "$E2E_TARBALL" "$RUN/nodes-install-$version.log" &
	pids+=("$!")
done
for pid in "${pids[@]}"; do
	wait "$pid" || {
		tail -n 25 "$RUN"/nodes-install-*.log
		exit 1
	}
done
echo "e2e: n8n $N8N_VERSION and $N8N1_VERSION, $(/usr/bin/chromium --version 2>/dev/null), $(basename "$E2E_TARBALL")"

mkdir -p "$ROOT/.e2e"
npx jest -c e2e/jest.config.js --json --outputFile="$ROOT/.e2e/e2e-results.json" "$@"
