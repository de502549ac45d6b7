// SPDX-License-Identifier: MIT
// The task toolset through the official MCP SDK client: `--toolsets task`
// lists exactly the reference server's four tools, and hermes_task drives a
// stub agent CLI (never a real agent) end to end, detail and telemetry after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, callTool, scratchDir } from './lib/client.mjs';
import { SID, writeStub } from './lib/agent_stub.mjs';

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
