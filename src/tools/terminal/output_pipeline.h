// SPDX-License-Identifier: MIT
// Terminal output pipeline in the contract's order: truncate (40% head /
// 60% tail), strip ANSI, trim, redact; plus the spill file of full output.
#pragma once

#include "proc/output_capture.h"
#include "tools/background_jobs/job_output.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::terminal {

struct OutputOptions {
  // `tool_output.max_bytes`, counted in code points.
  size_t max_chars = 50'000;
  background_jobs::OutputRedaction redaction;
  // Directory for spill files; empty disables spilling.
  std::string spill_dir;
};

struct FormattedOutput {
  std::string text;
  uint64_t total_chars = 0;
  bool truncated = false;
  // Set when the full output was written to a spill file.
  std::string full_output_path;
};

// Formats `capture` for the model. Invalid UTF-8 becomes U+FFFD, so the
// result is always valid UTF-8. The truncation notice uses thousands
// separators (the newest generation's format).
FormattedOutput format_output(const proc::OutputCapture& capture, const OutputOptions& options);

// Options from config: max chars, redaction switch, spill directory
// `$HERMES_HOME/cache/terminal-output`.
OutputOptions output_options(const Config& config, std::string_view command);

// True when `command` dumps the environment (a segment starting with env,
// printenv, set, export, declare) or reads a secret-bearing file with a
// pager/reader (cat, head, tail, less, grep, sed…): its output then gets
// the full redaction pass (docs/terminal.md).
bool command_reveals_secrets(std::string_view command);

}  // namespace hermes::terminal
