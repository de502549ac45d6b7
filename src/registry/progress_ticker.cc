// SPDX-License-Identifier: MIT
// The ticker thread: waits on its stop token with a timeout, so destruction
// wakes it at once.
#include "registry/progress_ticker.h"

#include "registry/call_status.h"
#include "registry/client_channel.h"

#include <algorithm>

namespace hermes::registry {

ProgressTicker::ProgressTicker(ClientChannel& client, Json token,
                               std::chrono::milliseconds interval, int64_t total_seconds,
                               std::string label, const CallStatus* status)
    : client_(client),
      token_(std::move(token)),
      interval_(interval),
      total_seconds_(total_seconds),
      label_(std::move(label)),
      status_(status) {
  if (token_.is_null()) return;
  thread_ = std::jthread([this](std::stop_token stop) { loop(stop); });
}

ProgressTicker::~ProgressTicker() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  wake_.notify_all();
  thread_.join();
}

void ProgressTicker::loop(std::stop_token stop) {
  const auto started = std::chrono::steady_clock::now();
  double last = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait_for(lock, stop, interval_, [] { return false; });
    if (stop.stop_requested()) return;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // `progress` must increase strictly, whatever the clock granularity.
    last = std::max(elapsed, last + 0.001);
    Json params = {{"progressToken", token_}, {"progress", last}};
    if (total_seconds_ > 0) params["total"] = total_seconds_;
    std::string line = status_ ? status_->view().last_line : "";
    params["message"] =
        !line.empty() ? line
                      : label_ + " running (" + std::to_string(static_cast<int64_t>(last)) + "s)";
    client_.notify("notifications/progress", params);
  }
}

}  // namespace hermes::registry
