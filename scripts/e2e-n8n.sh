#!/usr/bin/env bash
# The end-to-end layer. Bash only installs what it needs: Node 24 (scripts/node24.sh), n8n 2.40.7 and 1.123.81
# (scripts/n8n-lib.sh, each installed once in .tools and then reused, about 4 minutes each the first time) and
# Debian's chromium for the editor checks; then it packs this package and runs the typed tests, e2e/*.e2e.ts
# (jest project e2e/jest.config.js). Their fixtures (e2e/fixtures.ts) start the sandbox and n8n, install the
# tarball as users install it, and stop everything they started. Usage: bash scripts/e2e-n8n.sh [jest args]
# Results: .e2e/e2e-results.json (counted by scripts/test.sh). Work files: .e2e/run.
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

install_or_say() { # <what> <log> <command...>
	local what="$1" log="$2"
	shift 2
	echo "e2e: $what"
	"$@" || {
		tail -n 25 "$log" 2>/dev/null
		echo "e2e: could not install $what (log: $log)"
		exit 1
	}
}
n8n_ready_at "$N8N_VERSION" "$N8N_HOME" || install_or_say "n8n $N8N_VERSION" "$RUN/n8n-install.log" ensure_n8n_at "$N8N_VERSION" "$N8N_HOME" "$RUN/n8n-install.log"
n8n_ready_at "$N8N1_VERSION" "$N8N1_HOME" || install_or_say "n8n $N8N1_VERSION" "$RUN/n8n1-install.log" ensure_n8n_at "$N8N1_VERSION" "$N8N1_HOME" "$RUN/n8n1-install.log"
export E2E_N8N_HOME="$N8N_HOME" E2E_N8N1_HOME="$N8N1_HOME"

# Browsers cannot be downloaded here: the editor checks drive Debian's chromium with playwright-core.
ensure_chromium() {
	[[ -x /usr/bin/chromium ]] && return 0
	local sudo=""
	[[ "$(id -u)" == 0 ]] || sudo="sudo"
	{ $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium; } >"$RUN/chromium-install.log" 2>&1
}
[[ -x /usr/bin/chromium ]] || install_or_say "Debian's chromium" "$RUN/chromium-install.log" ensure_chromium

# The package packed once (prepack builds it); each suite npm-installs this tarball into its own n8n user folder.
mkdir -p "$RUN/pack"
npm pack --pack-destination "$RUN/pack" >"$RUN/pack.log" 2>&1 || {
	tail -n 25 "$RUN/pack.log"
	exit 1
}
E2E_TARBALL="$(ls "$RUN"/pack/n8n-nodes-cloud4wi-*.tgz | head -n 1)"
export E2E_TARBALL
echo "e2e: n8n $N8N_VERSION and $N8N1_VERSION, $(/usr/bin/chromium --version 2>/dev/null), $(basename "$E2E_TARBALL")"

mkdir -p "$ROOT/.e2e"
npx jest -c e2e/jest.config.js --json --outputFile="$ROOT/.e2e/e2e-results.json" "$@"
