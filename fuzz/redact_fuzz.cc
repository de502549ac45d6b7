// SPDX-License-Identifier: MIT
// Secret redaction in both modes, with and without the assignment passes, on
// arbitrary text: never a crash, a hang or a sanitizer report.
#include "core/redact.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto mode : {hermes::RedactMode::kFileRead, hermes::RedactMode::kOutput}) {
    for (bool assignments : {false, true}) {
      (void)hermes::redact_secrets(text, {.mode = mode, .assignments = assignments});
    }
  }
  return 0;
}
