// SPDX-License-Identifier: MIT
#include "registry/call_status.h"

#include "core/ansi.h"
#include "core/redact.h"
#include "core/strings.h"

namespace hermes::registry {
namespace {

// Enough of a line for its first 200 bytes to be redacted whole.
constexpr size_t kLineCap = 4096;
constexpr size_t kShownBytes = 200;

// Status goes to whoever polls the task: secrets are masked whatever the
// output's own redaction setting, with the assignment passes on.
std::string clean(std::string_view line) {
  std::string text = redact_secrets(sanitize_utf8(strip_ansi(line)),
                                    {.mode = RedactMode::kOutput, .assignments = true});
  return std::string(utf8_prefix(trim(text), kShownBytes));
}

}  // namespace

void CallStatus::add_output(std::string_view bytes) {
  std::lock_guard lock(mu_);
  bytes_ += bytes.size();
  for (char c : bytes) {
    // A carriage return ends a line too: progress bars redraw with it.
    if (c == '\n' || c == '\r') {
      if (!trim(line_).empty()) last_line_ = line_;
      line_.clear();
    } else if (line_.size() < kLineCap) {
      line_ += c;
    }
  }
}

CallStatus::View CallStatus::view() const {
  std::string line;
  uint64_t bytes;
  {
    std::lock_guard lock(mu_);
    bytes = bytes_;
    // A line still being written (a prompt, a progress bar) is the latest.
    line = trim(line_).empty() ? last_line_ : line_;
  }
  return {bytes, clean(line)};
}

std::string running_status(std::string_view label, int64_t seconds, const CallStatus* status) {
  std::string text = std::string(label) + ": running for " + std::to_string(seconds) + " s";
  if (!status) return text;
  CallStatus::View view = status->view();
  if (view.bytes == 0) return text;
  text += ", " + std::to_string(view.bytes) + " bytes of output";
  if (!view.last_line.empty()) text += "; last line: " + view.last_line;
  return text;
}

}  // namespace hermes::registry
