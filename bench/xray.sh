#!/usr/bin/env bash
# bench/xray.sh — issue 10's benchmark: `structls xray` with an evaluator
# listing every call_expression of each .go file under the Go standard
# library (filename driver), against `ast-grep scan` with the equivalent
# `kind: call_expression` rule and against structls's own parse-only time
# (the same run with an evaluator that returns no match). The three run
# interleaved, in an order that rotates every round, on the same files:
# median wall time, median CPU time (user + system: on a machine others are
# loading, the steadier comparison), ratios, peak RSS, match counts. It
# measures; it asserts nothing.
#
# usage: bench/xray.sh [rounds]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
root="$(go env GOROOT)/src"
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls

calls='return {"matches": [{"line_number": c.start_point[0] + 1} for c in node.descendants_of_type("call_expression")], "value": None}'
rule=$'id: calls\nlanguage: go\nrule:\n  kind: call_expression'
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
run_tool() { # run_tool NAME: one timed run, appends "seconds rss_kb cpu_seconds" to NAME.times
  local out="$work/$1.json"
  case $1 in
    xray) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$work/structls" xray -e '\.go$' --target filename --eval-code "$calls" --json > "$out" 2>/dev/null || true) ;;
    parse) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$work/structls" xray -e '\.go$' --target filename --eval-code 'return {"matches": []}' --json > "$out" 2>/dev/null || true) ;;
    astgrep) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$ag" scan --inline-rules "$rule" --json=compact > "$out" 2>/dev/null || true) ;;
  esac
  tail -1 "$work/t" | awk '{print $1, $2, $3 + $4}' >> "$work/$1.times" # time writes "Command exited with non-zero status 1" first on exit 1
}
echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs ast-grep $($ag --version), $(nproc) cores, $rounds rounds, $root"
tools=(xray parse astgrep)
for ((i = 0; i < rounds; i++)); do
  for ((j = 0; j < 3; j++)); do run_tool "${tools[(i + j) % 3]}"; done
done
for t in "${tools[@]}"; do
  eval "${t}_s=$(cut -d' ' -f1 "$work/$t.times" | median)"
  eval "${t}_rss=$(( $(cut -d' ' -f2 "$work/$t.times" | sort -n | tail -1) / 1024 ))"
  eval "${t}_cpu=$(cut -d' ' -f3 "$work/$t.times" | median)"
done
xm=$(python3 -c "import json; print(len(json.load(open('$work/xray.json'))['matches']))")
am=$(python3 -c "import json; print(len(json.load(open('$work/astgrep.json'))))")
printf '| %-28s | %8s | %8s | %8s | %8s |\n' run "wall (s)" "CPU (s)" "RSS MB" matches
printf '|%s|%s|%s|%s|%s|\n' ------------------------------ ---------- ---------- ---------- ----------
printf '| %-28s | %8.2f | %8.2f | %8d | %8d |\n' "structls xray (calls)" "$xray_s" "$xray_cpu" "$xray_rss" "$xm"
printf '| %-28s | %8.2f | %8.2f | %8d | %8s |\n' "structls xray (parse only)" "$parse_s" "$parse_cpu" "$parse_rss" 0
printf '| %-28s | %8.2f | %8.2f | %8d | %8d |\n' "ast-grep scan kind rule" "$astgrep_s" "$astgrep_cpu" "$astgrep_rss" "$am"
ratio() { echo "$1 / $2" | bc -l | cut -c1-4; }
echo "wall: xray / ast-grep = $(ratio "$xray_s" "$astgrep_s"); xray / parse-only = $(ratio "$xray_s" "$parse_s")"
echo "CPU:  xray / ast-grep = $(ratio "$xray_cpu" "$astgrep_cpu"); xray / parse-only = $(ratio "$xray_cpu" "$parse_cpu")"
