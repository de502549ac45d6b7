// SPDX-License-Identifier: MIT
#include "tools/execute_code/script_output.h"

#include "core/redact.h"
#include "core/strings.h"
#include "tools/terminal/ansi.h"

namespace hermes::execute_code {
namespace {

// Skips UTF-8 continuation bytes at the front, so the tail starts on a code
// point.
std::string_view from_code_point(std::string_view text) {
  size_t start = 0;
  while (start < text.size() && start < 4 &&
         (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
    ++start;
  }
  return text.substr(start);
}

// Drops an incomplete UTF-8 sequence at the end (where a cap cut it).
std::string_view to_code_point(std::string_view text) {
  size_t start = text.size();
  while (start > 0 && text.size() - start < 4 &&
         (static_cast<unsigned char>(text[start - 1]) & 0xC0) == 0x80) {
    --start;
  }
  if (start == 0) return text;
  auto lead = static_cast<unsigned char>(text[start - 1]);
  size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  size_t have = text.size() - (start - 1);
  return have < need ? text.substr(0, start - 1) : text;
}

}  // namespace

std::string assemble_stdout(const proc::OutputCapture& capture) {
  const std::string& head = capture.prefix();
  std::string_view tail = capture.tail();
  uint64_t total = capture.total_bytes();
  if (total <= head.size() + tail.size()) {
    // Head and tail overlap or touch: stitch them without repeating bytes.
    size_t overlap = head.size() + tail.size() - total;
    return head + std::string(tail.substr(overlap));
  }
  std::string_view safe_head = to_code_point(head);
  std::string_view safe_tail = from_code_point(tail);
  uint64_t omitted = total - safe_head.size() - safe_tail.size();
  std::string out(safe_head);
  out += "\n\n... [OUTPUT TRUNCATED - " + with_commas(omitted) + " chars omitted out of " +
         with_commas(total) + " total] ...\n\n";
  out += safe_tail;
  return out;
}

std::string assemble_stderr(const proc::OutputCapture& capture) {
  if (capture.complete()) return capture.prefix();
  return std::string(to_code_point(capture.prefix()));
}

std::string clean_text(std::string_view raw, bool redact) {
  std::string text = strip_ansi(sanitize_utf8(raw));
  if (!redact) return text;
  return redact_secrets(text, RedactOptions{.mode = RedactMode::kOutput});
}

}  // namespace hermes::execute_code
