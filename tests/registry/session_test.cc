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

struct Counter : SessionState {
  static constexpr bool kPerConversation = true;
  int count = 0;
  void on_other_tool_call() override { count = 0; }
};
struct Shared : SessionState {
  int count = 0;
  int resets = 0;
  void on_other_tool_call() override { ++resets; }
};

// HTTP's 2026-07-28 wire: one principal's calls share a workspace, but each
// conversation keeps its own guards' memory.
TEST(Session, AConversationKeepsItsOwnGuardsAndSharesTheRest) {
  Session shared("principal");
  Session a("a", shared);
  Session b("b", shared);
  a.state<Counter>().count = 3;
  EXPECT_EQ(b.state<Counter>().count, 0);
  EXPECT_EQ(shared.state<Counter>().count, 0);
  a.state<Shared>().count = 5;
  EXPECT_EQ(b.state<Shared>().count, 5);
  EXPECT_EQ(&a.state<Shared>(), &shared.state<Shared>());
  a.set_cwd("/w");
  EXPECT_EQ(b.cwd(), "/w");
  b.state<Counter>().count = 2;
  a.notify_other_tool_call();  // resets a's guards and the shared states, not b's
  EXPECT_EQ(a.state<Counter>().count, 0);
  EXPECT_EQ(b.state<Counter>().count, 2);
  EXPECT_EQ(shared.state<Shared>().resets, 1);
}

}  // namespace
}  // namespace hermes::registry
