// SPDX-License-Identifier: MIT
// What a script printed, bounded while it runs and cleaned for the model
// afterwards (shell-and-exec.md §6.6).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "proc/output_capture.h"

namespace hermes::execute_code {

inline constexpr size_t kStdoutHeadBytes = 20000;
inline constexpr size_t kStdoutTailBytes = 30000;
inline constexpr size_t kStderrBytes = 10000;

// stdout keeps a head and a rolling tail; stderr only its head. Memory stays
// bounded whatever the script prints. Not thread-safe.
struct ScriptOutput {
  proc::OutputCapture stdout_capture{kStdoutHeadBytes, kStdoutTailBytes};
  proc::OutputCapture stderr_capture{kStderrBytes, 0};
};

// The stdout text: everything when it fits in head + tail, otherwise the
// head, the omission marker
// `\n\n... [OUTPUT TRUNCATED - <omitted> chars omitted out of <total> total] ...\n\n`
// (byte counts with thousands separators) and the tail. Neither side splits
// a UTF-8 sequence.
std::string assemble_stdout(const proc::OutputCapture& capture);

// The first kStderrBytes of stderr.
std::string assemble_stderr(const proc::OutputCapture& capture);

// UTF-8 with replacement, ANSI escapes stripped, then secrets redacted with
// output semantics when `redact` is set.
std::string clean_text(std::string_view raw, bool redact);

}  // namespace hermes::execute_code
