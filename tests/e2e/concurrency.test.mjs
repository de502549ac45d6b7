// SPDX-License-Identifier: MIT
// Concurrency and cancellation through the SDK client: a slow terminal call
// does not hold up fast calls, and cancelling it kills the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';

test('a slow call does not hold up fast ones', async () => {
  const d = scratchDir();
  const s = await connect({ args: ['--yolo'] });
  try {
    const file = path.join(d.dir, 'f.txt');
    writeFileSync(file, 'x\n');
    const started = Date.now();
    const slow = callTool(s.client, 'terminal', { command: 'sleep 2; echo slept' });
    const fast = await Promise.all(
      [0, 1, 2, 3].map((i) => callTool(s.client, 'read_file', { path: file, offset: i + 1 })));
    const fastDone = Date.now() - started;
    for (const r of fast) assert.equal(r.isError, false);
    assert.ok(fastDone < 1500, `fast calls took ${fastDone} ms behind a 2 s call`);
    const slowResult = await slow;
    assert.match(slowResult.json.output, /slept/);
  } finally { await s.close(); d.cleanup(); }
});

test('cancelling a call stops its command', async () => {
  const d = scratchDir();
  const s = await connect({ args: ['--yolo'] });
  try {
    const marker = path.join(d.dir, 'finished');
    const controller = new AbortController();
    const call = callTool(s.client, 'terminal',
      { command: `sleep 3 && touch ${marker}` }, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort('test cancels');
    await assert.rejects(call);
    // The server is still responsive, and the command was killed.
    const ping = await s.client.ping();
    assert.deepEqual(ping, {});
    await new Promise((r) => setTimeout(r, 3500));
    assert.equal(existsSync(marker), false, 'the cancelled command ran to completion');
  } finally { await s.close(); d.cleanup(); }
});
