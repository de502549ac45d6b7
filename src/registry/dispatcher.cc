// SPDX-License-Identifier: MIT
#include "registry/dispatcher.h"

#include "core/log.h"
#include "registry/checkpoint_hook.h"
#include "registry/session.h"

#include <exception>

namespace hermes::registry {

ToolCallResult Dispatcher::call(const ToolSpec& spec, const Json& args, CallContext& ctx) {
  if (!spec.keeps_loop_counters) ctx.session.notify_other_tool_call();
  const Json& arguments = args.is_null() ? Json::object() : args;
  ToolReply reply;
  std::optional<checkpoint::Ticket> ticket;
  std::optional<std::string> crash;
  // A checkpoint is never the call's failure, an exception included (a
  // target's file system runs commands there).
  try {
    ticket = checkpoint_before(spec, arguments, ctx);
  } catch (const std::exception& e) {
    log::error("checkpoint before " + spec.name + " failed: " + e.what());
  }
  try {
    reply = invoke_tool(spec, arguments, ctx);
  } catch (const std::exception& e) {
    log::error("tool " + spec.name + " failed: " + e.what());
    crash = e.what();
    reply = ToolReply{error_json("Internal error in " + spec.name + ": " + e.what()), true,
                      ErrorCode::kInternal};
  }
  try {
    if (ticket) checkpoint_after(*ticket, ctx);
  } catch (const std::exception& e) {
    log::error("checkpoint after " + spec.name + " failed: " + e.what());
  }
  ToolCallResult result;
  result.text = reply.value.is_string() ? reply.value.get<std::string>() : dump_json(reply.value);
  result.value = std::move(reply.value);
  result.is_error = reply.is_error;
  result.code = reply.code;
  result.content = std::move(reply.content);
  result.crash = std::move(crash);
  return result;
}

}  // namespace hermes::registry
