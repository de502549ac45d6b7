// SPDX-License-Identifier: MIT
// What a script printed, bounded while it runs and cleaned for the model
// afterwards (docs/tools/execute_code.md).
#pragma once

#include "proc/output_capture.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace hermes::execute_code {

inline constexpr size_t kStdoutHeadBytes = 20000;
inline constexpr size_t kStdoutTailBytes = 30000;
inline constexpr size_t kStderrBytes = 10000;
// How much of stdout is kept verbatim for the spill file.
inline constexpr size_t kSpillBytes = 5'000'000;

// stdout keeps a long head (for the spill file) and a rolling tail; stderr
// only its head. Memory stays bounded whatever the script prints. Not
// thread-safe.
struct ScriptOutput {
  proc::OutputCapture stdout_capture{kSpillBytes, kStdoutTailBytes};
  proc::OutputCapture stderr_capture{kStderrBytes, 0};
};

struct StdoutView {
  std::string text;
  bool truncated = false;
  uint64_t total_bytes = 0;
  uint64_t captured_bytes = 0;  // head + tail shown
  uint64_t omitted_bytes = 0;
};

// The stdout the model sees: everything up to kStdoutHeadBytes +
// kStdoutTailBytes, otherwise the first 20,000 bytes, the omission marker
// `\n\n... [OUTPUT TRUNCATED - <omitted> chars omitted out of <total> total] ...\n\n`
// (byte counts with thousands separators) and the last 30,000. Neither side
// splits a UTF-8 sequence. `capture` must have a head of at least 50,000.
StdoutView assemble_stdout(const proc::OutputCapture& capture);

// Writes stdout as kept (the first kSpillBytes, then the marker and the tail
// when longer), cleaned like the output, to `<dir>/stdout-<sha12>.txt` in a
// 0700 directory. Returns the path, or "" when it could not be written.
std::string write_spill(const std::string& dir, const proc::OutputCapture& capture, bool redact);

// The first kStderrBytes of stderr.
std::string assemble_stderr(const proc::OutputCapture& capture);

// UTF-8 with replacement, ANSI escapes stripped, then secrets redacted with
// output semantics when `redact` is set.
std::string clean_text(std::string_view raw, bool redact);

}  // namespace hermes::execute_code
