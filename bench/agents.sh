#!/usr/bin/env bash
# bench/agents.sh — an agent's session of 10 structural queries on the Go
# standard library, back to back from a fresh start, three ways in one run
# (issue 22): through `structls mcp` (one MCP client session, bench/agents),
# as 10 `structls astgrep --remote=auto` processes (the first starts the
# shared server, the others find it), and as ast-grep's 10 CLI runs. It
# prints each call's wall time, the sessions' totals, the ratios to
# ast-grep, the peak RSS of the MCP server and of the shared server, and
# the CPU time each way used (the servers' background indexing included),
# the steadier figure when other work loads the machine. Run it on a quiet
# machine (uptime's load under 2): it measures; it asserts nothing.
#
# usage: bench/agents.sh     (AGENTS_ROOT=DIR for another Go tree)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${AGENTS_ROOT:-$(go env GOROOT)/src} # AGENTS_ROOT: another tree, to try the script on
ag=${STRUCTLS_AST_GREP:-$PWD/.tools/node_modules/.bin/ast-grep}
[[ -x $ag ]] || { echo "ast-grep is not installed: run scripts/test.sh first (npm install into .tools), or set STRUCTLS_AST_GREP" >&2; exit 2; }
work=$(mktemp -d)
runtime=$(mktemp -d) # a fresh private directory: no shared server runs yet
chmod 700 "$runtime"
cleanup() {
  for log in "$runtime"/structls/*.log; do
    [[ -f $log ]] || continue
    pid=$(sed -n 's/.*shared server pid \([0-9]*\) listening.*/\1/p' "$log" | tail -1)
    [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
  done
  rm -rf "$work" "$runtime"
}
trap cleanup EXIT
go build -o "$work/structls" ./cmd/structls
go build -o "$work/agents" ./bench/agents

patterns=(
  'if err != nil { return $$$ }'
  '$A := make($T, $N)'
  'for $K, $V := range $X { $$$ }'
  'defer $F.Close()'
  'func ($R *$T) String() string { $$$ }'
  'go func() { $$$ }()'
  'switch $X := $Y.(type) { $$$C }'
  'errors.New($MSG)'
  'fmt.Errorf($$$A)'
  '$M.Lock()'
)

echo "structls $(git rev-parse --short HEAD 2>/dev/null || echo '?') vs $($ag --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $root (Go), ${#patterns[@]} patterns"

# ast-grep: 10 cold runs.
ag_total=0
ag_cpu=0
for p in "${patterns[@]}"; do
  (cd "$root" && /usr/bin/time -f "%e %U %S" -o "$work/t" "$ag" run -l go -p "$p" > /dev/null 2>&1 || true)
  read -r s u k < <(tail -1 "$work/t")
  echo "$s" >> "$work/ag.times"
  ag_total=$(echo "$ag_total + $s" | bc)
  ag_cpu=$(echo "$ag_cpu + $u + $k" | bc)
done
ag_median=$(sort -g "$work/ag.times" | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')

# MCP: one session, 10 calls.
"$work/agents" "$work/structls" "$root" "${patterns[@]}" > "$work/mcp.out"
mcp_total=$(awk -F'\t' '$1 == "session" {print $2}' "$work/mcp.out")
mcp_rss=$(awk -F'\t' '$1 == "peakrss_mb" {print $2}' "$work/mcp.out")
mcp_cpu=$(awk -F'\t' '$1 == "server_cpu" {print $2}' "$work/mcp.out")

# The CLI with --remote=auto: 10 processes, the first starts the shared server.
remote_total=0
remote_cpu=0
for p in "${patterns[@]}"; do
  (cd "$root" && XDG_RUNTIME_DIR=$runtime /usr/bin/time -f "%e %U %S" -o "$work/t" "$work/structls" astgrep --remote=auto -l go -p "$p" > /dev/null 2>&1 || true)
  read -r s u k < <(tail -1 "$work/t")
  echo "$s" >> "$work/remote.times"
  remote_total=$(echo "$remote_total + $s" | bc)
  remote_cpu=$(echo "$remote_cpu + $u + $k" | bc) # the CLI processes'
done
log=$(ls "$runtime"/structls/*.log)
pid=$(sed -n 's/.*shared server pid \([0-9]*\) listening.*/\1/p' "$log" | tail -1)
remote_rss=$(awk '/^VmHWM:/ {print int($2 / 1024)}' "/proc/$pid/status")
# The shared server's CPU time: utime and stime, the 14th and 15th fields of /proc/PID/stat, in ticks of 1/100 s.
remote_cpu=$(echo "$remote_cpu + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{print ($12 + $13) / 100}')" | bc)

printf '| %-40s | %12s | %12s | %12s |\n' pattern "ast-grep (s)" "MCP (s)" "remote (s)"
printf '|%s|%s|%s|%s|\n' ------------------------------------------ -------------- -------------- --------------
for i in "${!patterns[@]}"; do
  printf '| %-40s | %12s | %12s | %12s |\n' "${patterns[$i]}" "$(sed -n "$((i + 1))p" "$work/ag.times")" \
    "$(awk -F'\t' '$1 == "call"' "$work/mcp.out" | sed -n "$((i + 1))p" | cut -f3)" "$(sed -n "$((i + 1))p" "$work/remote.times")"
done
printf '| %-40s | %12.2f | %12.2f | %12.2f |\n' "session (MCP: from the server's start)" "$ag_total" "$mcp_total" "$remote_total"
echo
echo "MCP session / ast-grep's 10 runs: $(echo "scale=3; $mcp_total / $ag_total" | bc)   (issue 22 asks <= 0.3)"
echo "MCP calls after the first, slowest: $(awk -F'\t' '$1 == "call" && NR > 1 {print $3}' "$work/mcp.out" | sort -g | tail -1) s   (asks <= 0.25 s)"
echo "--remote=auto calls after the first, slowest / ast-grep's median run: $(echo "scale=3; $(tail -n +2 "$work/remote.times" | sort -g | tail -1) / $ag_median" | bc)   (asks <= 0.05)"
echo "peak RSS: MCP server ${mcp_rss} MB, shared server ${remote_rss} MB   (asks < parseCacheMB + 300 MB)"
echo "CPU time (user + system): ast-grep's 10 runs ${ag_cpu} s, MCP server ${mcp_cpu} s ($(echo "scale=3; $mcp_cpu / $ag_cpu" | bc)x), --remote=auto processes and shared server ${remote_cpu} s ($(echo "scale=3; $remote_cpu / $ag_cpu" | bc)x)"
