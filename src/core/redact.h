// SPDX-License-Identifier: MIT
// Secret redaction for text the model will see (file reads, search matches,
// terminal output). Patterns are compiled once; each pass is linear in the
// input. Thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace hermes {

class Config;

enum class RedactMode {
  // file-read semantics: vendor prefix tokens become «redacted:<prefix>…».
  kFileRead,
  // terminal/search semantics: prefix tokens masked head6...tail4 / ***.
  kOutput,
};

struct RedactOptions {
  RedactMode mode = RedactMode::kFileRead;
  // The KEY=value / `key: value` / JSON "apiKey": "…" assignment passes run
  // only for secret-bearing text (.env files, shell rc, Hermes config.yaml,
  // commands that dump the environment).
  bool assignments = false;
};

// True when redaction is on: `security.redact_secrets` /
// `HERMES_REDACT_SECRETS` (default true).
bool redaction_enabled(const Config& config);

// True for basenames whose content gets the assignment passes (`.env`,
// `.env.local`, `.bashrc`, `.zshrc`, `.profile`, Hermes `config.yaml`, …).
bool is_secret_bearing_file(std::string_view path);

// Returns `text` with every secret the engine recognises masked.
std::string redact_secrets(std::string_view text, const RedactOptions& options = {});

}  // namespace hermes
