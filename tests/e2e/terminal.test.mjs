// SPDX-License-Identifier: MIT
// terminal and process through the official MCP SDK client: foreground
// results, cwd persistence within one connection, background + poll, and
// approval (pending without a human, elicitation when the client offers it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ElicitRequestSchema, LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connect, callTool, scratchDir } from './lib/client.mjs';

test('foreground echo, non-zero exit as data, cwd persists', async () => {
  const work = scratchDir();
  mkdirSync(path.join(work.dir, 'sub'));
  const s = await connect({ cwd: work.dir });
  try {
    const hi = await callTool(s.client, 'terminal', { command: 'echo hi' });
    assert.equal(hi.isError, false);
    assert.deepEqual(hi.json, { output: 'hi', exit_code: 0, error: null });

    const miss = await callTool(s.client, 'terminal', { command: 'grep nope /dev/null' });
    assert.equal(miss.isError, false);
    assert.equal(miss.json.exit_code, 1);
    assert.equal(miss.json.exit_code_meaning, 'No matches found (not an error)');

    const cd = await callTool(s.client, 'terminal', { command: 'cd sub && export E2E_VAR=kept' });
    const sub = realpathSync(path.join(work.dir, 'sub'));
    assert.equal(cd.json.cwd, sub);
    const pwd = await callTool(s.client, 'terminal', { command: 'pwd; echo $E2E_VAR' });
    assert.equal(pwd.json.output, `${sub}\nkept`);
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('background start, poll, wait and kill', async () => {
  const s = await connect();
  try {
    const started = await callTool(s.client, 'terminal', {
      command: 'echo ready; sleep 30', background: true,
    });
    assert.equal(started.isError, false);
    assert.match(started.json.session_id, /^proc_[0-9a-f]{12}$/);
    const id = started.json.session_id;
    let poll;
    for (let i = 0; i < 50; i++) {
      poll = await callTool(s.client, 'process', { action: 'poll', session_id: id });
      if (poll.json.output_preview.includes('ready')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(poll.json.status, 'running');
    assert.match(poll.json.output_preview, /ready/);
    const killed = await callTool(s.client, 'process', { action: 'kill', session_id: id });
    assert.equal(killed.json.status, 'killed');
    const after = await callTool(s.client, 'process', { action: 'poll', session_id: id });
    assert.equal(after.json.status, 'exited');
    assert.equal(after.json.exit_code, -15);
  } finally {
    await s.close();
  }
});

test('dangerous command is pending_approval and does not run', async () => {
  const work = scratchDir();
  writeFileSync(path.join(work.dir, 'keep.txt'), 'x');
  const s = await connect({ cwd: work.dir });
  try {
    const r = await callTool(s.client, 'terminal', { command: 'find . -name keep.txt -delete' });
    assert.equal(r.isError, true);
    assert.equal(r.json.status, 'pending_approval');
    assert.equal(r.json.approval_pending, true);
    assert.equal(r.json.pattern_key, 'find -delete');
    assert.ok(existsSync(path.join(work.dir, 'keep.txt')));
    const hard = await callTool(s.client, 'terminal', { command: 'rm -rf /' });
    assert.equal(hard.json.status, 'blocked');
    assert.match(hard.json.error, /^BLOCKED \(hardline\): recursive delete of root filesystem/);
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('elicitation approves once, then the command runs with an approval note', async () => {
  const s = await connect({ capabilities: { elicitation: {} } });
  const asked = [];
  s.client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    return { action: 'accept', content: { decision: 'once' } };
  });
  try {
    const r = await callTool(s.client, 'terminal', { command: "python3 -c 'print(6*7)'" });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.json.output, '42');
    assert.equal(r.json.approval,
      'Command required approval (script execution via -e/-c flag) and was approved by the user.');
    assert.equal(asked.length, 1);
  } finally {
    await s.close();
  }
});

test('notify_on_complete arrives as a logging notification', async () => {
  const s = await connect();
  const seen = [];
  s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { seen.push(n.params); });
  try {
    const started = await callTool(s.client, 'terminal', {
      command: 'echo built', background: true, notify_on_complete: true,
    });
    assert.equal(started.json.notify_on_complete, true);
    for (let i = 0; i < 100 && !seen.some((p) => p.logger === 'process'); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const event = seen.find((p) => p.logger === 'process');
    assert.ok(event, 'no process notification');
    assert.equal(event.level, 'info');
    assert.equal(event.data.type, 'completion');
    assert.equal(event.data.session_id, started.json.session_id);
    assert.equal(event.data.exit_code, 0);
    assert.equal(event.data.output, 'built');
  } finally {
    await s.close();
  }
});

// /proc/<pid>/stat state, or '' when gone; a zombie counts as dead.
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch { return false; }
}

test('closing the connection kills background processes', async () => {
  const s = await connect();
  const started = await callTool(s.client, 'terminal', { command: 'sleep 300', background: true });
  const pid = started.json.pid;
  assert.ok(alive(pid));
  await s.close();
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(pid), false);
});

test('--yolo runs what would otherwise need approval; hardline stays blocked', async () => {
  const s = await connect({ args: ['--yolo'] });
  try {
    const r = await callTool(s.client, 'terminal', { command: "python3 -c 'print(6*7)'" });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.json.output, '42');
    const hard = await callTool(s.client, 'terminal', { command: 'mkfs.ext4 /dev/sdz9' });
    assert.equal(hard.json.status, 'blocked');
  } finally {
    await s.close();
  }
});

test('the server answers other calls while a foreground command runs', async () => {
  const s = await connect();
  try {
    const slow = callTool(s.client, 'terminal', { command: 'sleep 2; echo slow' });
    const t0 = Date.now();
    const quick = await callTool(s.client, 'terminal', { command: 'echo quick' });
    assert.equal(quick.json.output, 'quick');
    assert.ok(Date.now() - t0 < 1500, `quick call took ${Date.now() - t0} ms`);
    assert.equal((await slow).json.output, 'slow');
  } finally {
    await s.close();
  }
});
