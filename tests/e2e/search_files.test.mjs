// SPDX-License-Identifier: MIT
// search_files through the official MCP SDK client: the loop guard per
// connection (warning on the 3rd identical search, BLOCKED with isError from
// the 4th, reset by another tool), strict JSON results with the path-grouped
// form and _hint, newest-first file listing, errors flagged isError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';

function lines(prefix, n) {
  return Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';
}

test('loop guard: _warning on the 3rd identical search, BLOCKED from the 4th', async () => {
  const work = scratchDir();
  writeFileSync(path.join(work.dir, 'a.txt'), 'needle\n');
  const s = await connect({ cwd: work.dir });
  try {
    const args = { pattern: 'needle' };
    for (let i = 0; i < 2; i++) {
      const r = await callTool(s.client, 'search_files', args);
      assert.equal(r.isError, false);
      assert.equal(r.json.total_count, 1);
      assert.equal(r.json._warning, undefined);
    }
    // output_mode is not part of the key.
    const third = await callTool(s.client, 'search_files', { ...args, output_mode: 'count' });
    assert.equal(third.isError, false);
    assert.match(third.json._warning, /^You have run this exact search 3 times consecutively\./);
    const fourth = await callTool(s.client, 'search_files', args);
    assert.equal(fourth.isError, true);
    assert.match(fourth.json.error, /^BLOCKED: You have run this exact search 4 times in a row\./);
    assert.equal(fourth.json.already_searched, 4);
    assert.equal(fourth.json.pattern, 'needle');

    // Any other tool resets the counter.
    const wrote = await callTool(s.client, 'write_file',
      { path: path.join(work.dir, 'new.txt'), content: 'x\n' });
    assert.equal(wrote.isError, false, wrote.text);
    const after = await callTool(s.client, 'search_files', args);
    assert.equal(after.isError, false);
    assert.equal(after.json._warning, undefined);
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('strict JSON: path-grouped matches, true totals and _hint on truncation', async () => {
  const work = scratchDir();
  writeFileSync(path.join(work.dir, 'many.txt'), lines('hit', 12));
  const s = await connect({ cwd: work.dir });
  try {
    const r = await callTool(s.client, 'search_files', { pattern: 'hit', limit: 10 });
    assert.equal(r.isError, false);
    assert.ok(r.json, 'the text block is one JSON object');
    assert.equal(r.json.total_count, 12);
    assert.equal(r.json.truncated, true);
    assert.match(r.json.matches_format, /^path-grouped: /);
    assert.ok(r.json.matches_text.startsWith('./many.txt\n  1: hit 1\n'));
    assert.equal(r.json._hint,
      'Results truncated. Use offset=10 to see more, or narrow with a more specific pattern or file_glob.');
  } finally {
    await s.close();
    work.cleanup();
  }
});

test('files newest first; missing paths and bad regexes are errors', async () => {
  const work = scratchDir();
  mkdirSync(path.join(work.dir, 'src'));
  for (const [name, t] of [['old.py', 1000], ['src/new.py', 3000], ['mid.py', 2000]]) {
    const file = path.join(work.dir, name);
    writeFileSync(file, 'x\n');
    utimesSync(file, t, t);
  }
  const s = await connect({ cwd: work.dir });
  try {
    const files = await callTool(s.client, 'search_files', { pattern: '*.py', target: 'files' });
    assert.deepEqual(files.json.files, ['./src/new.py', './mid.py', './old.py']);
    const missing = await callTool(s.client, 'search_files', { pattern: 'x', path: 'srcx' });
    assert.equal(missing.isError, true);
    assert.equal(missing.json.error, 'Path not found: srcx. Similar paths: ./src');
    const bad = await callTool(s.client, 'search_files', { pattern: 'a(' });
    assert.equal(bad.isError, true);
    assert.match(bad.json.error, /^Search failed: regex parse error/);
  } finally {
    await s.close();
    work.cleanup();
  }
});
