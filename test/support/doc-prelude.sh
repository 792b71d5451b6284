# What every README/docs shell block gets in test/e2e/docs-commands.test.ts: the CLI of this
# checkout as `credit-sandbox` (and `npx credit-sandbox`), the README's `j`, BASE and TOKEN, and
# `last_id PREFIX` for placeholders such as `ln_…` (the last such id any command printed).
set -eo pipefail
shopt -s inherit_errexit
trap 'echo "docs-test: this line failed: $BASH_COMMAND" >&2' ERR
LOG=$(mktemp)
if [ -n "${CREDIT_SANDBOX_TEST_CLI:-}" ]; then CLI=(node "$CREDIT_SANDBOX_TEST_CLI"); else CLI=(node --import tsx "$CLI_MAIN"); fi
# stdout and stderr stay apart, as in a terminal: `$(credit-sandbox … --json)` gets only the JSON.
credit-sandbox() {
  local out rc=0 err
  err=$(mktemp)
  out=$("${CLI[@]}" "$@" 2>"$err") || rc=$?
  tee -a "$LOG" <"$err" >&2
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
# Every documented curl fails on a 4xx or 5xx answer and prints the problem (`--fail-with-body`), so
# a call that answers 404 fails its block instead of feeding `undefined` to the next line.
# A call that prints its own status (`-w '%{http_code}'`) is left alone: the docs test checks that
# status against the line's `# NNN` comment (expect_status, added by test/support/doc-blocks.ts).
curl() {
  case " $* " in *'%{http_code}'*) command curl "$@" ;; *) command curl --fail-with-body "$@" ;; esac
}
expect_status() {
  local got
  got=$(cat)
  printf '%s\n' "$got"
  [ "$got" = "$1" ] || { echo "docs-test: expected HTTP $1, got ${got:-nothing}" >&2; return 1; }
}
j() { node -pe "JSON.parse(require('fs').readFileSync(0)).$1"; }
BASE=$CREDIT_SANDBOX_URL/v3
# The default partner's token, got by the test just before the block (as `curl … | j access_token`
# would here, without a node process per block).
TOKEN=$DEFAULT_TOKEN
