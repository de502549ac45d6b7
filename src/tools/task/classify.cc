// SPDX-License-Identifier: MIT
// Run classification and stderr parsing, with the reference's false
// positives fixed (429 inside ids, session ids read from the answer).
#include "tools/task/classify.h"

#include "core/strings.h"

#include <vector>

namespace hermes::task {
namespace {

bool is_word_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool has_token_429(std::string_view line) {
  for (size_t at = line.find("429"); at != std::string_view::npos; at = line.find("429", at + 1)) {
    bool left_ok = at == 0 || !is_word_char(line[at - 1]);
    bool right_ok = at + 3 >= line.size() || !is_word_char(line[at + 3]);
    if (left_ok && right_ok) return true;
  }
  return false;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

bool is_session_line(std::string_view line) { return starts_with(line, "session_id:"); }

bool is_session_id(std::string_view id) {
  if (id.size() != 22 || id[8] != '_' || id[15] != '_') return false;
  for (size_t i = 0; i < id.size(); ++i) {
    char c = id[i];
    if (i == 8 || i == 15) continue;
    bool ok = i < 15 ? (c >= '0' && c <= '9') : ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string error_code_of(RunClass run_class) {
  switch (run_class) {
    case RunClass::kSuccess:
      return "";
    case RunClass::kSpawnFailed:
      return "spawn_failed";
    case RunClass::kTimeout:
      return "timeout";
    case RunClass::kRateLimited:
      return "rate_limited";
    case RunClass::kUnknown:
      return "unknown";
  }
  return "unknown";
}

RunClass classify_run(const AgentResult& run) {
  if (run.spawn_failed) return RunClass::kSpawnFailed;
  if (run.timed_out) return RunClass::kTimeout;
  bool failed = run.cancelled || !run.exit_code || *run.exit_code != 0;
  if (!failed) return RunClass::kSuccess;
  return mentions_rate_limit(run.stderr_text) ? RunClass::kRateLimited : RunClass::kUnknown;
}

bool mentions_rate_limit(std::string_view stderr_text) {
  for (std::string_view line : lines_of(stderr_text)) {
    if (is_session_line(line)) continue;
    if (has_token_429(line) || line.find("RateLimitError") != std::string_view::npos ||
        line.find("FreeUsageLimitError") != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> parse_session_id(std::string_view stderr_text) {
  std::optional<std::string> found;
  for (std::string_view line : lines_of(stderr_text)) {
    if (!is_session_line(line)) continue;
    std::string id = trim(line.substr(11));
    if (is_session_id(id)) found = id;
  }
  return found;
}

std::string last_lines(std::string_view text, size_t max_lines) {
  std::vector<std::string> kept;
  for (std::string_view line : lines_of(text)) {
    std::string trimmed = trim(line);
    if (!trimmed.empty() && !is_session_line(trimmed)) kept.push_back(trimmed);
  }
  size_t first = kept.size() > max_lines ? kept.size() - max_lines : 0;
  std::string out;
  for (size_t i = first; i < kept.size(); ++i) {
    if (!out.empty()) out += " | ";
    out += kept[i];
  }
  return out;
}

std::string error_detail_of(std::string_view stderr_text, size_t max_bytes) {
  std::string kept;
  for (std::string_view line : lines_of(stderr_text)) {
    if (is_session_line(line)) continue;
    kept.append(line);
    kept += '\n';
  }
  std::string text = trim(kept);
  if (text.size() <= max_bytes) return text;
  size_t start = text.size() - max_bytes;
  // Skip continuation bytes so the cut lands on a code-point start.
  while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) ++start;
  return text.substr(start);
}

}  // namespace hermes::task
