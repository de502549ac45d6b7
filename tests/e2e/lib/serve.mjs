// SPDX-License-Identifier: MIT
// Starts `hermes-tools serve` on a free loopback port for a test and tells
// where it listens; raw HTTP helpers for what no SDK would send.
import { spawn } from 'node:child_process';
import { BIN, scratchDir } from './client.mjs';

// Resolves to {url, port, child, stderr(), stop()} once the server listens.
// `wrap`: a command that runs the server's command line (appended to it);
// `listen`: the address to bind (port 0: a free one).
export async function serve(args = [], { env = {}, globalArgs = [], wrap = [], listen = '127.0.0.1:0' } = {}) {
  const home = scratchDir('hermes-home-');
  const command = [...wrap, BIN, ...globalArgs, 'serve', '--listen', listen, ...args];
  const child = spawn(command[0], command.slice(1), {
    env: { ...process.env, HERMES_HOME: home.dir, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const host = listen.slice(0, listen.lastIndexOf(':'));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20000);
    child.stderr.on('data', (d) => {
      stderr += d.toString();
      const m = stderr.match(/on http:\/\/\S+:(\d+)\//);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    });
    child.on('exit', () => { clearTimeout(timer); reject(new Error(`serve exited: ${stderr}`)); });
  });
  return {
    url: `http://${host}:${port}/mcp`,
    port,
    child,
    stderr: () => stderr,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      home.cleanup();
      return code;
    },
  };
}

export const ACCEPT = 'application/json, text/event-stream';

// A legacy session (2025-11-25) on `server`: its headers, and a tools/call
// sender resolving to what post() does.
export async function legacySession(server) {
  const json = { 'content-type': 'application/json', accept: ACCEPT };
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'm', version: '1' } } };
  const sid = (await post(server.url, initialize, json)).headers.get('mcp-session-id');
  const headers = { ...json, 'mcp-session-id': sid };
  const call = (id, name, args) => post(server.url,
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, headers);
  return { headers, call };
}

// The text of a tools/call reply's last message.
export const replyText = (reply) => reply.messages.at(-1)?.result?.content?.[0]?.text ?? '';

// The envelope of a modern request.
export function envelope(extra = {}, capabilities = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'hermes-e2e', version: '1' },
    ...extra,
  };
}

// POSTs one modern request with its routing headers; resolves to
// {status, headers, messages} (every JSON-RPC message of a JSON or SSE body).
export async function modernPost(url, method, params = {}, { id = 1, capabilities = {}, headers = {}, signal } = {}) {
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope(params._meta, capabilities) } };
  const name = params.name ?? params.taskId;
  const h = {
    'content-type': 'application/json', accept: ACCEPT,
    'mcp-protocol-version': '2026-07-28', 'mcp-method': method,
    ...(name !== undefined ? { 'mcp-name': String(name) } : {}),
    ...headers,
  };
  return post(url, body, h, signal);
}

export async function post(url, body, headers, signal) {
  const res = await fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body), signal });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, messages: parseMessages(res.headers.get('content-type'), text) };
}

export function parseMessages(type, text) {
  if (!text) return [];
  if ((type ?? '').startsWith('text/event-stream')) {
    return text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  }
  try { return [JSON.parse(text)]; } catch { return []; }
}
