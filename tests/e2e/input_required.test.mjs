// SPDX-License-Identifier: MIT
// Approval on the 2026-07-28 wire: a dangerous command asks
// through an `input_required` result, since that wire sends the client no
// requests. The retry with the user's answer and the exact requestState
// runs the command (accept) or refuses it (decline); a forged, replayed or
// moved requestState is refused; a write to a protected file asks the same
// way. Raw HTTP (every field visible), then SDK v2's own multi-round-trip
// driver over HTTP and over stdio.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN, scratchDir } from './lib/client.mjs';
import { serve, modernPost } from './lib/serve.mjs';

const ELICITATION = { elicitation: {} };

// A directory with content, which `rm -rf` (a dangerous command) deletes.
function makeVictim(dir, name) {
  const victim = path.join(dir, name);
  mkdirSync(path.join(victim, 'sub'), { recursive: true });
  return victim;
}

// One modern terminal call; resolves to its one JSON-RPC message.
async function terminal(server, id, command, extra = {}) {
  const reply = await modernPost(server.url, 'tools/call',
    { name: 'terminal', arguments: { command }, ...extra }, { id, capabilities: ELICITATION });
  assert.equal(reply.status, 200, reply.text);
  return reply.messages.at(-1);
}

const answer = (decision) => ({ approval: { action: 'accept', content: { decision } } });
const toolJson = (message) => JSON.parse(message.result.content[0].text);

test('2026-07-28 over HTTP: a dangerous command answers input_required; accept runs it, decline does not', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const victim = makeVictim(work.dir, 'victim');
    const command = `rm -rf ${victim}`;
    const asked = await terminal(server, 1, command);
    const round = asked.result;
    assert.equal(round.resultType, 'input_required', JSON.stringify(asked));
    const question = round.inputRequests.approval;
    assert.equal(question.method, 'elicitation/create');
    assert.match(question.params.message, /rm -rf/);
    assert.deepEqual(question.params.requestedSchema.required, ['decision']);
    assert.equal(typeof round.requestState, 'string');
    assert.ok(existsSync(victim), 'nothing ran before the answer');

    // Decline: the command is refused and does not run.
    const declined = await terminal(server, 2, command,
      { inputResponses: { approval: { action: 'decline' } }, requestState: round.requestState });
    assert.equal(declined.result.resultType, 'complete');
    assert.equal(toolJson(declined).status, 'blocked');
    assert.ok(existsSync(victim), 'the declined command did not run');

    // Accept (on a fresh round: a state is spent by its retry).
    const again = (await terminal(server, 3, command)).result;
    const ran = await terminal(server, 4, command,
      { inputResponses: answer('once'), requestState: again.requestState });
    assert.equal(ran.result.resultType, 'complete', JSON.stringify(ran));
    assert.equal(ran.result.isError, false, ran.result.content[0].text);
    assert.match(toolJson(ran).approval, /approved by the user/);
    assert.ok(!existsSync(victim), 'the approved command ran');
  } finally {
    await server.stop();
    work.cleanup();
  }
});

test('2026-07-28 over HTTP: a forged, replayed or moved requestState is refused and runs nothing', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const victim = makeVictim(work.dir, 'victim');
    const other = makeVictim(work.dir, 'other');
    const command = `rm -rf ${victim}`;
    const { requestState } = (await terminal(server, 1, command)).result;

    const forged = await terminal(server, 2, command,
      { inputResponses: answer('once'), requestState: `${requestState}-TAMPERED` });
    assert.equal(forged.error?.code, -32602, JSON.stringify(forged));
    // The state of one command does not approve another.
    const moved = await terminal(server, 3, `rm -rf ${other}`,
      { inputResponses: answer('once'), requestState });
    assert.equal(moved.error?.code, -32602, JSON.stringify(moved));
    // An answer with no state of ours is no answer: asked again.
    const unasked = await terminal(server, 4, command, { inputResponses: answer('once') });
    assert.equal(unasked.result?.resultType, 'input_required', JSON.stringify(unasked));
    assert.ok(existsSync(victim) && existsSync(other), 'nothing ran');

    const genuine = await terminal(server, 5, command, { inputResponses: answer('once'), requestState });
    assert.equal(genuine.result.isError, false, JSON.stringify(genuine));
    assert.ok(!existsSync(victim));
    mkdirSync(victim);
    const replayed = await terminal(server, 6, command, { inputResponses: answer('once'), requestState });
    assert.equal(replayed.error?.code, -32602, JSON.stringify(replayed));
    assert.ok(existsSync(victim), 'a replayed state ran nothing');
  } finally {
    await server.stop();
    work.cleanup();
  }
});

test('2026-07-28 over HTTP: a write to a protected file asks the same way', async () => {
  const server = await serve();
  const work = scratchDir();
  try {
    const file = path.join(work.dir, 'AGENTS.md');
    const write = (id, extra = {}) => modernPost(server.url, 'tools/call',
      { name: 'write_file', arguments: { path: file, content: '# rules\n' }, ...extra },
      { id, capabilities: ELICITATION }).then((r) => r.messages.at(-1));
    const round = (await write(1)).result;
    assert.equal(round.resultType, 'input_required', JSON.stringify(round));
    const [key] = Object.keys(round.inputRequests);
    assert.match(round.inputRequests[key].params.message, /AGENTS\.md/);
    assert.ok(!existsSync(file), 'nothing written before the answer');
    const done = await write(2, { inputResponses: { [key]: { action: 'accept', content: {} } },
      requestState: round.requestState });
    assert.equal(done.result.isError, false, JSON.stringify(done));
    assert.equal(readFileSync(file, 'utf8'), '# rules\n');
  } finally {
    await server.stop();
    work.cleanup();
  }
});

// SDK v2 with an elicitation handler answering `decision`: its driver sees
// input_required, asks the handler, and retries on its own.
function v2Client(decision, asked) {
  const client = new Client({ name: 'hermes-e2e-v2', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { decision } };
  });
  return client;
}

test('2026-07-28: SDK v2 answers the approval through its own input_required driver (HTTP and stdio)', async () => {
  const server = await serve();
  const work = scratchDir();
  const home = scratchDir('hermes-home-');
  try {
    const transports = {
      http: () => new StreamableHTTPClientTransport(new URL(server.url)),
      stdio: () => new StdioClientTransport({
        command: BIN, args: ['mcp'], env: { ...process.env, HERMES_HOME: home.dir }, stderr: 'pipe',
      }),
    };
    for (const [wire, transport] of Object.entries(transports)) {
      for (const decision of ['deny', 'once']) {
        const victim = makeVictim(work.dir, `${wire}-${decision}`);
        const asked = [];
        const client = v2Client(decision, asked);
        await client.connect(transport());
        try {
          assert.equal(client.getProtocolEra(), 'modern');
          const result = await client.callTool({ name: 'terminal', arguments: { command: `rm -rf ${victim}` } });
          assert.equal(asked.length, 1, `${wire}: asked once`);
          assert.match(asked[0], /rm -rf/);
          const out = JSON.parse(result.content[0].text);
          if (decision === 'once') {
            assert.equal(result.isError, false, `${wire}: ${result.content[0].text}`);
            assert.ok(!existsSync(victim), `${wire}: the approved command ran`);
          } else {
            assert.equal(out.status, 'blocked', `${wire}: ${result.content[0].text}`);
            assert.ok(existsSync(victim), `${wire}: the denied command did not run`);
          }
        } finally {
          await client.close();
        }
      }
    }
  } finally {
    await server.stop();
    work.cleanup();
    home.cleanup();
  }
});
