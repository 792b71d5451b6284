#!/usr/bin/env bash
# The npm package, proved as a user gets it: `npm pack`, install the tarball into an empty project
# (production dependencies only), `npx credit-sandbox serve`, a token, one scenario through the
# installed CLI, and a clean stop on SIGTERM.
#
# Usage: .ci/package.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M} there.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
results=${1:-/dev/null}
work=$(mktemp -d)
passed=0
failed=0
server_pid=''

report() { printf '{"numPassedTests":%d,"numFailedTests":%d}\n' "$passed" "$failed" >"$results"; }
ok() { passed=$((passed + 1)); echo "package: ✓ $*"; }
bad() { failed=$((failed + 1)); echo "package: ✗ $*" >&2; }
abort() { bad "$1"; failed=$((failed + ${2:-0})); report; exit 1; }
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# `prepare` builds dist/ before packing.
tarball=$(npm pack --silent --pack-destination "$work" 2>"$work/pack.log" | tail -1)
[ -f "$work/$tarball" ] || { cat "$work/pack.log" >&2; abort "npm pack" 8; }
ok "npm pack: $tarball ($(($(stat -c %s "$work/$tarball") / 1024)) KiB)"

listing=$(tar -tzf "$work/$tarball")
if grep -q '^package/dist/cli/main.js$' <<<"$listing" && grep -q '^package/scenarios/happy-path.yaml$' <<<"$listing" &&
  grep -q '^package/fixtures/sample.pdf$' <<<"$listing" && ! grep -qE '^package/(src|test|bench)/' <<<"$listing"; then
  ok "the tarball ships dist, scenarios and fixtures, not src or tests"
else
  bad "unexpected tarball contents: $(tr '\n' ' ' <<<"$listing" | head -c 600)"
fi

mkdir "$work/project"
cd "$work/project" || abort "empty project" 6
npm init -y >/dev/null
if npm install --no-audit --no-fund "$work/$tarball" >"$work/install.log" 2>&1; then
  ok "installs into an empty project"
else
  cat "$work/install.log" >&2
  abort "installs into an empty project" 6
fi
if [ ! -e node_modules/tsx ] && [ ! -e node_modules/typescript ] && [ ! -e node_modules/vitest ]; then
  ok "no dev-only dependency installed (tsx, typescript, vitest)"
else
  bad "a dev-only dependency was installed with the package"
fi

npx --no-install credit-sandbox serve --port 0 --clock frozen --log off >"$work/serve.log" 2>&1 &
server_pid=$!
url=''
for _ in $(seq 1 100); do
  url=$(sed -n 's/^credit-sandbox listening on //p' "$work/serve.log")
  grep -q client_secret "$work/serve.log" && break
  sleep 0.2
done
[ -n "$url" ] || { cat "$work/serve.log" >&2; abort "npx credit-sandbox serve starts" 4; }
ok "npx credit-sandbox serve listens on $url"

token=$(curl -sf -X POST "$url/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret)
case "$token" in *'"access_token":"svc_at_'*) ok "POST /v3/auth/token answers a token" ;; *) bad "no token: $token" ;; esac

if npx --no-install credit-sandbox scenario run happy-path --url "$url" >"$work/scenario.log" 2>&1; then
  ok "npx credit-sandbox scenario run happy-path passes ($(grep -o 'PASSED.*' "$work/scenario.log"))"
else
  cat "$work/scenario.log" >&2
  bad "npx credit-sandbox scenario run happy-path"
fi

# The README's curl walk, copied out of the README as a user would paste it, against this server.
node -e '
  const s = require("fs").readFileSync(process.argv[1], "utf8");
  const at = s.indexOf("### The whole journey with curl");
  const blocks = [...s.slice(at).matchAll(/```sh\n([\s\S]*?)```/g)].slice(0, 2).map((m) => m[1]);
  // Only the address differs: this server listens on a free port.
  process.stdout.write("set -e\n" + blocks.join("\n").replace(/^BASE=.*$/m, `BASE=${process.argv[2]}`));
' "$root/README.md" "$url/v3" >"$work/walk.sh"
if (cd "$work" && bash walk.sh >"$work/walk.log" 2>&1) &&
  grep -q '^paid$' "$work/walk.log"; then
  ok "the README's curl walk runs end to end (customer to a paid overdue installment, then reset)"
else
  tail -20 "$work/walk.log" >&2
  bad "the README's curl walk"
fi

# npx runs the CLI in a child: signal the process group, as a terminal or a CI runner would.
kill -TERM "$server_pid"
for _ in $(seq 1 30); do grep -q 'credit-sandbox stopped' "$work/serve.log" && break; sleep 0.1; done
if grep -q 'credit-sandbox stopped' "$work/serve.log" && ! curl -s "$url/healthz" >/dev/null; then
  ok "stops cleanly on SIGTERM"
else
  bad "did not stop on SIGTERM: $(tail -2 "$work/serve.log" | tr '\n' ' ')"
fi
server_pid=''

report
echo "package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
