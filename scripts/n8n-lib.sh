#!/usr/bin/env bash
# Shared by test.sh, e2e-n8n.sh and demo.sh (source it after scripts/node24.sh): a real n8n 2.40.7 in .tools/n8n (and
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
	# --prefer-offline: what npm's cache already holds is not asked for again (a warm cache: minutes to about one).
	(cd "$2" && npm install --prefer-offline --ignore-scripts --no-audit --no-fund --loglevel=error && npm rebuild sqlite3) >"$3" 2>&1
	n8n_ready_at "$1" "$2"
}
ensure_n8n() { ensure_n8n_at "$N8N_VERSION" "$N8N_HOME" "$1"; }

# Browsers cannot be downloaded here: the editor checks drive Debian's chromium with playwright-core. Usage:
# ensure_chromium <log>
ensure_chromium() {
	[[ -x /usr/bin/chromium ]] && return 0
	local sudo=""
	[[ "$(id -u)" == 0 ]] || sudo="sudo"
	{ $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium; } >"$1" 2>&1
}

# What e2e needs (both n8n and chromium), installed side by side in the background so the installs overlap other
# work; each is a quick no-op when already there. Logs and seconds: <dir>/<name>.log, <dir>/<name>.seconds.
# Usage: start_e2e_installs <dir>, then wait_e2e_installs <dir> (fails, printing the log's tail, if one failed).
E2E_INSTALLS=()
start_e2e_installs() {
	mkdir -p "$1"
	_in_background "$1" "n8n-$N8N_VERSION" ensure_n8n_at "$N8N_VERSION" "$N8N_HOME" "$1/n8n-$N8N_VERSION.log"
	_in_background "$1" "n8n-$N8N1_VERSION" ensure_n8n_at "$N8N1_VERSION" "$N8N1_HOME" "$1/n8n-$N8N1_VERSION.log"
	_in_background "$1" chromium ensure_chromium "$1/chromium.log"
}
_in_background() { # <dir> <name> <command...>
	local dir="$1" name="$2"
	shift 2
	(
		start=$SECONDS
		renice -n 10 -p "$BASHPID" >/dev/null 2>&1 || true # the tests running meanwhile come first (timing checks)
		"$@" && rc=0 || rc=$?
		echo "$((SECONDS - start))" >"$dir/$name.seconds"
		exit "$rc"
	) &
	E2E_INSTALLS+=("$name:$!")
}
wait_e2e_installs() {
	local entry name failed=0
	for entry in "${E2E_INSTALLS[@]}"; do
		name="${entry%%:*}"
		wait "${entry#*:}" && continue
		failed=1
		tail -n 25 "$1/$name.log" 2>/dev/null
		echo "install of $name FAILED (log: $1/$name.log)"
	done
	E2E_INSTALLS=()
	return "$failed"
}

# Installs the tarball $2 into the n8n nodes folder $1 as users install a community package; logs to $3.
# --prefer-offline: registry data npm cached is recent enough here, and it halves the install (22 s -> 11 s).
install_tarball() {
	mkdir -p "$1"
	[[ -f "$1/package.json" ]] || echo '{ "name": "installed-nodes", "private": true, "dependencies": {} }' >"$1/package.json"
	(cd "$1" && npm install --prefer-offline --no-audit --no-fund --loglevel=error "$2") >"$3" 2>&1
}

# Packs this package into $2 and installs the tarball into the nodes folder of the n8n user folder $1.
# Sets TARBALL. Logs to $2/pack.log and $2/nodes-install.log.
install_package() {
	local root
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
	(cd "$root" && npm pack --pack-destination "$2") >"$2/pack.log" 2>&1 || return 1
	TARBALL="$(ls "$2"/n8n-nodes-cloud4wi-*.tgz 2>/dev/null | head -n 1)"
	[[ -n "$TARBALL" ]] || return 1
	install_tarball "$1/.n8n/nodes" "$TARBALL" "$2/nodes-install.log"
}
