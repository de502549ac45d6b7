// SPDX-License-Identifier: MIT
// MCP progress for a long call (hermes_task, a foreground terminal command,
// a script): while it runs, a `notifications/progress` every interval, only
// when the caller sent a progressToken (clients that opted into
// resetTimeoutOnProgress then keep waiting instead of cancelling at their
// request timeout).
#pragma once

#include "json/json.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace hermes::registry {

class CallStatus;
class ClientChannel;

// Ticks from construction until destruction. `progress` is the elapsed
// seconds (strictly increasing), `total` the run's timeout (left out when not
// positive), `message` the last line of the call's output when `status` has
// one, else "<label> running (Ns)". Does nothing when `token` is null. The
// channel and `status` must outlive the ticker. Not copyable.
class ProgressTicker {
 public:
  ProgressTicker(ClientChannel& client, Json token, std::chrono::milliseconds interval,
                 int64_t total_seconds, std::string label = "hermes_task",
                 const CallStatus* status = nullptr);
  ~ProgressTicker();
  ProgressTicker(const ProgressTicker&) = delete;
  ProgressTicker& operator=(const ProgressTicker&) = delete;

 private:
  void loop(std::stop_token stop);

  ClientChannel& client_;
  Json token_;
  std::chrono::milliseconds interval_;
  int64_t total_seconds_;
  std::string label_;
  const CallStatus* status_;
  std::mutex mu_;
  std::condition_variable_any wake_;
  std::jthread thread_;  // last: started after the fields it reads
};

}  // namespace hermes::registry
