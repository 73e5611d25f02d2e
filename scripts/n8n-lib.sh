#!/usr/bin/env bash
# Shared by e2e-n8n.sh and demo.sh (source it after scripts/node24.sh): a real n8n 2.40.7 in .tools/n8n (and
# 1.123.81 for e2e), and this package packed and installed into an n8n user folder the way users install it.
N8N_VERSION=2.40.7
N8N_HOME="${E2E_N8N_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/n8n}"
N8N_BIN="$N8N_HOME/node_modules/.bin/n8n"

# n8n 1.x, the older line still in use: e2e runs the action workflows and the token-expiry check on it too.
N8N1_VERSION=1.123.81
N8N1_HOME="${E2E_N8N1_HOME:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.tools/n8n-$N8N1_VERSION}"
N8N1_BIN="$N8N1_HOME/node_modules/.bin/n8n"

# Usage: n8n_ready_at <version> <home>
n8n_ready_at() {
	[[ "$(node -p "require('$2/node_modules/n8n/package.json').version" 2>/dev/null)" == "$1" ]] &&
		(cd "$2" && node -e "require('sqlite3')") >/dev/null 2>&1
}
n8n_ready() { n8n_ready_at "$N8N_VERSION" "$N8N_HOME"; }

# Installs n8n <version> into <home> once (a few minutes), logging to <log>. Pinned overrides: 2.x's linkedom and
# 1.x's xlsx (its own comes from a CDN that cannot be reached) do not install here as asked. Install scripts are off
# because a Kafka native build fails offline; sqlite3 is then built against Node 24's headers (npm_config_nodedir,
# set by node24.sh). Usage: ensure_n8n_at <version> <home> <log>
ensure_n8n_at() {
	n8n_ready_at "$1" "$2" && return 0
	local overrides='{ "linkedom": "0.18.12" }'
	[[ "$1" == 1.* ]] && overrides='{ "xlsx": "0.18.5" }'
	mkdir -p "$2"
	cat >"$2/package.json" <<JSON
{ "private": true, "name": "n8n-host", "dependencies": { "n8n": "$1" }, "overrides": $overrides }
JSON
	(cd "$2" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error && npm rebuild sqlite3) >"$3" 2>&1
	n8n_ready_at "$1" "$2"
}
ensure_n8n() { ensure_n8n_at "$N8N_VERSION" "$N8N_HOME" "$1"; }

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
