// SPDX-License-Identifier: MIT
// A small MCP load client for the HTTP benchmark: legacy-era sessions over
// Streamable HTTP (or newline-delimited stdio), `tools/call` at a fixed
// concurrency, latency percentiles; or N idle sessions and the server's RSS.
// Usage:
//   node load.mjs --url U --tool T --args JSON [--vary-path N] --concurrency C --requests R
//   node load.mjs --stdio "CMD ARGS" --tool T --args JSON ... (same, over stdio)
//   node load.mjs --url U --idle-sessions N --pid PID
// Prints one JSON line.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({ options: {
  url: { type: 'string' }, stdio: { type: 'string' }, tool: { type: 'string' },
  args: { type: 'string', default: '{}' }, 'vary-path': { type: 'string', default: '0' },
  concurrency: { type: 'string', default: '1' }, requests: { type: 'string', default: '1000' },
  'idle-sessions': { type: 'string' }, pid: { type: 'string' },
} });
const ACCEPT = 'application/json, text/event-stream';
const INIT = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load', version: '1' } };

// The i-th call's arguments: with --vary-path N, "%d" in the path becomes
// i mod N, so successive reads hit different files and every read is a real
// read (identical reads meet the repeat-read guard).
function argsFor(i) {
  const args = JSON.parse(o.args);
  const vary = Number(o['vary-path']);
  if (vary > 0) args.path = args.path.replace('%d', String(i % vary));
  return args;
}

function parseBody(type, text) {
  if ((type ?? '').startsWith('text/event-stream')) {
    const lines = text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6);
    return JSON.parse(lines.at(-1).slice(6));
  }
  return JSON.parse(text);
}

async function httpSession(url) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT }) });
  const sid = res.headers.get('mcp-session-id');
  await res.text();
  const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sid,
    'mcp-protocol-version': '2025-11-25' };
  await (await fetch(url, { method: 'POST', headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  return async (id, method, params) => {
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
    return parseBody(r.headers.get('content-type'), await r.text());
  };
}

async function stdioSession(command) {
  const [bin, ...argv] = command.split(' ');
  const child = spawn(bin, argv, { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  child.stdout.on('data', (d) => {
    buffer += d.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
      waiting.delete(msg.id);
    }
  });
  const call = (id, method, params) => new Promise((resolve) => {
    waiting.set(id, resolve);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  await call(0, 'initialize', INIT);
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  call.close = () => child.kill();
  return call;
}

async function load() {
  const call = o.url ? await httpSession(o.url) : await stdioSession(o.stdio);
  const total = Number(o.requests), concurrency = Number(o.concurrency);
  const latencies = [];
  let next = 1, errors = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next <= total) {
      const i = next++;
      const t0 = performance.now();
      const reply = await call(i, 'tools/call', { name: o.tool, arguments: argsFor(i) });
      latencies.push(performance.now() - t0);
      if (reply.error || reply.result?.isError) errors++;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  call.close?.();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { concurrency, requests: total, errors, calls_per_s: Math.round(total / seconds),
    p50_ms: +pct(0.5).toFixed(3), p99_ms: +pct(0.99).toFixed(3) };
}

const rssMb = () => +(Number(readFileSync(`/proc/${o.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024).toFixed(1);

async function idle() {
  const n = Number(o['idle-sessions']);
  const before = rssMb();
  for (let i = 0; i < n; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => httpSession(o.url)));
  }
  return { idle_sessions: n, rss_before_mb: before, rss_mb: rssMb() };
}

console.log(JSON.stringify(o['idle-sessions'] ? await idle() : await load()));
