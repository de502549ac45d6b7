// SPDX-License-Identifier: MIT
#include "tools/background_jobs/job_output.h"

#include "core/ansi.h"
#include "core/redact.h"
#include "core/strings.h"

namespace hermes::background_jobs {

std::string redact_output(std::string_view text, const OutputRedaction& redaction) {
  if (!redaction.enabled) return std::string(text);
  return redact_secrets(text, {.mode = RedactMode::kOutput, .assignments = redaction.assignments});
}

std::string clean_process_output(std::string_view raw, const Config& config) {
  return redact_output(strip_ansi(sanitize_utf8(raw)), {.enabled = redaction_enabled(config)});
}

}  // namespace hermes::background_jobs
