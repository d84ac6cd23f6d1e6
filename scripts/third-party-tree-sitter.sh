#!/usr/bin/env bash
# scripts/third-party-tree-sitter.sh — the two copies of upstream tree-sitter code in third_party/
# (third_party/README.md says why each is a copy), checked or rewritten from the module cache:
#
# third_party/go-tree-sitter is github.com/tree-sitter/go-tree-sitter v0.25.0 (MIT, the tree-sitter C
# runtime and its Go binding), byte for byte, but for one flag: its C runtime is compiled at -O3 instead
# of cgo's default -O2, as the ast-grep CLI's is (Rust's cc crate builds C at the release profile's
# opt-level 3). Tree-sitter's parse is ~90% of a cold search or outline's CPU time; -O3 makes it ~5%
# faster here. The copy is a package of this module, imported instead of the upstream one: not a go.mod
# replace, which would make `go install .../cmd/structls@latest` refuse the module. So it leaves out the
# module's go.mod and go.sum, and its tests (they need older grammar modules). A package's own #cgo
# CFLAGS come after CGO_CFLAGS on the compiler's command line, so -O3 holds whatever the environment
# sets, and a plain `go install` needs nothing extra.
#
# third_party/tree-sitter-swift holds the Swift grammar of github.com/alex-pinkus/tree-sitter-swift
# (MIT): its LICENSE and its generated C (src/parser.c, src/scanner.c, src/tree_sitter/*.h) byte for
# byte, next to a Go binding of ours (binding.go) that compiles parser.c and scanner.c as two
# translation units, as the grammar's other bindings do; the module's own Go binding #includes both
# into one, where scanner.c's TOKEN_COUNT redefines parser.c's and gcc warns on every cold build.
# This script leaves binding.go and its test alone.
#
# usage: scripts/third-party-tree-sitter.sh          rewrite the copies from the modules
#        scripts/third-party-tree-sitter.sh --check  fail unless the copies are exactly that
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
[[ ${1:-} == --check ]] && check=true

# moduledir MODULE VERSION prints the module's directory in the module cache, downloading it if needed.
moduledir() {
  local dir
  dir=$(go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -d $dir ]] || { echo "go mod download $1@$2 gave no directory" >&2; exit 1; }
  echo "$dir"
}

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT

# go-tree-sitter: the whole module, less go.mod, go.sum and tests, with -O3 for lib.c (the file that
# compiles the whole runtime). The copy is the whole directory: check and write it as one.
module=github.com/tree-sitter/go-tree-sitter
version=v0.25.0
dest=third_party/go-tree-sitter
mkdir "$fresh/go-tree-sitter"
cp -R "$(moduledir "$module" "$version")/." "$fresh/go-tree-sitter/"
chmod -R u+w "$fresh/go-tree-sitter"
rm -f "$fresh/go-tree-sitter/go.mod" "$fresh/go-tree-sitter/go.sum" "$fresh/go-tree-sitter"/*_test.go
old='#cgo CFLAGS: -Iinclude -Isrc -std=c11'
grep -q "^$old" "$fresh/go-tree-sitter/tree_sitter.go" || { echo "$module@$version: tree_sitter.go has no line '$old'" >&2; exit 1; }
sed -i "s|^$old|#cgo CFLAGS: -O3 -Iinclude -Isrc -std=c11|" "$fresh/go-tree-sitter/tree_sitter.go"
if $check; then
  if ! diff -r "$fresh/go-tree-sitter" "$dest" >/dev/null; then
    diff -r "$fresh/go-tree-sitter" "$dest" | head -20 >&2
    echo "$dest differs from $module@$version (less go.mod, go.sum and tests) with -O3: run scripts/third-party-tree-sitter.sh" >&2
    exit 1
  fi
  echo "$dest is $module@$version (less go.mod, go.sum and tests) with -O3" >&2
else
  rm -rf "$dest"
  mkdir -p "$dest"
  cp -R "$fresh/go-tree-sitter/." "$dest/"
  echo "wrote $dest ($module@$version, runtime at -O3)" >&2
fi

# tree-sitter-swift: the grammar's C and LICENSE, file by file (binding.go is ours).
module=github.com/alex-pinkus/tree-sitter-swift
version=v0.0.0-20260601004120-31d17fe7e818
dest=third_party/tree-sitter-swift
src=$(moduledir "$module" "$version")
files=(LICENSE parser.c scanner.c tree_sitter/alloc.h tree_sitter/array.h tree_sitter/parser.h)
stale=()
for f in "${files[@]}"; do
  from=$src/src/$f
  [[ $f == LICENSE ]] && from=$src/LICENSE
  [[ -f $from ]] || { echo "$module@$version has no $from" >&2; exit 1; }
  if $check; then
    cmp -s "$from" "$dest/$f" || stale+=("$f")
  else
    mkdir -p "$(dirname "$dest/$f")"
    cp "$from" "$dest/$f"
    chmod u+w "$dest/$f"
  fi
done
if $check; then
  if ((${#stale[@]})); then
    echo "$dest/{${stale[*]}} differ from $module@$version: run scripts/third-party-tree-sitter.sh" >&2
    exit 1
  fi
  echo "$dest holds $module@$version's C and LICENSE" >&2
else
  echo "wrote $dest ($module@$version's C and LICENSE)" >&2
fi
