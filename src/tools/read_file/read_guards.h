// SPDX-License-Identifier: MIT
// The path guards that run before read_file touches content (docs/tools/read_file.md,
// steps 1–4): NT namespace strings, the device blocklist on the literal
// path, every symlink hop and the real path, and special files by stat.
#pragma once

#include "fs/file_system.h"

#include <optional>
#include <string>
#include <string_view>

namespace hermes::read_file {

// True for Windows NT/device-namespace forms (`\\?\`, `\??\`, `\\.\`).
bool is_nt_namespace(std::string_view raw);
// True for a path that would block or never end (`/dev/zero`, `/dev/stdin`,
// `/proc/<pid>/environ`, …); `/dev/null` and `/proc/cpuinfo` are fine.
bool is_blocked_device(std::string_view path);
// Whether `absolute`, any symlink hop from it, or `real` is a blocked device.
bool hits_device_blocklist(const fs::FileSystem& fs, const std::string& absolute,
                           const std::string& real);
// `a FIFO (named pipe)`, `a socket`, `a character device`, `a block device`
// for a special file, else nullopt.
std::optional<std::string> special_file_kind(fs::FileType type);

}  // namespace hermes::read_file
