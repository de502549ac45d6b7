#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A stdio MCP server whose one tool answers structuredContent that breaks
# its own outputSchema: run.sh calls it through the Inspector CLI to show
# that the Inspector's validation is live (the call must fail), so a pass
# on our tools means their results were checked.
import json
import sys

SCHEMA = {"type": "object", "properties": {"n": {"type": "number"}}, "required": ["n"]}

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "mismatched", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": [{"name": "count", "inputSchema": {"type": "object"},
                             "outputSchema": SCHEMA}]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "{\"n\": \"one\"}"}],
                  "structuredContent": {"n": "one"}}
    else:
        result = {}
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
