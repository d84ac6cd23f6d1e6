#!/usr/bin/env bash
# bench/outline.sh — issue 12's benchmark:
#  1. `structls outline` against `ast-grep outline` over the Go standard
#     library (both: the directory's exported items, names view), run
#     interleaved in alternating order: median wall time, the ratio, peak RSS;
#  2. warm workspace/symbol over the standard library: p50/p95 per query
#     (bench/symbols, one long-lived server);
#  3. documentSymbol on a generated 10,000-line Go file.
# It measures; it asserts nothing.
#
# usage: bench/outline.sh [rounds]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
root="$(go env GOROOT)/src"
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
go build -o "$work/symbols" ./bench/symbols

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
run_tool() { # run_tool NAME: one timed run, appends "seconds rss_kb" to NAME.times
  case $1 in
    structls) /usr/bin/time -f "%e %M" -o "$work/t" "$work/structls" outline --root "$root" > "$work/structls.txt" 2>/dev/null || true ;;
    astgrep) (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$ag" outline . > "$work/astgrep.txt" 2>/dev/null || true) ;;
  esac
  tail -1 "$work/t" >> "$work/$1.times"
}
echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs ast-grep $($ag --version), $(nproc) cores, $rounds rounds, $root"
tools=(structls astgrep)
for ((i = 0; i < rounds; i++)); do
  for ((j = 0; j < 2; j++)); do run_tool "${tools[(i + j) % 2]}"; done
done
for t in "${tools[@]}"; do
  eval "${t}_s=$(cut -d' ' -f1 "$work/$t.times" | median)"
  eval "${t}_rss=$(( $(cut -d' ' -f2 "$work/$t.times" | sort -n | tail -1) / 1024 ))"
done
printf '| %-34s | %8s | %8s | %12s |\n' run "wall (s)" "RSS MB" "output lines"
printf '|%s|%s|%s|%s|\n' ------------------------------------ ---------- ---------- --------------
printf '| %-34s | %8.2f | %8d | %12d |\n' "structls outline (exports, names)" "$structls_s" "$structls_rss" "$(wc -l < "$work/structls.txt")"
printf '| %-34s | %8.2f | %8d | %12d |\n' "ast-grep outline (exports, names)" "$astgrep_s" "$astgrep_rss" "$(wc -l < "$work/astgrep.txt")"
echo "structls / ast-grep = $(echo "$structls_s / $astgrep_s" | bc -l | cut -c1-4)"
echo
"$work/symbols" "$root" 10000 21 Server handler NewReader parse Marshal ServeHTTP errorf atoi Context readAll WriteString sortSlice \
  Buffer Decode Encoder reader Close Lock mutex Header Request Len Swap String Error newFile
