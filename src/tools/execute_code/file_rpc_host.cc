// SPDX-License-Identifier: MIT
#include "tools/execute_code/file_rpc_host.h"

#include "backend/run_bash.h"
#include "core/base64.h"
#include "core/strings.h"
#include "rpc/rpc_protocol.h"

#include <chrono>

namespace hermes::execute_code {
namespace {

// Bounds one round trip; a healthy one takes milliseconds.
constexpr std::chrono::seconds kCommandTimeout{60};

// Prints `name\nbase64\n` per finished request, in sequence order; `.tmp`
// files are still being written by the script.
std::string listing_script(const std::string& rpc_dir) {
  return "cd " + shell_quote(rpc_dir) +
         " 2>/dev/null || exit 0\n"
         "for f in req_*; do\n"
         "  case \"$f\" in *.tmp) continue;; esac\n"
         "  [ -f \"$f\" ] || continue\n"
         "  printf '%s\\n' \"$f\"; base64 < \"$f\" | tr -d '\\n'; echo\n"
         "done";
}

bool all_digits(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

Status command_status(const Result<backend::BashOutcome>& outcome, const std::string& what) {
  if (!outcome) return outcome.error();
  if (outcome->end != proc::RunEnd::kExited || outcome->exit_code != 0) {
    return Error::Io(what + " failed (exit " + std::to_string(outcome->exit_code) + ")");
  }
  return {};
}

}  // namespace

std::vector<PendingRequest> parse_listing(std::string_view output) {
  std::vector<PendingRequest> out;
  std::vector<std::string> lines = split(output, '\n');
  for (size_t i = 0; i + 1 < lines.size(); i += 2) {
    std::string_view name = lines[i];
    if (!name.starts_with("req_") || !all_digits(name.substr(4))) continue;
    std::optional<std::string> body = base64_decode(lines[i + 1]);
    if (body) out.push_back({std::string(name.substr(4)), std::move(*body)});
  }
  return out;
}

Status FileRpcHost::poll_once(std::stop_token stop) {
  auto listed = backend::run_bash_captured(
      backend_, backend::BashRun{.script = listing_script(rpc_dir_), .timeout = kCommandTimeout},
      stop);
  HERMES_TRY(command_status(listed, "listing the RPC requests"));
  for (const PendingRequest& request : parse_listing(listed->output)) {
    if (stop.stop_requested()) break;
    if (!Json::accept(request.body)) {
      HERMES_TRY(reply(request, nullptr, stop));
      continue;
    }
    std::string response = rpc::answer_private(request.body, handler_);
    HERMES_TRY(reply(request, &response, stop));
  }
  return {};
}

// Moves the response into place whole (the stub polls for the final name),
// then deletes the request; without a response only deletes it.
Status FileRpcHost::reply(const PendingRequest& request, const std::string* response,
                          std::stop_token stop) {
  const std::string req = "req_" + request.seq;
  const std::string res = "res_" + request.seq;
  std::string script = "cd " + shell_quote(rpc_dir_) + " && ";
  if (response) script += "cat > " + res + ".tmp && mv -f " + res + ".tmp " + res + " && ";
  script += "rm -f " + req;
  backend::BashRun run{.script = std::move(script), .timeout = kCommandTimeout};
  if (response) run.stdin_data = *response;
  return command_status(backend::run_bash_captured(backend_, run, stop), "answering " + req);
}

}  // namespace hermes::execute_code
