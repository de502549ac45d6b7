// SPDX-License-Identifier: MIT
// Time as the code that keeps time-based state sees it (negative caches,
// repeat guards): the steady clock in the server, a test's clock in tests.
#pragma once

#include <chrono>

namespace hermes {

// Thread-safe.
class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  virtual ~Clock() = default;
  // Monotonic time, for intervals and expiry.
  virtual TimePoint now() const = 0;
};

// The process's steady clock.
const Clock& steady_clock_source();

}  // namespace hermes
