// SPDX-License-Identifier: MIT
#include "core/clock.h"

namespace hermes {
namespace {

class SteadyClock final : public Clock {
 public:
  TimePoint now() const override { return std::chrono::steady_clock::now(); }
};

}  // namespace

const Clock& steady_clock_source() {
  static const SteadyClock kClock;
  return kClock;
}

}  // namespace hermes
