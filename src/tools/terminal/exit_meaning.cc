// SPDX-License-Identifier: MIT
// exit_code_meaning: per-command rc 1 meanings, curl's codes, shell codes
// (124, 126, 127, 130) and signal deaths (negative, or "usually" 128+n).
#include "tools/terminal/exit_meaning.h"

#include <signal.h>

#include <cstring>
#include <set>

namespace hermes::terminal {
namespace {

std::string_view last_segment(std::string_view command) {
  size_t best = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ';' || c == '|' || c == '\n') best = i + 1;
    if (c == '&' && i + 1 < command.size() && command[i + 1] == '&') best = i + 2;
  }
  return command.substr(best);
}

std::string signal_name(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(sig);
}

std::optional<std::string> rc1_meaning(const std::string& base) {
  static const std::set<std::string> kSearchers = {"grep", "egrep", "fgrep", "rg", "ag", "ack"};
  if (kSearchers.count(base)) return "No matches found (not an error)";
  if (base == "diff") return "Files differ (not an error)";
  if (base == "find") return "Some paths could not be read (partial results)";
  if (base == "test" || base == "[" || base == "[[") return "Condition evaluated to false";
  if (base == "git") return "Git reported a non-zero status (often normal, e.g. differences found)";
  return std::nullopt;
}

std::optional<std::string> curl_meaning(int rc) {
  switch (rc) {
    case 6:
      return "curl: could not resolve host";
    case 7:
      return "curl: failed to connect to host";
    case 22:
      return "curl: HTTP error response (4xx/5xx)";
    case 28:
      return "curl: operation timed out";
    default:
      return std::nullopt;
  }
}

std::optional<std::string> shell_meaning(int rc) {
  static const std::set<int> kUsualSignals = {3, 4, 6, 7, 8, 9, 11, 13, 15, 24, 25};
  if (rc < 0) return "Killed by signal " + std::to_string(-rc) + " (" + signal_name(-rc) + ")";
  if (rc == 124) return "Command timed out";
  if (rc == 126)
    return "Command not executable (permission denied, or the directory could not be entered)";
  if (rc == 127) return "Command not found";
  if (rc == 130) return "Interrupted (SIGINT / Ctrl-C)";
  if (rc > 128 && kUsualSignals.count(rc - 128)) {
    std::string out = "Usually means killed by signal " + std::to_string(rc - 128) + " (" +
                      signal_name(rc - 128) + ")";
    if (rc == 137) out += ", e.g. out of memory";
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::string last_base_command(std::string_view command) {
  std::string_view seg = last_segment(command);
  size_t i = 0;
  while (i < seg.size()) {
    while (i < seg.size() && (seg[i] == ' ' || seg[i] == '\t' || seg[i] == '(' || seg[i] == '{'))
      ++i;
    size_t end = seg.find_first_of(" \t)", i);
    if (end == std::string_view::npos) end = seg.size();
    std::string_view word = seg.substr(i, end - i);
    i = end;
    if (word.empty()) break;
    size_t eq = word.find('=');
    if (eq != std::string_view::npos && eq > 0 && word.find('/') > eq) continue;
    size_t slash = word.rfind('/');
    return std::string(slash == std::string_view::npos ? word : word.substr(slash + 1));
  }
  return {};
}

std::optional<std::string> exit_code_meaning(std::string_view command, int exit_code) {
  if (exit_code == 0) return std::nullopt;
  std::string base = last_base_command(command);
  if (exit_code == 1) {
    if (auto m = rc1_meaning(base)) return m;
  }
  if (base == "curl") {
    if (auto m = curl_meaning(exit_code)) return m;
  }
  return shell_meaning(exit_code);
}

}  // namespace hermes::terminal
