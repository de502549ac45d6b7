// SPDX-License-Identifier: MIT
#include "registry/session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hermes::registry {
namespace {

std::vector<std::string> events;

template <int N>
struct Recorder : SessionState {
  ~Recorder() override { events.push_back("destroy " + std::to_string(N)); }
  void on_session_end() override { events.push_back("end " + std::to_string(N)); }
};

TEST(Session, EndsEveryStateBeforeDestroyingAny) {
  events.clear();
  {
    Session session("t");
    session.state<Recorder<1>>();
    session.state<Recorder<2>>();
  }
  EXPECT_EQ(events, (std::vector<std::string>{"end 2", "end 1", "destroy 2", "destroy 1"}));
}

}  // namespace
}  // namespace hermes::registry
