#!/usr/bin/env bash
# hermes-tools serve against the reference server (server-everything in its
# Streamable HTTP mode), legacy-era sessions, on a private network namespace
# that has only loopback (server-everything binds every interface):
#   calls/s, p50 and p99 at concurrency 1, 8 and 64 (ours: read_file of a
#   4 KB file; theirs: echo of a 4 KB message) in ROUNDS interleaved runs
#   each, with the ratio of the medians; the same read over stdio (what HTTP
#   adds), and RSS with 1,000 idle sessions.
# HTTP load comes from wrk (http/mcp_call.lua checks every reply); the stdio
# figures and the idle sessions from the Node client http/load.mjs.
# Usage: bench/http_vs_everything.sh BUILD_DIR   (root, or unshare rights)
#   env DURATION (wrk's -d, default 5s), ROUNDS (HTTP runs per server and
#   concurrency, default 3), REQUESTS (stdio calls, default 2000)
set -euo pipefail
build="$(cd "${1:?usage: http_vs_everything.sh BUILD_DIR}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${HERMES_BENCH_NETNS:-}" ]; then
  # Installs need the network, so they come before the namespace.
  peer="$here/http/node_modules/.bin/mcp-server-everything"
  [ -x "$peer" ] || (cd "$here/http" && npm ci --no-audit --no-fund --loglevel=error >&2)
  command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk; } >&2
  exec env HERMES_BENCH_NETNS=1 unshare -n -- "$0" "$build"
fi
ip link set lo up
bin="$build/src/cli/hermes-tools"
peer="$here/http/node_modules/.bin/mcp-server-everything"
work="$(mktemp -d)"
export HERMES_HOME="$work/home"
trap 'kill ${ours:-0} ${theirs:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
# 2,000 files of 4 KB (50 lines of 80 bytes): every timed read is a real read.
python3 -c "
for n in range(2000):
    with open('$work/data%d.txt' % n, 'w') as f:
        for i in range(50): f.write(('line %06d ' % i).ljust(79, 'x') + '\n')"
requests=${REQUESTS:-2000}
duration=${DURATION:-5s}
rounds=${ROUNDS:-3}
message=$(head -c 4096 /dev/zero | tr '\0' 'm')
load="$here/http/load.mjs"
read_args="{\"path\":\"$work/data%d.txt\"}"

"$bin" serve --listen 127.0.0.1:18787 --max-sessions 3000 --max-inflight-per-principal 256 2> "$work/ours.log" &
ours=$!
PORT=3001 node "$peer" streamableHttp > "$work/theirs.log" 2>&1 &
theirs=$!
for port in 18787 3001; do
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
done

headers=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
# A legacy-era session: initialize, then notifications/initialized; prints its id.
session() {
  local sid init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}'
  sid=$(curl -sf -D - -o /dev/null "${headers[@]}" -d "$init" "$1" |
    tr -d '\r' | awk -F': ' 'tolower($1) == "mcp-session-id" { print $2 }')
  [ -n "$sid" ] || { echo "no session from $1" >&2; return 1; }
  curl -sf -o /dev/null "${headers[@]}" -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$1"
  echo "$sid"
}
failed=0
# wrk URL CONCURRENCY TOOL ARGS EXPECT FILES: one run on a fresh session,
# ended afterwards (its read stamps would otherwise stay until it idles out).
run_wrk() {
  local url=$1 c=$2 threads sid out
  threads=$([ "$c" -ge 2 ] && echo 2 || echo 1)
  sid=$(session "$url")
  out=$(wrk --latency -t "$threads" -c "$c" -d "$duration" -s "$here/http/mcp_call.lua" "$url" \
    -- "$sid" "$3" "$4" "$5" "$6" "$threads" | tail -n 1)
  curl -s -o /dev/null -X DELETE -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-11-25' "$url"
  echo "$out"
}
# LABEL LINE: prints a run's line; one with errors fails the script at the
# end (here, not in run_wrk: that runs in a subshell).
report() {
  case "$2" in *'"errors":0,'*) ;; *) failed=1 ;; esac
  echo "$1 $2"
}
# RSS with 1,000 idle sessions on the fresh servers, and again after the
# load runs (a server that has just served bursts of calls).
idle_sessions() {
  echo "ours   idle ($1) $(node "$load" --url http://127.0.0.1:18787/mcp --idle-sessions 1000 --pid $ours)"
  echo "theirs idle ($1) $(node "$load" --url http://127.0.0.1:3001/mcp --idle-sessions 1000 --pid $theirs)"
}
idle_sessions fresh
# read_file varies path and line limit (mcp_call.lua), so that no read repeats.
wrk_args="{\"path\":\"$work/data%d.txt\",\"limit\":%l}"
# LINE...: the median calls/s of wrk result lines.
median_calls() {
  python3 -c 'import json, statistics, sys
print(int(statistics.median(json.loads(l[:l.rindex("}") + 1])["calls_per_s"] for l in sys.argv[1:])))' "$@"
}
for c in 1 8 64; do
  ours_runs=() theirs_runs=()
  # Interleaved, so that the machine's drift weighs on both servers alike.
  for _ in $(seq "$rounds"); do
    line=$(run_wrk http://127.0.0.1:18787/mcp $c read_file "$wrk_args" 'line 000049' 2000)
    report "ours   http  c=$c" "$line"
    ours_runs+=("$line")
    line=$(run_wrk http://127.0.0.1:3001/mcp $c echo "{\"message\":\"$message\"}" "Echo: mmmm" 0)
    report "theirs http  c=$c" "$line"
    theirs_runs+=("$line")
  done
  report "ours   stdio c=$c" "$(node "$load" --stdio "$bin mcp" --tool read_file --args "$read_args" \
    --vary-path 2000 --concurrency $c --requests $requests) (node client)"
  ours_median=$(median_calls "${ours_runs[@]}")
  theirs_median=$(median_calls "${theirs_runs[@]}")
  ratio=$(python3 -c "print(round($ours_median / max($theirs_median, 1), 1))")
  echo "ratio  http  c=$c {\"ours_calls_per_s\":$ours_median,\"theirs_calls_per_s\":$theirs_median,\"ratio\":$ratio} (medians of $rounds interleaved runs)"
done
idle_sessions "after the runs, 1,000 more"
if [ "$failed" != 0 ]; then
  echo "FAILED: some HTTP runs had errors (see \"errors\" above); their figures are not of successes" >&2
  exit 1
fi
