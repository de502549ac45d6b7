// SPDX-License-Identifier: MIT
// write_file and patch through the official SDK client: a read → patch →
// write flow with the stale-overwrite blocker, a V4A patch, the lone
// surrogate refusal from a JSON escape, and elicitation as the approval
// channel for protected instruction files, asked before the file is locked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync, writeFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, callTool, scratchDir } from './lib/client.mjs';

test('read → patch → write flow keeps the stale-overwrite contract', async () => {
  const d = scratchDir();
  const s = await connect();
  try {
    const file = path.join(d.dir, 'app.py');
    writeFileSync(file, 'def main():\n    print("hi")\n');
    const blocked = await callTool(s.client, 'write_file', { path: file, content: 'x = 1\n' });
    assert.equal(blocked.isError, true);
    assert.equal(blocked.json.stale_write_blocked, true);
    const read = await callTool(s.client, 'read_file', { path: file });
    assert.equal(read.isError, false);
    const patched = await callTool(s.client, 'patch', {
      mode: 'replace', path: file, old_string: 'def main():\n  print("hi")', new_string: 'def main():\n  print("hello")',
    });
    assert.equal(patched.isError, false, patched.text);
    assert.equal(patched.json.success, true);
    assert.equal(patched.json.match_strategy, 'line_trimmed');
    assert.match(patched.json.diff, /\+    print\("hello"\)/);
    assert.equal(readFileSync(file, 'utf8'), 'def main():\n    print("hello")\n');
    // patch earns no whole-file baseline: a write right after it needs a re-read.
    const stale = await callTool(s.client, 'write_file', { path: file, content: 'def main():\n    pass\n' });
    assert.equal(stale.json.stale_write_blocked, true);
    await callTool(s.client, 'read_file', { path: file });
    const written = await callTool(s.client, 'write_file', { path: file, content: 'def main():\n    pass\n' });
    assert.equal(written.isError, false, written.text);
    assert.equal(written.json.verified, true);
    assert.equal(written.json.bytes_written, 21);
  } finally { await s.close(); d.cleanup(); }
});

test('V4A patch adds and updates in one call; a bad one changes nothing', async () => {
  const d = scratchDir();
  const s = await connect();
  try {
    writeFileSync(path.join(d.dir, 'a.txt'), 'one\ntwo\n');
    const ok = await callTool(s.client, 'patch', {
      mode: 'patch',
      patch: `*** Begin Patch\n*** Add File: ${d.dir}/b.txt\n+new\n*** Update File: ${d.dir}/a.txt\n@@\n-two\n+2\n*** End Patch\n`,
    });
    assert.equal(ok.isError, false, ok.text);
    assert.equal(readFileSync(path.join(d.dir, 'a.txt'), 'utf8'), 'one\n2\n');
    assert.equal(readFileSync(path.join(d.dir, 'b.txt'), 'utf8'), 'new\n');
    const bad = await callTool(s.client, 'patch', {
      mode: 'patch',
      patch: `*** Begin Patch\n*** Add File: ${d.dir}/c.txt\n+c\n*** Update File: ${d.dir}/a.txt\n@@\n-absent\n+x\n*** End Patch\n`,
    });
    assert.equal(bad.isError, true);
    assert.match(bad.json.error, /^Patch validation failed \(no files were modified\):/);
    assert.equal(existsSync(path.join(d.dir, 'c.txt')), false);
  } finally { await s.close(); d.cleanup(); }
});

test('a lone surrogate escape is refused by the tool, not the parser', async () => {
  const d = scratchDir();
  const s = await connect();
  try {
    const file = path.join(d.dir, 's.txt');
    const r = await callTool(s.client, 'write_file', { path: file, content: 'a\ud800b' });
    assert.equal(r.isError, true, r.text);
    assert.match(r.json.error, /contains a lone surrogate character \('\\ud800'\)/);
    assert.equal(existsSync(file), false);
  } finally { await s.close(); d.cleanup(); }
});

test('protected instruction files ask through elicitation', async () => {
  const d = scratchDir();
  const s = await connect({ capabilities: { elicitation: {} } });
  let asked = 0;
  s.client.setRequestHandler(ElicitRequestSchema, async () => { asked++; return { action: 'accept', content: {} }; });
  try {
    const file = path.join(d.dir, 'AGENTS.md');
    const r = await callTool(s.client, 'write_file', { path: file, content: '# rules\n' });
    assert.equal(r.isError, false, r.text);
    assert.equal(asked, 1);
    assert.equal(readFileSync(file, 'utf8'), '# rules\n');
  } finally { await s.close(); d.cleanup(); }
  const noChannel = await connect();
  try {
    const r = await callTool(noChannel.client, 'write_file', { path: path.join(d.dir, 'CLAUDE.md'), content: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.json.error, /^BLOCKED: write to protected agent-instruction file\(s\)/);
  } finally { await noChannel.close(); }
});

// Prints whether another process could take the writer lock of argv[2] now:
// a POSIX lock (which conflicts with the server's OFD locks) on the path's
// byte of the lock file argv[1], at the FNV-1a offset the server uses
// (docs/containment.md).
const LOCK_PROBE =
  'import fcntl, os, sys\n' +
  'h = 14695981039346656037\n' +
  'for c in sys.argv[2].encode(): h = ((h ^ c) * 1099511628211) % 2**64\n' +
  'fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n' +
  'try:\n  fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, h % 2**62)\n  print("free")\n' +
  'except OSError:\n  print("held")\n';

// The probe's answer for `file` with the lock file of `runtimeDir`; with
// `wholeFileHeld`, while a process holds all of that lock file.
function lockProbe(runtimeDir, file, wholeFileHeld = false) {
  const lockFile = path.join(runtimeDir, 'hermes-tools.locks');
  const probe = ['python3', '-c', LOCK_PROBE, lockFile, file];
  const run = wholeFileHeld
    ? spawnSync('python3', ['-c',
      'import fcntl, subprocess, sys\n' +
      'f = open(sys.argv[1], "a+"); fcntl.lockf(f, fcntl.LOCK_EX)\n' +
      'subprocess.run(sys.argv[2:])', lockFile, ...probe])
    : spawnSync(probe[0], probe.slice(1));
  return run.stdout.toString().trim();
}

// The user may take minutes to answer: a write waiting for approval holds
// no lock, so other writers of the file do not give up meanwhile.
test('a write waiting for approval holds no file lock', async () => {
  const d = scratchDir();
  const s = await connect({ capabilities: { elicitation: {} }, env: { XDG_RUNTIME_DIR: d.dir } });
  const file = path.join(realpathSync(d.dir), 'AGENTS.md');
  const seen = [];
  s.client.setRequestHandler(ElicitRequestSchema, async () => {
    seen.push(lockProbe(d.dir, file));
    return { action: 'accept', content: {} };
  });
  try {
    assert.equal(lockProbe(d.dir, file, true), 'held', 'the probe sees a held lock');
    const r = await callTool(s.client, 'write_file', { path: file, content: '# rules\n' });
    assert.equal(r.isError, false, r.text);
    assert.deepEqual(seen, ['free'], 'the file was locked while the user was asked');
    assert.equal(readFileSync(file, 'utf8'), '# rules\n');
  } finally { await s.close(); d.cleanup(); }
});
