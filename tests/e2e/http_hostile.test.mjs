// SPDX-License-Identifier: MIT
// `hermes-tools serve` under a hostile network client, each attack
// against the real binary on loopback (or in a network namespace the test
// makes): connections held by the hundred, descriptors run out, huge bodies
// without a token, one principal taking every session, wildcard spellings,
// and the bind address as Host. While an attack runs, a client with a token
// must still be answered within a second.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN, scratchDir } from './lib/client.mjs';
import { serve, post, modernPost, ACCEPT } from './lib/serve.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT };
const TOKEN = 'alice-secret';
const init = (id = 1) => ({ jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } } });
// The attacker comes from another loopback address than the client with a
// token, as it would from another host.
const ATTACKER = '127.0.0.2';

// A token file naming alice and bob; removed by cleanup().
function tokenFile() {
  const scratch = scratchDir();
  const file = path.join(scratch.dir, 'tokens');
  writeFileSync(file, `alice:${TOKEN}\nbob:bob-secret\n`);
  return { file, cleanup: scratch.cleanup };
}

// Opens `count` connections from ATTACKER, each writing `request(i)` (if
// any); resolves, once every one was answered or closed (or after `ms`), to
// {sockets, closed(), destroy()}.
async function attack(port, count, request, ms = 5000) {
  const sockets = [];
  const settled = [];
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: ATTACKER });
    socket.reply = '';
    socket.on('error', () => {});
    settled.push(new Promise((resolve) => {
      socket.on('data', (d) => { socket.reply += d.toString(); resolve(); });
      socket.on('close', () => { socket.gone = true; resolve(); });
      if (!request) socket.on('connect', resolve);
    }));
    if (request) socket.on('connect', () => socket.write(request(i)));
    sockets.push(socket);
  }
  await Promise.race([Promise.all(settled), sleep(ms)]);
  return {
    sockets,
    // Closed by the server, or told so (503) as it closes.
    closed: () => sockets.filter((s) => s.gone || s.reply.startsWith('HTTP/1.1 503')).length,
    destroy: () => sockets.forEach((s) => s.destroy()),
  };
}

// A tools/list with alice's token; its status, or 0 when no answer came
// within a second.
async function legitimateList(server) {
  try {
    const r = await modernPost(server.url, 'tools/list', {},
      { headers: { authorization: `Bearer ${TOKEN}` }, signal: AbortSignal.timeout(1000) });
    return r.status;
  } catch {
    return 0;
  }
}

const HEALTHZ = () => 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const EMPTY_POST = () => 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n';

// CPU time (user + system, seconds) the process has used so far.
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);  // utime, stime
  const hz = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
  return ticks / hz;
}

// The process's peak resident memory so far, in MiB.
function peakMiB(pid) {
  const kib = Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)/)[1]);
  return kib / 1024;
}

test('§1: a peer holding hundreds of token-less connections does not starve a client with a token', async () => {
  const tokens = tokenFile();
  // The common limit scaled down: 300 connections would take every descriptor.
  const server = await serve(['--token-file', tokens.file], { wrap: ['prlimit', '--nofile=256:256', '--'] });
  let held;
  try {
    held = await attack(server.port, 300, (i) => (i % 2 ? HEALTHZ(i) : EMPTY_POST(i)));
    assert.equal(await legitimateList(server), 200, 'tools/list with a token answered within 1 s');
    assert.ok(held.closed() > 0, 'connections over the per-peer cap were closed');
  } finally {
    held?.destroy();
    await server.stop();
    tokens.cleanup();
  }
});

test('§1: a connection no token vouched for is kept alive briefly, one with a token long', async () => {
  const tokens = tokenFile();
  const server = await serve(['--token-file', tokens.file]);
  const open = (request) => new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.once('data', () => resolve(socket));
    socket.write(request);
  });
  let anonymous, vouched;
  try {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init().params });
    [anonymous, vouched] = await Promise.all([
      open(HEALTHZ()),
      open(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n` +
        `Content-Type: application/json\r\nAccept: ${ACCEPT}\r\nContent-Length: ${list.length}\r\n\r\n${list}`),
    ]);
    const closed = await Promise.race([
      new Promise((resolve) => anonymous.on('close', () => resolve(true))),
      sleep(15000).then(() => false),
    ]);
    assert.ok(closed, 'the token-less keep-alive connection was closed well before 60 s');
    assert.equal(vouched.destroyed, false, 'the connection with a token is still open');
  } finally {
    anonymous?.destroy();
    vouched?.destroy();
    await server.stop();
    tokens.cleanup();
  }
});

// Also under the sanitizers: UBSan's vptr check, which once took the server
// down here (it probes memory through a pipe, and a pipe needs descriptors),
// is off in that build (cmake/sanitizers.cmake).
test('§1: out of descriptors, the accept loop does not spin and the server recovers', async () => {
  // Caps above the descriptor limit on purpose: the descriptors run out.
  const server = await serve(['--max-connections', '1000', '--max-connections-per-peer', '1000'],
    { wrap: ['prlimit', '--nofile=64:64', '--'] });
  let held;
  try {
    held = await attack(server.port, 100, null);
    await sleep(500);
    const before = cpuSeconds(server.child.pid);
    await sleep(2000);
    const used = cpuSeconds(server.child.pid) - before;
    assert.ok(used < 0.15, `the idle server used ${used.toFixed(2)} s of CPU in 2 s`);
    assert.ok(held.closed() > 0, 'connections waiting while out of descriptors were closed');
    held.destroy();
    held = null;
    // Recovers: once the held connections are gone (the server sees their
    // ends on its own time, slower under a sanitizer), /healthz answers.
    let answer = '';
    for (const deadline = Date.now() + 10000; answer !== 'ok' && Date.now() < deadline;) {
      await sleep(300);
      answer = await fetch(`http://127.0.0.1:${server.port}/healthz`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.text(), () => '');
    }
    assert.equal(answer, 'ok', 'the server answers again once the descriptors are back');
  } finally {
    held?.destroy();
    await server.stop();
  }
});

test('§2: bodies without a token are refused on their headers, never buffered', async () => {
  const tokens = tokenFile();
  const server = await serve(['--token-file', tokens.file]);
  try {
    await post(server.url, init(), JSON_HEADERS);  // the server as it is when warm
    const before = peakMiB(server.child.pid);
    const size = 15 << 20;
    const chunk = Buffer.alloc(1 << 20, 'x');
    const replies = Promise.all(Array.from({ length: 12 }, () => new Promise((resolve) => {
      const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress: ATTACKER });
      let reply = '';
      socket.on('error', () => {});
      socket.on('data', (d) => { reply += d.toString(); });
      socket.on('close', () => resolve(reply));
      socket.on('connect', async () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Accept: ${ACCEPT}\r\nContent-Length: ${size}\r\n\r\n`);
        for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
          if (!socket.write(chunk)) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
        }
      });
      setTimeout(() => { socket.destroy(); }, 20000);
    })));
    await sleep(200);
    assert.equal(await legitimateList(server), 200, 'tools/list with a token answered within 1 s');
    for (const reply of await replies) assert.match(reply, /^HTTP\/1\.1 401/);
    const grew = peakMiB(server.child.pid) - before;
    assert.ok(grew < 48, `the server's peak memory grew by ${grew.toFixed(0)} MiB`);
  } finally {
    await server.stop();
    tokens.cleanup();
  }
});

test('§4: one principal cannot take every session; its own least recently used ones end', async () => {
  const tokens = tokenFile();
  const server = await serve(['--token-file', tokens.file]);  // --max-sessions 256
  const as = (token) => ({ ...JSON_HEADERS, authorization: `Bearer ${token}` });
  try {
    const ids = [];
    for (let batch = 0; batch < 13; batch++) {
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) =>
        post(server.url, init(batch * 20 + i), as(TOKEN))));
      for (const r of replies) {
        assert.equal(r.status, 200);
        ids.push(r.headers.get('mcp-session-id'));
      }
    }
    const bob = await post(server.url, init(), as('bob-secret'));
    assert.equal(bob.status, 200, 'another principal still gets a session');
    const ping = (sid) => post(server.url, { jsonrpc: '2.0', id: 9, method: 'ping' },
      { ...as(TOKEN), 'mcp-session-id': sid }).then((r) => r.status);
    assert.equal(await ping(ids[0]), 404, 'alice\'s least recently used session ended');
    assert.equal(await ping(ids.at(-1)), 200, 'alice\'s newest session lives');
  } finally {
    await server.stop();
    tokens.cleanup();
  }
});

test('§5: every spelling of "all addresses" is a wildcard and needs --allow-host', () => {
  const tokens = tokenFile();
  try {
    for (const host of ['[::0]', '[0:0:0:0:0:0:0:0]', '[::ffff:0.0.0.0]', '[0::]', '0.0.0.0', '[::]']) {
      // A server that starts would run until the timeout: bounded, and a failure.
      const run = spawnSync(BIN, ['serve', '--token-file', tokens.file, '--listen', `${host}:0`],
        { encoding: 'utf8', timeout: 5000 });
      assert.equal(run.status, 2, `${host}: ${run.stderr}`);
      assert.match(run.stderr, /--allow-host/);
    }
  } finally {
    tokens.cleanup();
  }
});

// In a network namespace of its own, with 10.77.0.1 on its loopback
// interface: the server binds that address and a client names it as Host.
test('§6: the bind address is a valid Host', (t) => {
  const setup = 'ip link set lo up && ip addr add 10.77.0.1/32 dev lo';
  if (spawnSync('unshare', ['-rn', 'sh', '-c', setup]).status !== 0) {
    t.skip('no network namespace can be made here');
    return;
  }
  const tokens = tokenFile();
  const lib = new URL('./lib/serve.mjs', import.meta.url).href;
  const client = `
    import { serve, post, ACCEPT } from ${JSON.stringify(lib)};
    const server = await serve(['--token-file', process.env.TOKENS], { listen: '10.77.0.1:0' });
    const headers = { 'content-type': 'application/json', accept: ACCEPT, authorization: 'Bearer ${TOKEN}' };
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'h', version: '1' } } };
    const r = await post(server.url, init, headers);
    console.log(JSON.stringify({ status: r.status, url: server.url }));
    await server.stop();`;
  try {
    const run = spawnSync('unshare', ['-rn', 'sh', '-c', `${setup} && exec "$0" "$@"`,
      process.execPath, '--input-type=module', '-e', client],
    { encoding: 'utf8', timeout: 30000, env: { ...process.env, TOKENS: tokens.file } });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1));
    assert.match(result.url, /^http:\/\/10\.77\.0\.1:\d+\/mcp$/);
    assert.equal(result.status, 200, 'Host: 10.77.0.1:<port> is accepted');
  } finally {
    tokens.cleanup();
  }
});
