// SPDX-License-Identifier: MIT
// The shell reader and the approval detection on arbitrary bytes: every
// input ends in a verdict (or a limit), never a crash, a hang or a leak.
#include "tools/approval/dangerous_command.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shell/analyze.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hermes::shell::Analysis analysis = hermes::shell::analyze(text);
  // Definitions left behind feed a second command, as in a session.
  hermes::approval::detect_dangerous(text, analysis.env);
  return 0;
}
