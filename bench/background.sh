#!/usr/bin/env bash
# bench/background.sh — background parsing and incremental reparsing (issue
# 14 items 1 and 4), measured in one run against ast-grep's cold run of the
# same pattern on the same files (the Go standard library):
#   - a fresh server's first structural query, sent right after initialize,
#     with background parsing on (it pauses while the query runs) and off;
#   - a fresh server's query sent once its "Indexing N files" has ended;
#   - a keystroke in an open 10,000-line Go file, then structls.astGrep on it
#     (p50 / p95), against the same query after the same edit made on disk to
#     the closed file (a full parse each time).
# The pattern has no literal to skip files by, so every file is parsed. Rounds
# alternate the order of the tools. Besides wall time it prints CPU time
# (user + system: ast-grep's whole run; structls's whole process while the
# query runs): on a machine loaded by other work, what each run cost. It
# measures; it asserts nothing.
#
# usage: bench/background.sh [rounds] [keystrokes]      (defaults 3, 200)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
keys=${2:-200}
root="$(go env GOROOT)/src"
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/background" ./bench/background
pattern='$F($A, $B, $C, $D, $E, $G, $H, $I)'

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $($ag --version), $(nproc) cores, $rounds rounds, $root, pattern: $pattern"
for ((i = 0; i < rounds; i++)); do
  if ((i % 2 == 0)); then order="ag first off indexed"; else order="indexed off first ag"; fi
  for step in $order; do
    if [[ $step == ag ]]; then
      (cd "$root" && /usr/bin/time -f "%e %U %S" -o "$work/t" "$ag" run -l go --json=compact -p "$pattern" > "$work/a.json" 2>/dev/null || true)
      tail -1 "$work/t" | cut -d' ' -f1 >> "$work/ag.times"
      tail -1 "$work/t" | awk '{print $2 + $3}' >> "$work/ag.cpu"
    else
      "$work/background" "$step" "$root" go "$pattern" > "$work/out"
      grep "^$step" "$work/out" | cut -f2 >> "$work/$step.times"
      grep "^$step" "$work/out" | cut -f3 > "$work/$step.matches"
      grep "^$step" "$work/out" | cut -f4 >> "$work/$step.cpu"
      if [[ $step == indexed ]]; then grep '^indexing' "$work/out" | cut -f2 >> "$work/indexing.times"; fi
    fi
  done
done
ag=$(median < "$work/ag.times")
agcpu=$(median < "$work/ag.cpu")
agn=$(python3 -c "import json; print(len(json.load(open('$work/a.json'))))")
printf '| %-58s | %8s | %9s | %16s | %8s | %9s |\n' "median of $rounds" matches "wall (s)" "ratio to ast-grep" "CPU (s)" "CPU ratio"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------------------------------------------ ---------- ----------- ------------------ ---------- -----------
printf '| %-58s | %8s | %9.2f | %16s | %8.2f | %9s |\n' "ast-grep run, cold" "$agn" "$ag" 1 "$agcpu" 1
for step in first off indexed; do
  case $step in
    first) label="structls, fresh server, first query (background parse on)";;
    off) label="structls, fresh server, first query (backgroundParse off)";;
    indexed) label="structls, fresh server, query after indexing";;
  esac
  s=$(median < "$work/$step.times")
  c=$(median < "$work/$step.cpu")
  printf '| %-58s | %8s | %9.2f | %16.2f | %8.2f | %9.2f |\n' "$label" "$(cat "$work/$step.matches")" "$s" "$(echo "$s / $ag" | bc -l)" \
    "$c" "$(echo "$c / $agcpu" | bc -l)"
done
printf 'indexing took %.1f s (median, from initialize to the end of its progress)\n' "$(median < "$work/indexing.times")"
echo
"$work/background" keystroke "$keys" > "$work/keys"
read -r _ kp50 kp95 kcpu < <(grep '^keystroke' "$work/keys")
read -r _ dp50 dp95 dcpu < <(grep '^disk' "$work/keys")
echo "one character typed into an open 10,000-line Go file, then structls.astGrep on it ($keys times):"
printf '| %-44s | %8s | %8s | %20s |\n' "" "p50 (ms)" "p95 (ms)" "CPU per query (ms)"
printf '|%s|%s|%s|%s|\n' ---------------------------------------------- ---------- ---------- ----------------------
printf '| %-44s | %8s | %8s | %20s |\n' "didChange (incremental reparse)" "$kp50" "$kp95" "$kcpu"
printf '| %-44s | %8s | %8s | %20s |\n' "edit on disk, file closed (full parse)" "$dp50" "$dp95" "$dcpu"
printf '| %-44s | %8.2f | %8.2f | %20.2f |\n' "ratio" "$(echo "$kp50 / $dp50" | bc -l)" "$(echo "$kp95 / $dp95" | bc -l)" "$(echo "$kcpu / $dcpu" | bc -l)"
