#!/usr/bin/env bash
# bench/astgrep.sh — cold `structls astgrep` against `ast-grep run` (the
# pinned npm CLI) on the Go standard library, the same files in the same run,
# A/B interleaved (the order flips every round): median wall time, ratio and
# median peak RSS per pattern (one run's peak swings by a fifth). Then warm queries through one server (bench/warm):
# the first query fills the parse cache, the others are timed against
# ast-grep's cold median for the same pattern. It measures; it asserts nothing.
#
# usage: bench/astgrep.sh [rounds]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
root="$(go env GOROOT)/src"
ag=.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
go build -o "$work/warm" ./bench/warm

patterns=(
  'if err != nil { return $$$ }'
  '$A := make($T, $N)'
  'for $K, $V := range $X { $$$ }'
  'defer $F.Close()'
  'func ($R *$T) String() string { $$$ }'
  'go func() { $$$ }()'
)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
timed() { # timed OUT CMD... : appends "seconds rss_kb" to OUT
  /usr/bin/time -f "%e %M" -o "$work/t" "$@" > "$work/out.json" 2>/dev/null || true
  cat "$work/t" >> "$1.times"
}

echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $($ag --version), $(nproc) cores, $rounds rounds, $root (Go)"
printf '| %-38s | %7s | %12s | %12s | %6s | %15s | %15s |\n' pattern matches "structls (s)" "ast-grep (s)" ratio "structls RSS MB" "ast-grep RSS MB"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' ---------------------------------------- --------- -------------- -------------- -------- ----------------- -----------------
declare -A agcold
for p in "${patterns[@]}"; do
  rm -f "$work/s.times" "$work/a.times"
  for ((i = 0; i < rounds; i++)); do
    if ((i % 2 == 0)); then order="s a"; else order="a s"; fi
    for tool in $order; do
      if [[ $tool == s ]]; then
        (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$work/structls" astgrep -l go --json -p "$p" > "$work/s.json" 2>/dev/null || true); cat "$work/t" >> "$work/s.times"
      else
        (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$OLDPWD/$ag" run -l go --json=compact -p "$p" > "$work/a.json" 2>/dev/null || true); cat "$work/t" >> "$work/a.times"
      fi
    done
  done
  s=$(cut -d' ' -f1 "$work/s.times" | median); a=$(cut -d' ' -f1 "$work/a.times" | median)
  srss=$(cut -d' ' -f2 "$work/s.times" | median | cut -d. -f1); arss=$(cut -d' ' -f2 "$work/a.times" | median | cut -d. -f1)
  n=$(python3 -c "import json; print(json.load(open('$work/s.json'))['matchCount'])")
  agcold[$p]=$a
  printf '| %-38s | %7s | %12.2f | %12.2f | %6.2f | %15d | %15d |\n' "$p" "$n" "$s" "$a" "$(echo "$s / $a" | bc -l)" $((srss / 1024)) $((arss / 1024))
done

echo
echo "warm queries through one server (the first query, with no literal to skip files by, parses every file and fills the parse cache):"
printf '| %-5s | %-38s | %7s | %10s | %22s |\n' query pattern matches "wall (s)" "ratio to ast-grep cold"
printf '|%s|%s|%s|%s|%s|\n' ------- ---------------------------------------- --------- ------------ ------------------------
"$work/warm" "$root" go '$F($A, $B, $C, $D, $E, $G, $H, $I)' "${patterns[@]}" > "$work/warm.out"
while IFS=$'\t' read -r kind p n secs _cpu; do
  if [[ $kind == peak-rss ]]; then echo "server peak RSS: $p"; continue; fi
  if [[ -v agcold[$p] ]]; then
    printf '| %-5s | %-38s | %7s | %10.3f | %22.3f |\n' "$kind" "$p" "$n" "$secs" "$(echo "$secs / ${agcold[$p]}" | bc -l)"
  else # the query that fills the cache: ast-grep was not timed on it
    printf '| %-5s | %-38s | %7s | %10.3f | %22s |\n' "$kind" "$p" "$n" "$secs" -
  fi
done < "$work/warm.out"
