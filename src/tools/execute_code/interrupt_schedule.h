// SPDX-License-Identifier: MIT
// When a cell loop interrupts a cell (docs/tools/execute_code.md, The
// kernel): SIGINT at the stop or the timeout, again every kRepeat while the
// cell has not answered (the driver raises KeyboardInterrupt for the first
// only; kernel_driver.cc says why it repeats), and the kill once the grace
// has run out.
#pragma once

#include <algorithm>
#include <chrono>

namespace hermes::execute_code {

class InterruptSchedule {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds kRepeat{250};

  explicit InterruptSchedule(std::chrono::milliseconds grace) : grace_(grace) {}

  bool started() const { return started_; }
  // The first SIGINT goes now; false when it already went.
  bool start(Clock::time_point now) {
    if (started_) return false;
    started_ = true;
    kill_at_ = now + grace_;
    next_ = now + kRepeat;
    return true;
  }
  // True when another SIGINT is due; the one after is then scheduled.
  bool repeat_due(Clock::time_point now) {
    if (!started_ || now < next_ || now >= kill_at_) return false;
    next_ = now + kRepeat;
    return true;
  }
  bool kill_due(Clock::time_point now) const { return started_ && now >= kill_at_; }
  // The next moment the loop has to wake for.
  Clock::time_point next_event() const { return std::min(next_, kill_at_); }

 private:
  std::chrono::milliseconds grace_;
  bool started_ = false;
  Clock::time_point kill_at_{};
  Clock::time_point next_{};
};

}  // namespace hermes::execute_code
