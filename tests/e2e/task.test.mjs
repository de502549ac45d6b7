// SPDX-License-Identifier: MIT
// The task toolset through the official MCP SDK client: `--toolsets task`
// lists exactly the reference server's four tools, and hermes_task drives a
// stub agent CLI (never a real agent) end to end, detail and telemetry after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';

const SID = '20260811_115247_084e47';

// A stand-in for `hermes`: answers chat with STUB_ANSWER and prints the
// session trailer on stderr; `sessions export` prints one JSONL session.
function writeStub(dir) {
  const stub = path.join(dir, 'hermes');
  const session = JSON.stringify({
    id: SID, tool_call_count: 1, api_call_count: 2, message_count: 3,
    messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'terminal', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'README.md' }],
  });
  writeFileSync(stub, `#!/bin/sh
if [ "$1" = "sessions" ]; then printf '%s\\n' '${session}'; exit 0; fi
[ -n "$STUB_DELAY" ] && sleep "$STUB_DELAY"
printf '%s\\n' "$STUB_ANSWER"
printf '\\nsession_id: ${SID}\\n' >&2
exit 0
`);
  chmodSync(stub, 0o755);
  const auth = path.join(dir, 'auth.json');
  writeFileSync(auth, JSON.stringify({ version: 1, credential_pool: { gemini: [{ id: 'a1', access_token: 'k' }] } }));
  return { stub, auth };
}

test('--toolsets task lists exactly the four task tools', async () => {
  const s = await connect({ args: ['--toolsets', 'task'] });
  try {
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name),
      ['hermes_task', 'hermes_task_detail', 'hermes_models', 'hermes_telemetry']);
    const task = tools.find((t) => t.name === 'hermes_task');
    assert.deepEqual(task.inputSchema.required, ['prompt']);
    assert.deepEqual(task.inputSchema.properties.output_mode.enum, ['digest', 'full']);
  } finally {
    await s.close();
  }
});

test('hermes_task runs the stub agent; detail and telemetry see the run', async () => {
  const work = scratchDir();
  const { stub, auth } = writeStub(work.dir);
  const s = await connect({
    args: ['--toolsets', 'task'],
    env: { HERMES_BIN: stub, HERMES_AUTH_PATH: auth, STUB_ANSWER: 'stub says hi' },
  });
  try {
    const run = await callTool(s.client, 'hermes_task', { prompt: 'Summarize this file', output_mode: 'full' });
    assert.equal(run.isError, false, run.text);
    assert.equal(run.json.ok, true);
    assert.equal(run.json.provider, 'gemini');
    assert.equal(run.json.model, 'gemini-3.1-flash-lite');
    assert.equal(run.json.result, 'stub says hi\n');
    assert.equal(run.json.session_id, SID);
    assert.deepEqual(run.json.tool_calls,
      [{ id: 'c1', name: 'terminal', arguments: { command: 'ls' }, result: 'README.md' }]);

    const detail = await callTool(s.client, 'hermes_task_detail', { task_id: run.json.task_id });
    assert.equal(detail.json.cached, true);
    assert.equal(detail.json.result, 'stub says hi\n');

    const stats = await callTool(s.client, 'hermes_telemetry', {});
    assert.equal(stats.json.runs, 1);
    assert.equal(stats.json.tool_usage.api_calls, 2);
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('two concurrent hermes_task calls: one runs, the other is busy', async () => {
  const work = scratchDir();
  const { stub, auth } = writeStub(work.dir);
  const s = await connect({
    args: ['--toolsets', 'task'],
    env: { HERMES_BIN: stub, HERMES_AUTH_PATH: auth, STUB_ANSWER: 'slow', STUB_DELAY: '1' },
  });
  try {
    const [a, b] = await Promise.all([
      callTool(s.client, 'hermes_task', { prompt: 'first' }),
      callTool(s.client, 'hermes_task', { prompt: 'second' }),
    ]);
    const codes = [a.json.ok === true ? 'ok' : a.json.error, b.json.ok === true ? 'ok' : b.json.error];
    assert.deepEqual(codes.sort(), ['busy', 'ok']);
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('a failed dispatch is an MCP error result with the contract code', async () => {
  const s = await connect({ args: ['--toolsets', 'task'], env: { HERMES_AUTH_PATH: '/nonexistent/auth.json' } });
  try {
    const out = await callTool(s.client, 'hermes_task', { prompt: 'hi' });
    assert.equal(out.isError, true);
    assert.equal(out.json.error, 'no_credential');
    const bad = await callTool(s.client, 'hermes_task_detail', { task_id: '../auth' });
    assert.equal(bad.json.error, 'invalid_args');
  } finally {
    await s.close();
  }
});
