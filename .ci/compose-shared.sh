#!/usr/bin/env bash
# docker-compose.shared.yml, proved: PostgreSQL, two sandbox instances and nginx brought up from
# the compose file as it is, the scenario journey run through the balancer, one instance killed
# (docker kill) under write load — its partners served again, no acknowledged write lost — then
# `down` and `up` again and everything found. Prints the time of each phase.
#
# Where Docker Hub cannot be reached, the compose file's `postgres:16` and `nginx:1.27` are
# stand-ins assembled from Debian packages (.ci/standins/*.Dockerfile) on the debootstrap rootfs
# the Node base shares (.ci/images.sh), tagged with those names; images already present (real or
# stand-in) are used as they are.
# The sandbox image is the one .ci/docker.sh built (credit-sandbox:ci), else built from the
# Dockerfile.
#
# Usage: .ci/compose-shared.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M}.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-/dev/null}
offline_tool=${DOCKER_OFFLINE_TOOL:-../shared/tools/docker-offline.sh}
sandbox_image=${SANDBOX_IMAGE:-credit-sandbox:ci}
project=csshared$$
work=$(mktemp -d)
passed=0
failed=0
t_start=$(date +%s)

report() { printf '{"numPassedTests":%d,"numFailedTests":%d}\n' "$passed" "$failed" >"$results"; }
ok() { passed=$((passed + 1)); echo "compose-shared: ✓ $*"; }
bad() { failed=$((failed + 1)); echo "compose-shared: ✗ $*" >&2; }
abort() { bad "$1"; failed=$((failed + ${2:-0})); report; exit 1; }
since() { echo "$(($(date +%s) - $1)) s"; }
compose() { CREDIT_SANDBOX_PORT=$port docker-compose -p "$project" -f docker-compose.shared.yml "$@"; }
cleanup() {
  [ -n "${port:-}" ] && compose down -v --remove-orphans >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# --- engine and compose ---------------------------------------------------------------------------
if ! docker info >/dev/null 2>&1 && [ -f "$offline_tool" ]; then bash "$offline_tool" engine || true; fi
docker info >/dev/null 2>&1 || abort "a Docker engine runs" 8
if ! command -v docker-compose >/dev/null && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1) || true
fi
command -v docker-compose >/dev/null || abort "docker-compose is installed" 8

# --- images: postgres:16 and nginx:1.27 (pulled, present, or stand-ins), the sandbox --------------
t=$(date +%s)
images=$(sed -n 's/^ *image: *//p' docker-compose.shared.yml)
pg_image=$(grep -m1 '^postgres' <<<"$images")
nginx_image=$(grep -m1 '^nginx' <<<"$images")
# Present, pulled, or stand-ins on the one debootstrap rootfs (.ci/images.sh; .ci/run started it
# in the background early, so this is usually a look-up).
bash .ci/images.sh >"$work/images.log" 2>&1 || { cat "$work/images.log" >&2; abort "images $pg_image and $nginx_image (stand-ins from Debian packages)" 7; }
sed 's/^/compose-shared: /' "$work/images.log"
if docker image inspect "$sandbox_image" >/dev/null 2>&1; then
  docker tag "$sandbox_image" credit-sandbox:local
else
  echo "compose-shared: no $sandbox_image; building the sandbox image from the Dockerfile"
  DOCKER_BUILDKIT=0 docker build --network host -q -t credit-sandbox:local . >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; abort "sandbox image builds from the Dockerfile" 7; }
fi
ok "images $pg_image, $nginx_image, credit-sandbox:local ready ($(since "$t"))"

# --- up: the compose file as it is; only the host port is chosen (8080 may be taken here) -------
port=$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
base="http://127.0.0.1:$port"
check() { local mode=$1; shift; node .ci/compose-shared-check.mjs "$mode" "$base" "$work/state.json" "$@"; }
reachable() { # the balancer answers for the default partner: a token through nginx
  for _ in $(seq 1 90); do
    curl -sf -o /dev/null -X POST "$base/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret && return 0
    sleep 1
  done
  return 1
}
t=$(date +%s)
if compose up -d --no-build >"$work/up.log" 2>&1 && reachable; then
  ok "docker-compose up: PostgreSQL, two instances and nginx answer through the balancer ($(since "$t"))"
else
  cat "$work/up.log" >&2; compose logs --tail 40 >&2
  abort "docker-compose up" 5
fi

# --- the journey through the balancer -------------------------------------------------------------
t=$(date +%s)
cli=(node dist/cli/main.js --url "$base" --client-id cid_sandbox_default --client-secret svc_cs_test_sandbox_default_secret)
if "${cli[@]}" --json scenario run happy-path >"$work/scenario.json" 2>"$work/scenario.err" &&
  loan=$(node -pe 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); r.status==="passed" ? r.runs[0].captured.loan.id : process.exit(1)' "$work/scenario.json"); then
  ok "scenario happy-path through the balancer (loan $loan, $(since "$t"))"
else
  cat "$work/scenario.err" "$work/scenario.json" >&2
  bad "scenario happy-path through the balancer"
fi
t=$(date +%s)
if check write; then ok "six partners with customers written through the balancer ($(since "$t"))"; else abort "writes through the balancer" 4; fi
owners=$(docker exec "${project}_postgres_1" psql -U sandbox -d sandbox -Atc "SELECT owner_url, count(*) FROM partner_leases GROUP BY 1" 2>/dev/null | tr '\n' ' ')
echo "compose-shared: partners per instance: $owners"

# --- docker kill one instance under load ----------------------------------------------------------
t=$(date +%s)
check load 14 >"$work/load.log" 2>&1 &
loader=$!
sleep 3
docker kill "${project}_sandbox-a_1" >/dev/null
killed_at=$(date +%s)
if wait "$loader"; then
  ok "sandbox-a killed under load: every partner answered again, $(cat "$work/load.log")"
else
  cat "$work/load.log" >&2
  bad "writes after docker kill of sandbox-a"
fi
if check check; then
  ok "nothing acknowledged lost after the kill (checked $(since "$killed_at") after it)"
else
  bad "acknowledged writes missing after the kill"
fi
loan_status() {
  local tok
  tok=$(curl -sf -X POST "$base/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token' 2>/dev/null)
  curl -sf "$base/v3/loans/${loan:-none}" -H "Authorization: Bearer $tok" |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).status' 2>/dev/null
}
[ "$(loan_status)" = active ] && ok "the journey's loan is active on the survivor" || bad "loan after the kill: '$(loan_status)'"

# --- down and up again: everything comes back from PostgreSQL -------------------------------------
t=$(date +%s)
compose down >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; bad "docker-compose down"; }
if compose up -d --no-build >"$work/up2.log" 2>&1 && reachable; then
  ok "down and up again ($(since "$t"))"
  if check check; then ok "every acknowledged write found after down/up"; else bad "acknowledged writes missing after down/up"; fi
  [ "$(loan_status)" = active ] && ok "the journey's loan is active after down/up" || bad "loan after down/up: '$(loan_status)'"
else
  cat "$work/up2.log" >&2
  bad "docker-compose up after down"
  failed=$((failed + 2))
fi

report
echo "compose-shared: $passed passed, $failed failed in $(since "$t_start")"
[ "$failed" -eq 0 ]
