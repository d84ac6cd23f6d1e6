#!/usr/bin/env bash
# bench/outline.sh — issue 12's and 26's benchmark:
#  1. `structls outline` against `ast-grep outline` over the Go standard
#     library, both ways: the directory's exported items in the names view
#     (text), and every file's items as JSON (--json --items structure
#     against --json=stream --items structure); then the JSON outline of
#     each LANG=DIR tree given, files of that language only. Each pair runs
#     interleaved in alternating order: median wall time and CPU time (user
#     + system, the steadier figure on a shared machine), their ratios, the
#     largest peak RSS of each tool, and the load average before and after;
#  2. warm workspace/symbol over the standard library: p50/p95 per query
#     (bench/symbols, one long-lived server);
#  3. documentSymbol on a generated 10,000-line Go file.
# It measures; it asserts nothing.
#
# usage: bench/outline.sh [rounds] [LANG=DIR ...]      (default 3 rounds)
#   e.g. bench/outline.sh 3 rust=~/src/tokio java=~/src/commons-lang c=~/src/git
#   (LANG as `structls languages` and ast-grep's --lang name it: rust, java,
#   c, cpp, javascript, typescript, csharp, …)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
root="$(go env GOROOT)/src"
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
go build -o "$work/symbols" ./bench/symbols

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
load() { cut -d' ' -f1 /proc/loadavg; }
timed() { # timed NAME DIR CMD...: one run in DIR, appends "wall cpu rss_kb" to NAME.times
  local name=$1 dir=$2
  shift 2
  (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > "$work/$name.out" 2>/dev/null || true)
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$work/t" >> "$work/$name.times"
}
# compare LABEL DIR STRUCTLS-ARGS -- AST-GREP-ARGS: runs both tools rounds
# times in DIR, alternating which goes first, and prints one table row.
compare() {
  local label=$1 dir=$2
  shift 2
  local s=() a=()
  while [[ $1 != -- ]]; do s+=("$1"); shift; done
  shift
  a=("$@")
  rm -f "$work/s.times" "$work/a.times"
  local before after
  before=$(load)
  for ((i = 0; i < rounds; i++)); do
    if ((i % 2 == 0)); then order="s a"; else order="a s"; fi
    for tool in $order; do
      if [[ $tool == s ]]; then timed s "$dir" "$work/structls" outline "${s[@]}"; else timed a "$dir" "$ag" outline "${a[@]}"; fi
    done
  done
  after=$(load)
  local sw aw sc ac sr ar
  sw=$(cut -d' ' -f1 "$work/s.times" | median); aw=$(cut -d' ' -f1 "$work/a.times" | median)
  sc=$(cut -d' ' -f2 "$work/s.times" | median); ac=$(cut -d' ' -f2 "$work/a.times" | median)
  sr=$(($(cut -d' ' -f3 "$work/s.times" | sort -n | tail -1) / 1024)); ar=$(($(cut -d' ' -f3 "$work/a.times" | sort -n | tail -1) / 1024))
  printf '| %-30s | %7.2f | %7.2f | %5.2f | %7.2f | %7.2f | %5.2f | %6d | %6d | %-9s |\n' "$label" "$sw" "$aw" \
    "$(echo "$sw / $aw" | bc -l)" "$sc" "$ac" "$(echo "$sc / $ac" | bc -l)" "$sr" "$ar" "$before-$after"
}

echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs ast-grep $($ag --version), $(nproc) cores, $rounds rounds"
printf '| %-30s | %7s | %7s | %5s | %7s | %7s | %5s | %6s | %6s | %-9s |\n' run "wall s" "ag wall" ratio "CPU s" "ag CPU" ratio "RSS MB" "ag RSS" load
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' -------------------------------- --------- --------- ------- --------- --------- ------- -------- -------- -----------
compare "Go stdlib: exports, names" "$root" --root . -- .
compare "Go stdlib: --json structure" "$root" --json --items structure --root . -- --json=stream --items structure .
for tree in "$@"; do
  lang=${tree%%=*} dir=${tree#*=}
  compare "$lang: --json structure" "$dir" --json --items structure -l "$lang" --root . -- --json=stream --items structure --lang "$lang" .
done
echo
"$work/symbols" "$root" 10000 21 Server handler NewReader parse Marshal ServeHTTP errorf atoi Context readAll WriteString sortSlice \
  Buffer Decode Encoder reader Close Lock mutex Header Request Len Swap String Error newFile
