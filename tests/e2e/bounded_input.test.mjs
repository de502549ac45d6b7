// SPDX-License-Identifier: MIT
// Hostile input over MCP, as an agent on a hostile repository would send it:
// numbers and nesting no parser should take, arguments of the wrong type or
// none at all, a directory where a file belongs, and the server's own files
// pointed at a FIFO, an endless device or a huge sparse file. Each gets a
// clear error at once; the server keeps answering and loses nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, ftruncateSync, statSync } from 'node:fs';
import path from 'node:path';
import { connect, callTool, rawServer, scratchDir, INIT } from './lib/client.mjs';

function mkfifo(file) {
  execFileSync('mkfifo', [file]);
}

// The server is alive and in order: a ping gets its answer.
async function assertAnswers(r, id) {
  r.send({ jsonrpc: '2.0', id, method: 'ping' });
  const pong = await r.next();
  assert.equal(pong.id, id);
  assert.deepEqual(pong.result, {});
}

test('id 1e400 is a parse error, not an exit', async () => {
  const r = rawServer();
  try {
    r.send(INIT);
    assert.equal((await r.next()).id, 0);
    r.send('{"jsonrpc":"2.0","id":1e400,"method":"ping"}');
    const err = await r.next();
    assert.equal(err.error.code, -32700);
    assert.ok(err.id === undefined || err.id === null, 'no request id can be known');
    await assertAnswers(r, 1);
  } finally { await r.close(); }
});

test('100,000 levels of nesting are a parse error; the server survives and answers', async () => {
  const r = rawServer();
  try {
    r.send(INIT);
    assert.equal((await r.next()).id, 0);
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":${deep}}}}`);
    const err = await r.next();
    assert.equal(err.error.code, -32700);
    assert.match(err.error.message, /nesting/);
    r.send('{"a":'.repeat(100000) + '1' + '}'.repeat(100000));
    assert.equal((await r.next()).error.code, -32700);
    await assertAnswers(r, 2);
    assert.equal(r.child.exitCode, null, 'the server is still running');
  } finally { await r.close(); }
});

test('search_files {} asks for a pattern instead of searching everything', async () => {
  const s = await connect();
  try {
    const out = await callTool(s.client, 'search_files', {});
    assert.equal(out.isError, true);
    assert.match(out.json.error, /^search_files: 'pattern' is required/);
    assert.equal(out.json.total_count, undefined);
  } finally { await s.close(); }
});

test('wrong-typed arguments say which type is wanted', async () => {
  const s = await connect();
  try {
    const read = await callTool(s.client, 'read_file', { path: 5 });
    assert.equal(read.isError, true);
    assert.equal(read.json.error, "read_file: 'path' must be a string, got int.");
    const search = await callTool(s.client, 'search_files', { pattern: ['x'] });
    assert.equal(search.json.error, "search_files: 'pattern' must be a string, got list.");
    const patch = await callTool(s.client, 'patch', { path: 'a', old_string: 'a', new_string: 'b', replace_all: 'yes' });
    assert.equal(patch.json.error, "patch: 'replace_all' must be a boolean, got str.");
  } finally { await s.close(); }
});

test('write_file on dir/ or an existing directory refuses and creates nothing', async () => {
  const d = scratchDir();
  const s = await connect();
  try {
    const slash = await callTool(s.client, 'write_file', { path: path.join(d.dir, 'dir') + '/', content: 'x' });
    assert.equal(slash.isError, true);
    assert.match(slash.json.error, /ends with '\/'/);
    assert.equal(existsSync(path.join(d.dir, 'dir')), false, 'no file named dir');
    mkdirSync(path.join(d.dir, 'sub'));
    const existing = await callTool(s.client, 'write_file', { path: path.join(d.dir, 'sub'), content: 'x' });
    assert.equal(existing.isError, true);
    assert.match(existing.json.error, /it is a directory/);
    assert.ok(statSync(path.join(d.dir, 'sub')).isDirectory());
  } finally { await s.close(); d.cleanup(); }
});

test('hermes_models with its cache on a FIFO or /dev/zero answers at once from the capability map', async () => {
  const home = scratchDir('hermes-home-');
  mkfifo(path.join(home.dir, 'provider_models_cache.json'));
  mkfifo(path.join(home.dir, 'auth.json'));
  const s = await connect({ args: ['--toolsets', 'task'], env: { HERMES_HOME: home.dir } });
  try {
    for (const args of [{}, { models_cache_path: '/dev/zero' }, { models_cache_path: home.dir }]) {
      const started = Date.now();
      const out = await callTool(s.client, 'hermes_models', args, { timeout: 10000 });
      assert.ok(Date.now() - started < 3000, `answered in ${Date.now() - started} ms`);
      assert.equal(out.isError, false, out.text);
      assert.equal(out.json.source, 'capability-map');
      assert.match(out.json.cache_error, /not a regular file/);
    }
  } finally { await s.close(); home.cleanup(); }
});

test('patch on a 2 GiB sparse file and read_file on a FIFO refuse at once', async () => {
  const d = scratchDir();
  const huge = path.join(d.dir, 'huge.txt');
  const fd = openSync(huge, 'w');
  ftruncateSync(fd, 2 * 1024 ** 3);
  closeSync(fd);
  const fifo = path.join(d.dir, 'pipe');
  mkfifo(fifo);
  const s = await connect();
  try {
    let started = Date.now();
    const patch = await callTool(s.client, 'patch', { path: huge, old_string: 'a', new_string: 'b' });
    assert.ok(Date.now() - started < 3000, `patch answered in ${Date.now() - started} ms`);
    assert.equal(patch.isError, true);
    assert.match(patch.json.error, /over the 64 MiB limit/);
    started = Date.now();
    const read = await callTool(s.client, 'read_file', { path: fifo });
    assert.ok(Date.now() - started < 3000, `read_file answered in ${Date.now() - started} ms`);
    assert.equal(read.isError, true);
    assert.match(read.json.note, /is a FIFO \(named pipe\), not a regular file/);
    const write = await callTool(s.client, 'write_file', { path: fifo, content: 'x' });
    assert.equal(write.isError, true);
    assert.ok(statSync(fifo).isFIFO(), 'the FIFO is still there');
  } finally { await s.close(); d.cleanup(); }
});

test('config.yaml on a FIFO does not hold up the server', async () => {
  const home = scratchDir('hermes-home-');
  mkfifo(path.join(home.dir, 'config.yaml'));
  const started = Date.now();
  const s = await connect({ env: { HERMES_HOME: home.dir } });
  try {
    assert.ok(Date.now() - started < 5000, `connected in ${Date.now() - started} ms`);
    const { tools } = await s.client.listTools();
    assert.ok(tools.some((t) => t.name === 'read_file'));
  } finally { await s.close(); home.cleanup(); }
});
