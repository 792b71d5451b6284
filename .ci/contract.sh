#!/usr/bin/env bash
# Specmatic contract tests against a running sandbox (npm run test:contract), from the sandbox's own
# OpenAPI document and its examples. Writes {"numPassedTests":N,"numFailedTests":M} to
# "$1/contract.json" for .ci/run's count; exits non-zero on any failure.
set -uo pipefail
results_dir=$1
out="$results_dir/contract.json"

if ! command -v java >/dev/null; then
  # Specmatic is a Java program (the npm package ships the jar); Debian's headless JRE 17 runs it.
  if command -v apt-get >/dev/null; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null) ||
      echo "ci: could not install openjdk-17-jre-headless" >&2
  fi
fi
if ! command -v java >/dev/null; then
  echo "ci: no java: contract tests counted as failed" >&2
  echo '{"numPassedTests":0,"numFailedTests":1}' >"$out"
  exit 1
fi

timeout 600 npm run --silent test:contract -- --json "$out"
status=$?
[ -s "$out" ] || echo '{"numPassedTests":0,"numFailedTests":1}' >"$out"
exit "$status"
