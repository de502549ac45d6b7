// SPDX-License-Identifier: MIT
// HTTP sessions behave like stdio sessions: on the 2026-07-28
// wire the guards' memory belongs to a conversation, never to a token;
// approvals are asked over HTTP when the client can answer, and otherwise
// the result says how a person unblocks them; background notifications that
// HTTP cannot deliver are said to be undeliverable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { scratchDir } from './lib/client.mjs';
import { serve, modernPost, legacySession, replyText } from './lib/serve.mjs';

const KEY = 'hermes-tools/conversationId';

// One modern read_file of `file`, in the conversation `key` names (none: no key).
async function modernRead(server, file, id, key) {
  const meta = key === undefined ? {} : { [KEY]: key };
  const r = await modernPost(server.url, 'tools/call',
    { name: 'read_file', arguments: { path: file }, _meta: meta }, { id });
  assert.equal(r.status, 200, r.text);
  return replyText(r);
}

test('2026-07-28: clients sharing a token do not share read dedup or loop guards', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const file = path.join(realpathSync(work.dir), 'notes.txt');
    writeFileSync(file, 'alpha\nbeta\n');
    // Calls without a key are separate clients as far as anyone can tell:
    // each is told the content, never "unchanged" and never BLOCKED.
    for (let i = 1; i <= 4; i++) {
      const text = await modernRead(server, file, i);
      assert.match(text, /alpha/, `keyless read ${i}: ${text}`);
      assert.doesNotMatch(text, /unchanged|BLOCKED/, `keyless read ${i}`);
    }
    // One conversation, named by its key, keeps its dedup.
    assert.match(await modernRead(server, file, 10, 'conv-a'), /alpha/);
    assert.match(await modernRead(server, file, 11, 'conv-a'), /unchanged since last read/);
    // Another conversation on the same token starts fresh.
    assert.match(await modernRead(server, file, 12, 'conv-b'), /alpha/);
    const bad = await modernPost(server.url, 'tools/call',
      { name: 'read_file', arguments: { path: file }, _meta: { [KEY]: 7 } }, { id: 13 });
    assert.equal(bad.status, 400);
    assert.equal(bad.messages[0].error.code, -32602);
    // The workspace is still shared: a read in one call lets a write in
    // another overwrite the file (the stale-write guard's read stamp).
    const write = await modernPost(server.url, 'tools/call',
      { name: 'write_file', arguments: { path: file, content: 'gamma\n' } }, { id: 14 });
    assert.doesNotMatch(replyText(write), /"error"/, replyText(write));
  } finally {
    await server.stop();
    work.cleanup();
  }
});

test('legacy HTTP: a dangerous command asks through elicitation on the call stream', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'hermes-e2e', version: '1.0.0' },
      { capabilities: { elicitation: {} } });
    const asked = [];
    const decisions = ['once', 'deny'];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { decision: decisions[asked.length - 1] } };
    });
    await client.connect(transport);
    const victim = path.join(work.dir, 'victim');
    mkdirSync(path.join(victim, 'sub'), { recursive: true });
    const once = await client.callTool({ name: 'terminal', arguments: { command: `rm -rf ${victim}` } });
    const ran = JSON.parse(once.content[0].text);
    assert.equal(once.isError, false, once.content[0].text);
    assert.match(ran.approval, /approved by the user/);
    assert.ok(!existsSync(victim), 'the approved command ran');
    mkdirSync(victim);
    const denied = await client.callTool({ name: 'terminal', arguments: { command: `rm -rf ${victim}` } });
    assert.equal(JSON.parse(denied.content[0].text).status, 'blocked');
    assert.ok(existsSync(victim), 'the denied command did not run');
    assert.equal(asked.length, 2);
    assert.match(asked[0], /rm -rf/);
    await client.close();
  } finally {
    await server.stop();
    work.cleanup();
  }
});

test('HTTP without elicitation: pending_approval says how a person unblocks it', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const victim = path.join(work.dir, 'victim');
    mkdirSync(path.join(victim, 'sub'), { recursive: true });
    const legacy = await legacySession(server);
    const modern = await modernPost(server.url, 'tools/call',
      { name: 'terminal', arguments: { command: `rm -rf ${victim}` } });
    for (const reply of [await legacy.call(2, 'terminal', { command: `rm -rf ${victim}` }), modern]) {
      const r = JSON.parse(replyText(reply));
      assert.equal(r.status, 'pending_approval');
      assert.match(r.error, /command_allowlist/);
      assert.match(r.error, /"recursive delete"/);
      assert.match(r.error, /approvals\.mode: off/);
      assert.match(r.error, /--yolo/);
    }
    assert.ok(existsSync(victim));
  } finally {
    await server.stop();
    work.cleanup();
  }
});

test('HTTP: a background start that asks for notifications says they cannot arrive', async () => {
  const server = await serve();
  try {
    const legacy = await legacySession(server);
    const started = JSON.parse(replyText(await legacy.call(2, 'terminal',
      { command: 'sleep 0.1', background: true, notify_on_complete: true })));
    assert.match(started.notification_note, /cannot receive notifications/);
    const modern = JSON.parse(replyText(await modernPost(server.url, 'tools/call',
      { name: 'terminal', arguments: { command: 'sleep 0.1', background: true, watch_patterns: ['x'] } })));
    assert.match(modern.notification_note, /process\(action="poll"\)/);
    const quiet = JSON.parse(replyText(await legacy.call(3, 'terminal',
      { command: 'sleep 0.1', background: true })));
    assert.equal(quiet.notification_note, undefined);
  } finally {
    await server.stop();
  }
});
