// SPDX-License-Identifier: MIT
// read_file through the official MCP SDK client: one connection is one
// session, so the second identical read is the dedup stub and the third is
// BLOCKED (isError); another tool call resets the loop counters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';

test('dedup stub on the 2nd identical read, BLOCKED on the 3rd', async () => {
  const work = scratchDir();
  const file = path.join(work.dir, 'notes.txt');
  writeFileSync(file, 'alpha\nbeta\n');
  const s = await connect({ cwd: work.dir });
  try {
    const first = await callTool(s.client, 'read_file', { path: file });
    assert.equal(first.isError, false);
    assert.equal(first.json.content, '1|alpha\n2|beta');
    assert.equal(first.json.total_lines, 2);

    const second = await callTool(s.client, 'read_file', { path: file });
    assert.equal(second.isError, false);
    assert.equal(second.json.status, 'unchanged');
    assert.equal(second.json.dedup, true);
    assert.equal(second.json.content_returned, false);
    assert.match(second.json.message, /^File unchanged since last read\./);

    const third = await callTool(s.client, 'read_file', { path: file });
    assert.equal(third.isError, true);
    assert.match(third.json.error, /^BLOCKED: You have called read_file on this exact region 3 times/);
    assert.equal(third.json.already_read, 3);

    // A different region is independent.
    const other = await callTool(s.client, 'read_file', { path: file, offset: 2, limit: 1 });
    assert.equal(other.json.content, '2|beta');
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('errors come back as one JSON object with isError', async () => {
  const work = scratchDir();
  mkdirSync(path.join(work.dir, 'sub'));
  writeFileSync(path.join(work.dir, 'readme.md'), 'x\n');
  const s = await connect({ cwd: work.dir });
  try {
    const missing = await callTool(s.client, 'read_file', { path: path.join(work.dir, 'readme.txt') });
    assert.equal(missing.isError, true);
    assert.equal(missing.json.error, 'File not found: ' + path.join(work.dir, 'readme.txt'));
    assert.deepEqual(missing.json.similar_files, [path.join(work.dir, 'readme.md')]);
    const device = await callTool(s.client, 'read_file', { path: '/dev/zero' });
    assert.equal(device.isError, true);
    const env = await callTool(s.client, 'read_file', { path: path.join(work.dir, '.env') });
    assert.match(env.json.error, /^Access denied: /);
  } finally {
    await s.close();
    work.cleanup();
  }
});
