// SPDX-License-Identifier: MIT
#include "tools/execute_code/script_output.h"

#include "core/ansi.h"
#include "core/redact.h"
#include "core/strings.h"
#include "fs/atomic_write.h"

#include <filesystem>

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

std::string truncation_marker(uint64_t omitted, uint64_t total) {
  return "\n\n... [OUTPUT TRUNCATED - " + with_commas(omitted) + " chars omitted out of " +
         with_commas(total) + " total] ...\n\n";
}

}  // namespace

StdoutView assemble_stdout(const proc::OutputCapture& capture) {
  StdoutView view;
  view.total_bytes = capture.total_bytes();
  if (view.total_bytes <= kStdoutHeadBytes + kStdoutTailBytes) {
    view.text = capture.prefix();
    view.captured_bytes = view.total_bytes;
    return view;
  }
  std::string_view head =
      to_code_point(std::string_view(capture.prefix()).substr(0, kStdoutHeadBytes));
  std::string_view tail = from_code_point(capture.tail());
  view.truncated = true;
  view.captured_bytes = head.size() + tail.size();
  view.omitted_bytes = view.total_bytes - view.captured_bytes;
  view.text = std::string(head) + truncation_marker(view.omitted_bytes, view.total_bytes) +
              std::string(tail);
  return view;
}

std::string write_spill(const std::string& dir, const proc::OutputCapture& capture, bool redact) {
  std::string text = capture.prefix();
  if (!capture.complete()) {
    std::string_view head = to_code_point(text);
    std::string_view tail = from_code_point(capture.tail());
    uint64_t omitted = capture.total_bytes() - head.size() - tail.size();
    text =
        std::string(head) + truncation_marker(omitted, capture.total_bytes()) + std::string(tail);
  }
  text = clean_text(text, redact);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::replace, ec);
  std::string path = dir + "/stdout-" + fs::sha256_hex(text).substr(0, 12) + ".txt";
  return fs::atomic_write(path, text) ? path : "";
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
