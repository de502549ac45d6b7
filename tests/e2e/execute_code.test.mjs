// SPDX-License-Identifier: MIT
// execute_code through the official MCP SDK client: the per-session
// description, a script that writes, patches, reads and runs terminal and
// prints only a summary, cancellation interrupting the script, and the
// session's end killing its whole process tree (a double-forked daemon
// included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, scratchDir, alive, waitDead } from './lib/client.mjs';

// Waits until `file` exists and returns its content (polling a condition,
// not sleeping a fixed time).
async function waitForFile(file, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.endsWith('\n')) return text.trim();
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} did not appear`);
}

// A script that starts a daemon escaping its process group, records the
// daemon's pid, then blocks.
function daemonScript(pidFile) {
  return [
    'import os, time',
    'if os.fork() == 0:',
    '    os.setsid()',
    '    if os.fork() == 0:',
    `        open(${JSON.stringify(pidFile)}, "w").write(f"{os.getpid()}\\n")`,
    '        time.sleep(300)',
    '    os._exit(0)',
    'time.sleep(300)',
  ].join('\n');
}

test('description lists the tools scripts can call', async () => {
  const s = await connect();
  try {
    const { tools } = await s.client.listTools();
    const tool = tools.find((t) => t.name === 'execute_code');
    assert.ok(tool, 'execute_code is listed');
    assert.deepEqual(tool.inputSchema.required, ['code']);
    assert.match(tool.description, /read_file\(path: str, offset: int = 1, limit: int = 2000\) -> dict/);
    assert.match(tool.description, /terminal\(command: str/);
    assert.match(tool.description, /5-minute timeout, 50KB stdout cap, max 50 tool calls per script/);
  } finally { await s.close(); }
});

test('a script edits files and runs terminal, printing only a summary', async () => {
  const work = scratchDir();
  writeFileSync(path.join(work.dir, 'app.py'), 'def old_api_call():\n    return 1\n');
  const s = await connect({ cwd: work.dir });
  try {
    const code = [
      'from hermes_tools import read_file, write_file, patch, terminal',
      'write_file("notes.txt", "one\\ntwo\\nthree\\n")',
      'read_file("app.py")',
      'p = patch(path="app.py", old_string="old_api_call", new_string="new_api_call")',
      'lines = read_file("notes.txt")["total_lines"]',
      'count = terminal("grep -c new_api_call app.py")["output"].strip()',
      'print(f"lines={lines} patched={\'error\' not in p} count={count}")',
    ].join('\n');
    const r = await callTool(s.client, 'execute_code', { code });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.json.status, 'success');
    assert.equal(r.json.output, 'lines=3 patched=True count=1\n');
    assert.equal(r.json.tool_calls_made, 5);
    assert.match(readFileSync(path.join(work.dir, 'app.py'), 'utf8'), /new_api_call/);
  } finally { await s.close(); work.cleanup(); }
});

test('a failing script is an error result', async () => {
  const s = await connect();
  try {
    const r = await callTool(s.client, 'execute_code', { code: 'raise SystemExit(4)' });
    assert.equal(r.isError, true);
    assert.equal(r.json.status, 'error');
    assert.equal(r.json.error, 'Script exited with code 4');
  } finally { await s.close(); }
});

// The kernel (docs/tools/execute_code.md) takes SIGINT: the cell stops, its
// state and the daemon it started in a session of its own stay until the
// session ends.
test('cancelling the call interrupts the cell; the session end kills its daemon', async () => {
  const d = scratchDir();
  const s = await connect();
  let pid = 0;
  try {
    const pidFile = path.join(d.dir, 'daemon.pid');
    const controller = new AbortController();
    const call = callTool(s.client, 'execute_code', { code: 'y = 2\n' + daemonScript(pidFile) },
      { signal: controller.signal, timeout: 60000 });
    pid = Number(await waitForFile(pidFile));
    assert.ok(alive(pid));
    controller.abort('test cancels');
    await assert.rejects(call);
    const again = await callTool(s.client, 'execute_code', { code: 'print("still serving", y)' });
    assert.equal(again.json.output, 'still serving 2\n');
    assert.ok(alive(pid), 'the daemon belongs to the kernel until the session ends');
  } finally { await s.close(); d.cleanup(); }
  assert.ok(await waitDead(pid), 'the daemon outlived the session');
});

test('closing the connection kills a running script tree', async () => {
  const d = scratchDir();
  const s = await connect();
  const pidFile = path.join(d.dir, 'daemon.pid');
  const call = callTool(s.client, 'execute_code', { code: daemonScript(pidFile) },
    { timeout: 60000 }).catch(() => null);
  try {
    const pid = Number(await waitForFile(pidFile));
    await s.close();
    await call;
    assert.ok(await waitDead(pid), 'the daemon outlived the session');
  } finally { d.cleanup(); }
});
