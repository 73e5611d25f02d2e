#!/usr/bin/env bash
# Shared by e2e-n8n.sh and demo.sh (source it after scripts/node24.sh): a real n8n 2.40.7 in .tools/n8n, and
# this package packed and installed into an n8n user folder the way users install community packages.
N8N_VERSION=2.40.7
N8N_HOME="${E2E_N8N_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/n8n}"
N8N_BIN="$N8N_HOME/node_modules/.bin/n8n"

n8n_ready() {
	[[ "$(node -p "require('$N8N_HOME/node_modules/n8n/package.json').version" 2>/dev/null)" == "$N8N_VERSION" ]] &&
		(cd "$N8N_HOME" && node -e "require('sqlite3')") >/dev/null 2>&1
}

# Installs n8n once (a few minutes), logging to $1. linkedom is pinned because the version n8n asks for does
# not install here; install scripts are off because a Kafka native build fails offline, and sqlite3 is then
# built against Node 24's headers (npm_config_nodedir, set by node24.sh).
ensure_n8n() {
	n8n_ready && return 0
	mkdir -p "$N8N_HOME"
	cat >"$N8N_HOME/package.json" <<JSON
{ "private": true, "name": "n8n-host", "dependencies": { "n8n": "$N8N_VERSION" }, "overrides": { "linkedom": "0.18.12" } }
JSON
	(cd "$N8N_HOME" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error && npm rebuild sqlite3) >"$1" 2>&1
	n8n_ready
}

# Packs this package into $2 and installs the tarball into the nodes folder of the n8n user folder $1.
# Sets TARBALL. Logs to $2/pack.log and $2/nodes-install.log.
install_package() {
	local nodes="$1/.n8n/nodes" root
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
	(cd "$root" && npm pack --pack-destination "$2") >"$2/pack.log" 2>&1 || return 1
	TARBALL="$(ls "$2"/n8n-nodes-cloud4wi-*.tgz 2>/dev/null | head -n 1)"
	[[ -n "$TARBALL" ]] || return 1
	mkdir -p "$nodes"
	[[ -f "$nodes/package.json" ]] || echo '{ "name": "installed-nodes", "private": true, "dependencies": {} }' >"$nodes/package.json"
	(cd "$nodes" && npm install --no-audit --no-fund --loglevel=error "$TARBALL") >"$2/nodes-install.log" 2>&1
}
