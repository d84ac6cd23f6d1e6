#!/usr/bin/env bash
# bench/scan.sh — issue 11's benchmark: the rule set of
# rules/testdata/ruleset (its Go rules fire here; the Python and TypeScript
# ones are loaded too) over the Go standard library, cold `structls scan`
# (a fresh process each run, no cache carried over) against `ast-grep scan`
# with the same sgconfig.yml. The two run interleaved, alternating which
# goes first, on the same files: median wall time, the ratio, median CPU
# time (user + system: less shaken than wall time when other work shares
# the machine), peak RSS, diagnostic counts, and the load average before
# and after. It measures; it asserts nothing.
#
# With BASE set to a git revision, structls is also built at that revision
# and timed in the same rounds (the three rotating which goes first), to
# A/B one change: each against ast-grep, and the working tree against the
# base, whose outputs must be identical.
#
# usage: [BASE=rev] bench/scan.sh [rounds]      (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
root="$(go env GOROOT)/src"
config=$PWD/rules/testdata/ruleset/sgconfig.yml
ag=$PWD/.tools/node_modules/.bin/ast-grep
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/structls" ./cmd/structls
tools=(structls astgrep)
if [[ -n ${BASE:-} ]]; then
  git worktree add -q --detach "$work/base" "$BASE"
  trap 'git worktree remove --force "$work/base"; rm -rf "$work"' EXIT
  (cd "$work/base" && go build -o "$work/base-structls" ./cmd/structls)
  tools+=(base)
fi

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
run_tool() { # run_tool NAME: one timed run, appends "seconds rss_kb cpu_seconds" to NAME.times
  local out="$work/$1.json"
  case $1 in
    structls) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$work/structls" scan -c "$config" --json > "$out" 2>/dev/null || true) ;;
    base) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$work/base-structls" scan -c "$config" --json > "$out" 2>/dev/null || true) ;;
    astgrep) (cd "$root" && /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$ag" scan -c "$config" --json=compact > "$out" 2>/dev/null || true) ;;
  esac
  tail -1 "$work/t" | awk '{print $1, $2, $3 + $4}' >> "$work/$1.times" # time writes "Command exited with non-zero status 1" first on exit 1
}
ratio() { echo "$1 / $2" | bc -l | cut -c1-5; }
echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?')${BASE:+ (and $BASE)} vs ast-grep $($ag --version), $(nproc) cores, $rounds rounds, $(ls "$(dirname "$config")"/*/*.yml | wc -l) rules, $root"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
n=${#tools[@]}
for ((i = 0; i < rounds; i++)); do
  for ((j = 0; j < n; j++)); do run_tool "${tools[(i + j) % n]}"; done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for t in "${tools[@]}"; do
  eval "${t}_s=$(cut -d' ' -f1 "$work/$t.times" | median)"
  eval "${t}_rss=$(( $(cut -d' ' -f2 "$work/$t.times" | sort -n | tail -1) / 1024 ))"
  eval "${t}_cpu=$(cut -d' ' -f3 "$work/$t.times" | median)"
done
sd=$(python3 -c "import json; print(len(json.load(open('$work/structls.json'))['diagnostics']))")
ad=$(python3 -c "import json; print(len(json.load(open('$work/astgrep.json'))))")
printf '| %-22s | %8s | %8s | %8s | %11s |\n' run "wall (s)" "CPU (s)" "RSS MB" diagnostics
printf '|%s|%s|%s|%s|%s|\n' ------------------------ ---------- ---------- ---------- -------------
printf '| %-22s | %8.2f | %8.2f | %8d | %11d |\n' "structls scan (cold)" "$structls_s" "$structls_cpu" "$structls_rss" "$sd"
if [[ -n ${BASE:-} ]]; then
  bd=$(python3 -c "import json; print(len(json.load(open('$work/base.json'))['diagnostics']))")
  printf '| %-22s | %8.2f | %8.2f | %8d | %11d |\n' "structls at $BASE" "$base_s" "$base_cpu" "$base_rss" "$bd"
fi
printf '| %-22s | %8.2f | %8.2f | %8d | %11d |\n' "ast-grep scan" "$astgrep_s" "$astgrep_cpu" "$astgrep_rss" "$ad"
echo "structls / ast-grep wall = $(ratio "$structls_s" "$astgrep_s"), CPU = $(ratio "$structls_cpu" "$astgrep_cpu")"
if [[ -n ${BASE:-} ]]; then
  echo "base / ast-grep wall = $(ratio "$base_s" "$astgrep_s"), CPU = $(ratio "$base_cpu" "$astgrep_cpu")"
  echo "structls / base wall = $(ratio "$structls_s" "$base_s"), CPU = $(ratio "$structls_cpu" "$base_cpu")"
  if cmp -s "$work/structls.json" "$work/base.json"; then echo "outputs identical"; else echo "OUTPUTS DIFFER from the base's"; fi
fi
