// SPDX-License-Identifier: MIT
// The MCP surface through the official SDK client and raw JSON-RPC lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, rawServer, scratchDir, INIT } from './lib/client.mjs';

test('initialize negotiates the version and names the server', async () => {
  const s = await connect();
  try {
    assert.equal(s.client.getServerVersion().name, 'hermes-tools');
    assert.match(s.client.getInstructions(), /JSON object/);
    assert.ok(s.client.getServerCapabilities().tools);
    for (let i = 0; i < 100 && !/MCP server/.test(s.stderr()); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(s.stderr(), /MCP server .* on stdio, \d+ tools/);
  } finally { await s.close(); }
});

test('tools/list gives schemas and annotations', async () => {
  const s = await connect();
  try {
    const { tools } = await s.client.listTools();
    const read = tools.find((t) => t.name === 'read_file');
    assert.ok(read, 'read_file listed');
    assert.equal(read.inputSchema.type, 'object');
    assert.deepEqual(read.inputSchema.required, ['path']);
    assert.equal(read.annotations.readOnlyHint, true);
    for (const t of tools) assert.match(t.name, /^[A-Za-z0-9_.-]{1,128}$/);
  } finally { await s.close(); }
});

test('--toolsets limits what is listed', async () => {
  const s = await connect({ args: ['--toolsets', 'file'] });
  try {
    const { tools } = await s.client.listTools();
    assert.ok(tools.length > 0);
    assert.ok(!tools.some((t) => t.name === 'terminal'));
  } finally { await s.close(); }
});

test('global flags after the subcommand work as before it', async () => {
  const d = scratchDir();
  const s = await connect({ after: ['--toolsets', 'file', '--root', d.dir, '--yolo'] });
  try {
    const { tools } = await s.client.listTools();
    assert.ok(tools.some((t) => t.name === 'read_file'));
    assert.ok(!tools.some((t) => t.name === 'terminal'));
    const outside = await callTool(s.client, 'read_file', { path: '/etc/hostname' });
    assert.equal(outside.isError, true, 'the --root after mcp confines reads');
  } finally { await s.close(); d.cleanup(); }
});

test('read_file returns numbered lines; a missing path is an isError result', async () => {
  const d = scratchDir();
  const s = await connect();
  try {
    const file = path.join(d.dir, 'a.txt');
    writeFileSync(file, 'alpha\nbeta\n');
    const ok = await callTool(s.client, 'read_file', { path: file });
    assert.equal(ok.isError, false);
    assert.equal(ok.json.content, '1|alpha\n2|beta');
    assert.equal(ok.json.total_lines, 2);
    const missing = await callTool(s.client, 'read_file', { path: path.join(d.dir, 'nope.txt') });
    assert.equal(missing.isError, true);
    assert.match(missing.json.error, /^File not found: /);
    const bad = await callTool(s.client, 'read_file', { path: 42 });
    assert.equal(bad.isError, true);
  } finally { await s.close(); d.cleanup(); }
});

test('malformed JSON gets -32700 and the server answers the next request', async () => {
  const r = rawServer();
  try {
    r.send(INIT);
    assert.equal((await r.next()).id, 0);
    r.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    const err = await r.next();
    assert.equal(err.error.code, -32700);
    assert.equal('id' in err, false, 'an unknown id is left out, never null');
    r.send({ jsonrpc: '2.0', id: 2 });
    assert.equal((await r.next()).error.code, -32600);
    r.send({ jsonrpc: '2.0', id: 3, method: 'server/discover' });
    assert.equal((await r.next()).error.code, -32601);  // without a protocol-version claim: legacy
    r.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
    assert.equal((await r.next()).error.code, -32602);
    r.send({ jsonrpc: '2.0', id: 5, method: 'ping' });
    assert.deepEqual((await r.next()).result, {});
  } finally { await r.close(); }
});

test('an unsupported protocol version is answered with our latest', async () => {
  const r = rawServer();
  try {
    r.send({ ...INIT, params: { ...INIT.params, protocolVersion: '1900-01-01' } });
    assert.equal((await r.next()).result.protocolVersion, '2025-11-25');
  } finally { await r.close(); }
  const old = rawServer();
  try {
    old.send({ ...INIT, params: { ...INIT.params, protocolVersion: '2024-11-05' } });
    assert.equal((await old.next()).result.protocolVersion, '2024-11-05');
  } finally { await old.close(); }
});

test('an oversized line is refused and the server goes on', async () => {
  const r = rawServer({ env: {} });
  try {
    r.send(INIT);
    await r.next();
    r.send('"' + 'x'.repeat(70 * 1024 * 1024) + '"');
    const err = await r.next(20000);
    assert.equal(err.error.code, -32600);
    assert.match(err.error.message, /line limit/);
    r.send({ jsonrpc: '2.0', id: 9, method: 'ping' });
    assert.equal((await r.next()).id, 9);
  } finally { await r.close(); }
});

// `printf '<initialize>\n<initialized>\n<tools/call>\n' | hermes-tools mcp`:
// input ends before the call does, and its answer still comes.
test('a call in flight when stdin closes still gets its answer', async () => {
  const r = rawServer();
  try {
    r.send(INIT);
    r.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    r.send({ jsonrpc: '2.0', id: 1, method: 'tools/call',
      params: { name: 'terminal', arguments: { command: 'sleep 0.3; echo answered' } } });
    r.child.stdin.end();
    assert.equal((await r.next()).id, 0);
    const answer = await r.next(20000);
    assert.equal(answer.id, 1);
    assert.equal(JSON.parse(answer.result.content[0].text).output, 'answered');
    assert.equal(await r.exited, 0);
  } finally { await r.close(); }
});

test('EOF on stdin ends the server cleanly', async () => {
  const r = rawServer();
  r.send(INIT);
  await r.next();
  r.child.stdin.end();
  assert.equal(await r.exited, 0);
});
