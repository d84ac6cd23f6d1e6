#!/usr/bin/env bash
# bench/edit.sh — a structural rewrite preview over the Go standard library:
# structls's engine (bench/edit: rewrite.Preview with the text rendering and
# unified diff, printed) against `ast-grep run -p P -r R -l go` (which prints
# its diff), the same files in the same run, A/B interleaved (the order flips
# every round): median wall time, ratio and peak RSS. Then the preview is
# applied (written atomically, file by file) to a copy of the tree, timed.
# It measures; it asserts nothing.
#
# usage: bench/edit.sh [rounds]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
root="$(go env GOROOT)/src"
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/edit" ./bench/edit

pattern='if err != nil { return $$$R }'
rewrite=$'if err != nil {\n\treturn fmt.Errorf("context: %w", $$$R)\n}'

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $($ag --version), $(nproc) cores, $rounds rounds, $root"
echo "pattern: $pattern"
echo "rewrite: ${rewrite//$'\n'/\\n}"
rm -f "$work/s.times" "$work/a.times"
for ((i = 0; i < rounds; i++)); do
  if ((i % 2 == 0)); then order="s a"; else order="a s"; fi
  for tool in $order; do
    if [[ $tool == s ]]; then
      /usr/bin/time -f "%e %M" -o "$work/t" "$work/edit" -print "$root" go "$pattern" "$rewrite" > "$work/s.out" 2> "$work/s.err"
      cat "$work/t" >> "$work/s.times"
    else
      (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$ag" run -l go -p "$pattern" -r "$rewrite" > "$work/a.out" 2>/dev/null || true)
      cat "$work/t" >> "$work/a.times"
    fi
  done
done
s=$(cut -d' ' -f1 "$work/s.times" | median); a=$(cut -d' ' -f1 "$work/a.times" | median)
srss=$(cut -d' ' -f2 "$work/s.times" | sort -n | tail -1); arss=$(cut -d' ' -f2 "$work/a.times" | sort -n | tail -1)
read -r files repl _ _ < <(tail -1 "$work/s.err")
printf '| %-22s | %8s | %12s | %12s | %6s | %15s | %15s |\n' "" files replacements "wall (s)" ratio "peak RSS MB" "output bytes"
printf '| %-22s | %8s | %12s | %12.2f | %6.2f | %15d | %15d |\n' "structls preview" "$files" "$repl" "$s" "$(echo "$s / $a" | bc -l)" $((srss / 1024)) "$(wc -c < "$work/s.out")"
printf '| %-22s | %8s | %12s | %12.2f | %6.2f | %15d | %15d |\n' "ast-grep run -r" "-" "-" "$a" 1 $((arss / 1024)) "$(wc -c < "$work/a.out")"

echo
echo "apply: the same preview written to a copy of the tree (temp file + rename per file, rollback on failure):"
cp -r "$root" "$work/src"
"$work/edit" -apply "$work/src" go "$pattern" "$rewrite" 2> "$work/apply.err" > /dev/null
read -r files repl psecs asecs < <(tail -1 "$work/apply.err")
echo "files written: $files, replacements: $repl, preview ${psecs}s, apply ${asecs}s"
