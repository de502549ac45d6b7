// SPDX-License-Identifier: MIT
// What every FileSystem shares: the names of file types, the refusal of
// whole-file reads that could block or exhaust memory, and read_entry made
// of the other calls.
#include "fs/file_system.h"

#include <algorithm>

namespace hermes::fs {

std::string_view file_type_name(FileType type) {
  switch (type) {
    case FileType::kRegular:
      return "a regular file";
    case FileType::kDirectory:
      return "a directory";
    case FileType::kFifo:
      return "a FIFO (named pipe)";
    case FileType::kSocket:
      return "a socket";
    case FileType::kCharDevice:
      return "a character device";
    case FileType::kBlockDevice:
      return "a block device";
    case FileType::kSymlink:
      return "a symbolic link";
    case FileType::kOther:
      break;
  }
  return "a special file";
}

Status check_whole_file(const FileInfo& info, const std::string& path) {
  if (info.type != FileType::kRegular) {
    return Error::InvalidArgument("'" + path + "' is " + std::string(file_type_name(info.type)) +
                                  ", not a regular file");
  }
  if (info.size > kMaxWholeFileBytes) {
    return Error::TooLarge("'" + path + "' is " + std::to_string(info.size) +
                           " bytes, over the 64 MiB limit for reading a file whole");
  }
  return {};
}

Result<Entry> FileSystem::read_entry(const std::string& path, uint64_t max_bytes) const {
  Entry entry;
  HERMES_ASSIGN_OR_RETURN(entry.info, lstat(path));
  if (entry.info.type == FileType::kSymlink) {
    HERMES_ASSIGN_OR_RETURN(entry.target, read_link(path));
  } else if (entry.info.type == FileType::kRegular &&
             entry.info.size <= std::min(max_bytes, kMaxWholeFileBytes)) {
    auto bytes = read_all(path);
    if (bytes) {
      entry.bytes = std::move(*bytes);
    } else if (bytes.error().code != ErrorCode::kPermissionDenied) {
      return bytes.error();
    }
  }
  return entry;
}

}  // namespace hermes::fs
