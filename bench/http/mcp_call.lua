-- SPDX-License-Identifier: MIT
-- wrk script for the HTTP benchmark: JSON-RPC tools/call on one legacy-era
-- session (Mcp-Session-Id), every response checked.
-- Usage (after initialize + notifications/initialized on SESSION):
--   wrk --latency -t T -c C -d D -s mcp_call.lua URL -- SESSION TOOL ARGS EXPECT [FILES T]
-- ARGS is the arguments' JSON. With FILES > 0, "%d" in ARGS becomes a file
-- number (0..FILES-1) and "%l" a line limit from 50 upwards, so that no
-- (path, limit) pair repeats within a run: an identical read of an unchanged
-- file would meet read_file's dedup stub or its repeat guard instead of
-- reading (2,000 files x limits 50..2000, the cap, give 3.9 million reads). A reply counts as good when its status is 2xx, it carries no
-- JSON-RPC error and no isError:true, and it contains EXPECT.
-- Prints one JSON line; "errors" > 0 means the figures are not of successes.

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  session, tool, arg_template, expect = args[1], args[2], args[3], args[4]
  files = tonumber(args[5] or "0")
  stride = tonumber(args[6] or "1")
  tid = tonumber(wrk.thread:get("tid"))
  n = 0
  non2xx, rpc_errors, unexpected = 0, 0, 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["Mcp-Session-Id"] = session
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
end

-- The k-th call (from 1) of this thread; the threads take turns at the
-- limits (stride T), so no two threads send the same arguments.
local function arguments(k)
  if files <= 0 then return arg_template end
  local file = (k - 1) % files
  local limit = 50 + math.floor((k - 1) / files) * stride + tid
  return (arg_template:gsub("%%d", tostring(file)):gsub("%%l", tostring(limit)))
end

-- Request ids are unique in the session too (a reused id in flight is refused).
function request()
  n = n + 1
  local body = string.format(
      '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}',
      n * stride + tid, tool, arguments(n))
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  elseif body:find('"error":{', 1, true) or body:find('"isError":true', 1, true) then
    rpc_errors = rpc_errors + 1
  elseif not body:find(expect, 1, true) then
    unexpected = unexpected + 1
  end
end

function done(summary, latency, requests)
  local bad = { non2xx = 0, rpc_errors = 0, unexpected = 0 }
  for _, t in ipairs(threads) do
    for k in pairs(bad) do bad[k] = bad[k] + tonumber(t:get(k)) end
  end
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  local errors = bad.non2xx + bad.rpc_errors + bad.unexpected + socket
  io.write(string.format(
      '{"requests":%d,"errors":%d,"non2xx":%d,"rpc_errors":%d,' ..
      '"unexpected":%d,"socket_errors":%d,"calls_per_s":%d,"p50_ms":%.3f,"p99_ms":%.3f}%s\n',
      summary.requests, errors, bad.non2xx, bad.rpc_errors, bad.unexpected,
      socket, math.floor(summary.requests / (summary.duration / 1e6) + 0.5),
      latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      errors > 0 and " ERRORS: these figures include failed calls" or ""))
end
