// SPDX-License-Identifier: MIT
// The HTTP status matrix of `hermes-tools serve` over real sockets: limits
// (413 with and without Content-Length, 431), guards, tokens (401 with its
// challenge, no protected-resource metadata), slow clients dropped, the
// session cap, idle expiry ending a session's background processes, reads
// answered beside a long call, writes of one file from every loop at once,
// and a thousand idle sessions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { BIN, scratchDir } from './lib/client.mjs';
import { serve, post, ACCEPT, legacySession, replyText } from './lib/serve.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT };
const init = (id = 1) => ({ jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'm', version: '1' } } });

// Sends raw bytes on one connection; resolves to what came back before close
// (or after `ms`).
function raw(port, bytes, ms = 5000) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => { socket.destroy(); resolve(data); }, ms);
    socket.on('data', (d) => { data += d.toString(); });
    socket.on('close', () => { clearTimeout(timer); resolve(data); });
    socket.on('error', () => {});
    socket.write(bytes);
  });
}
const statusOf = (text) => Number((text.match(/^HTTP\/1\.1 (\d+)/) ?? [])[1]);

test('limits: 413 with and without Content-Length, 431 for a huge header block', async () => {
  const server = await serve(['--max-body', '1KiB', '--max-header', '2KiB']);
  try {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(4096) } });
    const r = await post(server.url, big, JSON_HEADERS);
    assert.equal(r.status, 413);
    const chunked = await raw(server.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT}\r\n` +
      `Transfer-Encoding: chunked\r\n\r\n${(4096).toString(16)}\r\n${'x'.repeat(4096)}\r\n0\r\n\r\n`);
    assert.equal(statusOf(chunked), 413);
    const header = await raw(server.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'y'.repeat(4096)}\r\n\r\n`);
    assert.equal(statusOf(header), 431);
  } finally {
    await server.stop();
  }
});

test('guards: DNS rebinding refused, loopback accepted, healthz, 405 and 406', async () => {
  const server = await serve();
  try {
    const evil = await raw(server.port,
      'POST /mcp HTTP/1.1\r\nHost: evil.example.com\r\nOrigin: http://evil.example.com\r\n' +
      `Content-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    assert.equal(statusOf(evil), 403);
    assert.doesNotMatch(evil, /"id"/);
    const origin = await post(server.url, init(), { ...JSON_HEADERS, origin: 'http://evil.example.com' });
    assert.equal(origin.status, 403);
    const ok = await post(server.url, init(), { ...JSON_HEADERS, origin: `http://127.0.0.1:${server.port}` });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('mcp-session-id'), /^[\x21-\x7e]+$/);
    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    assert.equal(await health.text(), 'ok');
    const put = await fetch(server.url, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE');
    const get = await fetch(server.url, { headers: { accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    const noAccept = await post(server.url, init(), { 'content-type': 'application/json', accept: 'text/html' });
    assert.equal(noAccept.status, 406);
    const text = await post(server.url, init(), { 'content-type': 'text/plain', accept: ACCEPT });
    assert.equal(text.status, 415);
  } finally {
    await server.stop();
  }
});

test('tokens: 401 with WWW-Authenticate, principals own their sessions, no PRM', async () => {
  const scratch = scratchDir();
  const tokens = path.join(scratch.dir, 'tokens');
  writeFileSync(tokens, 'alice:alice-secret\nbob:bob-secret\n');
  const server = await serve(['--token-file', tokens]);
  try {
    const none = await post(server.url, init(), JSON_HEADERS);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="hermes-tools"');
    const wrong = await post(server.url, init(), { ...JSON_HEADERS, authorization: 'Bearer nope' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate'), /error="invalid_token"/);
    const alice = await post(server.url, init(), { ...JSON_HEADERS, authorization: 'Bearer alice-secret' });
    assert.equal(alice.status, 200);
    const sid = alice.headers.get('mcp-session-id');
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const asBob = await post(server.url, list, { ...JSON_HEADERS, authorization: 'Bearer bob-secret', 'mcp-session-id': sid });
    assert.equal(asBob.status, 404);
    const asAlice = await post(server.url, list, { ...JSON_HEADERS, authorization: 'Bearer alice-secret', 'mcp-session-id': sid });
    assert.equal(asAlice.status, 200);
    const prm = await fetch(`http://127.0.0.1:${server.port}/.well-known/oauth-protected-resource`);
    assert.equal(prm.status, 404);
  } finally {
    await server.stop();
    scratch.cleanup();
  }
});

test('a non-loopback bind needs tokens, a wildcard bind needs --allow-host; --io-threads is bounded', () => {
  const run = (args) => spawnSync(BIN, ['serve', ...args], { encoding: 'utf8', timeout: 20000 });
  const open = run(['--listen', '0.0.0.0:0', '--allow-host', 'tools.example']);
  assert.equal(open.status, 2);
  assert.match(open.stderr, /without authentication/);
  const wildcard = run(['--listen', '0.0.0.0:0', '--allow-unauthenticated']);
  assert.equal(wildcard.status, 2);
  assert.match(wildcard.stderr, /--allow-host/);
  const loops = run(['--listen', '127.0.0.1:0', '--io-threads', '65']);
  assert.equal(loops.status, 2);
  assert.match(loops.stderr, /--io-threads/);
});

test('a client that never finishes its header is dropped', async () => {
  const server = await serve();
  try {
    const started = Date.now();
    const got = await raw(server.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', 30000);
    assert.equal(got, '');
    assert.ok(Date.now() - started < 29000, 'closed by the server, not by the test timeout');
  } finally {
    await server.stop();
  }
});

test('session cap 503, idle expiry ends the session and its background processes', async () => {
  const scratch = scratchDir();
  const server = await serve(['--max-sessions', '2', '--session-idle', '1s']);
  try {
    const first = await post(server.url, init(), JSON_HEADERS);
    const sid = first.headers.get('mcp-session-id');
    const h = { ...JSON_HEADERS, 'mcp-session-id': sid };
    const marker = path.join(scratch.dir, 'bg-pid');
    const started = await post(server.url, { jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'terminal', arguments: { command: `echo $$ > ${marker}; sleep 60`, background: true } } }, h);
    assert.equal(started.status, 200);
    await post(server.url, init(), JSON_HEADERS);
    const full = await post(server.url, init(), JSON_HEADERS);
    assert.equal(full.status, 503);
    assert.ok(full.headers.get('retry-after'));
    let pid = 0;
    for (let i = 0; i < 100 && !pid; i++) {
      try { pid = Number((await import('node:fs')).readFileSync(marker, 'utf8')); } catch { await sleep(50); }
    }
    assert.ok(pid > 0, 'the background command started');
    const until = Date.now() + 15000;
    let gone = false;
    while (Date.now() < until && !gone) {
      try { process.kill(pid, 0); await sleep(100); } catch { gone = true; }
    }
    assert.ok(gone, 'idle expiry killed the background process');
    const after = await post(server.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, h);
    assert.equal(after.status, 404);
  } finally {
    await server.stop();
    scratch.cleanup();
  }
});

// Sixteen one-line files in `dir`.
function sixteenFiles(dir) {
  return Array.from({ length: 16 }, (_, i) => {
    const file = path.join(dir, `f${i}.txt`);
    writeFileSync(file, `line of file ${i}\n`);
    return file;
  });
}

// Reads every file at once (fetch spreads the requests over connections, so
// over every I/O loop); each must come back with its own line.
async function readEach(call, files) {
  const reads = await Promise.all(files.map((file, i) => call(10 + i, 'read_file', { path: file })));
  reads.forEach((r, i) => {
    assert.equal(r.status, 200);
    assert.ok(replyText(r).includes(`line of file ${i}`), replyText(r));
  });
}

for (const loops of [[], ['--io-threads', '1']]) {
  test(`reads on other connections are answered while a terminal call runs; a doubled DELETE ends the session once ${loops.join(' ')}`, async () => {
    const scratch = scratchDir();
    const server = await serve(loops);
    try {
      const { headers: h, call } = await legacySession(server);
      const files = sixteenFiles(scratch.dir);
      const started = Date.now();
      const slow = call(2, 'terminal', { command: 'sleep 2; echo slept' });
      await sleep(200);
      await readEach(call, files);
      const readsTook = Date.now() - started;
      assert.ok(readsTook < 1800, `the reads waited for the terminal call: ${readsTook} ms`);
      const done = await slow;
      assert.ok(replyText(done).includes('slept'), replyText(done));
      assert.ok(Date.now() - started >= 2000);
      const del = () => fetch(server.url, { method: 'DELETE', headers: h }).then((r) => r.status);
      const statuses = await Promise.all([del(), del()]);
      assert.deepEqual(statuses.sort(), [200, 404]);
    } finally {
      await server.stop();
      scratch.cleanup();
    }
  });
}

// A write that a linter process checks, and a read that pdftotext serves
// (through a link without an extension), wait on a child: they must not
// hold an I/O loop while it runs. The fake linter and pdftotext take 2 s.
test('writes checked by a linter and PDF reads do not hold an I/O loop', async () => {
  const scratch = scratchDir();
  const bin = path.join(scratch.dir, 'bin');
  mkdirSync(bin);
  for (const [name, body] of [['python3', 'cat > /dev/null; sleep 2'], ['pdftotext', 'sleep 2; echo text of the pdf']]) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, name), 0o755);
  }
  writeFileSync(path.join(scratch.dir, 'paper.pdf'), '%PDF-1.4\n');
  symlinkSync(path.join(scratch.dir, 'paper.pdf'), path.join(scratch.dir, 'notes'));
  const server = await serve([], { env: { PATH: `${bin}:${process.env.PATH}` } });
  try {
    const { headers: h, call } = await legacySession(server);
    const files = sixteenFiles(scratch.dir);
    const started = Date.now();
    const slow = [
      call(2, 'write_file', { path: path.join(scratch.dir, 'tool.py'), content: 'x = 1\n' }),
      call(3, 'read_file', { path: path.join(scratch.dir, 'notes') }),
    ];
    await sleep(300);
    await readEach(call, files);
    const readsTook = Date.now() - started;
    assert.ok(readsTook < 1700, `the reads waited for a linter or pdftotext: ${readsTook} ms`);
    const [written, pdf] = await Promise.all(slow);
    assert.ok(replyText(written).includes('"bytes_written":6'), replyText(written));
    assert.ok(replyText(pdf).includes('text of the pdf'), replyText(pdf));
    assert.ok(Date.now() - started >= 2000);
  } finally {
    await server.stop();
    scratch.cleanup();
  }
});

// A python process that locks the whole per-user lock file of a server run
// with XDG_RUNTIME_DIR=`dir` and never lets go; `held` resolves once it does.
function holdLockFile(dir) {
  const holder = spawn('python3', ['-c',
    'import fcntl, sys, time\n' +
    'f = open(sys.argv[1], "a+"); fcntl.lockf(f, fcntl.LOCK_EX); print("held", flush=True); time.sleep(120)',
    path.join(dir, 'hermes-tools.locks')], { stdio: ['ignore', 'pipe', 'inherit'] });
  holder.held = new Promise((resolve) => holder.stdout.once('data', resolve));
  return holder;
}

// Runs `body` against a server whose per-user lock file a python process
// holds until the end (each write waits for it).
async function withLockHeld(body) {
  const scratch = scratchDir();
  const holder = holdLockFile(scratch.dir);
  const server = await serve([], { env: { XDG_RUNTIME_DIR: scratch.dir } });
  try {
    await holder.held;
    const { call } = await legacySession(server);
    await body({ dir: scratch.dir, server, holder, call });
  } finally {
    holder.kill('SIGKILL');
    await server.stop();
    scratch.cleanup();
  }
}

// A write whose file's lock another process holds waits for it on a worker,
// not on an I/O loop: reads on other connections go on meanwhile.
test('a write waiting for a held lock does not hold an I/O loop', () =>
  withLockHeld(async ({ dir, holder, call }) => {
    const files = sixteenFiles(dir);
    const target = path.join(dir, 'waits.txt');
    const write = call(2, 'write_file', { path: target, content: 'x' });
    await sleep(300);
    const started = Date.now();
    await readEach(call, files);
    const readsTook = Date.now() - started;
    assert.ok(readsTook < 1700, `the reads waited for the write's lock: ${readsTook} ms`);
    assert.equal(existsSync(target), false, 'the write is still waiting');
    holder.kill('SIGKILL');
    const written = await write;
    assert.ok(replyText(written).includes('"bytes_written":1'), replyText(written));
  }));

// Any process of the user can lock the per-user lock file and never let go:
// a write waiting for it must not hold the shutdown (nor the call) forever.
test('SIGTERM ends the server promptly while a write waits on a lock held forever', () =>
  withLockHeld(async ({ dir, server, call }) => {
    const target = path.join(dir, 'never.txt');
    let answered = false;
    const write = call(2, 'write_file', { path: target, content: 'x' })
      .then(() => { answered = true; }, () => { answered = true; });
    await sleep(500);
    assert.equal(answered, false, 'the write waits for the lock');
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    const start = Date.now();
    server.child.kill('SIGTERM');
    await exited;
    assert.ok(Date.now() - start < 5000, `shutdown took ${Date.now() - start} ms`);
    await write;
    assert.equal(existsSync(target), false, 'nothing was written');
  }));

// Writers of one file from every I/O loop at once: each brief check either
// takes the file's lock and keeps it for its call, or leaves the call to a
// worker that waits for it; no call waits on the lock its own check took.
test('concurrent writes of one file from every I/O loop all land', async () => {
  const scratch = scratchDir();
  const server = await serve(['--io-threads', '2'], { env: { XDG_RUNTIME_DIR: scratch.dir } });
  try {
    const { call } = await legacySession(server);
    const target = path.join(scratch.dir, 'shared.txt');
    const started = Date.now();
    // 24: below the 32 calls a principal may have in flight.
    const replies = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      call(100 + i, 'write_file', { path: target, content: `writer ${i}\n` })));
    const took = Date.now() - started;
    for (const reply of replies) {
      assert.equal(reply.status, 200);
      assert.ok(replyText(reply).includes('"bytes_written"'), JSON.stringify(reply.messages));
    }
    assert.match(readFileSync(target, 'utf8'), /^writer \d+\n$/);
    assert.ok(took < 10000, `24 writes took ${took} ms`);
  } finally {
    await server.stop();
    scratch.cleanup();
  }
});

test('a thousand idle legacy sessions', async () => {
  const server = await serve(['--max-sessions', '1000']);
  try {
    const ids = new Set();
    for (let batch = 0; batch < 20; batch++) {
      const replies = await Promise.all(Array.from({ length: 50 }, (_, i) =>
        post(server.url, init(batch * 50 + i), JSON_HEADERS)));
      for (const r of replies) {
        assert.equal(r.status, 200);
        ids.add(r.headers.get('mcp-session-id'));
      }
    }
    assert.equal(ids.size, 1000);
    assert.equal((await post(server.url, init(), JSON_HEADERS)).status, 503);
    const last = [...ids].at(-1);
    const ping = await post(server.url, { jsonrpc: '2.0', id: 7, method: 'ping' }, { ...JSON_HEADERS, 'mcp-session-id': last });
    assert.equal(ping.status, 200);
  } finally {
    await server.stop();
  }
});
