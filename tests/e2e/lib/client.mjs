// SPDX-License-Identifier: MIT
// Shared helpers for the end-to-end tests: start hermes-tools under the
// official MCP TypeScript SDK client, call tools, and speak raw JSON-RPC
// lines when a test needs input no SDK would send.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const BIN = process.env.HERMES_TOOLS_BIN ||
  path.resolve(here, '../../../build/src/cli/hermes-tools');

// A scratch directory removed by the returned cleanup function.
export function scratchDir(prefix = 'hermes-e2e-') {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

// Connects an SDK client to a fresh `hermes-tools [args] mcp [after]`.
// Options: args (global flags before `mcp`), after (flags after it), env (added to process.env),
// cwd, capabilities (client capabilities, e.g. {elicitation: {}}), wrap (a command that runs
// the server's command line, appended to it).
export async function connect({ args = [], after = [], env = {}, cwd, capabilities = {}, wrap = [] } = {}) {
  const home = scratchDir('hermes-home-');
  const command = [...wrap, BIN, ...args, 'mcp', ...after];
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: { ...process.env, HERMES_HOME: home.dir, ...env },
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d.toString(); });
  const client = new Client({ name: 'hermes-e2e', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    async close() {
      await client.close();
      home.cleanup();
    },
  };
}

// Calls `name` and returns {json, isError, text}; the text block is parsed.
export async function callTool(client, name, args = {}, options = {}) {
  const result = await client.callTool({ name, arguments: args }, undefined, options);
  const text = result.content?.[0]?.text ?? '';
  let json = null;
  try { json = JSON.parse(text); } catch { /* left null: the test decides */ }
  return { json, isError: result.isError === true, text, raw: result };
}

// Raw newline-delimited JSON-RPC against `hermes-tools mcp`: send(lineOrObj)
// and next() → the next parsed message (rejects after timeoutMs).
export function rawServer({ args = [], env = {} } = {}) {
  const home = scratchDir('hermes-home-');
  const child = spawn(BIN, [...args, 'mcp'], {
    env: { ...process.env, HERMES_HOME: home.dir, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buffer = '';
  const queue = [];
  const waiters = [];
  child.stdout.on('data', (chunk) => {
    buffer += chunk.toString();
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const msg = JSON.parse(line);
      if (waiters.length) waiters.shift()(msg); else queue.push(msg);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    send(message) {
      child.stdin.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
    },
    next(timeoutMs = 5000) {
      if (queue.length) return Promise.resolve(queue.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message within ' + timeoutMs + ' ms')), timeoutMs);
        waiters.push((msg) => { clearTimeout(timer); resolve(msg); });
      });
    },
    async close() {
      child.stdin.end();
      await exited;
      home.cleanup();
    },
  };
}

export const INIT = {
  jsonrpc: '2.0', id: 0, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

// Whether process `pid` still exists.
export function alive(pid) {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

// Waits up to timeoutMs for `pid` to end; whether it did.
export async function waitDead(pid, timeoutMs = 8000) {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}
