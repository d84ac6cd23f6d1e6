#!/usr/bin/env bash
# bench/memory.sh — memory and warm-query figures on the Go standard library
# (issue 14), each measured in this run; it measures, it asserts nothing.
#  1. the parse cache holding every tree (bench/treesize): nodes, bytes per
#     node, bytes charged;
#  2. cold CLI peak RSS, `structls astgrep --json` against `ast-grep run
#     --json=compact` on the six patterns of bench/astgrep.sh, A/B
#     interleaved (the order flips every round): the median of [rounds]
#     runs per tool (one run's figure varies by 20%, ast-grep's most), its
#     range, and the ratio of the medians per pattern;
#  3. one server (bench/warm, default 2 GiB cache): a query with no literal
#     parses and caches every tree, then the range pattern runs warm three
#     times with limit 0 and, in a second server, with the default limit 50;
#     the median warm wall and CPU time (CPU: what the query costs, whatever
#     the load) and each server's peak RSS.
#
# usage: bench/memory.sh [rounds]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
root="$(go env GOROOT)/src"
ag=.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
go build -o "$work/warm" ./bench/warm
go build -o "$work/treesize" ./bench/treesize

echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $($ag --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $root"
echo
echo "1. every Go tree of the standard library in one parse cache:"
"$work/treesize" "$root" go | awk -F'\t' '{v[$1]=$2} END {
  printf "   %d files, %d trees, %d nodes of %d bytes; %.1f bytes charged per node; sources %.0f MB; cache %.0f MB = %.3f GiB\n",
    v["files"], v["trees"], v["nodes"], v["node-size"], v["bytes-per-node"], v["source-bytes"]/1e6, v["cache-bytes"]/1e6, v["cache-bytes"]/2^30 }'

echo
echo "2. cold CLI peak RSS (MB), median of $rounds runs per tool [min-max]:"
patterns=(
  'if err != nil { return $$$ }'
  '$A := make($T, $N)'
  'for $K, $V := range $X { $$$ }'
  'defer $F.Close()'
  'func ($R *$T) String() string { $$$ }'
  'go func() { $$$ }()'
)
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mb() { awk '{printf "%d", $1 / 1024}'; }
printf '   | %-38s | %7s | %17s | %17s | %5s |\n' pattern matches structls ast-grep ratio
for p in "${patterns[@]}"; do
  rm -f "$work/s.rss" "$work/a.rss"
  for ((i = 0; i < rounds; i++)); do
    for tool in $( ((i % 2)) && echo "a s" || echo "s a"); do
      if [[ $tool == s ]]; then
        (cd "$root" && /usr/bin/time -f "%M" -o "$work/t" "$work/structls" astgrep -l go --json -p "$p" > "$work/s.json" 2>/dev/null || true); tail -1 "$work/t" >> "$work/s.rss"
      else
        (cd "$root" && /usr/bin/time -f "%M" -o "$work/t" "$OLDPWD/$ag" run -l go --json=compact -p "$p" > /dev/null 2>&1 || true); tail -1 "$work/t" >> "$work/a.rss"
      fi
    done
  done
  s=$(median < "$work/s.rss"); a=$(median < "$work/a.rss")
  srange="$(sort -g "$work/s.rss" | head -1 | mb)-$(sort -g "$work/s.rss" | tail -1 | mb)"
  arange="$(sort -g "$work/a.rss" | head -1 | mb)-$(sort -g "$work/a.rss" | tail -1 | mb)"
  n=$(python3 -c "import json; print(json.load(open('$work/s.json'))['matchCount'])")
  printf '   | %-38s | %7s | %5d [%9s] | %5d [%9s] | %5.2f |\n' "$p" "$n" "$(echo "$s" | mb)" "$srange" "$(echo "$a" | mb)" "$arange" "$(echo "$s / $a" | bc -l)"
done

echo
echo "3. one server, the whole standard library cached, 'for \$K, \$V := range \$X { \$\$\$ }' warm:"
range='for $K, $V := range $X { $$$ }'
for limit in 0 50; do
  WARM_LIMIT=$limit "$work/warm" "$root" go '$F($A, $B, $C, $D, $E, $G, $H, $I)' "$range" "$range" "$range" > "$work/warm.out"
  cold=$(awk -F'\t' '$1 == "cold" {print $4}' "$work/warm.out")
  med=$(awk -F'\t' '$1 == "warm" {print $4}' "$work/warm.out" | sort -g | sed -n 2p)
  cpu=$(awk -F'\t' '$1 == "warm" {print $5}' "$work/warm.out" | sort -g | sed -n 2p)
  n=$(awk -F'\t' '$1 == "warm" {print $3; exit}' "$work/warm.out")
  rss=$(awk -F'\t' '$1 == "peak-rss" {print $2}' "$work/warm.out")
  printf '   limit %-3s: %s matches, warm median %.3f s wall, %.3f s CPU (the query filling the cache: %.1f s); server peak RSS %s\n' "$limit" "$n" "$med" "$cpu" "$cold" "$rss"
done
