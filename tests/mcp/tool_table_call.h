// SPDX-License-Identifier: MIT
// One tools/call through the router, as a transport makes it, for the tests
// that drive the whole tool table (tool_table_test).
#pragma once

#include "json/json.h"
#include "mcp/router.h"
#include "registry/client_channel.h"
#include "registry/session.h"

#include <exception>
#include <stop_token>
#include <string>

namespace hermes::mcp {

struct Outcome {
  bool threw = false;
  Json message;
};

inline Outcome call(Router& router, registry::Session& session, registry::ClientChannel& client,
                    const Json& params) {
  Outcome out;
  try {
    auto prepared = router.prepare_call(1, params);
    if (auto* reply = std::get_if<Reply>(&prepared)) {
      out.message = reply->message;
      return out;
    }
    auto reply = router.run_call(1, std::get<PreparedCall>(prepared),
                                 CallEnv{session, client, std::stop_token(), nullptr, "test"});
    if (reply) out.message = reply->message;
  } catch (const std::exception&) {
    out.threw = true;
  }
  return out;
}

inline std::string result_text(const Json& message) {
  const Json& content = message.value("result", Json::object()).value("content", Json::array());
  return content.empty() ? "" : content[0].value("text", "");
}

}  // namespace hermes::mcp
