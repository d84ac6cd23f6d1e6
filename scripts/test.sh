#!/usr/bin/env bash
# scripts/test.sh — the whole test suite, on a fresh machine: installs what
# the tests need (ripgrep, for the differential tests), then runs every Go
# test under the race detector.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rg >/dev/null; then
  echo "installing ripgrep (the differential tests compare against it)…" >&2
  if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq ripgrep >/dev/null
fi

go test -race -count=1 ./...
