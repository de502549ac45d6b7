// SPDX-License-Identifier: MIT
// Backends through the official MCP SDK client: the same tool calls on the
// bubblewrap sandbox and on docker (the test shim, which runs the exec'd
// commands under bubblewrap), with the sandbox's walls probed over MCP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, callTool, scratchDir } from './lib/client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const shimDir = path.resolve(here, '../backend/docker_shim');
const bwrapWorks = spawnSync('bwrap', ['--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', 'true']).status === 0;
const skip = bwrapWorks ? false : 'bubblewrap cannot create a sandbox here';

// Starts hermes-tools with `yaml` as its config.yaml, in `cwd`.
async function connectWith(yaml, cwd, env = {}) {
  const home = scratchDir('hermes-home-');
  writeFileSync(path.join(home.dir, 'config.yaml'), yaml);
  const s = await connect({ cwd, env: { HERMES_HOME: home.dir, ...env } });
  return { ...s, async close() { await s.close(); home.cleanup(); } };
}

// The calls every backend must answer the same way.
async function commonCalls(client, dir) {
  const wrote = await callTool(client, 'write_file', { path: 'notes.txt', content: 'alpha\r\nbeta\r\n' });
  assert.equal(wrote.isError, false, wrote.text);
  assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'alpha\r\nbeta\r\n');

  const read = await callTool(client, 'read_file', { path: 'notes.txt' });
  assert.equal(read.isError, false, read.text);
  assert.match(read.json.content, /1\|alpha/);

  const patched = await callTool(client, 'patch', { path: 'notes.txt', old_string: 'beta', new_string: 'gamma' });
  assert.equal(patched.isError, false, patched.text);
  assert.equal(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'alpha\r\ngamma\r\n');

  const found = await callTool(client, 'search_files', { pattern: 'gamma' });
  assert.equal(found.isError, false, found.text);
  assert.equal(found.json.total_count, 1);

  const cd = await callTool(client, 'terminal', { command: 'mkdir -p sub && cd sub && export KEEP=1' });
  assert.equal(cd.json.exit_code, 0, cd.text);
  assert.equal(cd.json.cwd, path.join(dir, 'sub'));
  const pwd = await callTool(client, 'terminal', { command: 'pwd; echo $KEEP' });
  assert.equal(pwd.json.output, `${path.join(dir, 'sub')}\n1`);

  const script = await callTool(client, 'execute_code', {
    code: 'from hermes_tools import read_file\nprint(read_file("../notes.txt")["content"].splitlines()[1])',
  });
  assert.equal(script.isError, false, script.text);
  assert.equal(script.json.status, 'success');
  assert.equal(script.json.output.trim(), '2|gamma');
}

test('sandbox: the tools work inside, writes outside and the network fail', { skip }, async () => {
  const work = scratchDir();
  const dir = realpathSync(work.dir);
  const s = await connectWith('terminal:\n  backend: sandbox\n', dir);
  const listener = createServer((c) => { connected = true; c.destroy(); });
  let connected = false;
  await new Promise((r) => listener.listen(0, '127.0.0.1', r));
  try {
    await commonCalls(s.client, dir);

    const outside = '/opt/hermes-e2e-sandbox-probe.txt';
    const denied = await callTool(s.client, 'write_file', { path: outside, content: 'x' });
    assert.equal(denied.isError, true, denied.text);
    assert.match(denied.json.error, /Read-only file system/);
    assert.equal(existsSync(outside), false);

    const etc = await callTool(s.client, 'terminal', { command: 'touch /opt/hermes-e2e-probe' });
    assert.notEqual(etc.json.exit_code, 0);
    assert.match(etc.json.output, /Read-only file system/);

    const port = listener.address().port;
    const net = await callTool(s.client, 'terminal', { command: `echo hi > /dev/tcp/127.0.0.1/${port}` });
    assert.notEqual(net.json.exit_code, 0, net.text);
    assert.equal(connected, false);
  } finally {
    listener.close();
    await s.close();
    work.cleanup();
  }
});

test('docker (test shim): one container per session, removed at the end', { skip }, async () => {
  const work = scratchDir();
  const dir = realpathSync(work.dir);
  const state = scratchDir('hermes-shim-');
  const yaml = `terminal:\n  backend: docker\n  cwd: ${dir}\n  docker_volumes:\n    - ${dir}:${dir}\n`;
  const s = await connectWith(yaml, dir, {
    PATH: `${shimDir}:${process.env.PATH}`, HERMES_DOCKER_SHIM_STATE: state.dir,
  });
  try {
    await commonCalls(s.client, dir);
    const calls = readFileSync(path.join(state.dir, 'calls'), 'utf8').split('\n');
    assert.equal(calls.filter((c) => c.startsWith('run ')).length, 1);
    assert.ok(calls.some((c) => c.startsWith('exec ')));
  } finally {
    await s.close();
    const calls = readFileSync(path.join(state.dir, 'calls'), 'utf8');
    assert.match(calls, /^rm -f /m);
    work.cleanup();
    state.cleanup();
  }
});

test('ssh to a host that refuses: a clear error at startup and from every tool, no hang', async () => {
  const work = scratchDir();
  const yaml = 'terminal:\n  backend: ssh\n  ssh_host: 127.0.0.1\n  ssh_port: 1\n  ssh_user: nobody\n';
  const s = await connectWith(yaml, work.dir, { TMPDIR: work.dir });
  try {
    for (const [tool, args] of [['terminal', { command: 'true' }], ['read_file', { path: 'x' }],
      ['write_file', { path: 'x', content: 'y' }], ['search_files', { pattern: 'x' }]]) {
      const r = await callTool(s.client, tool, args);
      assert.equal(r.isError, true, `${tool}: ${r.text}`);
      assert.match(r.text, /cannot connect to nobody@127\.0\.0\.1:1/, `${tool}: ${r.text}`);
    }
    assert.match(s.stderr(), /SSH backend: cannot connect to nobody@127\.0\.0\.1:1/);
  } finally {
    await s.close();
    work.cleanup();
  }
});
