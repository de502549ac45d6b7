// SPDX-License-Identifier: MIT
// The ClientChannel of a call that may become a task (task_store.h): until
// the promotion it is the call's own channel (on the 2026-07-28 wire an
// InputRound, whose questions make the call answer input_required); once
// the call is a task, a question parks the task in input_required for
// tasks/update to answer, and the tool waits for the answer there. Only the
// methods the request declared a capability for are asked at all. A tool's
// continue_as_task() makes the call a task at once.
// Thread-safe: a tool may ask several questions at once.
#pragma once

#include "mcp/input_round.h"
#include "mcp/task_store.h"
#include "registry/client_channel.h"

namespace hermes::mcp {

class TaskChannel final : public registry::ClientChannel {
 public:
  TaskChannel(InputRound& call, TaskLink& link) : call_(call), link_(link) {}

  void notify(const std::string& method, const Json& params) override {
    call_.notify(method, params);
  }
  bool supports_elicitation() const override { return call_.supports_elicitation(); }
  bool notifies_after_call() const override { return call_.notifies_after_call(); }
  ClientChannel& session_channel() override { return call_.session_channel(); }
  std::optional<Json> request(const std::string& method, const Json& params,
                              std::chrono::milliseconds timeout, std::stop_token stop) override {
    return request_named("", method, params, timeout, stop);
  }
  std::optional<Json> request_named(const std::string& key, const std::string& method,
                                    const Json& params, std::chrono::milliseconds timeout,
                                    std::stop_token stop) override;
  void continue_as_task() override { link_.promote(); }

 private:
  InputRound& call_;
  TaskLink& link_;
};

}  // namespace hermes::mcp
