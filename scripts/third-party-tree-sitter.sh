#!/usr/bin/env bash
# scripts/third-party-tree-sitter.sh — third_party/go-tree-sitter is
# github.com/tree-sitter/go-tree-sitter v0.25.0 (MIT, the tree-sitter C
# runtime and its Go binding), byte for byte, but for one flag: its C
# runtime is compiled at -O3 instead of cgo's default -O2, as the ast-grep
# CLI's is (Rust's cc crate builds C at the release profile's opt-level 3).
# Tree-sitter's parse is ~90% of a cold search or outline's CPU time; -O3
# makes it ~5% faster here (third_party/README.md has the figures). The copy
# is a package of this module (github.com/structls/structls/third_party/
# go-tree-sitter), imported instead of the upstream one: not a go.mod
# replace, which would make `go install .../cmd/structls@latest` refuse the
# module. So it leaves out the module's go.mod and go.sum, and its tests
# (they need older grammar modules). A package's own #cgo CFLAGS come after
# CGO_CFLAGS on the compiler's command line, so -O3 holds whatever the
# environment sets, and a plain `go install` needs nothing extra.
#
# usage: scripts/third-party-tree-sitter.sh          rewrite the copy from the module
#        scripts/third-party-tree-sitter.sh --check  fail unless the copy is exactly that
set -euo pipefail
cd "$(dirname "$0")/.."
module=github.com/tree-sitter/go-tree-sitter
version=v0.25.0
dest=third_party/go-tree-sitter

src=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[[ -d $src ]] || { echo "go mod download $module@$version gave no directory" >&2; exit 1; }
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
cp -R "$src/." "$fresh/"
chmod -R u+w "$fresh"
rm -f "$fresh/go.mod" "$fresh/go.sum" "$fresh"/*_test.go
# The one change: -O3 for lib.c, the file that compiles the whole runtime.
old='#cgo CFLAGS: -Iinclude -Isrc -std=c11'
grep -q "^$old" "$fresh/tree_sitter.go" || { echo "$module@$version: tree_sitter.go has no line '$old'" >&2; exit 1; }
sed -i "s|^$old|#cgo CFLAGS: -O3 -Iinclude -Isrc -std=c11|" "$fresh/tree_sitter.go"

if [[ ${1:-} == --check ]]; then
  if ! diff -r "$fresh" "$dest" >/dev/null; then
    diff -r "$fresh" "$dest" | head -20 >&2
    echo "$dest differs from $module@$version (less go.mod, go.sum and tests) with -O3: run scripts/third-party-tree-sitter.sh" >&2
    exit 1
  fi
  echo "$dest is $module@$version (less go.mod, go.sum and tests) with -O3" >&2
  exit 0
fi
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$fresh/." "$dest/"
echo "wrote $dest ($module@$version, runtime at -O3)" >&2
