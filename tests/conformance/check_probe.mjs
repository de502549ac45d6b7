// SPDX-License-Identifier: MIT
// Checks mcp_probe.mjs --json output against what the spec asks of us.
import { readFileSync } from 'node:fs';

const expected = [
  ['initialize 2025-11-25', /protocolVersion\":\"2025-11-25/],
  ['initialize with unsupported version', /answers protocolVersion=2025-11-25/],
  ['initialize 2024-11-05', /answers protocolVersion=2024-11-05/],
  // The prober's discover carries the version claim but no clientCapabilities, so the
  // modern envelope is invalid (docs/http.md, "the per-request envelope"): a modern -32602,
  // not the legacy -32601 that would send a dual-era client back to initialize.
  ['server/discover', /error -32602 .*clientCapabilities/],
  ['tools/list before initialize', /^result /],
  ['ping before initialize', /^result \{\}/],
  ['malformed JSON line', /error -32700.*still alive: true/],
  ['invalid request (no method)', /error -32600/],
  ['unknown method', /error -32601/],
  ['unknown tool', /error -32602/],
  ['tools/call missing required args', /isError\":true/],
  ['id types', /0:true string:true bigint:true/],
  ['batch array', /error -32600/],
  ['notifications/cancelled', /alive after stray cancel: true/],
  ['10 concurrent', /10\/10 answered/],
  ['stdin EOF', /exited in \d+ ms \(code 0\)/],
];
const results = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let bad = 0;
for (const [name, pattern] of expected) {
  const row = results.find((r) => r.probe.includes(name));
  const ok = row && pattern.test(row.outcome);
  if (!ok) { bad++; console.log(`  probe "${name}": ${row ? row.outcome : 'missing'}`); }
}
process.exit(bad ? 1 : 0);
