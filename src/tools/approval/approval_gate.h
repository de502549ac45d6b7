// SPDX-License-Identifier: MIT
// The approval flow for terminal commands over MCP (docs/approval.md):
// floors, bypass, allowlist, session approvals, MCP elicitation, else
// pending.
#pragma once

#include "registry/session.h"

#include <mutex>
#include <set>
#include <string>

#include "shell/analyze.h"

namespace hermes::registry {
struct CallContext;
}  // namespace hermes::registry

namespace hermes::approval {

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
  // The `error` text for kBlocked, and for kPending the sentence that says
  // how a person lets the command through.
  std::string message;
};

// Keys approved for the rest of the session ("session" / "always"), and
// the shell definitions earlier commands left behind. Thread-safe.
class ApprovalState final : public registry::SessionState {
 public:
  bool is_approved(const std::string& key) const;
  void approve(const std::string& key);

  // The definitions a command starts with: the session snapshot's (parsed
  // once per content) with those of commands that ran on top, so a name
  // defined in one call is read at its use in the next on any backend.
  shell::Environment environment(std::string_view snapshot);
  // Keeps what a command that runs defines (functions, aliases, exports).
  void remember(const shell::Environment& after);

 private:
  mutable std::mutex mu_;
  std::set<std::string> keys_;       // mu_
  size_t snapshot_hash_ = 0;         // mu_
  shell::Environment snapshot_env_;  // mu_
  shell::Environment remembered_;    // mu_
};

// What the terminal knows of the shell a command will start in.
struct ShellContext {
  // The session snapshot (`export -p`, `declare -f`, `alias -p` output);
  // empty when it lives on another machine.
  std::string_view snapshot;
  // The absolute directory the command starts in; empty when unknown.
  std::string cwd;
};

// Decides whether `command` may run in this call. May block while the user
// answers an elicitation (bounded by `approvals.timeout`, default 300 s, and
// by ctx.stop). Nothing a client puts in the arguments can skip it.
GateResult check_command(const std::string& command, registry::CallContext& ctx);
GateResult check_command(const std::string& command, registry::CallContext& ctx,
                         const ShellContext& shell);

// The `approval` note for a result that ran after approval.
std::string approval_note(const std::string& description);

}  // namespace hermes::approval
