// SPDX-License-Identifier: MIT
// The approval flow for terminal commands over MCP (decision 9): floors,
// bypass, allowlist, session approvals, MCP elicitation, else pending.
#pragma once

#include <mutex>
#include <set>
#include <string>

#include "registry/session.h"

namespace hermes {

struct CallContext;

namespace approval {

enum class Verdict {
  kAllow,     // not dangerous, or approvals are off, or already approved
  kApproved,  // a human approved it just now (through elicitation)
  kBlocked,   // hardline, floor, user deny rule, denial or silence
  kPending,   // dangerous and nobody could be asked
};

struct GateResult {
  Verdict verdict = Verdict::kAllow;
  // The family description (= the approval key) when dangerous.
  std::string description;
  // The `error` text for kBlocked.
  std::string message;
};

// Keys approved for the rest of the session ("session" / "always").
// Thread-safe.
class ApprovalState final : public SessionState {
 public:
  bool is_approved(const std::string& key) const;
  void approve(const std::string& key);

 private:
  mutable std::mutex mu_;
  std::set<std::string> keys_;  // mu_
};

// Decides whether `command` may run in this call. May block while the user
// answers an elicitation (bounded by `approvals.timeout`, default 300 s, and
// by ctx.stop). Nothing a client puts in the arguments can skip it.
GateResult check_command(const std::string& command, CallContext& ctx);

// The `approval` note for a result that ran after approval.
std::string approval_note(const std::string& description);

}  // namespace approval
}  // namespace hermes
