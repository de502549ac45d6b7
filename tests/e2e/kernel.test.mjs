// SPDX-License-Identifier: MIT
// execute_code's kernel over the wire (docs/tools/execute_code.md, The
// kernel): state kept between calls of one session and never shared with
// another, over stdio, HTTP and `call -`; a shown PNG as MCP image content; and the
// kernel's whole tree gone after stdin EOF, SIGTERM of the server, and an
// HTTP server's stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BIN, connect, callTool, rawServer, scratchDir, INIT, alive, waitDead } from './lib/client.mjs';
import { serve, legacySession, replyText } from './lib/serve.mjs';

// Prints the kernel's pid and that of a daemon it starts in a session of its own.
const DAEMON = [
  'import os, subprocess',
  "d = subprocess.Popen(['sleep', '300'], start_new_session=True)",
  'print(os.getpid(), d.pid)',
].join('\n');

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(8)]);

test('state persists across calls and a shown PNG comes back as image content', async () => {
  const s = await connect();
  try {
    const first = await callTool(s.client, 'execute_code', { code: 'x = 41' });
    assert.equal(first.json.fresh_kernel, 'first call of this session', first.text);
    const code = "print(x + 1)\nfrom hermes_tools import show\nshow(b'\\x89PNG\\r\\n\\x1a\\n' + bytes(8))";
    const second = await callTool(s.client, 'execute_code', { code });
    assert.equal(second.json.output, '42\n', second.text);
    assert.equal(second.json.fresh_kernel, undefined);
    assert.equal(second.json.images_shown, 1);
    const image = second.raw.content[1];
    assert.equal(image.type, 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.data, 'base64'), PNG);
    const reset = await callTool(s.client, 'execute_code', { code: "print('x' in globals())", reset: true });
    assert.equal(reset.json.output, 'False\n');
    assert.equal(reset.json.fresh_kernel, 'reset: true');
  } finally { await s.close(); }
});

async function startKernel(r) {
  r.send(INIT);
  assert.equal((await r.next()).id, 0);
  r.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  r.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_code', arguments: { code: DAEMON } } });
  const reply = await r.next(20000);
  const json = JSON.parse(reply.result.content[0].text);
  assert.equal(json.status, 'success', reply.result.content[0].text);
  const pids = json.output.trim().split(' ').map(Number);
  for (const pid of pids) assert.ok(alive(pid));
  return pids;
}

test('stdin EOF kills the kernel and what it started', async () => {
  const r = rawServer();
  const pids = await startKernel(r);
  await r.close();  // ends stdin, waits for the exit
  for (const pid of pids) assert.ok(await waitDead(pid), `${pid} outlived the session`);
});

test('SIGTERM of the server kills the kernel and what it started', async () => {
  const r = rawServer();
  const pids = await startKernel(r);
  r.child.kill('SIGTERM');
  await r.exited;
  for (const pid of pids) assert.ok(await waitDead(pid), `${pid} outlived the server`);
});

test('over HTTP each session keeps its own kernel', async () => {
  const server = await serve();
  let pids = [];
  try {
    const a = await legacySession(server);
    const b = await legacySession(server);
    const run = async (session, id, code) => JSON.parse(replyText(await session.call(id, 'execute_code', { code })));
    assert.equal((await run(a, 2, 'x = 1')).status, 'success');
    assert.equal((await run(a, 3, 'print(x)')).output, '1\n');
    assert.equal((await run(b, 4, "print('x' in globals())")).output, 'False\n');
    pids = (await run(a, 5, DAEMON)).output.trim().split(' ').map(Number);
    for (const pid of pids) assert.ok(alive(pid));
  } finally { await server.stop(); }
  for (const pid of pids) assert.ok(await waitDead(pid), `${pid} outlived the server`);
});

test('one `call -` run is one session with one kernel', () => {
  const home = scratchDir('hermes-home-');
  try {
    const line = (code) => JSON.stringify({ tool: 'execute_code', arguments: { code } });
    const run = spawnSync(BIN, ['call', '-'], {
      input: [line('x = 5'), line('print(x * 2)')].join('\n') + '\n',
      env: { ...process.env, HERMES_HOME: home.dir },
      timeout: 30000,
    });
    const [first, second] = run.stdout.toString().trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(first.fresh_kernel, 'first call of this session');
    assert.equal(second.output, '10\n');
  } finally { home.cleanup(); }
});
