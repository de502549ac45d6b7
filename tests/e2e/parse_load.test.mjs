// SPDX-License-Identifier: MIT
// A hostile client's JSON body on `serve`: one object with
// 1.2 million keys in 14 MB. Parsing was quadratic in the keys of an object
// and ran on the connection's I/O loop, so one such body held every other
// connection of that loop for hours. Now the parse is linear and a large
// body is parsed off the loop: with a single I/O loop, /healthz keeps
// answering within a second while the body is handled, and the body gets
// its answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve, ACCEPT } from './lib/serve.mjs';

function manyKeys(count) {
  const parts = new Array(count);
  for (let i = 0; i < count; ++i) parts[i] = `"k${i}":0`;
  return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{${parts.join(',')}}}`;
}

test('a body of a million keys keeps the loop answering', async () => {
  const server = await serve(['--io-threads', '1']);
  try {
    const body = manyKeys(1200000);
    let answered = false;
    const attack = fetch(server.url, {
      method: 'POST', body,
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      signal: AbortSignal.timeout(60000),
    }).then(async (res) => { await res.text(); answered = true; return res.status; });
    let probes = 0;
    while (!answered) {
      const health = await fetch(`http://127.0.0.1:${server.port}/healthz`,
        { signal: AbortSignal.timeout(1000) });
      assert.equal(await health.text(), 'ok');
      ++probes;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(typeof await attack, 'number');
    assert.ok(probes > 0);
  } finally {
    const kill = setTimeout(() => server.child.kill('SIGKILL'), 5000);
    await server.stop();
    clearTimeout(kill);
  }
});
