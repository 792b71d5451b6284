#!/usr/bin/env bash
# There is no Docker engine in CI, so this runs the Dockerfile's steps by hand in a scratch
# directory: the runtime install, the compiled entry point, HEALTHCHECK and a real request.
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'kill "${server_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT

# build stage (npm ci + npm run build already ran in CI); the runtime stage copies these:
cp package.json package-lock.json "$work/"
cp -r dist bin fixtures scenarios docs "$work/"
(cd "$work" && npm ci --omit=dev --no-audit --no-fund --ignore-scripts >/dev/null)

port=18080
(cd "$work" && NODE_ENV=production HOST=127.0.0.1 PORT=$port exec node dist/cli/main.js serve >"$work/server.log" 2>&1) &
server_pid=$!
for _ in $(seq 1 50); do
  if (cd "$work" && PORT=$port node dist/cli/healthcheck.js); then break; fi
  sleep 0.2
done
(cd "$work" && PORT=$port node dist/cli/healthcheck.js) || { cat "$work/server.log"; echo "healthcheck failed"; exit 1; }
token=$(curl -sf -X POST "http://127.0.0.1:$port/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret)
case "$token" in *svc_at_*) ;; *) echo "no token from the image's server: $token"; exit 1 ;; esac
curl -sf "http://127.0.0.1:$port/docs" >/dev/null
# The built CLI, from the image's layout, finds the shipped scenarios and fixtures.
(cd "$work" && CREDIT_SANDBOX_URL="http://127.0.0.1:$port" node dist/cli/main.js scenario run happy-path >"$work/scenario.log" 2>&1) ||
  { cat "$work/scenario.log"; echo "happy-path scenario failed against the image's server"; exit 1; }
echo "docker steps: runtime install, start, HEALTHCHECK, token request and a scenario through the built CLI all work"
cd "$root"
