// SPDX-License-Identifier: MIT
// Every command a newcomer copies from README.md or docs/ must run as written.
// A fenced block whose info string is `sh runnable` (or `bash runnable`) is
// run as one `bash -euo pipefail` script, with the built hermes-tools first
// on PATH, in a fresh directory with its own HOME and HERMES_HOME, stdin
// closed; it passes when it exits 0. Blocks without the marker (clients that
// are not installed here, servers that do not end) are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const BIN = process.env.HERMES_TOOLS_BIN || path.join(repo, 'build/src/cli/hermes-tools');

// The runnable blocks of one markdown text: [{line, script}], line 1-based
// at the opening fence. CommonMark fences: ``` or ~~~ (three or more),
// indented at most three spaces, closed by the same character at least as
// long; a block in a list item keeps its indentation stripped.
export function runnableBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^( {0,3})(`{3,}|~{3,})\s*(.*)$/);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const words = info.trim().split(/\s+/);
    const body = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].match(/^ {0,3}(`{3,}|~{3,})\s*$/);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    if (['sh', 'bash'].includes(words[0]) && words.includes('runnable')) {
      blocks.push({ line: i + 1, script: body.join('\n') });
    }
    i = j;
  }
  return blocks;
}

function markdownFiles() {
  const out = [path.join(repo, 'README.md')];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) out.push(full);
    }
  };
  walk(path.join(repo, 'docs'));
  return out.sort();
}

// Runs `script` as a fresh user would, in a scratch directory.
function runScript(script) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'hermes-docs-'));
  try {
    const bin = path.join(scratch, 'bin');
    const work = path.join(scratch, 'work');
    const home = path.join(scratch, 'home');
    for (const dir of [bin, work, home]) mkdirSync(dir);
    symlinkSync(path.resolve(BIN), path.join(bin, 'hermes-tools'));
    return spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: work,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        HOME: home,
        HERMES_HOME: path.join(home, '.hermes'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
      timeout: 120000,
    });
  } finally { rmSync(scratch, { recursive: true, force: true }); }
}

test('the extractor takes only blocks marked runnable', () => {
  const text = [
    '```sh runnable', 'echo one', '```',
    '```sh', 'echo not-marked', '```',
    '- item', '  ~~~~bash  runnable', '  echo two \\', '    three', '  ~~~~',
    '```json runnable', '{}', '```',
    '````sh runnable', '```', 'echo four', '````',
  ].join('\n');
  assert.deepEqual(runnableBlocks(text), [
    { line: 1, script: 'echo one' },
    { line: 8, script: 'echo two \\\n  three' },
    { line: 15, script: '```\necho four' },
  ]);
});

const found = markdownFiles().flatMap((file) =>
  runnableBlocks(readFileSync(file, 'utf8')).map((b) => ({ ...b, file: path.relative(repo, file) })));

test('README.md and docs/ have runnable blocks', () => {
  assert.ok(found.length >= 5, `only ${found.length} runnable blocks found`);
});

for (const block of found) {
  test(`${block.file}:${block.line} runs as written`, () => {
    const run = runScript(block.script);
    assert.equal(run.error, undefined, String(run.error));
    assert.equal(run.status, 0,
      `exit ${run.status} (signal ${run.signal})\n--- script\n${block.script}\n` +
      `--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`);
  });
}
