// SPDX-License-Identifier: MIT
// The post-write lint object of docs/tools/write_file.md: a syntax check per file
// type and the delta that hides errors the file already had.
#pragma once

#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

namespace hermes::write_pipeline {

struct LintReport {
  std::string status;   // "ok", "error" or "skipped"
  std::string output;   // ok/error: the linter's text ("" when clean)
  std::string message;  // skipped, or the pre-existing note on an error
};

// Lints `new_content` (already written at `path`). When it fails and the
// previous content is known and failed too, only the lines that are new are
// reported. Linters run from argv with the text on stdin (python3, node) or
// on the written file (tsc, go vet, rustfmt); a missing tool means skipped,
// and so does a file linter when the file is not on this host (`on_host`).
// `stop` (the call's cancellation) ends a running linter: skipped.
// Whether linting `path` starts a process (python3, node, tsc, go vet,
// rustfmt), which may run up to its timeout: a write of such a file is not
// a brief call.
bool lints_with_a_process(const std::string& path);

LintReport lint_delta(const std::string& path, std::string_view new_content,
                      const std::optional<std::string>& old_content, bool on_host,
                      std::stop_token stop = {});

}  // namespace hermes::write_pipeline
