#!/usr/bin/env bash
# scripts/editors-nvim-e2e.sh — the Neovim plugin's headless tests against the real server:
# on the host's Neovim (0.7.2 from Debian bookworm, installed with apt if missing), then on
# Neovim 0.10 (Debian trixie) and 0.12 (Debian sid), each inside a debootstrap chroot (bookworm
# cannot install a newer Neovim: its glibc is too old). The chroots need root; each is built once
# into editors/.cache/ (git-ignored, about 1m10s and 260–275 MB each). STRUCTLS_NVIM_SUITES picks
# the suites; STRUCTLS_NVIM_CHROOT=0 skips the chroots, saying so.
# Exit 0 = every test passed on every Neovim that ran.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ $(id -u) -eq 0 ]]; then sudo=""; else sudo="sudo"; fi
if ! command -v nvim >/dev/null; then
  echo "installing neovim (the plugin tests run in it)…" >&2
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
fi

RUN=$(mktemp -d -t structls-nvim-e2e-XXXXXX)
trap 'rm -rf "$RUN"' EXIT
(cd "$ROOT" && go build -o "$RUN/structls" ./cmd/structls)
TESTS=(test_plugin.lua test_enable.lua test_missing.lua)
rc=0

# run_tests DIR [CHROOT]: every test file under DIR's editors/nvim, on the host or inside CHROOT.
run_tests() {
  local dir=$1 chroot=${2:-}
  for test in "${TESTS[@]}"; do
    local cmd=(nvim --headless -u NONE --cmd "set rtp^=$dir/editors/nvim" --cmd 'runtime plugin/structls.lua'
      -c "luafile $dir/editors/nvim/test/$test")
    local envs=(HOME="$dir/home" XDG_CACHE_HOME="$dir/home/cache" XDG_STATE_HOME="$dir/home/state"
      XDG_DATA_HOME="$dir/home/data" XDG_CONFIG_HOME="$dir/home/config" PATH=/usr/bin:/bin TERM=dumb
      STRUCTLS="$dir/structls" STRUCTLS_DEMO="$dir/cmd/structls/demo.txtar")
    echo "== $test${chroot:+ (in $(basename "$chroot"))}" >&2
    if [[ -n $chroot ]]; then
      (cd / && timeout 120 chroot "$chroot" env -i "${envs[@]}" "${cmd[@]}") || rc=1
    else
      (cd "$dir" && timeout 120 env -i "${envs[@]}" "${cmd[@]}") || rc=1
    fi
  done
}

# the files the tests need, under DIR
stage() {
  mkdir -p "$1/editors" "$1/cmd/structls" "$1/home"
  cp -r "$ROOT/editors/nvim" "$1/editors/"
  cp "$ROOT/cmd/structls/demo.txtar" "$1/cmd/structls/"
  cp "$RUN/structls" "$1/structls"
}

stage "$RUN/host"
run_tests "$RUN/host"

# Debian suites whose Neovim runs the tests too: trixie has 0.10, sid 0.12 (STRUCTLS_NVIM_SUITES="sid" for one)
for suite in ${STRUCTLS_NVIM_SUITES:-trixie sid}; do
  CHROOT=$ROOT/editors/.cache/chroot-$suite
  if [[ ${STRUCTLS_NVIM_CHROOT:-1} == 0 ]]; then
    echo "SKIP Neovim from Debian $suite: STRUCTLS_NVIM_CHROOT=0" >&2
    continue
  elif [[ $(id -u) -ne 0 ]]; then
    echo "SKIP Neovim from Debian $suite: building and entering the debootstrap chroot needs root" >&2
    continue
  fi
  if [[ ! -x $CHROOT/usr/bin/nvim ]]; then
    command -v debootstrap >/dev/null || env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    echo "building a Debian $suite chroot with Neovim (once)…" >&2
    rm -rf "$CHROOT"
    debootstrap --variant=minbase --include=neovim "$suite" "$CHROOT" http://deb.debian.org/debian >/dev/null
  fi
  IN=/structls-test
  rm -rf "${CHROOT:?}$IN"
  stage "$CHROOT$IN"
  run_tests "$IN" "$CHROOT"
  rm -rf "${CHROOT:?}$IN"
done
exit $rc
