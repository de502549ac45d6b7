// SPDX-License-Identifier: MIT
// check_command: the guard order as it applies to an MCP server, where no
// human sits at the server (docs/approval.md).
#include "tools/approval/approval_gate.h"

#include "core/config.h"
#include "core/log.h"
#include "core/strings.h"
#include "registry/client_channel.h"
#include "registry/elicitation.h"
#include "registry/tool.h"
#include "tools/approval/allowlist_store.h"
#include "tools/approval/command_normalize.h"
#include "tools/approval/dangerous_command.h"

#include <re2/re2.h>

#include <fnmatch.h>

#include <cstdlib>

namespace hermes::approval {
namespace {

constexpr const char* kDenied =
    "BLOCKED: User denied this command. Respect the decision: do not try to reach the "
    "same result another way without asking. Do NOT retry";
constexpr const char* kSilence =
    "BLOCKED: Command timed out without user response. The user did not approve it, "
    "so it did not run. Silence is not consent.";

GateResult blocked(std::string description, std::string message) {
  return {Verdict::kBlocked, std::move(description), std::move(message)};
}

std::string hardline_message(const std::string& description) {
  return "BLOCKED (hardline): " + description +
         ". This command is on the unconditional blocklist and cannot run through the "
         "agent, not even with approvals off or --yolo. If it is really needed, the user "
         "must run it themselves outside the agent.";
}

bool approvals_off(const Config& config) {
  if (config.get_bool("approvals.yolo", false, "HERMES_YOLO_MODE")) return true;
  return to_lower(config.get_string("approvals.mode", "manual")) == "off";
}

// A model-written `sudo -S` cannot be fed a password we do not have.
bool is_sudo_stdin_guess(const std::string& command) {
  static const RE2 kSudoS(R"((?:^|[\s;&|(])sudo\s+(?:-\S+\s+)*-[a-zA-Z]*S)");
  const char* pw = std::getenv("SUDO_PASSWORD");
  return (pw == nullptr || *pw == '\0') && RE2::PartialMatch(command, kSudoS);
}

bool glob_matches(const std::string& glob, const std::string& text) {
  return ::fnmatch(glob.c_str(), text.c_str(), FNM_CASEFOLD) == 0;
}

// The approvals.deny glob matching the command as typed or any of its
// deobfuscated readings.
std::optional<std::string> matching_deny_rule(const Config& config, const std::string& command) {
  std::vector<std::string> globs = config.get_string_list("approvals.deny");
  if (globs.empty()) return std::nullopt;
  std::vector<std::string> texts = {command, normalize_command(command)};
  for (const CommandTexts& v : command_variants(command)) texts.push_back(v.plain);
  for (const std::string& glob : globs) {
    for (const std::string& text : texts) {
      if (glob_matches(glob, text)) return glob;
    }
  }
  return std::nullopt;
}

// Allowlist entries are approval keys, or globs over simple commands.
bool allowlisted(const Config& config, const std::string& command, const std::string& key) {
  static const RE2 kCompound(R"([;&|<>`]|\$\()");
  bool simple = !RE2::PartialMatch(command, kCompound);
  for (const std::string& entry : config.get_string_list("command_allowlist")) {
    if (entry == key) return true;
    if (simple && glob_matches(entry, trim(command))) return true;
  }
  return false;
}

registry::Elicitation approval_question(const std::string& command,
                                        const std::string& description) {
  return registry::Elicitation{.message = "The agent wants to run a command that needs approval (" +
                                          description + "):\n\n" + command + "\n\nAllow it?",
                               .options = {{"once", "Allow once"},
                                           {"session", "Allow for this session"},
                                           {"always", "Always allow"},
                                           {"deny", "Deny"}},
                               .field = "decision",
                               .title = "Decision",
                               .key = "approval"};
}

GateResult ask_user(const std::string& command, const std::string& description,
                    registry::CallContext& ctx) {
  int64_t timeout_s = ctx.services.config.get_int("approvals.timeout", 300);
  auto answer = registry::elicit(ctx.client, approval_question(command, description),
                                 std::chrono::seconds(std::max<int64_t>(1, timeout_s)), ctx.stop);
  if (!answer) return blocked(description, kSilence);
  const std::string& decision = answer->choice;
  if (answer->action != "accept" || decision.empty() || decision == "deny") {
    return blocked(description, kDenied);
  }
  if (decision == "session" || decision == "always") {
    ctx.session.state<ApprovalState>().approve(description);
  }
  if (decision == "always") {
    Status saved = persist_allowlist_key(ctx.services.config.home(), description);
    if (!saved) log::warn("approval: could not persist allowlist: " + saved.error().message);
  }
  return {Verdict::kApproved, description, ""};
}

// Nobody could be asked, so the result tells the person reading it how to
// let the command through (docs/approval.md).
std::string pending_message(const std::string& description, const Config& config) {
  std::string file = config.home().empty() ? "config.yaml" : config.home() + "/config.yaml";
  return "This command needs approval (" + description +
         ") and no one could be asked through this client: a person can allow it by adding \"" +
         description + "\" to command_allowlist in " + file +
         ", or by turning approvals off (approvals.mode: off, or --yolo).";
}

// Approval proper, once the floors have passed.
GateResult evaluate(const std::string& command, const std::optional<Detection>& found,
                    registry::CallContext& ctx) {
  const Config& config = ctx.services.config;
  if (!found || approvals_off(config)) return {};
  if (allowlisted(config, command, found->description)) return {};
  if (ctx.session.state<ApprovalState>().is_approved(found->description)) return {};
  if (ctx.client.supports_elicitation()) return ask_user(command, found->description, ctx);
  return {Verdict::kPending, found->description, pending_message(found->description, config)};
}

}  // namespace

bool ApprovalState::is_approved(const std::string& key) const {
  std::lock_guard lock(mu_);
  return keys_.count(key) > 0;
}

void ApprovalState::approve(const std::string& key) {
  std::lock_guard lock(mu_);
  keys_.insert(key);
}

std::string approval_note(const std::string& description) {
  return "Command required approval (" + description + ") and was approved by the user.";
}

shell::Environment ApprovalState::environment(std::string_view snapshot) {
  std::lock_guard lock(mu_);
  size_t hash = std::hash<std::string_view>{}(snapshot);
  if (hash != snapshot_hash_) {
    snapshot_env_ = snapshot.empty() ? shell::Environment{} : shell::load_snapshot(snapshot);
    snapshot_hash_ = hash;
  }
  shell::Environment env = snapshot_env_;
  shell::merge_definitions(env, remembered_);
  return env;
}

void ApprovalState::remember(const shell::Environment& after) {
  std::lock_guard lock(mu_);
  shell::merge_definitions(remembered_, after);
}

GateResult check_command(const std::string& command, registry::CallContext& ctx) {
  return check_command(command, ctx, ShellContext{});
}

GateResult check_command(const std::string& command, registry::CallContext& ctx,
                         const ShellContext& shell) {
  const Config& config = ctx.services.config;
  ApprovalState& state = ctx.session.state<ApprovalState>();
  shell::Environment env = state.environment(shell.snapshot);
  env.origin = shell.cwd.empty() ? ctx.session.cwd() : shell.cwd;
  shell::Environment after;
  std::optional<Detection> found = detect_dangerous(command, env, &after);
  if (found && found->hardline) {
    return blocked(found->description, hardline_message(found->description));
  }
  if (is_sudo_stdin_guess(command)) {
    const std::string desc = "sudo password guessing via stdin (sudo -S)";
    return blocked(desc, "BLOCKED: " + desc +
                             ". SUDO_PASSWORD is not set, so sudo -S "
                             "cannot be answered; do not guess passwords.");
  }
  if (auto rule = matching_deny_rule(config, command)) {
    std::string desc = "user-defined deny rule '" + *rule + "'";
    return blocked(desc, "BLOCKED: " + desc +
                             ". The user's configuration (approvals.deny) "
                             "forbids this command. Do NOT retry");
  }
  GateResult result = evaluate(command, found, ctx);
  if (result.verdict == Verdict::kAllow || result.verdict == Verdict::kApproved)
    state.remember(after);
  return result;
}

}  // namespace hermes::approval
