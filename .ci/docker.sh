#!/usr/bin/env bash
# The Docker image, proved: builds it from the real Dockerfile, runs it, and checks what the README
# promises — healthy, a token, a scenario through the CLI inside the container, --data on a mounted
# volume surviving a restart, docker stop within 2 s without losing an acknowledged write, non-root,
# no dev dependencies — then the compose example end to end. Prints the image size.
#
# Usage: .ci/docker.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M} there.
# Where Docker Hub cannot be reached, the base image is assembled by .ci/images.sh (one debootstrap
# rootfs for it and the compose stand-ins) and the legacy builder is used with the host network; an
# engine is started with ../shared/tools/docker-offline.sh engine. No engine at all is a loud
# failure, never a skip.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-/dev/null}
image=${CI_IMAGE:-credit-sandbox:ci} # CI_IMAGE: a name of its own on a shared engine
# The current Node LTS; the offline tool assembles this exact version when Docker Hub is out of reach.
node_version=24.21.0
base=node:${node_version%%.*}-bookworm-slim
offline_tool=${DOCKER_OFFLINE_TOOL:-../shared/tools/docker-offline.sh}
name=credit-sandbox-ci-$$
data=$(mktemp -d)
passed=0
failed=0

report() { printf '{"numPassedTests":%d,"numFailedTests":%d}\n' "$passed" "$failed" >"$results"; }
ok() { passed=$((passed + 1)); echo "docker: ✓ $*"; }
bad() { failed=$((failed + 1)); echo "docker: ✗ $*" >&2; }
# A check that cannot even start takes the remaining ones with it: count them all as failed.
abort() { bad "$1"; failed=$((failed + ${2:-0})); report; exit 1; }
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1
  [ -n "${compose_project:-}" ] && compose down -v --remove-orphans >/dev/null 2>&1
  rm -rf "$data"
}
trap cleanup EXIT

# --- engine ---------------------------------------------------------------------------------------
if ! docker info >/dev/null 2>&1 && [ -f "$offline_tool" ]; then
  bash "$offline_tool" engine || true
fi
if ! docker info >/dev/null 2>&1; then
  echo "==========================================================================" >&2
  echo "docker: NO DOCKER ENGINE. The image cannot be built or run; failing." >&2
  echo "docker: install one (e.g. apt-get install docker.io) or start dockerd." >&2
  echo "==========================================================================" >&2
  abort "a Docker engine runs" 12
fi
ok "a Docker engine runs ($(docker version -f '{{.Server.Version}}'))"

# --- base image and build -------------------------------------------------------------------------
build=(docker build)
if ! docker image inspect "$base" >/dev/null 2>&1 && ! timeout 60 docker pull -q "$base" >/dev/null 2>&1; then
  # .ci/images.sh assembles it on the debootstrap rootfs the compose stand-ins share (.ci/run
  # starts it in the background early, so it is usually there by now).
  echo "docker: $base cannot be pulled; assembling it (.ci/images.sh)"
  bash .ci/images.sh "$node_version" || abort "base image $base assembled offline" 11
  offline=1
fi
# An assembled base (or one left by an earlier run here) means no registry: the legacy builder
# does not fetch the `# syntax` frontend, and the host network reaches the npm registry.
if [ -n "${offline:-}" ] || ! timeout 20 docker pull -q "$base" >/dev/null 2>&1; then
  build=(env DOCKER_BUILDKIT=0 docker build --network host)
fi
started=$(date +%s)
"${build[@]}" -t "$image" . >"$data/build.log" 2>&1 || { tail -40 "$data/build.log" >&2; abort "image builds from the Dockerfile" 11; }
ok "image builds from the Dockerfile ($(($(date +%s) - started)) s)"

image_node=$(docker run --rm --entrypoint node "$image" --version 2>&1)
case "$image_node" in v${node_version%%.*}.*) ok "the image runs Node $image_node (current LTS)" ;; *) bad "the image runs Node '$image_node', expected ${node_version%%.*}.x" ;; esac

size=$(docker image inspect -f '{{.Size}}' "$image")
base_size=$(docker image inspect -f '{{.Size}}' "$base")
above=$(((size - base_size) / 1000000))
echo "docker: image size $((size / 1000000)) MB, $above MB above $base ($((base_size / 1000000)) MB)"
if [ "$above" -le 60 ]; then ok "image at most 60 MB above the base ($above MB)"; else bad "image $above MB above the base (target 60)"; fi

# --- run, healthy, token, scenario ----------------------------------------------------------------
chmod 777 "$data" # the image runs as uid 1000
run() {
  docker run -d --name "$name" -p 127.0.0.1::8080 -v "$data:/data" "$image" \
    serve --data /data/sandbox.json --clock frozen >/dev/null
}
healthy() {
  for _ in $(seq 1 60); do
    case "$(docker inspect -f '{{.State.Health.Status}}' "$name" 2>/dev/null)" in
      healthy) return 0 ;;
      unhealthy) return 1 ;;
    esac
    sleep 1
  done
  return 1
}
url() { echo "http://$(docker port "$name" 8080/tcp | head -1)"; }
token() {
  curl -sf -X POST "$(url)/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token'
}

run || abort "container starts" 8
if healthy; then ok "container reports healthy (HEALTHCHECK)"; else docker logs "$name" >&2; abort "container reports healthy" 7; fi
tok=$(token)
case "$tok" in svc_at_*) ok "POST /v3/auth/token answers a token" ;; *) bad "POST /v3/auth/token: got '$tok'" ;; esac
[ "$(docker exec "$name" id -u)" = 1000 ] && ok "runs as uid 1000 (non-root)" || bad "runs as uid $(docker exec "$name" id -u)"
if docker exec "$name" sh -c 'for d in typescript vitest tsx @biomejs/biome esbuild autocannon; do [ ! -e node_modules/$d/package.json ] || exit 1; done; [ ! -e node_modules/@biomejs ]'; then
  ok "no dev dependencies in the image"
else
  bad "dev dependencies found in the image's node_modules"
fi

if docker exec "$name" node dist/cli/main.js scenario run happy-path --json >"$data/scenario.json" 2>"$data/scenario.err" &&
  node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.exit(r.status==="passed"?0:1)' "$data/scenario.json"; then
  loan=$(node -pe 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).runs[0].captured.loan.id' "$data/scenario.json")
  ok "scenario happy-path passes through the CLI inside the container (loan $loan)"
else
  cat "$data/scenario.err" "$data/scenario.json" >&2
  bad "scenario happy-path through the CLI inside the container"
fi

# --- docker stop: fast, nothing acknowledged lost; data survives a restart -------------------------
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$(url)/v3/sandbox/partners" -H "Authorization: Bearer $tok" \
  -H 'Content-Type: application/json' -d '{"name":"written-just-before-docker-stop"}')
t0=$(date +%s%N)
docker stop "$name" >/dev/null
stop_ms=$((($(date +%s%N) - t0) / 1000000))
if [ "$status" = 201 ] && [ "$stop_ms" -lt 2500 ] && docker logs "$name" 2>&1 | grep -q 'credit-sandbox stopped'; then
  ok "docker stop: SIGTERM handled, stopped in $stop_ms ms"
else
  bad "docker stop: write $status, $stop_ms ms, log: $(docker logs --tail 3 "$name" 2>&1 | tr '\n' ' ')"
fi
docker start "$name" >/dev/null
if healthy; then
  tok=$(token)
  loan_status=$(curl -sf "$(url)/v3/loans/${loan:-none}" -H "Authorization: Bearer $tok" | node -pe 'JSON.parse(require("fs").readFileSync(0)).status' 2>/dev/null)
  last=$(curl -sf "$(url)/v3/sandbox/partners" -H "Authorization: Bearer $tok" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.map(p=>p.name).join(",")' 2>/dev/null)
  [ "$loan_status" = active ] && ok "--data on a volume: the loan is still active after a restart" || bad "after restart the loan is '$loan_status'"
  case "$last" in *written-just-before-docker-stop*) ok "the write acknowledged just before docker stop survived" ;; *) bad "the last acknowledged write was lost (partners: '$last')" ;; esac
else
  docker logs "$name" >&2
  bad "healthy again after a restart"
  failed=$((failed + 1))
fi
docker rm -f "$name" >/dev/null

# --- the Testcontainers module (testcontainers/) starts this image from a test ---------------------
# Its own vitest run: the module waits on the image's health check, runs scenarios and receives a
# signed webhook from the container over the docker bridge. Ryuk is turned off inside the test when
# its image is not on the engine (no Docker Hub here). Each of its tests counts here.
tc_json=$(mktemp)
CREDIT_SANDBOX_IMAGE="$image" timeout 300 npx vitest run --config vitest.testcontainers.config.ts \
  --reporter=default --reporter=json --outputFile.json="$tc_json" >"$data/testcontainers.log" 2>&1
tc_status=$?
read -r tc_passed tc_failed < <(node -e '
  try { const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r.numPassedTests, r.numFailedTests || (r.success ? 0 : 1)); }
  catch { console.log(0, 1); }' "$tc_json")
rm -f "$tc_json"
passed=$((passed + tc_passed))
failed=$((failed + tc_failed))
if [ "$tc_status" -eq 0 ] && [ "$tc_failed" -eq 0 ]; then
  echo "docker: ✓ testcontainers module: $tc_passed tests passed against $image ($(grep -o 'Duration .*' "$data/testcontainers.log" | head -1))"
else
  tail -40 "$data/testcontainers.log" >&2
  echo "docker: ✗ testcontainers module: $tc_failed failed (exit $tc_status)" >&2
  [ "$tc_failed" -eq 0 ] && failed=$((failed + 1))
fi

# --- the compose example: the partner app receives a verified, signed webhook ----------------------
compose() { docker-compose -p "$compose_project" -f docker-compose.example.yml "$@"; }
if ! command -v docker-compose >/dev/null && command -v apt-get >/dev/null; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1) || true
fi
if command -v docker-compose >/dev/null; then
  compose_project=csci$$
  docker tag "$image" credit-sandbox:local
  # The host port is the only change: 8080 may be taken on a shared CI machine.
  port=$(node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  if CREDIT_SANDBOX_PORT=$port compose up -d --no-build >"$data/compose.log" 2>&1; then
    verified=''
    for _ in $(seq 1 60); do
      compose logs app 2>/dev/null | grep -q 'registered we_' && break
      sleep 1
    done
    compose exec -T sandbox node dist/cli/main.js trigger customer.created >/dev/null 2>&1
    for _ in $(seq 1 30); do
      if compose logs app 2>/dev/null | grep -q 'customer.created'; then verified=1; break; fi
      sleep 1
    done
    [ -n "$verified" ] && ok "compose example: the app verified a signed customer.created delivery" ||
      { compose logs >&2; bad "compose example: no verified delivery in the app's log"; }
  else
    cat "$data/compose.log" >&2
    bad "compose example: docker-compose up"
  fi
else
  bad "compose example: no docker-compose (apt-get install docker-compose)"
fi

report
echo "docker: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
