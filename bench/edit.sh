#!/usr/bin/env bash
# bench/edit.sh — a structural rewrite preview over the Go standard library:
# `structls edit -l go -p P -r R` (the preview and its unified diff, printed)
# against `ast-grep run -p P -r R -l go` (which prints its diff), the same
# files in the same run, A/B interleaved (the order flips every round): median
# wall time, ratio and peak RSS. Then the same rewrite through one server
# (bench/apply): astEdit, then applyEdit timed apart, on a copy of the tree —
# written by the server (a client without workspace.applyEdit: the CLI, an
# agent), and applied by the editor to its buffers (workspace/applyEdit).
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
go build -o "$work/structls" ./cmd/structls
go build -o "$work/apply" ./bench/apply

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
      (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$work/structls" edit -l go -p "$pattern" -r "$rewrite" > "$work/s.out" 2> "$work/s.err" || true)
      cat "$work/t" >> "$work/s.times"
    else
      (cd "$root" && /usr/bin/time -f "%e %M" -o "$work/t" "$ag" run -l go -p "$pattern" -r "$rewrite" > "$work/a.out" 2>/dev/null || true)
      cat "$work/t" >> "$work/a.times"
    fi
  done
done
s=$(cut -d' ' -f1 "$work/s.times" | median); a=$(cut -d' ' -f1 "$work/a.times" | median)
srss=$(cut -d' ' -f2 "$work/s.times" | sort -n | tail -1); arss=$(cut -d' ' -f2 "$work/a.times" | sort -n | tail -1)
read -r files repl < <(grep -m1 -o '^[0-9]* replacement(s) in [0-9]* file(s)' "$work/s.out" | awk '{print $4, $1}')
printf '| %-22s | %8s | %12s | %12s | %6s | %15s | %15s |\n' "" files replacements "wall (s)" ratio "peak RSS MB" "output bytes"
printf '| %-22s | %8s | %12s | %12.2f | %6.2f | %15d | %15d |\n' "structls edit" "$files" "$repl" "$s" "$(echo "$s / $a" | bc -l)" $((srss / 1024)) "$(wc -c < "$work/s.out")"
printf '| %-22s | %8s | %12s | %12.2f | %6.2f | %15d | %15d |\n' "ast-grep run -r" "-" "-" "$a" 1 $((arss / 1024)) "$(wc -c < "$work/a.out")"

echo
echo "through one server, on a copy of the tree (files, replacements, preview s, apply s):"
for mode in server editor; do
  rm -rf "$work/src"
  cp -r "$root" "$work/src"
  flag=""
  [[ $mode == editor ]] && flag="-editor"
  read -r files repl psecs asecs < <("$work/apply" $flag "$work/src" go "$pattern" "$rewrite")
  case $mode in
    server) echo "  written by the server (no workspace.applyEdit): $files files, $repl replacements, preview ${psecs}s, apply ${asecs}s" ;;
    editor) echo "  applied by the editor (workspace/applyEdit into buffers): $files files, $repl replacements, preview ${psecs}s, apply ${asecs}s" ;;
  esac
done
