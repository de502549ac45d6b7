// SPDX-License-Identifier: MIT
// A stand-in for the agent CLI the task tools drive (never a real agent).
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const SID = '20260811_115247_084e47';

// A stand-in for `hermes`: answers chat with STUB_ANSWER and prints the
// session trailer on stderr; `sessions export` prints one JSONL session.
export function writeStub(dir) {
  const stub = path.join(dir, 'hermes');
  const session = JSON.stringify({
    id: SID, tool_call_count: 1, api_call_count: 2, message_count: 3,
    messages: [{ role: 'assistant', tool_calls: [{ id: 'c1', function: { name: 'terminal', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'README.md' }],
  });
  writeFileSync(stub, `#!/bin/sh
if [ "$1" = "sessions" ]; then printf '%s\\n' '${session}'; exit 0; fi
[ -n "$STUB_DELAY" ] && sleep "$STUB_DELAY"
printf '%s\\n' "$STUB_ANSWER"
printf '\\nsession_id: ${SID}\\n' >&2
exit 0
`);
  chmodSync(stub, 0o755);
  const auth = path.join(dir, 'auth.json');
  writeFileSync(auth, JSON.stringify({ version: 1, credential_pool: { gemini: [{ id: 'a1', access_token: 'k' }] } }));
  return { stub, auth };
}
