#!/usr/bin/env bash
# The conformance kit as a partner's QA runs it, on the build: `node dist/cli/main.js serve` with
# its default flags (clock running, rate limit on), then `node dist/cli/main.js conformance`
# against it over HTTP. Each check of the report counts as a test (a skip counts as neither).
#
# Usage: .ci/conformance.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M} there.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-/dev/null}
log=$(mktemp)
dir=$(mktemp -d)
server_pid=''
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$log" "$dir"' EXIT
fail() { echo "conformance: $*" >&2; echo '{"numPassedTests":0,"numFailedTests":1}' >"$results"; exit 1; }

node dist/cli/main.js serve --port 0 --log off >"$log" 2>&1 &
server_pid=$!
url=''
for _ in $(seq 1 100); do
  url=$(grep -oE 'listening on http://[0-9.:]+' "$log" | head -1 | sed 's/listening on //')
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || { cat "$log" >&2; fail "the sandbox did not start"; }

node dist/cli/main.js conformance --target "$url/v3" \
  --client-id cid_sandbox_default --client-secret svc_cs_test_sandbox_default_secret \
  --report "$dir/report.json" --junit "$dir/junit.xml" | grep -v '^PASS  '
status=${PIPESTATUS[0]}
[ -s "$dir/report.json" ] || fail "no report (exit $status)"
node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(JSON.stringify({ numPassedTests: r.summary.pass, numFailedTests: r.summary.fail }));
  console.error(`conformance: ${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skip} skipped (${r.mode} mode)`);
' "$dir/report.json" >"$results"
exit "$status"
