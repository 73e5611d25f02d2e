#!/usr/bin/env bash
# Sets everything up and runs it: Node 24, dependencies, build, a real n8n 2.40.7 with this package installed
# as users install it, the local Cloud4Wi sandbox, a "Cloud4Wi account" credential pointing at it and the
# example workflows of examples/ (they find that credential by its name).
# Then n8n runs in the foreground until Ctrl-C. Usage: bash scripts/demo.sh [port, default 5678]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${1:-5678}"
DEMO="$ROOT/.e2e/demo" # kept between runs: your n8n account, credential and workflows stay
mkdir -p "$DEMO"
source scripts/node24.sh
source scripts/n8n-lib.sh
export N8N_USER_FOLDER="$DEMO/home"

echo "1/5 dependencies and build"
[[ -d node_modules/n8n-core ]] || npm install --ignore-scripts --no-audit --no-fund --loglevel=error
npm run build >"$DEMO/build.log" 2>&1 || { tail -20 "$DEMO/build.log"; exit 1; }

echo "2/5 n8n $N8N_VERSION (the first time takes a few minutes)"
ensure_n8n "$DEMO/n8n-install.log" || { tail -20 "$DEMO/n8n-install.log"; exit 1; }

echo "3/5 this package, packed and installed into n8n's nodes folder"
install_package "$N8N_USER_FOLDER" "$DEMO" || { tail -20 "$DEMO/pack.log" "$DEMO/nodes-install.log"; exit 1; }

echo "4/5 the Cloud4Wi sandbox"
node test/sandbox/cli.js --port 0 --contacts 500 >"$DEMO/sandbox.log" 2>&1 &
SANDBOX_PID=$!
trap 'kill $SANDBOX_PID 2>/dev/null' EXIT
for _ in $(seq 1 40); do grep -q 'Base URL' "$DEMO/sandbox.log" && break; sleep 0.25; done
field() { sed -n "s/^ *$1  *//p" "$DEMO/sandbox.log" | head -n 1; }
SANDBOX_URL="$(field 'Base URL')"
[[ -n "$SANDBOX_URL" ]] || { cat "$DEMO/sandbox.log"; exit 1; }

echo "5/5 credential and example workflows"
export N8N_ENCRYPTION_KEY="demo-key-for-the-local-sandbox-only" DB_TYPE=sqlite N8N_DIAGNOSTICS_ENABLED=false
export N8N_PORT="$PORT" N8N_LISTEN_ADDRESS=127.0.0.1 N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false N8N_SECURE_COOKIE=false
node -e 'const [file, baseUrl, clientKey, clientSecret, organizationId] = process.argv.slice(1);
	const data = { baseUrl, clientKey, clientSecret, organizationId, sessionToken: "" };
	require("fs").writeFileSync(file, JSON.stringify([{ id: "c4wDemoCredent01", name: "Cloud4Wi account", type: "cloud4WiApi", data }]));' \
	"$DEMO/credential.json" "$SANDBOX_URL" "$(field 'Client key')" "$(field 'Client secret')" "$(field 'Organization id')"
"$N8N_BIN" import:credentials --input="$DEMO/credential.json" >"$DEMO/import.log" 2>&1 || { cat "$DEMO/import.log"; exit 1; }
"$N8N_BIN" import:workflow --separate --input=examples >>"$DEMO/import.log" 2>&1 || { cat "$DEMO/import.log"; exit 1; }
# Something for the trigger examples to fetch: Pierre Johnson, a seeded guest with 7 WiFi logins, signs up and visits.
curl -sS --max-time 10 -X POST "$SANDBOX_URL/__admin/events" -H 'content-type: application/json' -d '[
	{"type":"signup","customerId":"50cd0187d33bc3b7b670f5f7","locationId":"ca1783617efbe7c227910819"},
	{"type":"visit","customerId":"50cd0187d33bc3b7b670f5f7","locationId":"ca1783617efbe7c227910819"}]' >/dev/null

cat <<TXT

  n8n:      http://127.0.0.1:$PORT   (first visit: create the owner account)
  Cloud4Wi: $SANDBOX_URL   (the sandbox; the credential "$(node -p "require('$DEMO/credential.json')[0].name")" points at it)
  Workflows: the six examples of examples/ (README, "Usage"); open one and press "Execute workflow".
  Make events happen:  curl -X POST $SANDBOX_URL/__admin/events -H 'content-type: application/json' \\
                         -d '[{"type":"signup"},{"type":"visit"}]'
  Stop with Ctrl-C.

TXT
"$N8N_BIN" start
