// SPDX-License-Identifier: MIT
// Typed results: every tool lists an `outputSchema`, and every successful
// call carries `structuredContent` (the text block's JSON, unchanged) that
// the SDK clients validate against it with ajv when calling (SDK 1.x on the
// legacy handshake, SDK v2 on 2026-07-28), on stdio and over HTTP. A failed
// call carries text only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { BIN, scratchDir } from './lib/client.mjs';
import { writeStub } from './lib/agent_stub.mjs';
import { serve } from './lib/serve.mjs';

// Every product tool; a test fails when one is not listed or not called.
const TOOLS = ['read_file', 'write_file', 'patch', 'search_files', 'terminal', 'process',
  'execute_code', 'hermes_task', 'hermes_task_detail', 'hermes_models', 'hermes_telemetry',
  'web_search', 'web_extract', 'checkpoint'];

// A workspace and the environment that makes every tool callable: the task
// tools drive a stub agent; the web tools reach no network (web_extract's
// loopback URL is refused per page, web_search fails).
function setup() {
  const work = scratchDir('hermes-typed-');
  const { stub, auth } = writeStub(work.dir);
  mkdirSync(path.join(work.dir, 'src'));
  writeFileSync(path.join(work.dir, 'src', 'keep.txt'), 'alpha\nbeta\n');
  const env = {
    HERMES_BIN: stub, HERMES_AUTH_PATH: auth, STUB_ANSWER: 'typed', TERMINAL_CWD: work.dir,
    HERMES_TOOLS_DDG_BASE_URL: 'http://127.0.0.1:9/ddg',
  };
  return { work, env };
}

// Calls `name` through the SDK (which validates `structuredContent` against
// the listed schema); checks the structured result is the text's JSON.
async function call(client, seen, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = result.content[0].text;
  if (result.isError) {
    assert.equal(result.structuredContent, undefined, `${name}: a failure is text only`);
  } else {
    assert.deepEqual(result.structuredContent, JSON.parse(text), `${name}: structured = text`);
    seen.add(name);
  }
  return { json: JSON.parse(text), isError: result.isError === true };
}

// Calls every tool, successfully where the machine allows (all but
// web_search), in a fresh directory under `root` (a session may not
// overwrite files another one wrote).
async function everyTool(client, root) {
  const dir = mkdtempSync(path.join(root, 'run-'));
  const { tools } = await client.listTools();
  const listed = tools.map((t) => t.name);
  for (const name of TOOLS) assert.ok(listed.includes(name), `${name} is listed`);
  for (const tool of tools) {
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an object outputSchema`);
  }
  const seen = new Set();
  const file = path.join(dir, 'notes.txt');
  const ok = async (name, args) => {
    const out = await call(client, seen, name, args);
    assert.equal(out.isError, false, `${name} ${JSON.stringify(args)}: ${JSON.stringify(out.json)}`);
    return out.json;
  };

  await ok('write_file', { path: file, content: 'hello\nworld\n' });
  await ok('read_file', { path: file });
  await ok('read_file', { path: file });  // on stdio the dedup stub
  await ok('patch', { path: file, old_string: 'hello', new_string: 'bye' });
  await ok('patch', { mode: 'patch', patch: `*** Begin Patch\n*** Add File: ${path.join(dir, 'new.py')}\n+x = 1\n*** End Patch` });
  await ok('search_files', { pattern: 'bye', path: dir });
  await ok('search_files', { pattern: 'a', path: path.join(root, 'src'), output_mode: 'count' });
  await ok('search_files', { pattern: '*.txt', target: 'files', path: dir });

  await ok('terminal', { command: 'echo typed' });
  const started = await ok('terminal', { command: 'echo started; sleep 30', background: true });
  const id = started.session_id;
  await ok('process', { action: 'list' });
  await ok('process', { action: 'poll', session_id: id });
  await ok('process', { action: 'log', session_id: id });
  await ok('process', { action: 'write', session_id: id, data: 'x' });
  await ok('process', { action: 'kill', session_id: id });
  await ok('process', { action: 'wait', session_id: id, timeout: 5 });
  await ok('process', { action: 'kill', session_id: id });

  await ok('execute_code', { code: 'from hermes_tools import terminal\nprint(terminal("echo inner")["output"])' });

  const run = await ok('hermes_task', { prompt: 'say typed', output_mode: 'full' });
  await ok('hermes_task', { prompt: 'say typed again' });
  await ok('hermes_task_detail', { task_id: run.task_id });
  await ok('hermes_models', {});
  await ok('hermes_telemetry', {});

  const { checkpoints } = await ok('checkpoint', { action: 'list' });
  assert.ok(checkpoints.length > 0, 'the calls above left checkpoints');
  await ok('checkpoint', { action: 'diff', id: checkpoints[0].id });

  await ok('web_extract', { urls: ['http://127.0.0.1:9/page'] });
  const search = await call(client, seen, 'web_search', { query: 'typed results' });
  assert.equal(search.isError, true, 'no search backend is reachable from a test');
  seen.add('web_search');  // its failure went through the same client

  assert.deepEqual([...seen].sort(), [...TOOLS].sort());
}

test('SDK 1.x over stdio validates every tool\'s structuredContent', async () => {
  const { work, env } = setup();
  const client = new Client({ name: 'hermes-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: BIN, args: ['mcp'], env: { ...process.env, HERMES_HOME: work.dir, ...env },
    stderr: 'pipe',
  }));
  try {
    await everyTool(client, work.dir);
  } finally {
    await client.close();
    work.cleanup();
  }
});

test('SDK v2 on the 2026-07-28 wire over stdio validates every tool', async () => {
  const { work, env } = setup();
  const client = new ClientV2({ name: 'hermes-e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioV2({
    command: BIN, args: ['mcp'], env: { ...process.env, HERMES_HOME: work.dir, ...env },
    stderr: 'pipe',
  }));
  try {
    assert.equal(client.getProtocolEra(), 'modern');
    await everyTool(client, work.dir);
  } finally {
    await client.close();
    work.cleanup();
  }
});

test('over HTTP: SDK 1.x (legacy session) and SDK v2 (2026-07-28) validate every tool', async () => {
  const { work, env } = setup();
  const server = await serve([], { env });
  try {
    const legacy = new Client({ name: 'hermes-e2e', version: '1.0.0' });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      await everyTool(legacy, work.dir);
    } finally {
      await legacy.close();
    }
    const modern = new ClientV2({ name: 'hermes-e2e-v2', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new HttpV2(new URL(server.url)));
    try {
      assert.equal(modern.getProtocolEra(), 'modern');
      await everyTool(modern, work.dir);
    } finally {
      await modern.close();
    }
  } finally {
    await server.stop();
    work.cleanup();
  }
});
