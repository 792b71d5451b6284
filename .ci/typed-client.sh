#!/usr/bin/env bash
# The typed client example (examples/typed-client), as a user runs it: start the built sandbox,
# generate types from its served OpenAPI document with openapi-typescript, compile the journey
# under strict with TypeScript 5 (openapi-typescript's peer; the project itself uses 7), and walk
# token → customer → documents → biometrics → offer → simulation → loan → installments.
#
# Usage: .ci/typed-client.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M} there.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results=${1:-/dev/null}
log=$(mktemp)
passed=0
failed=0
server_pid=''

report() { printf '{"numPassedTests":%d,"numFailedTests":%d}\n' "$passed" "$failed" >"$results"; }
ok() { passed=$((passed + 1)); echo "typed-client: ✓ $*"; }
bad() { failed=$((failed + 1)); echo "typed-client: ✗ $*" >&2; }
abort() { bad "$1"; failed=$((failed + ${2:-0})); report; exit 1; }
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -f "$log"' EXIT

node dist/cli/main.js serve --port 0 --clock frozen --log off >"$log" 2>&1 &
server_pid=$!
url=''
for _ in $(seq 1 100); do
  url=$(grep -oE 'listening on http://[0-9.:]+' "$log" | head -1 | sed 's/listening on //')
  [ -n "$url" ] && break
  sleep 0.2
done
[ -n "$url" ] || { cat "$log" >&2; abort "sandbox did not start" 3; }

cd examples/typed-client || abort "no examples/typed-client" 3
npm ci --no-audit --no-fund >/dev/null 2>&1 || abort "npm ci in examples/typed-client" 3
if SANDBOX_URL=$url npm run --silent generate >/dev/null 2>&1 && grep -q 'createCustomer: {' src/api.d.ts; then
  ok "openapi-typescript generated src/api.d.ts from $url/v3/openapi.json (operations named by operationId)"
else
  abort "openapi-typescript could not generate types" 3
fi
# The upload's `file` (format: binary) is a Blob in the generated types, so the journey passes a
# Blob without a cast: if it were typed string, the strict build below would fail.
if grep -qE 'file: Blob;' src/api.d.ts; then
  ok "format: binary fields are typed Blob (the document upload takes a Blob)"
else
  bad "the generated document upload's file is not typed Blob: $(grep -m1 -E '^\s+file: ' src/api.d.ts)"
fi
if npm run --silent build; then ok "the journey compiles under strict (TypeScript $(npx tsc --version | cut -d' ' -f2))"; else abort "tsc (strict)" 1; fi
if SANDBOX_URL=$url node dist/journey.js; then ok "the journey walks token to installments"; else bad "journey"; fi
cd "$root" || true
report
[ "$failed" -eq 0 ]
