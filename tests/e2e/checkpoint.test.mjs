// SPDX-License-Identifier: MIT
// Checkpoints through the official SDK client (docs/checkpoints.md): a
// shell command's edits, deletions, mode changes and new directory are
// listed, diffed and restored byte for byte; the restore is undone; a hand
// edit is refused with its path; nothing is written into the workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, chmodSync, statSync, readdirSync, lstatSync, existsSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';

// Every entry under `dir`: type, mode and content, keyed by relative path.
function tree(dir, rel = '', out = {}) {
  for (const name of readdirSync(path.join(dir, rel)).sort()) {
    const key = rel ? `${rel}/${name}` : name;
    const st = lstatSync(path.join(dir, key));
    if (st.isDirectory()) {
      out[key] = `dir ${st.mode}`;
      tree(dir, key, out);
    } else {
      out[key] = `file ${st.mode} ${readFileSync(path.join(dir, key), 'utf8')}`;
    }
  }
  return out;
}

test('a shell command is listed, diffed, restored exactly, and the restore undone', async () => {
  const d = scratchDir();
  const s = await connect({ args: ['--root', d.dir, '--yolo'], cwd: d.dir });
  try {
    writeFileSync(path.join(d.dir, 'notes.txt'), 'one\ntwo\nthree\n');
    mkdirSync(path.join(d.dir, 'lib/sub'), { recursive: true });
    writeFileSync(path.join(d.dir, 'lib/sub/code.py'), 'print(1)\n');
    writeFileSync(path.join(d.dir, 'run.sh'), '#!/bin/sh\n');
    chmodSync(path.join(d.dir, 'run.sh'), 0o755);
    const before = tree(d.dir);

    const ran = await callTool(s.client, 'terminal', {
      command: "sed -i 's/two/TWO/' notes.txt && rm -rf lib && chmod 600 run.sh && mkdir -p out/x && echo o > out/x/o.txt",
    });
    assert.equal(ran.isError, false, ran.text);
    const changed = tree(d.dir);

    const list = await callTool(s.client, 'checkpoint', { action: 'list' });
    assert.equal(list.isError, false, list.text);
    const last = list.json.checkpoints.at(-1);
    assert.equal(last.tool, 'terminal');
    assert.deepEqual(last.paths, ['lib', 'lib/sub', 'lib/sub/code.py', 'notes.txt', 'out', 'out/x', 'out/x/o.txt', 'run.sh']);

    const diff = await callTool(s.client, 'checkpoint', { action: 'diff', id: last.id });
    assert.match(diff.json.diff, /-two\n\+TWO\n/);
    assert.match(diff.json.diff, /old mode 755\nnew mode 600/);

    const restored = await callTool(s.client, 'checkpoint', { action: 'restore', id: last.id });
    assert.equal(restored.isError, false, restored.text);
    assert.deepEqual(tree(d.dir), before);

    const undone = await callTool(s.client, 'checkpoint', { action: 'restore', id: restored.json.checkpoint });
    assert.equal(undone.isError, false, undone.text);
    assert.deepEqual(tree(d.dir), changed);

    writeFileSync(path.join(d.dir, 'notes.txt'), 'by hand\n');
    const refused = await callTool(s.client, 'checkpoint', { action: 'restore', id: last.id });
    assert.equal(refused.isError, true);
    assert.deepEqual(refused.json.hand_edited, ['notes.txt']);
    assert.equal(readFileSync(path.join(d.dir, 'notes.txt'), 'utf8'), 'by hand\n');
    // The store lives under the Hermes home: the workspace holds only its own files.
    assert.deepEqual(Object.keys(tree(d.dir)).sort(), Object.keys(changed).sort());
  } finally { await s.close(); d.cleanup(); }
});
