// SPDX-License-Identifier: MIT
// The one shape of a tool. A tool declares, in `tools/<tool>/<tool>.h`, its
// typed `Params` and `Output` and a handler
//
//   Result<Output> handler(const Params& params, CallContext& ctx);
//
// and, in `tools/<tool>/<tool>_json.cc`, how `Params` is parsed from the JSON
// arguments and how `Output` becomes the contract's JSON object. `typed_entry`
// joins the three into the registered `ToolSpec::run`; JSON never reaches the
// handler. docs/ARCHITECTURE.md ("How to write a tool") walks through it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "registry/tool.h"

#include <functional>

namespace hermes::registry {

// The functions of one typed tool. Plain function pointers, but for the
// handler, which may be bound to a service several tools share (the task
// tools' TaskService): a tool's behaviour is its functions.
template <class Params, class Output>
struct TypedTool {
  // Parses the arguments (always an object). An `Error` here is a failure
  // like any other: its message is the contract's text.
  Result<Params> (*parse)(const Json& args) = nullptr;
  std::function<Result<Output>(const Params& params, CallContext& ctx)> handler;
  // The contract's JSON object for an output.
  Json (*render)(const Output& output) = nullptr;
  // The failure an output stands for, for tools whose failures carry more
  // than a message (suggestions, counts); nullptr: no output is a failure.
  const Error* (*failure)(const Output& output) = nullptr;
  // The JSON of a failed call; nullptr: `{"error": message}`.
  Json (*render_error)(const Error& error) = nullptr;
  // What arguments `parse` refused become, for tools that count malformed
  // calls per session (patch's hint); nullptr: the parse error as is.
  Result<Output> (*rejected)(const Error& error, CallContext& ctx) = nullptr;
  // The content blocks an output carries after the text (images, audio,
  // embedded resources); nullptr: none.
  std::vector<ContentBlock> (*content)(const Output& output) = nullptr;
};

namespace typed_tool_internal {

template <class Params, class Output>
Result<Output> parse_and_run(const TypedTool<Params, Output>& tool, const Json& args,
                             CallContext& ctx) {
  Result<Params> params = tool.parse(args);
  if (!params && tool.rejected) return tool.rejected(params.error(), ctx);
  if (!params) return params.error();
  return tool.handler(*params, ctx);
}

inline ToolReply failed(const Error& error, Json value) {
  return ToolReply{std::move(value), true, error.code};
}

}  // namespace typed_tool_internal

// The registered entry point of `tool`: parse, run, render; `isError` and
// its code come from the typed result.
template <class Params, class Output>
ToolEntry typed_entry(TypedTool<Params, Output> tool) {
  return [tool](const Json& args, CallContext& ctx) -> ToolReply {
    namespace internal = typed_tool_internal;
    Result<Output> out = internal::parse_and_run(tool, args, ctx);
    if (!out) {
      const Error& error = out.error();
      return internal::failed(
          error, tool.render_error ? tool.render_error(error) : error_json(error.message));
    }
    const Error* failure = tool.failure ? tool.failure(*out) : nullptr;
    ToolReply reply = failure ? internal::failed(*failure, tool.render(*out))
                              : ToolReply{tool.render(*out), false, std::nullopt};
    if (tool.content) reply.content = tool.content(*out);
    return reply;
  };
}

// A `ToolSpec::long_running` predicate decided on the tool's own typed
// parse: arguments that `parse` refuses are not long-running.
template <class Params>
std::function<bool(const Json&)> when_parsed(Result<Params> (*parse)(const Json& args),
                                             bool (*decide)(const Params& params)) {
  return [parse, decide](const Json& args) {
    Result<Params> params = parse(args);
    return params.has_value() && decide(*params);
  };
}

// A `ToolSpec::changes` declaration decided on the tool's own typed parse:
// arguments that `parse` refuses change nothing (the call fails at once).
template <class Params>
std::function<std::optional<checkpoint::Footprint>(const Json&)> changes_when_parsed(
    Result<Params> (*parse)(const Json& args),
    std::optional<checkpoint::Footprint> (*footprint)(const Params& params)) {
  return [parse, footprint](const Json& args) -> std::optional<checkpoint::Footprint> {
    Result<Params> params = parse(args);
    if (!params) return std::nullopt;
    return footprint(*params);
  };
}

}  // namespace hermes::registry
