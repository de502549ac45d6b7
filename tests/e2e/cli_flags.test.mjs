// SPDX-License-Identifier: MIT
// The command line as a person meets it: configuration
// fails closed, `--root` holds from the first call, and every refusal names
// what was wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { BIN, connect, callTool, scratchDir } from './lib/client.mjs';
import { serve } from './lib/serve.mjs';

// Runs `hermes-tools ...argv` to its end in a fresh HERMES_HOME.
function run(argv, { cwd, env = {}, config } = {}) {
  const home = scratchDir('hermes-home-');
  try {
    if (config) writeFileSync(path.join(home.dir, 'config.yaml'), config);
    const out = spawnSync(BIN, argv, {
      cwd, env: { ...process.env, HERMES_HOME: home.dir, ...env }, encoding: 'utf8', timeout: 60000,
    });
    return { status: out.status, stdout: out.stdout, stderr: out.stderr };
  } finally { home.cleanup(); }
}

const TOOLSETS = ['all', 'code', 'file', 'task', 'terminal', 'web'];

test('an unknown toolset exits 2, names the word and the valid names, enables nothing', () => {
  const flag = run(['--toolsets', 'flie', 'tools']);
  assert.equal(flag.status, 2, flag.stderr);
  assert.equal(flag.stdout, '', 'no tool is listed');
  assert.match(flag.stderr, /unknown toolset 'flie'/);
  for (const name of TOOLSETS) assert.ok(flag.stderr.includes(name), `${name} in ${flag.stderr}`);
  const mixed = run(['--toolsets', 'file,flie', 'call', 'terminal', '{"command":"echo ran"}']);
  assert.equal(mixed.status, 2, mixed.stderr);
  assert.doesNotMatch(mixed.stdout, /ran/);
  const config = run(['tools'], { config: 'toolsets: [flie]\n' });
  assert.equal(config.status, 2, config.stderr);
  assert.match(config.stderr, /toolsets.*unknown toolset 'flie'/);
});

test('--help lists every toolset and all', () => {
  const help = run(['--help']);
  assert.equal(help.status, 0);
  const line = help.stdout.split('\n').find((l) => l.includes('--toolsets'));
  for (const name of TOOLSETS) assert.match(line, new RegExp(`\\b${name}\\b`), line);
});

test('a tool outside --toolsets is "not enabled", an unknown one "unknown"', async () => {
  const off = run(['--toolsets', 'file', 'call', 'terminal', '{"command":"echo ran"}']);
  assert.equal(off.status, 2);
  assert.match(off.stderr, /Tool 'terminal' is not enabled \(--toolsets file; it is in toolset 'terminal'\)/);
  const unknown = run(['call', 'frobnicate', '{}']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Unknown tool: frobnicate/);
  const s = await connect({ args: ['--toolsets', 'file,task'] });
  try {
    await assert.rejects(callTool(s.client, 'execute_code', { code: 'print(1)' }),
      /Tool 'execute_code' is not enabled \(--toolsets file,task; it is in toolset 'code'\)/);
    await assert.rejects(callTool(s.client, 'frobnicate', {}), /Unknown tool: frobnicate/);
  } finally { await s.close(); }
});

test('--root: relative paths resolve in the root from the first call', () => {
  const scratch = scratchDir();
  try {
    const proj = path.join(scratch.dir, 'proj');
    mkdirSync(path.join(proj, 'calc'), { recursive: true });
    writeFileSync(path.join(proj, 'calc', 'ops.py'), 'def add(a, b):\n    return a + b\n');
    const opts = { cwd: scratch.dir };
    const read = run(['--root', proj, 'call', 'read_file', '{"path":"calc/ops.py"}'], opts);
    assert.equal(read.status, 0, read.stdout + read.stderr);
    assert.match(JSON.parse(read.stdout).content, /return a \+ b/);
    const search = run(['--root', proj, 'call', 'search_files',
      '{"pattern":"return","path":"calc"}'], opts);
    assert.equal(search.status, 0, search.stdout + search.stderr);
    assert.equal(JSON.parse(search.stdout).total_count, 1, search.stdout);
    const write = run(['--root', proj, 'call', 'write_file',
      '{"path":"calc/new.py","content":"x = 1\\n"}'], opts);
    assert.equal(write.status, 0, write.stdout + write.stderr);
    assert.ok(existsSync(path.join(proj, 'calc', 'new.py')));
    assert.ok(!existsSync(path.join(scratch.dir, 'calc')), 'nothing lands beside the root');
  } finally { scratch.cleanup(); }
});

test('a bad word on the command line is named', () => {
  const option = run(['--bogus']);
  assert.equal(option.status, 2);
  assert.match(option.stderr, /unknown option '--bogus'/);
  const command = run(['frob']);
  assert.equal(command.status, 2);
  assert.match(command.stderr, /unknown subcommand 'frob' \(subcommands: mcp, serve, call, tools/);
  const era = run(['serve', '--eras', 'legacy,new']);
  assert.equal(era.status, 2);
  assert.match(era.stderr, /--eras: unknown era 'new' \(name legacy, modern or both\)/);
});

test('serve --eras both is what its refusal offers', async () => {
  const server = await serve(['--eras', 'both']);
  try {
    assert.match(server.stderr(), /MCP server .* on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  } finally { await server.stop(); }
});

test('a warning banner says its level once', () => {
  const out = run(['tools'], { env: { HERMES_TOOLS_TEST_ALLOW_HOSTS: '127.0.0.1:9' } });
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stderr, /hermes-tools: warning: test loopback allowlist active/);
  assert.doesNotMatch(out.stderr, /warning: WARNING/i);
});

test('call says a background job ends with the CLI process', () => {
  const out = run(['call', 'terminal', '{"command":"sleep 30","background":true}']);
  assert.equal(out.status, 0, out.stdout + out.stderr);
  const json = JSON.parse(out.stdout);
  assert.match(json._hint ?? '', /ends when this hermes-tools call process exits/, out.stdout);
  const foreground = run(['call', 'terminal', '{"command":"echo hi"}']);
  assert.equal(JSON.parse(foreground.stdout)._hint, undefined);
});
