// SPDX-License-Identifier: MIT
// Both protocol eras over stdio: SDK v2 with automatic version negotiation
// probes with server/discover and settles on 2026-07-28; SDK 1.x (the other
// tests) keeps the legacy handshake on the same binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, scratchDir } from './lib/client.mjs';

test('SDK v2 negotiates the 2026-07-28 era over stdio and calls a tool', async () => {
  const home = scratchDir('hermes-home-');
  const client = new Client({ name: 'hermes-e2e-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StdioClientTransport({
    command: BIN, args: ['mcp'], env: { ...process.env, HERMES_HOME: home.dir }, stderr: 'pipe',
  }));
  try {
    assert.equal(client.getProtocolEra(), 'modern');
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'terminal'));
    const result = await client.callTool({ name: 'terminal', arguments: { command: 'echo modern-stdio' } });
    assert.match(result.content[0].text, /modern-stdio/);
  } finally {
    await client.close();
    home.cleanup();
  }
});
