#!/usr/bin/env bash
# The test command: installs what is missing, then lint, type-check, build, every jest test and the real-n8n
# end-to-end run (SKIP_E2E=1 leaves that out). Extra arguments go to jest. Each phase prints its seconds; the last
# line is `tests: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node24.sh
source scripts/n8n-lib.sh

PHASES=()
phase() { # <name> <command...>: runs it, prints its seconds, returns its status
  local name="$1" start=$SECONDS status=0
  shift
  "$@" || status=$?
  PHASES+=("$name $((SECONDS - start)) s")
  echo "phase $name: $((SECONDS - start)) s"
  return "$status"
}

# Both n8n and chromium install in the background (minutes the first time) while the rest runs.
INSTALLS="$PWD/.e2e/installs"
[[ "${SKIP_E2E:-0}" == 1 ]] || start_e2e_installs "$INSTALLS"

# Install scripts stay off: nothing here needs one (isolated-vm ships prebuilt binaries) and one dev
# dependency's preinstall insists on pnpm. `npm install` rather than `npm ci`: npm 11.19's ci rejects this
# lock file for optional platform bindings the registry lacks (npm/cli#9846); install keeps the locked tree.
install_dependencies() {
  if [[ ! -d node_modules/n8n-core ]] || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error
  fi
}
phase dependencies install_dependencies
phase lint npm run lint
phase typecheck npm run typecheck
phase build npm run build
mkdir -p .e2e
rm -f .e2e/jest-results.json .e2e/jest-limiter-results.json
# A suite that fails to load counts as a failure too; no results at all is one.
counts='const r=require(process.argv[1]); r.numPassedTests+" "+(r.numFailedTests+r.numRuntimeErrorTestSuites)'
passed=0 failed=0
count_jest() { # <results file>: adds its counts, or one failure when there are none
  local p=0 f=1
  [[ -f "$1" ]] && read -r p f < <(node -p "$counts" "$1")
  passed=$((passed + p)) failed=$((failed + f))
}
# Counted below, with the e2e tests. Extra arguments naming tests (not options such as --ci) run just those.
named=0
for arg in "$@"; do [[ "$arg" == -* ]] || named=1; done
if ((named)); then
  phase jest npx jest --json --outputFile=.e2e/jest-results.json "$@" || true
  count_jest "$PWD/.e2e/jest-results.json"
else
  # The limiter's tests read how the service answers in time, so they run alone, after the rest: beside another
  # jest worker a busy loop reads a 429 late, and a limit the code would find in three pauses takes a fourth.
  phase jest npx jest --json --outputFile=.e2e/jest-results.json --testPathIgnorePatterns '/test/limiter/' "$@" || true
  count_jest "$PWD/.e2e/jest-results.json"
  phase jest-limiter npx jest --runInBand --json --outputFile=.e2e/jest-limiter-results.json "$@" test/limiter || true
  count_jest "$PWD/.e2e/jest-limiter-results.json"
fi
# The end-to-end layer: the package in real n8n 2.40.7 and 1.123.81, installed as users install it, and the editor
# in Chromium (about 5 minutes once the installs are done).
if [[ "${SKIP_E2E:-0}" != 1 ]]; then
  rm -f .e2e/e2e-results.json
  # A failed install fails the run: its log's tail is printed and e2e counts as one failure.
  if phase wait-for-installs wait_e2e_installs "$INSTALLS"; then
    for name in "n8n-$N8N_VERSION" "n8n-$N8N1_VERSION" chromium; do
      PHASES+=("(background) $name $(cat "$INSTALLS/$name.seconds") s")
    done
    export E2E_DIST_BUILT=1 # built above: packed as it is
    phase e2e bash scripts/e2e-n8n.sh || true # counted below; no results counts as a failure
  else
    echo "e2e: not run, an install failed (above)"
  fi
  if [[ -f .e2e/e2e-results.json ]]; then
    read -r e2e_passed e2e_failed < <(node -p "$counts" "$PWD/.e2e/e2e-results.json")
  else
    e2e_passed=0 e2e_failed=1
  fi
  passed=$((passed + e2e_passed)) failed=$((failed + e2e_failed))
fi
printf -v summary '%s, ' "${PHASES[@]}"
echo "phases: ${summary%, }; total $SECONDS s"
echo "tests: $passed passed, $failed failed"
[[ "$failed" == 0 ]]
