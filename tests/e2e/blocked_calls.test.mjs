// SPDX-License-Identifier: MIT
// A call blocked in I/O (here: waiting on a subprocess that never answers)
// is stopped by notifications/cancelled, and stdin EOF ends the server
// promptly even while such a call is blocked: past the EOF grace the call is
// answered as cancelled and the subprocess is killed, not waited for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, rawServer, scratchDir, INIT } from './lib/client.mjs';

function alive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

async function eventually(check, what, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.ok(check(), `timed out waiting for ${what}`);
}

// A stand-in agent CLI that records its pid and then blocks for a minute
// without printing anything: the task tool sits in a pipe read.
function blockingAgent(dir) {
  const pidFile = path.join(dir, 'agent.pid');
  const stub = path.join(dir, 'hermes');
  writeFileSync(stub, `#!/bin/sh
echo $$ > '${pidFile}'
exec sleep 60
`);
  chmodSync(stub, 0o755);
  const auth = path.join(dir, 'auth.json');
  writeFileSync(auth, JSON.stringify({ version: 1, credential_pool: { gemini: [{ id: 'a1', access_token: 'k' }] } }));
  return { pidFile, env: { HERMES_BIN: stub, HERMES_AUTH_PATH: auth } };
}

test('notifications/cancelled stops a call blocked on its subprocess', async () => {
  const d = scratchDir();
  const agent = blockingAgent(d.dir);
  const s = await connect({ args: ['--toolsets', 'task'], env: agent.env });
  try {
    const controller = new AbortController();
    const call = callTool(s.client, 'hermes_task', { prompt: 'never answers' },
      { signal: controller.signal, timeout: 60000 });
    await eventually(() => existsSync(agent.pidFile) && readFileSync(agent.pidFile, 'utf8').trim(),
      'the agent to start');
    const pid = Number(readFileSync(agent.pidFile, 'utf8'));
    assert.ok(alive(pid));
    controller.abort('test cancels');
    await assert.rejects(call);
    await eventually(() => !alive(pid), 'the cancelled agent to be killed', 3000);
    const models = await callTool(s.client, 'hermes_models', {});
    assert.equal(models.json.ok, true, 'the server still serves');
  } finally { await s.close(); d.cleanup(); }
});

test('stdin EOF ends the server promptly while a call is blocked', async () => {
  const d = scratchDir();
  const agent = blockingAgent(d.dir);
  const r = rawServer({ args: ['--toolsets', 'task'], env: agent.env });
  try {
    r.send(INIT);
    assert.equal((await r.next()).id, 0);
    r.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    r.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hermes_task', arguments: { prompt: 'block' } } });
    await eventually(() => existsSync(agent.pidFile) && readFileSync(agent.pidFile, 'utf8').trim(),
      'the agent to start');
    const pid = Number(readFileSync(agent.pidFile, 'utf8'));
    const closed = Date.now();
    r.child.stdin.end();
    const code = await Promise.race([r.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 5000))]);
    assert.equal(code, 0, `the server ended with ${code} ${Date.now() - closed} ms after stdin closed`);
    // The blocked call was answered before the server ended, with the reason.
    const answer = await r.next(1000);
    assert.equal(answer.id, 1);
    assert.match(answer.error.message, /input closed/);
    assert.equal(alive(pid), false, 'the blocked agent was killed');
  } finally {
    if (r.child.exitCode === null) r.child.kill('SIGKILL');
    await r.close();
    d.cleanup();
  }
});
