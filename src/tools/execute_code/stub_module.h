// SPDX-License-Identifier: MIT
// Generates the `hermes_tools.py` module a script imports: one function per
// allowed tool, derived from the tool's JSON schema, so a tool registered
// later appears without touching this file (docs/tools/execute_code.md).
#pragma once

#include "json/json.h"

#include <set>
#include <string>
#include <vector>

namespace hermes::execute_code {

struct StubParam {
  std::string name;
  std::string type;           // Python annotation: str, int, float, bool, list, dict, or ""
  std::string default_value;  // Python literal; empty for a required parameter
};

struct StubSignature {
  std::string tool;
  std::vector<StubParam> params;
};

// The signature of `tool` from its input schema: required properties first,
// then the optional ones with the schema's `default` (None when it has none
// or it is a list/object), then required ones that have a default (those
// are optional to a caller). Properties named in `hidden`, and names that are
// not Python identifiers or are keywords, are left out.
StubSignature signature_from_schema(const std::string& tool, const Json& schema,
                                    const std::set<std::string>& hidden);

// `read_file(path: str, offset: int = 1, limit: int = 2000)`.
std::string render_signature(const StubSignature& signature);

// How the module reaches the host: a Unix socket (local runs), request and
// response files in `HERMES_RPC_DIR` (runs on another backend,
// docs/tools/execute_code.md), or the stream of a kernel on another backend
// (the driver's `_link`, kernel_driver.h).
enum class RpcTransport { kSocket, kFiles, kStream };

// The whole module: the RPC client, the helpers json_parse, shell_quote,
// retry and show (a PNG for the model, which a kernel returns as MCP image
// content when the cell ends; a per-call script drops it), then one stub per tool in the given
// order. Each stub sends every argument, None included; a lock around each request/response keeps
// threads from swapping answers and results are decoded to dicts. The socket client opens one
// socket lazily and raises `RuntimeError("Agent process disconnected")` on EOF; the file client
// writes `req_<seq:06d>.tmp`, renames it to `req_<seq:06d>`, polls for `res_<seq:06d>` (50 ms,
// ×1.2, up to 250 ms), reads and deletes it, and raises `RuntimeError("RPC timeout: no response for
// <tool> after 300s")` when none comes.
std::string generate_module(const std::vector<StubSignature>& tools,
                            RpcTransport transport = RpcTransport::kSocket);

}  // namespace hermes::execute_code
