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

# `prepack` builds dist/ before packing (installing the tarball runs no script of ours).
tarball=$(npm pack --silent --pack-destination "$work" 2>"$work/pack.log" | tail -1)
[ -f "$work/$tarball" ] || { cat "$work/pack.log" >&2; abort "npm pack" 8; }
ok "npm pack: $tarball ($(($(stat -c %s "$work/$tarball") / 1024)) KiB)"

listing=$(tar -tzf "$work/$tarball")
if grep -q '^package/dist/cli/main.js$' <<<"$listing" && grep -q '^package/scenarios/happy-path.yaml$' <<<"$listing" &&
  grep -q '^package/fixtures/sample.pdf$' <<<"$listing" && grep -q '^package/dist/http/swagger-ui/swagger-ui-bundle.js$' <<<"$listing" &&
  ! grep -qE '^package/(src|test|bench)/' <<<"$listing"; then
  ok "the tarball ships dist (with the Swagger UI files), scenarios and fixtures, not src or tests"
else
  bad "unexpected tarball contents: $(tr '\n' ' ' <<<"$listing" | head -c 600)"
fi

if grep -q '^package/dist/testing/index.d.ts$' <<<"$listing" && [ "$(grep -c '\.d\.ts$' <<<"$listing")" -eq 3 ]; then
  ok "the tarball ships the declarations of credit-sandbox/testing and no others"
else
  bad "declarations in the tarball: $(grep '\.d\.ts$' <<<"$listing" | head -5 | tr '\n' ' ')"
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
# npm lists every install script it did not run and no allowScripts decided; a user's project has
# no decisions for our dependencies, so the package must bring none: no `prepare` of its own (the
# build runs at `prepack`) and no swagger-ui-dist (whose @scarf/scarf reports installs).
if grep -q 'install-scripts' "$work/install.log"; then
  bad "npm install printed an install-scripts warning: $(grep 'install-scripts' "$work/install.log" | tr '\n' ' ')"
elif [ -e node_modules/@scarf/scarf ] || [ -e node_modules/swagger-ui-dist ]; then
  bad "swagger-ui-dist or @scarf/scarf installed with the package"
else
  ok "npm install prints no install-scripts warning (no prepare, no @scarf/scarf)"
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

if [ "$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "$url/docs/assets/swagger-ui-bundle.js")" = '200 text/javascript; charset=utf-8' ]; then
  ok "/docs serves the Swagger UI files copied into dist/"
else
  bad "/docs/assets/swagger-ui-bundle.js is not served by the installed package"
fi

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

# --- credit-sandbox/testing, imported from the installed package ----------------------------------
cat >start-sandbox.mjs <<'JS'
import { startSandbox } from 'credit-sandbox/testing';
const t0 = performance.now();
const sandbox = await startSandbox({ seed: 'package', startTime: '2026-03-02T12:00:00Z' });
const startMs = Math.round(performance.now() - t0);
const run = await sandbox.runScenario('active-customer');
const clock = await sandbox.advance('1d');
await sandbox.stop();
console.log(JSON.stringify({ startMs, customer: run.captured.customer.status, now: clock.now }));
JS
if node start-sandbox.mjs >"$work/testing.json" 2>"$work/testing.err" &&
  node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.exit(r.customer==="active"&&r.now.startsWith("2026-03-03T12:00")?0:1)' "$work/testing.json"; then
  ok "import { startSandbox } from 'credit-sandbox/testing': a scenario and a clock advance ($(cat "$work/testing.json"))"
else
  cat "$work/testing.json" "$work/testing.err" >&2
  bad "import { startSandbox } from 'credit-sandbox/testing'"
fi
start_ms=$(node -pe 'JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).startMs' "$work/testing.json" 2>/dev/null || echo 99999)
if [ "$start_ms" -lt 1000 ]; then ok "startSandbox() starts in $start_ms ms (under a second)"; else bad "startSandbox() took $start_ms ms"; fi

# Its declarations: a TypeScript file using the API typechecks (the repository's tsc, strict).
cat >typed.ts <<'TS'
import { type Sandbox, type ScenarioRun, SandboxApiError, startSandbox } from 'credit-sandbox/testing';
export async function use(): Promise<string> {
  const sandbox: Sandbox = await startSandbox({ seed: 's', clock: 'frozen', scenarios: ['./mine'] });
  const run: ScenarioRun = await sandbox.runScenario('happy-path', { amount: '3000.00' });
  const error: SandboxApiError | undefined = undefined;
  await sandbox.faults.clear();
  await sandbox.stop();
  return `${sandbox.baseUrl} ${run.status} ${error ?? ''}`;
}
TS
printf '{"compilerOptions":{"strict":true,"module":"NodeNext","moduleResolution":"NodeNext","target":"ES2022","noEmit":true,"types":[],"lib":["ES2023","DOM"]},"files":["typed.ts"]}\n' >tsconfig.json
if "$root/node_modules/.bin/tsc" -p tsconfig.json >"$work/tsc.log" 2>&1; then
  ok "credit-sandbox/testing ships its types (a strict TypeScript use typechecks)"
else
  cat "$work/tsc.log" >&2
  bad "credit-sandbox/testing types"
fi

# The vitest globalSetup example of docs/testing.md, run as a user's project runs it (vitest linked
# from the repository: the project installed production dependencies only).
cp "$root"/examples/testing-vitest/*.ts .
ln -s "$root/node_modules/vitest" node_modules/vitest
if node node_modules/vitest/vitest.mjs run --config vitest.config.ts >"$work/vitest.log" 2>&1; then
  ok "examples/testing-vitest: the globalSetup sandbox serves the test ($(grep -o 'Tests .*passed.*' "$work/vitest.log" | head -1))"
else
  tail -30 "$work/vitest.log" >&2
  bad "examples/testing-vitest"
fi

# The Jest globalSetup example of docs/testing.md, in its own project as a user has it: the packed
# credit-sandbox and Jest 30 from the registry (its package.json), run with its own test script.
mkdir -p "$work/jest-project" && cp "$root"/examples/testing-jest/* "$work/jest-project/"
if (cd "$work/jest-project" && npm install --no-audit --no-fund "$work/$tarball" jest@^30 >"$work/jest-install.log" 2>&1 \
  && npm test >"$work/jest.log" 2>&1); then
  ok "examples/testing-jest: the globalSetup sandbox serves the test ($(grep -o 'Tests: .*' "$work/jest.log" | head -1 | tr -s ' '))"
else
  tail -30 "$work/jest-install.log" "$work/jest.log" >&2 2>/dev/null
  bad "examples/testing-jest"
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
