# What every README/docs shell block gets in test/e2e/docs-commands.test.ts: the CLI of this
# checkout as `credit-sandbox` (and `npx credit-sandbox`), the README's `j`, BASE and TOKEN, and
# `last_id PREFIX` for placeholders such as `ln_…` (the last such id any command printed).
set -eo pipefail
trap 'echo "docs-test: this line failed: $BASH_COMMAND" >&2' ERR
LOG=$(mktemp)
if [ -n "${CREDIT_SANDBOX_TEST_CLI:-}" ]; then CLI=(node "$CREDIT_SANDBOX_TEST_CLI"); else CLI=(node --import tsx "$CLI_MAIN"); fi
credit-sandbox() {
  local out rc=0
  out=$("${CLI[@]}" "$@" 2>&1) || rc=$?
  printf '%s\n' "$out" | tee -a "$LOG"
  return $rc
}
npx() { if [ "$1" = credit-sandbox ]; then shift; credit-sandbox "$@"; else command npx "$@"; fi; }
last_id() {
  local id
  id=$(grep -oE "\b$1_[0-9a-f]{6,}" "$LOG" | tail -1)
  [ -n "$id" ] || { echo "docs-test: no $1_… id printed before this line" >&2; return 1; }
  printf '%s' "$id"
}
j() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }
BASE=$CREDIT_SANDBOX_URL/v3
# The default partner's token, got by the test just before the block (as `curl … | j access_token`
# would here, without a node process per block).
TOKEN=$DEFAULT_TOKEN
