// SPDX-License-Identifier: MIT
// A tool: name, toolset, description, JSON schema, annotations, availability
// check and handler. Handlers take the raw JSON arguments, parse them into the
// tool's typed struct, and return the contract's JSON object.
#pragma once

#include <functional>
#include <stop_token>
#include <string>

#include "core/json.h"

namespace hermes {

class Config;
class PathResolver;
class Session;
class ClientChannel;
class Dispatcher;

// Services built once by main() and shared by every call. Thread-safe.
struct Services {
  const Config& config;
  const PathResolver& paths;
};

// Everything a handler may use for one call.
struct CallContext {
  Session& session;
  const Services& services;
  ClientChannel& client;
  // Lets a tool call other tools (execute_code's RPC) through the same
  // dispatcher and session bookkeeping.
  Dispatcher& dispatcher;
  // Requested when the client cancels the call or the session ends.
  std::stop_token stop;
  // The MCP `_meta.progressToken`, or null.
  Json progress_token;
};

struct ToolAnnotations {
  bool read_only = false;
  bool destructive = true;
  bool idempotent = false;
  bool open_world = false;
};

using ToolHandler = std::function<Json(const Json& args, CallContext& ctx)>;

struct ToolSpec {
  std::string name;
  std::string toolset;  // file, terminal, code, task
  std::string description;
  Json input_schema;
  ToolAnnotations annotations;
  ToolHandler handler;
  // A tool whose check fails is not listed and cannot be called.
  std::function<bool(const Services&)> is_available = [](const Services&) { return true; };
  // Optional: a description built per session (execute_code lists the tools
  // really available to scripts). Receives the static description.
  std::function<std::string(const Services&, const std::string&)> describe;
};

}  // namespace hermes
