// SPDX-License-Identifier: MIT
// The three foreground checks (docs/terminal.md), in order, with RE2
// (linear time, no backtracking on hostile input).
#include "tools/terminal/guardrails.h"

#include "core/strings.h"

#include <re2/re2.h>

namespace hermes::terminal {
namespace {

constexpr const char* kWrapperError =
    "Foreground command uses shell-level background wrappers (nohup/disown/setsid). "
    "Run it with background=true instead so the process is tracked, then use "
    "process(action=\"poll\"/\"wait\"/\"kill\") to manage it.";
constexpr const char* kAmpersandError =
    "Foreground command uses '&' backgrounding. Run it with background=true instead "
    "so the process is tracked (add notify_on_complete=true for bounded jobs), then "
    "use process(action=\"poll\"/\"wait\") to follow it.";
constexpr const char* kServerError =
    "This foreground command appears to start a long-lived server/watch process, "
    "which would block until the timeout. Run it with background=true, then verify "
    "readiness with a health check in a separate call.";

// Empties single-, double- and backtick-quoted spans, keeping the quotes.
std::string blank_quotes(std::string_view command) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == '\\' && quote != '\'' && i + 1 < command.size()) {
        ++i;
        continue;
      }
      if (c == quote) {
        quote = 0;
        out += c;
      }
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    out += c;
  }
  return out;
}

bool is_help_request(const std::string& text) {
  std::string t = trim(text);
  return t.find(" --help") != std::string::npos || t.find(" --version") != std::string::npos ||
         ends_with(t, " -h") || ends_with(t, " -v");
}

}  // namespace

std::optional<std::string> foreground_guardrail(std::string_view command) {
  static const RE2 kWrapper(R"((?:^|\n|;|&|\||\$\()[ \t]*(?:nohup|disown|setsid)\b)");
  static const RE2 kAmpersand(R"(\s&\s|\s&\s*(?:#[^\n]*)?$)");
  static const RE2 kServer(
      R"((?i)\b(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch)\b|)"
      R"(docker\s+compose\s+up\b|next\s+dev\b|vite(?:\s|$)|nodemon\b|uvicorn\b|)"
      R"(gunicorn\b|python3?\s+-m\s+http\.server\b))");
  std::string text = blank_quotes(command);
  if (is_help_request(text)) return std::nullopt;
  if (RE2::PartialMatch(text, kWrapper)) return kWrapperError;
  if (RE2::PartialMatch(text, kAmpersand)) return kAmpersandError;
  if (RE2::PartialMatch(text, kServer)) return kServerError;
  return std::nullopt;
}

}  // namespace hermes::terminal
