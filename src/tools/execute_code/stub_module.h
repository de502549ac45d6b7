// SPDX-License-Identifier: MIT
// Generates the `hermes_tools.py` module a script imports: one function per
// allowed tool, derived from the tool's JSON schema, so a tool registered
// later appears without touching this file (shell-and-exec.md §6.4).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "core/json.h"

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

// The whole module: the RPC client (one lazily opened socket, a lock around
// each request/response, `RuntimeError("Agent process disconnected")` on EOF,
// results decoded to dicts), the helpers json_parse, shell_quote and retry,
// then one stub per tool in the given order. Each stub sends every argument,
// None included.
std::string generate_module(const std::vector<StubSignature>& tools);

}  // namespace hermes::execute_code
