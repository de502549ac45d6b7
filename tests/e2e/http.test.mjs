// SPDX-License-Identifier: MIT
// `hermes-tools serve` driven by the official TypeScript SDK over Streamable
// HTTP: SDK 1.x (the legacy handshake: connect, list, call, progress, cancel,
// session DELETE) and SDK v2 negotiating the 2026-07-28 era, with the tasks
// extension's client seeing a promoted terminal call through to `completed`
// and a cancelled one to `cancelled` (its process group killed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { scratchDir } from './lib/client.mjs';
import { serve, modernPost, post, envelope, ACCEPT } from './lib/serve.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits (bounded) until `check()` is true.
async function eventually(check, what, ms = 15000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`timed out waiting for ${what}`);
}

function alive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

// A command that records its shell's pid, then runs for `seconds`.
function pidCommand(dir, seconds) {
  const file = path.join(dir, `pid-${Math.random().toString(36).slice(2)}`);
  return { file, command: `echo $$ > ${file}.tmp && mv ${file}.tmp ${file}; sleep ${seconds}; echo finished` };
}
const readPid = (file) => Number(readFileSync(file, 'utf8').trim());

test('SDK 1.x over HTTP: connect, list, call, progress, cancel, DELETE', async () => {
  const server = await serve();
  const scratch = scratchDir();
  try {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'hermes-e2e', version: '1.0.0' });
    await client.connect(transport);
    assert.equal(client.getServerVersion().name, 'hermes-tools');
    assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'read_file'));

    const result = await client.callTool({ name: 'terminal', arguments: { command: 'echo over-http' } });
    assert.match(result.content[0].text, /over-http/);

    const ticks = [];
    const slow = await client.callTool({ name: 'terminal', arguments: { command: 'sleep 2.5; echo slow-done' } },
      undefined, { onprogress: (p) => ticks.push(p.progress) });
    assert.match(slow.content[0].text, /slow-done/);
    assert.ok(ticks.length >= 1, 'progress while the command ran');
    assert.deepEqual([...ticks].sort((a, b) => a - b), ticks, 'progress increases');

    const run = pidCommand(scratch.dir, 30);
    const abort = new AbortController();
    const pending = client.callTool({ name: 'terminal', arguments: { command: run.command } },
      undefined, { signal: abort.signal });
    await eventually(() => existsSync(run.file), 'the command to start');
    abort.abort();
    await assert.rejects(pending);
    const pid = readPid(run.file);
    await eventually(() => !alive(pid), 'the cancelled command to be killed');

    const sessionId = transport.sessionId;
    await transport.terminateSession();
    const after = await post(server.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sessionId });
    assert.equal(after.status, 404);
    await client.close();
  } finally {
    scratch.cleanup();
    await server.stop();
  }
});

// ext-tasks drives 2026-07-28 task traffic through a raw request path; the
// host owns JSON-RPC framing and ids.
function rawDispatch(url) {
  let nextId = 1;
  return async (message, options = {}) => {
    const request = { jsonrpc: '2.0', id: `raw-${nextId++}`, ...message };
    const name = request.params?.name ?? request.params?.taskId;
    const r = await post(url, request, {
      'content-type': 'application/json', accept: ACCEPT,
      'mcp-protocol-version': '2026-07-28', 'mcp-method': request.method,
      ...(name !== undefined ? { 'mcp-name': String(name) } : {}),
    }, options.signal);
    const reply = r.messages.find((m) => m.id === request.id);
    if (!reply) throw new Error(`no response (HTTP ${r.status})`);
    return reply.error ? { kind: 'error', error: reply.error } : { kind: 'result', result: reply.result };
  };
}

test('SDK v2 negotiates 2026-07-28; a promoted terminal call completes, a cancelled one is killed', async () => {
  const server = await serve(['--task-inline-ms', '200']);
  const scratch = scratchDir();
  try {
    const client = new ClientV2({ name: 'hermes-e2e-v2', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } });
    await client.connect(new TransportV2(new URL(server.url)));
    assert.equal(client.getProtocolEra(), 'modern');
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'terminal'));

    const session = createTaskSessionFromClient(client, {
      endpointId: 'hermes-e2e',
      rawDispatch: rawDispatch(server.url),
      v2RequestFraming: {
        protocolVersion: '2026-07-28',
        clientInfo: { name: 'hermes-e2e-v2', version: '1.0.0' },
        clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      },
    });
    try {
      const done = await session.callTool('terminal', { command: 'sleep 1.5; echo task-done' });
      assert.equal(done.kind, 'task', 'a call longer than the inline budget becomes a task');
      const { outcome } = await done.settle();
      assert.equal(outcome.status, 'completed');
      assert.match(outcome.result.content[0].text, /task-done/);

      const run = pidCommand(scratch.dir, 60);
      const long = await session.callTool('terminal', { command: run.command });
      assert.equal(long.kind, 'task');
      await eventually(() => existsSync(run.file), 'the command to start');
      await long.cancel();
      const settled = await long.settle();
      assert.equal(settled.outcome.status, 'cancelled');
      const pid = readPid(run.file);
      await eventually(() => !alive(pid), 'the cancelled task to be killed');
    } finally {
      await session.close();
    }
    await client.close();
  } finally {
    scratch.cleanup();
    await server.stop();
  }
});

test('modern wire: a closed response stream cancels the call and kills its process group', async () => {
  const server = await serve();
  const scratch = scratchDir();
  try {
    const run = pidCommand(scratch.dir, 60);
    const abort = new AbortController();
    const pending = modernPost(server.url, 'tools/call',
      { name: 'terminal', arguments: { command: run.command } }, { signal: abort.signal });
    pending.catch(() => {});
    await eventually(() => existsSync(run.file), 'the command to start');
    const pid = readPid(run.file);
    abort.abort();
    await eventually(() => !alive(pid), 'the process group to be killed after the disconnect');
  } finally {
    scratch.cleanup();
    await server.stop();
  }
});

// A modern terminal call (a 60 s command) sent on a raw socket; resolves
// once the command runs, to the socket and the command's pid.
async function rawModernTerminalCall(server, dir) {
  const run = pidCommand(dir, 60);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call',
    params: { name: 'terminal', arguments: { command: run.command }, _meta: envelope() } });
  const socket = net.connect(server.port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.on('connect', resolve));
  socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
    `Content-Type: application/json\r\nAccept: ${ACCEPT}\r\n` +
    'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: terminal\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  await eventually(() => existsSync(run.file), 'the command to start');
  return { socket, pid: readPid(run.file) };
}

// A client that floods the connection while its call runs cannot make the
// server hold what it sends: the watch stops reading after 64 KB and the
// rest waits in the kernel's socket buffers, then in the client's.
test('modern wire: a flood of bytes sent during a call is not read into memory', async () => {
  const server = await serve();
  const scratch = scratchDir();
  const rss = () => Number(readFileSync(`/proc/${server.child.pid}/status`, 'utf8')
    .match(/^VmRSS:\s+(\d+) kB/m)[1]) / 1024;
  try {
    const { socket, pid } = await rawModernTerminalCall(server, scratch.dir);
    const before = rss();
    const flood = 64 << 20;
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Accept: ${ACCEPT}\r\nContent-Length: ${flood}\r\n\r\n`);
    socket.write(Buffer.alloc(flood, 'x'));
    await sleep(1500);
    const grown = rss() - before;
    assert.ok(grown < 16, `the server grew by ${grown.toFixed(1)} MB while a client flooded it`);
    assert.ok(alive(pid), 'the call still runs');
    socket.destroy();
  } finally {
    scratch.cleanup();
    await server.stop();
  }
});

// Bytes sent while the call runs (the start of a pipelined request) do not
// end the watch: a disconnect after them still cancels the call.
test('modern wire: a disconnect after pipelined bytes still cancels the call', async () => {
  const server = await serve();
  const scratch = scratchDir();
  try {
    const { socket, pid } = await rawModernTerminalCall(server, scratch.dir);
    socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await sleep(300);
    assert.ok(alive(pid), 'the call ended before the disconnect');
    socket.destroy();
    await eventually(() => !alive(pid), 'the process group to be killed after the disconnect');
  } finally {
    scratch.cleanup();
    await server.stop();
  }
});
