#!/usr/bin/env bash
# End-to-end check of the package in a real n8n, installed the way users install community packages,
# against the local Cloud4Wi sandbox (test/sandbox). Usage: bash scripts/e2e-n8n.sh
#
#  1. Node 24 (scripts/node24.sh); n8n 2.40.7 in .tools/n8n (installed once, then reused); `npm pack` of
#     this package, `npm install <tarball>` into <N8N_USER_FOLDER>/.n8n/nodes.
#  2. The sandbox on a free loopback port.
#  3. A cloud4WiApi credential pointing at it (e2e/credential.template.json), imported with the n8n CLI.
#  4. Action workflows (e2e/workflows/actions/*.json, every operation of the node) run with `n8n execute`;
#     e2e/check-actions.js checks their output and the requests the sandbox saw.
#  5. The trigger workflow (e2e/workflows/trigger.json: Cloud4Wi Trigger -> HTTP Request to a sink,
#     e2e/sink.js) is published and run by `n8n start`; events are injected through the sandbox's admin
#     door between polls (e2e/trigger-events.js), tokens are expired on the way, and n8n is restarted
#     once (events made while it is down must arrive, nothing may arrive twice).
#
# Prints PASS/FAIL per check, the time of each phase and a closing "N passed, M failed" line; exits 0 only
# when every check passed. Everything runs on 127.0.0.1, every wait is bounded, and the processes it starts
# are stopped on exit. About 4-5 minutes once n8n is installed (the first install takes about 4 more).
# Work files (logs, n8n output, sandbox request logs, sink bodies) stay in .e2e/run for a look afterwards.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
N8N_HOME="${E2E_N8N_HOME:-$ROOT/.tools/n8n}" # where n8n is installed (and cached); see scripts/n8n-lib.sh
RUN="${E2E_RUN_DIR:-$ROOT/.e2e/run}" # wiped at the start; set E2E_RUN_DIR to run two at once
POLL_WAIT_S=80 # a poll comes every minute; a little slack

PASSED=0
FAILED=0
TIMINGS=()
PIDS=() # processes started here, stopped on exit (each is its own process group: started with setsid)

pass() { PASSED=$((PASSED + 1)); echo "PASS $*"; }
fail() { FAILED=$((FAILED + 1)); echo "FAIL $*"; }
info() { echo "     $*"; }
# Runs a checker (a node script printing PASS/FAIL lines), echoes and counts its lines; a checker that
# crashes is a failure too. Usage: run_checks <output-file> node <script> <args...>
run_checks() {
	local out="$1" rc line
	shift
	"$@" >"$out" 2>"$out.err"
	rc=$?
	while IFS= read -r line; do
		echo "$line"
		case "$line" in
			PASS*) PASSED=$((PASSED + 1)) ;;
			FAIL*) FAILED=$((FAILED + 1)) ;;
		esac
	done <"$out"
	if ((rc != 0)); then
		fail "checker $(basename "$2") exited with $rc"
		tail_of "$out.err"
	fi
}

now_s() { echo "${EPOCHREALTIME/,/.}"; }
PHASE=""
PHASE_START=""
phase() {
	phase_end
	PHASE="$1"
	PHASE_START="$(now_s)"
	echo
	echo "== $PHASE"
}
phase_end() {
	if [[ -n "$PHASE" ]]; then
		TIMINGS+=("$(printf '%-46s %7.1f s' "$PHASE" "$(echo "$(now_s) - $PHASE_START" | bc)")")
		PHASE=""
	fi
}

# Stops a process started by start_bg and its children: TERM, then KILL after $2 seconds (default 10).
stop_pid() {
	local pid="$1"
	[[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 1 $((${2:-10} * 4))); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.25
	done
	kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
}
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do stop_pid "$pid" 30; done
	PIDS=()
}
summary_and_exit() {
	phase_end
	cleanup
	echo
	echo "== timings"
	local t
	for t in "${TIMINGS[@]}"; do echo "   $t"; done
	echo "   work files: $RUN"
	echo
	echo "$PASSED passed, $FAILED failed"
	if ((FAILED == 0 && PASSED > 0)); then exit 0; fi
	exit 1
}
abort() {
	fail "$*"
	echo "     (stopping: the remaining checks need this step)"
	summary_and_exit
}
trap cleanup EXIT
trap 'echo "interrupted"; summary_and_exit' INT TERM

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
# Starts a command in its own process group, output to a file; sets STARTED_PID.
start_bg() {
	local log="$1"
	shift
	setsid "$@" >"$log" 2>&1 </dev/null &
	STARTED_PID=$!
	PIDS+=("$STARTED_PID")
}
admin() { curl -sS --max-time 10 -X "$1" "$SANDBOX_URL$2" "${@:3}"; }
tail_of() { sed 's/\x1b\[[0-9;]*m//g' "$1" 2>/dev/null | tail -n "${2:-15}" | sed 's/^/     | /'; }

for tool in curl bc setsid; do
	command -v "$tool" >/dev/null || {
		echo "needs $tool"
		exit 1
	}
done
rm -rf "$RUN"
mkdir -p "$RUN/actions" "$RUN/trigger"
export N8N_USER_FOLDER="$RUN/home"
NODES_DIR="$N8N_USER_FOLDER/.n8n/nodes"

# ------------------------------------------------------------------------------------------------
phase "1a. Node 24"
# shellcheck source=scripts/node24.sh
source "$ROOT/scripts/node24.sh" >"$RUN/node24.log" 2>&1 || {
	tail_of "$RUN/node24.log"
	abort "Node 24 (scripts/node24.sh)"
}
[[ "$(node --version)" == v24.* ]] || abort "Node 24 first on PATH (got $(node --version))"
# shellcheck source=scripts/n8n-lib.sh
source "$ROOT/scripts/n8n-lib.sh"
pass "Node 24 first on PATH: $(node --version)"

phase "1b. n8n $N8N_VERSION in ${N8N_HOME#"$ROOT"/}"
if n8n_ready; then
	info "cached (already installed)"
else
	info "installing n8n@$N8N_VERSION (a few minutes; logs in $RUN/n8n-install.log)"
	ensure_n8n "$RUN/n8n-install.log" || {
		tail_of "$RUN/n8n-install.log" 25
		abort "install n8n@$N8N_VERSION"
	}
fi
pass "n8n $("$N8N_BIN" --version 2>/dev/null | tail -n 1) with a working sqlite3 for Node 24"

phase "1c. npm pack; npm install <tarball> in nodes dir"
install_package "$N8N_USER_FOLDER" "$RUN"
[[ -n "${TARBALL:-}" ]] || {
	tail_of "$RUN/pack.log" 25
	abort "npm pack (prepack builds the package)"
}
pass "npm pack: $(basename "$TARBALL") ($(tar -tzf "$TARBALL" | wc -l) files)"
INSTALLED="$NODES_DIR/node_modules/n8n-nodes-cloud4wi"
if [[ -f "$INSTALLED/package.json" ]] &&
	node -e 'const p=require(process.argv[1]+"/package.json");const fs=require("fs");const f=[...p.n8n.nodes,...p.n8n.credentials];for(const x of f)if(!fs.existsSync(process.argv[1]+"/"+x))throw new Error("missing "+x);' "$INSTALLED"; then
	pass "installed in $NODES_DIR/node_modules (every file package.json names for n8n is there)"
else
	tail_of "$RUN/nodes-install.log"
	abort "npm install of the tarball into $NODES_DIR"
fi
PEER="$(node -p "require('$NODES_DIR/node_modules/n8n-workflow/package.json').version" 2>/dev/null || echo none)"
info "npm also installed the peer dependency n8n-workflow $PEER next to it (n8n itself runs $(node -p "require('$N8N_HOME/node_modules/n8n-workflow/package.json').version"))"

# ------------------------------------------------------------------------------------------------
phase "2. sandbox"
# Starts a sandbox (extra arguments go to test/sandbox/cli.js), logging to $1; sets SANDBOX_URL, CLIENT_KEY,
# CLIENT_SECRET and ORGANIZATION_ID from what it prints.
start_sandbox() {
	local log="$1" pid
	shift
	start_bg "$log" node "$ROOT/test/sandbox/cli.js" --port 0 "$@"
	pid=$STARTED_PID
	SANDBOX_URL=""
	for _ in $(seq 1 60); do
		SANDBOX_URL="$(grep -o 'Base URL *http://127\.0\.0\.1:[0-9]*' "$log" 2>/dev/null | grep -o 'http.*' | head -n 1)"
		[[ -n "$SANDBOX_URL" ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.25
	done
	[[ -n "$SANDBOX_URL" ]] || return 1
	CLIENT_KEY="$(sed -n "s/^ *Client key  *//p" "$log" | head -n 1)"
	CLIENT_SECRET="$(sed -n "s/^ *Client secret  *//p" "$log" | head -n 1)"
	ORGANIZATION_ID="$(sed -n "s/^ *Organization id  *//p" "$log" | head -n 1)"
	[[ -n "$CLIENT_KEY" && -n "$CLIENT_SECRET" && -n "$ORGANIZATION_ID" ]]
}
start_sandbox "$RUN/sandbox.log" --contacts 60 || {
	tail_of "$RUN/sandbox.log"
	abort "start the sandbox (node test/sandbox/cli.js --port 0) and read its demo credentials"
}
admin GET /__admin/state >"$RUN/state-boot.json" || abort "sandbox admin door at $SANDBOX_URL"
pass "sandbox at $SANDBOX_URL (organization $ORGANIZATION_ID)"

# ------------------------------------------------------------------------------------------------
phase "3. import credential and workflows"
export N8N_ENCRYPTION_KEY="e2e-fixed-encryption-key-not-secret"
export DB_TYPE=sqlite
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
export N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false
export N8N_LISTEN_ADDRESS=127.0.0.1 N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1
export N8N_RUNNERS_BROKER_PORT="$(free_port)"
export N8N_LOG_OUTPUT=console N8N_LOG_LEVEL=info
export GENERIC_TIMEZONE=UTC
export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=false
n8n_cli() { timeout 180 "${CLI_BIN:-$N8N_BIN}" "$@"; } # CLI_BIN: another n8n (1.x)

node "$ROOT/e2e/fill-template.js" "$ROOT/e2e/credential.template.json" "$RUN/credential.json" \
	BASE_URL="$SANDBOX_URL" CLIENT_KEY="$CLIENT_KEY" CLIENT_SECRET="$CLIENT_SECRET" ORGANIZATION_ID="$ORGANIZATION_ID" ||
	abort "fill the credential template"
if n8n_cli import:credentials --input="$RUN/credential.json" >"$RUN/import-credentials.log" 2>&1 &&
	grep -q 'Successfully imported 1 credential' "$RUN/import-credentials.log"; then
	pass "n8n import:credentials: cloud4WiApi credential (base URL $SANDBOX_URL, empty session token)"
else
	tail_of "$RUN/import-credentials.log"
	abort "n8n import:credentials"
fi
WORKFLOW_COUNT=$(ls "$ROOT"/e2e/workflows/actions/*.json | wc -l)
if n8n_cli import:workflow --separate --input="$ROOT/e2e/workflows/actions" >"$RUN/import-workflows.log" 2>&1 &&
	grep -q "Successfully imported $WORKFLOW_COUNT workflows" "$RUN/import-workflows.log"; then
	pass "n8n import:workflow: $WORKFLOW_COUNT action workflows"
else
	tail_of "$RUN/import-workflows.log"
	abort "n8n import:workflow"
fi

# ------------------------------------------------------------------------------------------------
phase "4a. action workflows (n8n execute)"
# Runs every action workflow with `n8n execute` (already imported), keeping output, exit code and the requests the
# sandbox saw per workflow in $1, for e2e/check-actions.js.
run_actions() {
	local A="$1" file key id t0
	admin GET /__admin/state >"$A/state-start.json"
	for file in "$ROOT"/e2e/workflows/actions/*.json; do
		key="$(basename "$file" .json)"
		id="$(node -p "require('$file').id")"
		[[ "$key" == *token-revoke* ]] && admin GET /__admin/state >"$A/state-before-revoke.json"
		admin DELETE /__admin/requests >/dev/null
		t0="$(now_s)"
		n8n_cli execute --id "$id" --rawOutput >"$A/$key.out" 2>"$A/$key.err"
		echo $? >"$A/$key.rc"
		admin GET /__admin/requests >"$A/$key.requests.json"
		info "$(printf '%-28s exit %s  %5.1f s  %3s requests' "$key" "$(cat "$A/$key.rc")" "$(echo "$(now_s) - $t0" | bc)" \
			"$(node -p "require('$A/$key.requests.json').count" 2>/dev/null || echo '?')")"
	done
	admin GET /__admin/state >"$A/state-end.json"
	n8n_cli export:credentials --all --decrypted --output="$A/credentials.json" >"$A/export-credentials.log" 2>&1
}
A="$RUN/actions"
run_actions "$A"

phase "4b. action checks"
run_checks "$A/checks.txt" node "$ROOT/e2e/check-actions.js" "$A"

# Three executions of e2e/workflows/expiry.json (imported) with every token expired after the first, the sandbox
# answering $1 for an expired token: each must succeed, the second with exactly one login, the third with none
# (the renewed token was stored in the credential). Label $2, files in $3.
expiry_check() {
	local status="$1" label="$2" dir="$3" i
	mkdir -p "$dir"
	admin POST /__admin/expired-status -H 'content-type: application/json' -d "{\"status\":$status}" >/dev/null
	for i in 1 2 3; do
		admin DELETE /__admin/requests >/dev/null
		n8n_cli execute --id c4wE2eExpiry0001 --rawOutput >"$dir/exec-$i.out" 2>"$dir/exec-$i.err"
		echo $? >"$dir/exec-$i.rc"
		admin GET /__admin/requests >"$dir/exec-$i.requests.json"
		((i == 1)) && admin POST /__admin/tokens/expire >/dev/null
	done
	run_checks "$dir/checks.txt" node -e '
		const [dir, status, label] = process.argv.slice(1);
		const fs = require("fs");
		const { parseExecuteOutput, runError } = require(process.env.ROOT + "/e2e/execute-output.js");
		const runs = [1, 2, 3].map((i) => {
			const requests = JSON.parse(fs.readFileSync(`${dir}/exec-${i}.requests.json`, "utf8")).requests;
			const { run } = parseExecuteOutput(fs.readFileSync(`${dir}/exec-${i}.out`, "utf8"));
			const contacts = run?.data?.resultData?.runData?.Contacts?.[0]?.data?.main?.[0]?.length ?? 0;
			return {
				rc: fs.readFileSync(`${dir}/exec-${i}.rc`, "utf8").trim(),
				error: run ? runError(run) : "no run data",
				contacts,
				logins: requests.filter((r) => r.path === "/v1/sts/login/services").length,
				refused: requests.filter((r) => r.status === Number(status)).length,
			};
		});
		const say = (ok, text) => console.log(`${ok ? "PASS" : "FAIL"} ${label}: ${text}`);
		say(runs.every((r) => r.rc === "0" && !r.error && r.contacts === 5), `three executions across a token expiry all succeed (${JSON.stringify(runs.map((r) => r.error ?? `exit ${r.rc}, ${r.contacts} contacts`))})`);
		say(runs[1].refused === 1 && runs[1].logins === 1, `after expiry (${status}): 1 refused request, then exactly 1 login (saw ${runs[1].refused} refused, ${runs[1].logins} logins)`);
		say(runs[2].logins === 0 && runs[2].refused === 0, `the next execution reuses the renewed token stored in the credential (${runs[2].logins} logins)`);
	' "$dir" "$status" "$label"
}

phase "4c. token expiry across executions, n8n $N8N_VERSION"
n8n_cli import:workflow --input="$ROOT/e2e/workflows/expiry.json" >"$RUN/import-expiry.log" 2>&1 || fail "import the expiry workflow"
export ROOT
expiry_check 403 "n8n $N8N_VERSION, expired token answered 403" "$RUN/expiry-403"
expiry_check 401 "n8n $N8N_VERSION, expired token answered 401" "$RUN/expiry-401"
admin POST /__admin/expired-status -H 'content-type: application/json' -d '{"status":403}' >/dev/null

# ------------------------------------------------------------------------------------------------
phase "5a. trigger: sink, publish, n8n start"
T="$RUN/trigger"
start_bg "$T/sink.log" node "$ROOT/e2e/sink.js" "$T/sink.bodies" "$T/sink.port"
for _ in $(seq 1 40); do
	[[ -s "$T/sink.port" ]] && break
	sleep 0.25
done
[[ -s "$T/sink.port" ]] || abort "start the sink (e2e/sink.js)"
SINK_URL="http://127.0.0.1:$(cat "$T/sink.port")/cloud4wi-event"
node "$ROOT/e2e/fill-template.js" "$ROOT/e2e/workflows/trigger.json" "$T/trigger.json" SINK_URL="$SINK_URL" || abort "fill the trigger workflow"
TRIGGER_ID="$(node -p "require('$T/trigger.json').id")"
TRIGGER_NAME="$(node -p "require('$T/trigger.json').name")"
if n8n_cli import:workflow --input="$T/trigger.json" >"$T/import.log" 2>&1 &&
	n8n_cli publish:workflow --id="$TRIGGER_ID" >"$T/publish.log" 2>&1; then
	pass "trigger workflow imported and published (Cloud4Wi Trigger [signup, visit], every minute -> HTTP Request POST $SINK_URL)"
else
	tail_of "$T/import.log"
	tail_of "$T/publish.log"
	abort "import/publish the trigger workflow"
fi

admin DELETE /__admin/requests >/dev/null
admin GET /__admin/state >"$T/state-0.json"
N8N_PORT="$(free_port)"
N8N_LOG=""
N8N_PID=""
clean_log() { sed 's/\x1b\[[0-9;]*m//g' "$N8N_LOG" 2>/dev/null; }
poll_count() { clean_log | grep -c "Poll trigger initiated for workflow \"$TRIGGER_NAME\""; }
# Starts `n8n start` (debug logs: n8n names each poll there, "Poll trigger initiated", which is how the
# waits below see polls) and waits until it has activated the trigger, which includes its first poll.
start_n8n() {
	local t0 activated=""
	N8N_LOG="$1"
	start_bg "$N8N_LOG" env N8N_PORT="$N8N_PORT" N8N_LOG_LEVEL=debug "$N8N_BIN" start
	N8N_PID=$STARTED_PID
	t0="$(now_s)"
	for _ in $(seq 1 240); do
		if clean_log | grep -q "Activated trigger node \"Cloud4Wi Trigger\""; then
			activated=yes
			break
		fi
		clean_log | grep -qi "problem activating\|activation error" && break
		kill -0 "$N8N_PID" 2>/dev/null || break
		sleep 0.5
	done
	if [[ -z "$activated" ]]; then
		clean_log | grep -i "error\|activat" | tail -n 20 | cut -c1-300 | sed 's/^/     | /'
		return 1
	fi
	STARTED_IN="$(printf '%.1f' "$(echo "$(now_s) - $t0" | bc)")"
	CRON="$(clean_log | grep -o '"cron": "[^"]*"' | head -n 1)"
}
stop_n8n() {
	stop_pid "$N8N_PID" 30
	local kept=() pid
	for pid in "${PIDS[@]}"; do [[ "$pid" != "$N8N_PID" ]] && kept+=("$pid"); done
	PIDS=("${kept[@]}")
}
sink_count() { wc -l <"$T/sink.bodies"; }
# Waits until the sink has taken no new body for 2 s (at least 4 s, at most 34 s).
settle() {
	local prev=-1 cur deadline=$((SECONDS + 30))
	sleep 4
	while ((SECONDS < deadline)); do
		cur=$(sink_count)
		[[ "$cur" == "$prev" ]] && break
		prev=$cur
		sleep 2
	done
}
# Waits for a poll that starts after this call (bounded), then for its execution to reach the sink.
wait_poll() {
	local before deadline
	before=$(poll_count)
	deadline=$((SECONDS + POLL_WAIT_S))
	while ((SECONDS < deadline)) && (($(poll_count) <= before)); do
		kill -0 "$N8N_PID" 2>/dev/null || return 1
		sleep 1
	done
	(($(poll_count) > before)) || return 1
	POLL_AT_MS=$(date +%s%3N)
	settle
	info "poll at $(date -u -d "@${POLL_AT_MS:0:10}" +%T); the sink has $(sink_count) bodies"
}
snapshot() {
	admin GET /__admin/requests >"$T/requests-$1.json"
	admin GET /__admin/state >"$T/state-$1.json"
	admin DELETE /__admin/requests >/dev/null
}
logins_of() { node -p "require('$T/state-$1.json').logins"; }
check_stage() { run_checks "$T/checks-$1.txt" node "$ROOT/e2e/trigger-events.js" check "$T" "$1" "$(logins_of "$2")"; }
inject() { node "$ROOT/e2e/trigger-events.js" inject "$SANDBOX_URL" "$1" "$T" | sed 's/^/     /'; }
# Errors and warnings n8n logged about the trigger workflow (failed polls, failed executions).
check_n8n_log() {
	local errors
	errors="$(clean_log | grep -E '^\S+\s+(error|warn)\s' | grep -iE "cloud4wi|$TRIGGER_ID|$TRIGGER_NAME|poll" | grep -v 'api\.n8n\.io' | head -n 10)"
	if [[ -z "$errors" ]]; then
		pass "$1: n8n logged no error or warning about the trigger workflow ($(poll_count) polls)"
	else
		fail "$1: n8n logged errors about the trigger workflow:"
		echo "$errors" | cut -c1-300 | sed 's/^/     | /'
	fi
}

start_n8n "$T/n8n.log" || abort "n8n start activates the trigger workflow (log: $T/n8n.log)"
pass "n8n start: the trigger workflow is active after $STARTED_IN s (its first poll only records the start; schedule $CRON)"
curl -sf --max-time 5 "http://127.0.0.1:$N8N_PORT/healthz/readiness" >/dev/null && info "n8n ready on http://127.0.0.1:$N8N_PORT"

phase "5b. trigger: batch a, next poll"
inject a || abort "inject batch a"
wait_poll || abort "a poll within $POLL_WAIT_S s after batch a"
snapshot 1
check_stage 1 0

phase "5c. trigger: expire tokens, batch b, next poll"
admin POST /__admin/tokens/expire >"$T/expire.json"
info "tokens expired: $(cat "$T/expire.json")"
inject b || abort "inject batch b"
wait_poll || abort "a poll within $POLL_WAIT_S s after batch b"
snapshot 2
check_stage 2 1

phase "5d. trigger: poll after the late event shows"
LATE_AT=$(cat "$T/late-visible-at" 2>/dev/null || echo 0)
for _ in 1 2 3; do
	wait_poll || abort "a poll within $POLL_WAIT_S s"
	((POLL_AT_MS > LATE_AT + 1000)) && break
done
snapshot final
check_stage final 2
check_n8n_log "first n8n run"

phase "5e. trigger: stop n8n, batch c, start again"
stop_n8n
info "n8n stopped"
inject c || abort "inject batch c"
start_n8n "$T/n8n-restarted.log" || abort "n8n start again (log: $T/n8n-restarted.log)"
info "n8n active again after $STARTED_IN s"
settle
snapshot restart
check_stage restart final
wait_poll || abort "a poll within $POLL_WAIT_S s after the restart"
snapshot restart-poll
check_stage restart-poll restart
check_n8n_log "restarted n8n run"

# ------------------------------------------------------------------------------------------------
phase "6. the editor's view (REST, as the UI calls it)"
REST="http://127.0.0.1:$N8N_PORT"
JAR="$RUN/cookies"
rest() { curl -sS --max-time 30 -b "$JAR" -c "$JAR" -H 'content-type: application/json' "$@"; }
rest -X POST "$REST/rest/owner/setup" -d '{"email":"owner@example.com","firstName":"E2E","lastName":"Owner","password":"E2e-password-123"}' >"$RUN/owner.json" ||
	abort "owner setup through the REST API"
if rest "$REST/types/nodes.json" | node -e '
	const types = JSON.parse(require("fs").readFileSync(0, "utf8")).map((t) => t.name);
	const want = ["n8n-nodes-cloud4wi.cloud4Wi", "n8n-nodes-cloud4wi.cloud4WiTrigger", "n8n-nodes-cloud4wi.cloud4WiTool"];
	process.exit(want.every((w) => types.includes(w)) ? 0 : 1);'; then
	pass "the node list offers Cloud4Wi, Cloud4Wi Trigger and the Cloud4Wi tool for AI agents"
else
	fail "the node list lacks a Cloud4Wi node"
fi
cred_test() {
	rest -X POST "$REST/rest/credentials/test" -d "{\"credentials\":{\"id\":\"c4wE2eCred000001\",\"name\":\"t\",\"type\":\"cloud4WiApi\",\"data\":{\"baseUrl\":\"$1\",\"clientKey\":\"$CLIENT_KEY\",\"clientSecret\":\"$2\",\"organizationId\":\"$ORGANIZATION_ID\"}}}"
}
for case in "ok|$SANDBOX_URL|$CLIENT_SECRET|\"status\":\"OK\"" \
	"wrong secret|$SANDBOX_URL|wrong-secret-e2e|Invalid client key or secret" \
	"unreachable|http://127.0.0.1:9|$CLIENT_SECRET|no answer from http://127.0.0.1:9/v1/sts/login/services (connection refused)" \
	"plain http to a remote host|http://explore.cloud4wi.com|$CLIENT_SECRET|must start with https://"; do
	IFS='|' read -r name url secret expect <<<"$case"
	answer="$(cred_test "$url" "$secret")"
	if [[ "$answer" == *"$expect"* && "$answer" != *wrong-secret-e2e* ]]; then
		pass "credential Test button, $name: $answer"
	else
		fail "credential Test button, $name: $answer"
	fi
done

# ------------------------------------------------------------------------------------------------
phase "7a. n8n $N8N1_VERSION (the 1.x line): install, package, a fresh sandbox"
stop_n8n
if ! n8n_ready_at "$N8N1_VERSION" "$N8N1_HOME"; then
	info "installing n8n@$N8N1_VERSION (a few minutes; logs in $RUN/n8n1-install.log)"
	ensure_n8n_at "$N8N1_VERSION" "$N8N1_HOME" "$RUN/n8n1-install.log" || {
		tail_of "$RUN/n8n1-install.log" 25
		abort "install n8n@$N8N1_VERSION"
	}
fi
ONE="$RUN/n8n1"
mkdir -p "$ONE/actions"
export N8N_USER_FOLDER="$ONE/home"
install_package "$N8N_USER_FOLDER" "$ONE" || abort "install the packed package into n8n $N8N1_VERSION's nodes folder"
start_sandbox "$ONE/sandbox.log" --contacts 60 || abort "start a second sandbox for n8n $N8N1_VERSION"
CLI_BIN="$N8N1_BIN"
export N8N_RUNNERS_BROKER_PORT="$(free_port)"
node "$ROOT/e2e/fill-template.js" "$ROOT/e2e/credential.template.json" "$ONE/credential.json" \
	BASE_URL="$SANDBOX_URL" CLIENT_KEY="$CLIENT_KEY" CLIENT_SECRET="$CLIENT_SECRET" ORGANIZATION_ID="$ORGANIZATION_ID"
if n8n_cli import:credentials --input="$ONE/credential.json" >"$ONE/import.log" 2>&1 &&
	n8n_cli import:workflow --separate --input="$ROOT/e2e/workflows/actions" >>"$ONE/import.log" 2>&1 &&
	n8n_cli import:workflow --input="$ROOT/e2e/workflows/expiry.json" >>"$ONE/import.log" 2>&1; then
	pass "n8n $("$N8N1_BIN" --version 2>/dev/null | tail -n 1): package installed, credential and workflows imported"
else
	tail_of "$ONE/import.log"
	abort "import into n8n $N8N1_VERSION"
fi

phase "7b. action workflows on n8n $N8N1_VERSION"
run_actions "$ONE/actions"
run_checks "$ONE/actions/checks.txt" node "$ROOT/e2e/check-actions.js" "$ONE/actions"

phase "7c. token expiry across executions, n8n $N8N1_VERSION"
expiry_check 403 "n8n $N8N1_VERSION, expired token answered 403" "$ONE/expiry-403"
expiry_check 401 "n8n $N8N1_VERSION, expired token answered 401" "$ONE/expiry-401"

summary_and_exit
