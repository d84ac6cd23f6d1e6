#!/usr/bin/env bash
# bench/search.sh — cold `structls search --json` against ripgrep on the Go
# standard library, the same files in the same run, interleaved (the order
# of the tools turns every round), median wall time per pattern. It measures;
# it asserts nothing.
#
# usage: bench/search.sh [rounds] [structls binary]    (default 9 rounds; the
#        binary built from this checkout unless one is given)
#   STRUCTLS_B=/path/to/other   adds a column for a second structls binary,
#                               interleaved with the rest (an A/B in one run)
#   CASES=REGEX                 runs only the patterns whose name matches
#
# structls prints its JSON result (`--json`); ripgrep is timed twice, printing
# its plain `path:line:text` (its fastest output) and its own `--json`. The
# ratio columns divide structls's median by each of ripgrep's; the last line
# gives the median of each ratio over the patterns, which run from a rare
# literal to a regex with no literal at all and one with 150,000 matching lines.
# CPU (user+system) medians are printed too: on a machine shared with other
# work, wall time swings with the load, CPU time much less.
#
# Both tools search *.go under $(go env GOROOT)/src with the same rules:
# hidden files included, .gitignore honoured outside git repositories, .git
# skipped. Output goes to a file (ripgrep treats /dev/null specially). The
# matching lines are counted for each tool (structls's matchCount, ripgrep's
# matched_lines) and a difference is flagged.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
root="$(go env GOROOT)/src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -n ${2:-} ]]; then
  cp "$2" "$work/structls"
else
  go build -o "$work/structls" ./cmd/structls
fi
b=${STRUCTLS_B:-}
command -v rg >/dev/null || { echo "ripgrep (rg) is not installed: apt-get install ripgrep" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq is not installed: apt-get install jq" >&2; exit 2; }

# name|flags|pattern (the pattern may itself hold |)
cases=(
  "rare literal|-F|ErrSkipAltProtocol"
  "plain literal|-F|ctx.Done()"
  "alternation||ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe"
  "case-insensitive|-i|deadline exceeded"
  "literal in a regex||[A-Z][a-z]+Handler\b"
  "no literal||[A-Z][A-Z0-9_]{15,}"
  "many matches||\berr(or)?\b"
)

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# timed TOOL CMD...: runs CMD in the corpus, appending "wall cpu" to $work/TOOL.times.
timed() {
  local tool=$1; shift
  local TIMEFORMAT='%R %U %S'
  { time (cd "$root" && "$@" > "$work/$tool.out" || true) ; } 2> "$work/t"
  awk '{printf "%s %.3f\n", $1, $2 + $3}' "$work/t" >> "$work/$tool.times"
}
rgflags=(--hidden --no-require-git -g '!.git' -g '*.go')
run() {
  local tool=$1 flags=$2 pattern=$3
  case $tool in
    s) timed s "$work/structls" search --json -g '*.go' $flags -- "$pattern" ;;
    b) timed b "$b" search --json -g '*.go' $flags -- "$pattern" ;;
    r) timed r rg -n --no-heading "${rgflags[@]}" $flags -- "$pattern" ;;
    j) timed j rg --json "${rgflags[@]}" $flags -- "$pattern" ;;
  esac
}

tools="s r j"; [[ -n $b ]] && tools="s b r j"
printf '%s\n' "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?')${b:+ (B: $b)} vs $(rg --version 2>/dev/null | head -1), $(nproc) cores, $rounds rounds, corpus $root (*.go), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-18s | %-34s | %7s | %-13s |%s %-13s | %-13s | %6s | %6s |\n' pattern regex lines "structls s/cpu" "${b:+ B s/cpu  B/A   |}" "rg s/cpu" "rg --json" "vs rg" "vs json"
ratios=$work/ratios; : > "$ratios"
for c in "${cases[@]}"; do
  name=${c%%|*}; rest=${c#*|}; flags=${rest%%|*}; pattern=${rest#*|}
  [[ $name =~ ${CASES:-.} ]] || continue
  for t in $tools; do : > "$work/$t.times"; done
  for ((i = 0; i < rounds; i++)); do
    order=$tools; ((i % 2)) && order=$(echo "$tools" | tr ' ' '\n' | tac | tr '\n' ' ')
    for t in $order; do run "$t" "$flags" "$pattern"; done
  done
  declare -A wall cpu
  for t in $tools; do
    wall[$t]=$(cut -d' ' -f1 "$work/$t.times" | median); cpu[$t]=$(cut -d' ' -f2 "$work/$t.times" | median)
  done
  ls=$(jq .matchCount "$work/s.out"); lr=$(wc -l < "$work/r.out")
  note=""; [[ $ls == "$lr" ]] || note=" (rg: $lr lines)"
  rr=$(echo "${wall[s]} / ${wall[r]}" | bc -l); rj=$(echo "${wall[s]} / ${wall[j]}" | bc -l)
  echo "$rr $rj" >> "$ratios"
  bcol=""; [[ -n $b ]] && bcol=$(printf ' %5.3f/%5.3f %4.2f |' "${wall[b]}" "${cpu[b]}" "$(echo "${wall[b]} / ${wall[s]}" | bc -l)")
  printf '| %-18s | %-34s | %7s | %5.3f/%5.3f   |%s %5.3f/%5.3f   | %5.3f/%5.3f   | %6.2f | %6.2f |%s\n' "$name" "$flags $pattern" "$ls" \
    "${wall[s]}" "${cpu[s]}" "$bcol" "${wall[r]}" "${cpu[r]}" "${wall[j]}" "${cpu[j]}" "$rr" "$rj" "$note"
done
printf 'median ratio over the patterns: %.2f vs ripgrep, %.2f vs ripgrep --json (load %s)\n' \
  "$(cut -d' ' -f1 "$ratios" | median)" "$(cut -d' ' -f2 "$ratios" | median)" "$(cut -d' ' -f1-3 /proc/loadavg)"
