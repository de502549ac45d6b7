// SPDX-License-Identifier: MIT
// How much of a file system is in use: what the benches and tests of the
// checkpoint store weigh disk use by, since a clone shares its blocks with
// its file and only the file system's count shows it (du counts them twice).
#pragma once

#include <cstdint>
#include <string>

namespace hermes::fs {

// Bytes of the blocks in use on the file system holding `path`, once what
// is written there is on it (syncfs first: delayed allocation); -1 when it
// cannot be read. Other writers on that file system move it too.
int64_t used_bytes(const std::string& path);

}  // namespace hermes::fs
