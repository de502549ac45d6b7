#!/usr/bin/env bash
# hermes-tools serve against the reference server (server-everything in its
# Streamable HTTP mode), legacy-era sessions, on a private network namespace
# that has only loopback (server-everything binds every interface):
#   calls/s, p50 and p99 at concurrency 1, 8 and 64 (ours: read_file of a
#   4 KB region; theirs: echo of a 4 KB message), the same read over stdio
#   (what HTTP adds), and RSS with 1,000 idle sessions.
# Usage: bench/http_vs_everything.sh BUILD_DIR   (root, or unshare rights)
set -euo pipefail
build="$(cd "${1:?usage: http_vs_everything.sh BUILD_DIR}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
if [ -z "${HERMES_BENCH_NETNS:-}" ]; then
  exec env HERMES_BENCH_NETNS=1 unshare -n -- "$0" "$build"
fi
ip link set lo up
bin="$build/src/cli/hermes-tools"
peer="$here/http/node_modules/.bin/mcp-server-everything"
[ -x "$peer" ] || (cd "$here/http" && npm ci --no-audit --no-fund --loglevel=error >&2)
work="$(mktemp -d)"
export HERMES_HOME="$work/home"
trap 'kill ${ours:-0} ${theirs:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
# 2,000 files of 4 KB (50 lines of 80 bytes): every timed read is a real read.
python3 -c "
for n in range(2000):
    with open('$work/data%d.txt' % n, 'w') as f:
        for i in range(50): f.write(('line %06d ' % i).ljust(79, 'x') + '\n')"
requests=${REQUESTS:-2000}
message=$(head -c 4096 /dev/zero | tr '\0' 'm')
load="$here/http/load.mjs"
read_args="{\"path\":\"$work/data%d.txt\"}"

"$bin" serve --listen 127.0.0.1:18787 --max-sessions 2000 --max-inflight-per-principal 256 2> "$work/ours.log" &
ours=$!
PORT=3001 node "$peer" streamableHttp > "$work/theirs.log" 2>&1 &
theirs=$!
for port in 18787 3001; do
  for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
done
for c in 1 8 64; do
  echo "ours   http  c=$c $(node "$load" --url http://127.0.0.1:18787/mcp --tool read_file --args "$read_args" \
    --vary-path 2000 --concurrency $c --requests $requests)"
  echo "ours   stdio c=$c $(node "$load" --stdio "$bin mcp" --tool read_file --args "$read_args" \
    --vary-path 2000 --concurrency $c --requests $requests)"
  echo "theirs http  c=$c $(node "$load" --url http://127.0.0.1:3001/mcp --tool echo \
    --args "{\"message\":\"$message\"}" --concurrency $c --requests $requests)"
done
echo "ours   idle $(node "$load" --url http://127.0.0.1:18787/mcp --idle-sessions 1000 --pid $ours)"
echo "theirs idle $(node "$load" --url http://127.0.0.1:3001/mcp --idle-sessions 1000 --pid $theirs)"
