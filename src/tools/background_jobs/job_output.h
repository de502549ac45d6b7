// SPDX-License-Identifier: MIT
// Redaction of terminal and process output (kOutput mode), and the cleaned
// view of a background job's raw output that process and the terminal's
// notices show.
#pragma once

#include <string>
#include <string_view>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::background_jobs {

struct OutputRedaction {
  // Off when config turns redaction off (`redaction_enabled`).
  bool enabled = true;
  // Assignment passes (env dumps, secret-file reads): see the terminal's
  // `command_reveals_secrets`.
  bool assignments = false;
};

// Redacts `text` when `redaction.enabled`.
std::string redact_output(std::string_view text, const OutputRedaction& redaction);

// ANSI-stripped, UTF-8-sanitised, redacted view of raw process output.
std::string clean_process_output(std::string_view raw, const Config& config);

}  // namespace hermes::background_jobs
