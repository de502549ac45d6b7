// SPDX-License-Identifier: MIT
// Persisting an "always" approval: the key is merged into
// `command_allowlist` of `$HERMES_HOME/config.yaml` (docs/terminal.md).
#pragma once

#include "core/result.h"

#include <string>

namespace hermes::approval {

// Adds `key` to the `command_allowlist` sequence of `<home>/config.yaml`
// (created if missing), atomically (temp file + rename, mode 0600). The
// running server's Config is not reloaded: the session keeps the key in
// memory, later server starts read it from the file. kIo on write failure,
// kInvalidArgument when the existing file is not a YAML mapping.
Status persist_allowlist_key(const std::string& home, const std::string& key);

}  // namespace hermes::approval
