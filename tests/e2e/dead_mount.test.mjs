// SPDX-License-Identifier: MIT
// A mount whose server never answers (a dead NFS server, say; here a FUSE
// mount whose daemon never replies, in the server's own mount namespace)
// holds neither an HTTP I/O loop nor the stdio reader: a read of a file on
// it waits on a worker, and the other calls are answered meanwhile. Needs
// root, `unshare -m` and /dev/fuse; skipped without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { connect, callTool, scratchDir } from './lib/client.mjs';
import { serve, legacySession, replyText } from './lib/serve.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Mounts a FUSE file system at argv[1] and never reads its device: every
// lookup beneath it waits until this process dies.
const DEAD_DAEMON =
  'import ctypes, os, sys, time\n' +
  'fd = os.open("/dev/fuse", os.O_RDWR)\n' +
  'opts = f"fd={fd},rootmode=40000,user_id=0,group_id=0".encode()\n' +
  'libc = ctypes.CDLL(None, use_errno=True)\n' +
  'if libc.mount(b"dead", sys.argv[1].encode(), b"fuse.dead", 6, opts) != 0: sys.exit(1)\n' +
  'time.sleep(300)\n';

// Runs the server's command line in a private mount namespace where the
// dead daemon has mounted `point`; the daemon's pid goes to `pidFile`.
function deadMountWrapper(point, pidFile) {
  return ['unshare', '-m', '--propagation', 'private', 'sh', '-c',
    'python3 -c "$DEAD" "$POINT" & echo $! > "$PIDFILE"\n' +
    'for i in $(seq 200); do\n' +
    '  grep -q " $POINT " /proc/self/mountinfo && exec "$@"\n' +
    '  sleep 0.05\n' +
    'done\n' +
    'exit 77', 'sh'];
}

const mountEnv = (point, pidFile) => ({ DEAD: DEAD_DAEMON, POINT: point, PIDFILE: pidFile });

// The wrapper itself, run once with `true` in place of the server: the
// mount works here (root, unshare, python3, /dev/fuse, no policy against).
function canMountFuse() {
  if (process.getuid?.() !== 0 || !existsSync('/dev/fuse')) return false;
  const s = deadMountScratch();
  try {
    const [command, ...args] = s.wrap;
    const probe = spawnSync(command, [...args, 'true'], { env: { ...process.env, ...s.env }, timeout: 20000 });
    return probe.status === 0;
  } finally {
    s.end();
    s.cleanup();
  }
}

// Fails after `ms` instead of waiting on a held loop for ever.
function within(ms, promise, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// A scratch folder with a local file and a mount point; `end()` kills the
// daemon (the stuck lookup then fails) and removes the folder.
function deadMountScratch() {
  const scratch = scratchDir();
  const point = path.join(scratch.dir, 'dead');
  mkdirSync(point);
  // Four files: a second read of one would be answered from the dedup memory.
  const local = [0, 1, 2, 3].map((i) => {
    const file = path.join(scratch.dir, `local${i}.txt`);
    writeFileSync(file, `a local line ${i}\n`);
    return file;
  });
  const pidFile = path.join(scratch.dir, 'daemon.pid');
  return {
    point, local, pidFile,
    wrap: deadMountWrapper(point, pidFile),
    env: mountEnv(point, pidFile),
    end() {
      try { process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL'); } catch { /* gone */ }
    },
    cleanup: scratch.cleanup,
  };
}

const skip = !canMountFuse() && 'needs root, unshare -m, python3 and a FUSE mount';

// With `stuck` (a call that meets the dead mount) pending, each local file
// must be read within 3 s (`readLocal(i, file)` resolves to the answer's
// text); then the daemon ends, and the stuck call's answer must come within
// 10 s: it is returned.
async function answeredBeside(s, stuck, readLocal) {
  stuck.catch(() => {});  // awaited below, unless an assertion ends the test first
  await sleep(300);
  for (const [i, file] of s.local.entries()) {
    const text = await within(3000, readLocal(i, file), 'a local read beside the dead mount');
    assert.ok(text.includes(`a local line ${i}`), text);
  }
  s.end();
  return within(10000, stuck, 'the call on the dead mount, once its daemon died');
}

// A server started by `start(s)` (resolving to an object with a `stop` or
// `close`) in the dead-mount world `s`, given to `body`; everything ends.
async function withDeadMount(start, body, prepare = () => {}) {
  const s = deadMountScratch();
  let server;
  try {
    prepare(s);
    server = await start(s);
    await body(s, server);
  } finally {
    s.end();
    await (server?.stop ?? server?.close)?.call(server);
    s.cleanup();
  }
}

const readAt = (call) => (i, file) => call(10 + i, 'read_file', { path: file }).then(replyText);

test('a read on a dead mount does not hold the HTTP I/O loop', { skip }, () =>
  withDeadMount((s) => serve(['--io-threads', '1'], { wrap: s.wrap, env: s.env }), async (s, server) => {
    const { call } = await legacySession(server);
    const stuck = call(2, 'read_file', { path: path.join(s.point, 'notes.txt') });
    const answered = await answeredBeside(s, stuck, readAt(call));
    assert.equal(answered.status, 200);
    assert.match(replyText(answered), /Transport endpoint is not connected/);
  }));

// The file tools look under $HOME too (a write checks ~/.ssh/config): with
// $HOME reached through a link onto the dead mount, no call is brief.
const homeOf = (s) => path.join(path.dirname(s.point), 'home');

test('a write while $HOME leads onto a dead mount does not hold the HTTP I/O loop', { skip }, () =>
  withDeadMount((s) => serve(['--io-threads', '1'], { wrap: s.wrap, env: { ...s.env, HOME: homeOf(s) } }),
    async (s, server) => {
      const { call } = await legacySession(server);
      const target = path.join(path.dirname(s.point), 'written.txt');
      const stuck = call(2, 'write_file', { path: target, content: 'x\n' });
      const answered = await answeredBeside(s, stuck, readAt(call));
      assert.equal(answered.status, 200);
    },
    (s) => symlinkSync(path.join(s.point, 'ann'), homeOf(s))));

test('a read on a dead mount does not hold the stdio reader', { skip }, () =>
  withDeadMount((s) => connect({ wrap: s.wrap, env: s.env }), async (s, session) => {
    const stuck = callTool(session.client, 'read_file', { path: path.join(s.point, 'notes.txt') },
      { timeout: 60000 });
    const answered = await answeredBeside(s, stuck,
      (i, file) => callTool(session.client, 'read_file', { path: file }).then((r) => r.text));
    assert.equal(answered.isError, true, answered.text);
    assert.match(answered.text, /Transport endpoint is not connected/);
  }));
