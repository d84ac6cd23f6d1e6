#!/usr/bin/env bash
# bench/search.sh — cold `structls search` against ripgrep on the Go standard
# library, the same files in the same run, A/B interleaved (the order flips
# every round), median wall time per pattern. It measures; it asserts nothing.
#
# usage: bench/search.sh [rounds]      (default 9)
#
# Both tools search *.go under $(go env GOROOT)/src with the same rules:
# hidden files included, .gitignore honoured outside git repositories, .git
# skipped. Output goes to a file (ripgrep treats /dev/null specially).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-9}
root="$(go env GOROOT)/src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
command -v rg >/dev/null || { echo "ripgrep (rg) is not installed: apt-get install ripgrep" >&2; exit 2; }

# name|flags and pattern (one shell word each, separated by |)
cases=(
  "plain literal|-F|ctx.Done()"
  "alternation||ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe"
  "case-insensitive|-i|deadline exceeded"
  "character classes||[A-Z][a-z]+Handler\b"
  "rare literal|-F|ErrSkipAltProtocol"
  "many matches||\berr(or)?\b"
)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

run_structls() { (cd "$root" && "$work/structls" search -g '*.go' $1 -- "$2" > "$work/s.out" || true); }
run_rg() { (cd "$root" && rg -n --no-heading --hidden --no-require-git -g '!.git' -g '*.go' $1 -- "$2" > "$work/r.out" || true); }

printf '%s\n' "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $(rg --version | head -1), $(nproc) cores, $rounds rounds, corpus $root (*.go)"
printf '| %-18s | %-38s | %8s | %12s | %9s | %6s |\n' pattern regex lines "structls (s)" "rg (s)" ratio
printf '|%s|%s|%s|%s|%s|%s|\n' -------------------- ---------------------------------------- ---------- -------------- ----------- --------
for c in "${cases[@]}"; do
  name=${c%%|*}; rest=${c#*|}; flags=${rest%%|*}; pattern=${rest#*|}
  : > "$work/s.times"; : > "$work/r.times"
  for ((i = 0; i < rounds; i++)); do
    if ((i % 2 == 0)); then order="s r"; else order="r s"; fi
    for tool in $order; do
      t0=$(now)
      if [[ $tool == s ]]; then run_structls "$flags" "$pattern"; else run_rg "$flags" "$pattern"; fi
      echo "$(now) - $t0" | bc -l >> "$work/$tool.times"
    done
  done
  s=$(median < "$work/s.times"); r=$(median < "$work/r.times")
  ls=$(wc -l < "$work/s.out"); lr=$(wc -l < "$work/r.out")
  note=""; [[ $ls == "$lr" ]] || note=" (rg: $lr lines)"
  printf '| %-18s | %-38s | %8s | %12.3f | %9.3f | %6.2f |%s\n' "$name" "$flags $pattern" "$ls" "$s" "$r" "$(echo "$s / $r" | bc -l)" "$note"
done
