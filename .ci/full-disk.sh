#!/usr/bin/env bash
# A real full disk under `--data` (docs/storage.md, "When the journal cannot be written"): the
# built server journals to a 4 MB tmpfs, a file fills the rest, and the checks are what the docs
# promise — the refused write answers 500 storage_unavailable with Retry-After, is not listed, is
# logged once, /healthz answers 503 naming ENOSPC; once the file is removed writes work again, and
# after a restart the refused write is not there. `npm test` proves the same with an injected write
# failure (test/e2e/full-disk.test.ts); this proves it against the kernel's own ENOSPC.
#
# Needs root (mount -t tmpfs). Not being able to mount is a loud failure, never a skip.
# Usage: .ci/full-disk.sh [results.json]  — writes {"numPassedTests":N,"numFailedTests":M} there.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-/dev/null}
work=$(mktemp -d)
mnt="$work/disk"
passed=0
failed=0
server_pid=''

report() { printf '{"numPassedTests":%d,"numFailedTests":%d}\n' "$passed" "$failed" >"$results"; }
ok() { passed=$((passed + 1)); echo "full-disk: ✓ $*"; }
bad() { failed=$((failed + 1)); echo "full-disk: ✗ $*" >&2; }
abort() { bad "$1"; failed=$((failed + ${2:-0})); report; exit 1; }
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  umount "$mnt" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$mnt"
mount -t tmpfs -o size=4m tmpfs "$mnt" 2>"$work/mount.log" ||
  abort "mount a 4 MB tmpfs (needs root): $(cat "$work/mount.log")" 8
[ -f dist/cli/main.js ] || abort "dist/cli/main.js missing: run npm run build first" 8

# Starts the built server on --data in the tmpfs; sets $url (the first start or a restart).
start() {
  node dist/cli/main.js serve --port 0 --host 127.0.0.1 --clock frozen --log off --data "$mnt/data.json" \
    >>"$work/serve.log" 2>&1 &
  server_pid=$!
  url=''
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^credit-sandbox listening on //p' "$work/serve.log" | tail -1)
    [ -n "$url" ] && [ "$(grep -c '^credit-sandbox listening on' "$work/serve.log")" -ge "$1" ] && return 0
    sleep 0.1
  done
  cat "$work/serve.log" >&2
  abort "the server starts" 8
}
stop() {
  kill -TERM "$server_pid" && wait "$server_pid" 2>/dev/null
  server_pid=''
}
token() {
  curl -s -X POST "$url/v3/auth/token" -u cid_sandbox_default:svc_cs_test_sandbox_default_secret |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token'
}
# POST /v3/customers; prints "<status> <code or name> <retry-after>".
customer() {
  curl -s -D "$work/headers" -o "$work/body" -X POST "$url/v3/customers" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: $3" -d "{\"cpf\": \"$1\", \"name\": \"$2\"}"
  local status retry
  status=$(sed -n 's/^HTTP\/1.1 \([0-9]*\).*/\1/p' "$work/headers" | tail -1)
  retry=$(sed -n 's/^[Rr]etry-[Aa]fter: *\([0-9]*\).*/\1/p' "$work/headers" | tr -d '\r')
  printf '%s %s %s\n' "$status" "$(node -pe 'const b = JSON.parse(require("fs").readFileSync(0)); b.code ?? b.name' <"$work/body")" "${retry:--}"
}
names() {
  curl -s "$url/v3/customers" -H "Authorization: Bearer $TOKEN" |
    node -pe 'JSON.parse(require("fs").readFileSync(0)).data.map((c) => c.name).sort().join(",")'
}

start 1
TOKEN=$(token)
[ "$(customer 52998224725 Kept k-kept)" = '201 Kept -' ] && ok "a write on a disk with room: 201" || bad "first write: $(cat "$work/body")"

# Fill the tmpfs to the last block (dd stops at ENOSPC).
dd if=/dev/zero of="$mnt/filler" bs=64k >/dev/null 2>&1
answer=$(customer 11144477735 Ghost k-ghost)
if [[ "$answer" =~ ^500\ storage_unavailable\ [0-9]+$ ]]; then
  ok "the write on a full disk answers 500 storage_unavailable with Retry-After ($answer)"
else
  bad "the write on a full disk answered: $answer $(cat "$work/body")"
fi
[[ "$(customer 11144477735 Ghost2 k-ghost2)" =~ ^500\ storage_unavailable ]] &&
  ok "a second write is refused too" || bad "second write: $(cat "$work/body")"
[ "$(names)" = 'Kept' ] && ok "the refused writes are not listed" || bad "listed: $(names)"
health=$(curl -s -w ' %{http_code}' "$url/healthz")
[[ "$health" == *'"writable":false'*'ENOSPC'*' 503' ]] && ok "/healthz answers 503 naming ENOSPC" || bad "/healthz: $health"
logged=$(grep -c 'storage: cannot write' "$work/serve.log")
[ "$logged" = 1 ] && ok "the condition is logged once" || bad "logged $logged times"
grep -q 'internal_error\|unexpected error' "$work/serve.log" && bad "an internal error was logged" || ok "no internal error, no stack trace per request"

# A new sandbox cannot even save its default partner there: it says why and exits 1.
node dist/cli/main.js serve --port 0 --host 127.0.0.1 --data "$mnt/fresh.json" >"$work/fresh.log" 2>&1
code=$?
if [ "$code" = 1 ] && grep -q 'cannot start: the disk is full (ENOSPC)' "$work/fresh.log" && ! grep -q '    at ' "$work/fresh.log"; then
  ok "a new sandbox on the full disk exits 1 saying the disk is full, no stack trace"
else
  bad "a new sandbox on the full disk: exit $code, $(head -c 400 "$work/fresh.log")"
fi

rm -f "$mnt/filler"
back=''
for _ in $(seq 1 50); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz")" = 200 ] && back=yes && break
  sleep 0.1
done
[ -n "$back" ] && ok "writes work again once space is freed (/healthz 200)" || bad "/healthz still not 200"
grep -q 'storage: writes work again' "$work/serve.log" && ok "the recovery is logged" || bad "recovery not logged"

stop
start 2
TOKEN=$(token)
[ "$(names)" = 'Kept' ] && ok "after a restart the refused write is not there" || bad "after restart: $(names)"
[ "$(customer 11144477735 Retried k-ghost)" = '201 Retried -' ] &&
  ok "the retry with the same Idempotency-Key is processed afresh: 201" || bad "retry: $(cat "$work/body")"
[ "$(names)" = 'Kept,Retried' ] && ok "listed: Kept, Retried" || bad "listed: $(names)"
stop

report
[ "$failed" -eq 0 ]
