// SPDX-License-Identifier: MIT
// RequestStates: a requestState redeems, once and before it expires, to the
// record it was issued with, for the principal, tool and arguments it was
// issued for; any change to it, or any other binding, is refused.
#include "mcp/request_state.h"

#include "testutil/status_matchers.h"

#include <gtest/gtest.h>

#include <string>

namespace hermes::mcp {
namespace {

using namespace std::chrono_literals;
using testing::IsError;
using testing::IsOk;

class FakeClock final : public Clock {
 public:
  TimePoint now() const override { return now_; }
  void advance(std::chrono::milliseconds by) { now_ += by; }

 private:
  TimePoint now_{std::chrono::hours(1000)};
};

class RequestStateTest : public ::testing::Test {
 protected:
  std::string issue(const std::string& principal = "alice") {
    return states_.issue({principal, tool_, args_}, record_);
  }
  Result<Json> redeem(const std::string& state, const std::string& principal = "alice") {
    return states_.redeem(state, {principal, tool_, args_});
  }

  FakeClock clock_;
  RequestStates states_{clock_};
  const std::string tool_ = "terminal";
  const Json args_ = {{"command", "rm -rf build"}, {"timeout", 5}};
  const Json record_ = {{"approval", {{"q", "fp"}, {"answer", nullptr}}}};
};

TEST_F(RequestStateTest, RedeemsOnceToItsRecord) {
  std::string state = issue();
  auto record = redeem(state);
  ASSERT_THAT(record, IsOk());
  EXPECT_EQ(*record, record_);
  EXPECT_THAT(redeem(state), IsError(ErrorCode::kInvalidArgument));  // a replay
}

TEST_F(RequestStateTest, EachIssueIsAFreshState) { EXPECT_NE(issue(), issue()); }

TEST_F(RequestStateTest, AnyChangeToTheStateIsRefused) {
  std::string state = issue();
  EXPECT_THAT(redeem(state + "-TAMPERED"), IsError(ErrorCode::kInvalidArgument));
  for (size_t at : {size_t{0}, state.size() / 2, state.find('.') + 1, state.size() - 2}) {
    std::string changed = state;
    changed[at] = changed[at] == 'A' ? 'B' : 'A';
    EXPECT_THAT(redeem(changed), IsError(ErrorCode::kInvalidArgument)) << "changed at " << at;
  }
  EXPECT_THAT(redeem("no-dot"), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(redeem(""), IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(redeem(std::string(RequestStates::kMaxStateBytes + 1, 'x')),
              IsError(ErrorCode::kInvalidArgument));
  EXPECT_THAT(redeem(state), IsOk());  // the genuine one still redeems
}

TEST_F(RequestStateTest, AStateIsBoundToItsPrincipalToolAndArguments) {
  std::string state = issue("alice");
  EXPECT_THAT(redeem(state, "mallory"), IsError(ErrorCode::kInvalidArgument));
  const std::string other_tool = "execute_code";
  EXPECT_THAT(states_.redeem(state, {"alice", other_tool, args_}),
              IsError(ErrorCode::kInvalidArgument));
  Json other_args = {{"command", "rm -rf /home"}, {"timeout", 5}};
  EXPECT_THAT(states_.redeem(state, {"alice", tool_, other_args}),
              IsError(ErrorCode::kInvalidArgument));
  // The same arguments with their keys in another order are the same call.
  Json reordered = {{"timeout", 5}, {"command", "rm -rf build"}};
  EXPECT_THAT(states_.redeem(state, {"alice", tool_, reordered}), IsOk());
}

TEST_F(RequestStateTest, AStateOfAnotherServerIsRefused) {
  RequestStates other(clock_);
  std::string state = other.issue({"alice", tool_, args_}, record_);
  EXPECT_THAT(redeem(state), IsError(ErrorCode::kInvalidArgument));
  EXPECT_NE(other.fingerprint("q"), states_.fingerprint("q"));
}

TEST_F(RequestStateTest, AStateExpires) {
  std::string fresh = issue();
  std::string stale = issue();
  clock_.advance(RequestStates::kLifetime - 1s);
  EXPECT_THAT(redeem(fresh), IsOk());
  clock_.advance(2s);
  auto refused = redeem(stale);
  ASSERT_THAT(refused, IsError(ErrorCode::kInvalidArgument));
  EXPECT_NE(refused.error().message.find("expired"), std::string::npos);
}

}  // namespace
}  // namespace hermes::mcp
