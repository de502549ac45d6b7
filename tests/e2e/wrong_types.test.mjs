// SPDX-License-Identifier: MIT
// Arguments of the wrong JSON type, as models send them, are answered as
// errors and never end the server, on stdio and over HTTP (both eras).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, callTool, scratchDir } from './lib/client.mjs';
import { serve, legacySession, modernPost, replyText } from './lib/serve.mjs';

// Calls that once ended the whole server (an uncaught type error while
// the router judged whether the call was long-running).
const PROBES = [
  ['terminal', { command: 'echo hi', background: 'yes' }],
  ['terminal', { command: 'echo hi', background: 1 }],
  ['process', { action: 1 }],
  ['process', { action: ['wait'], session_id: 'x' }],
  ['process', { action: 'wait', session_id: 'x', timeout: 1e300 }],
  ['read_file', { path: 'a.txt', offset: '1e400', limit: -1e300 }],
  ["search_files", { pattern: "no-such-text-q7", limit: 9223372036854775807 }],
];

test('stdio: wrong-typed arguments are answered and the server keeps serving', async () => {
  const d = scratchDir();
  const s = await connect({ cwd: d.dir, after: ['--root', d.dir] });
  try {
    for (const [name, args] of PROBES) {
      const r = await callTool(s.client, name, args);
      assert.ok(r.json && typeof r.json === 'object', `${name} ${JSON.stringify(args)}: ${r.text}`);
      assert.doesNotMatch(r.text, /Internal error/, `${name} ${JSON.stringify(args)}`);
    }
    const process = await callTool(s.client, 'process', { action: 1 });
    assert.equal(process.isError, true);
    assert.match(process.json.error, /process: 'action' must be a string, got int/);
    const hi = await callTool(s.client, 'terminal', { command: 'echo hi' });
    assert.equal(hi.json.output.trim(), 'hi', 'the server still serves');
  } finally { await s.close(); d.cleanup(); }
});

test('HTTP: wrong-typed arguments are answered on both eras and the server keeps serving', async () => {
  const server = await serve();
  try {
    const legacy = await legacySession(server);
    let id = 10;
    for (const [name, args] of PROBES) {
      const reply = await legacy.call(id++, name, args);
      assert.equal(reply.status, 200, `${name} ${JSON.stringify(args)}`);
      assert.doesNotMatch(replyText(reply), /Internal error/, `${name} ${JSON.stringify(args)}`);
      const modern = await modernPost(server.url, 'tools/call', { name, arguments: args }, { id: id++ });
      assert.equal(modern.status, 200, `modern ${name} ${JSON.stringify(args)}`);
      assert.ok(modern.messages.at(-1)?.result, `modern ${name}: ${modern.text}`);
    }
    const hi = await legacy.call(id++, 'terminal', { command: 'echo hi' });
    assert.match(replyText(hi), /"output":"hi/);
  } finally { await server.stop(); }
});
