// SPDX-License-Identifier: MIT
// A Unix stream socket at a path: listening (the execute_code RPC, the write
// capture's server) or connected to one.
#pragma once

#include "core/result.h"
#include "proc/unique_fd.h"

#include <sys/types.h>

#include <string>

namespace hermes::proc {

// A non-blocking, close-on-exec socket listening at `path` with `mode` and
// room for `backlog` waiting connections; the path is removed again when
// listening fails.
Result<UniqueFd> listen_unix(const std::string& path, mode_t mode, int backlog);

// A blocking, close-on-exec socket connected to `path`.
Result<UniqueFd> connect_unix(const std::string& path);

}  // namespace hermes::proc
