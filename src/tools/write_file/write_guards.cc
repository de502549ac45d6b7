// SPDX-License-Identifier: MIT
// Display-text detection and the stale-overwrite reason.
#include "tools/write_file/write_guards.h"

#include "tools/file_common/read_tracker.h"

#include <cctype>

namespace hermes::write_file {
namespace {

// read_file's dedup notice (docs/tools/read_file.md), word for word.
constexpr std::string_view kDedupNotice =
    "File unchanged since last read. The content from the earlier read_file result in this "
    "conversation is still current — refer to that instead of re-reading.";

// The `N` of a line shaped `<digits>|…` after left-stripping, or -1.
long line_number_prefix(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos) return -1;
  size_t digits = i;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
  if (digits == i || digits >= line.size() || line[digits] != '|' || digits - i > 9) return -1;
  return std::stol(std::string(line.substr(i, digits - i)));
}

bool is_numbered_listing(std::string_view content) {
  size_t non_empty = 0, numbered = 0;
  long previous = -1;
  bool consecutive = true;
  while (!content.empty()) {
    size_t nl = content.find('\n');
    std::string_view line = content.substr(0, nl);
    content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++non_empty;
    long n = line_number_prefix(line);
    if (n < 0) continue;
    if (numbered > 0 && n != previous + 1) consecutive = false;
    previous = n;
    ++numbered;
  }
  return numbered >= 2 && consecutive && numbered * 10 >= non_empty * 6;
}

}  // namespace

Status check_not_display_text(std::string_view content) {
  bool dedup = content.find(kDedupNotice.substr(0, 31)) != std::string_view::npos &&
               content.size() <= 2 * kDedupNotice.size();
  if (!dedup && !is_numbered_listing(content)) return {};
  return Error::InvalidArgument(
      "Refusing to write internal read_file display text as file content. The content looks "
      "like read_file output (the 'N|' line-number gutter or the unchanged-file notice), not "
      "the file's text. Write the real file content without line numbers.");
}

Status check_file_target(const std::string& given, const std::string& real_path,
                         const fs::FileSystem& fs) {
  if (given.ends_with('/')) {
    return Error::InvalidArgument("Refusing to write '" + given +
                                  "': the path ends with '/', so it names a directory. Give the "
                                  "path of a file (e.g. '" +
                                  given + "notes.txt').");
  }
  auto info = fs.stat(real_path);
  if (!info || info->type == fs::FileType::kRegular) return {};
  if (info->type == fs::FileType::kDirectory) {
    return Error::InvalidArgument("Refusing to write '" + given +
                                  "': it is a directory. Give the path of a file inside it.");
  }
  return Error::InvalidArgument("Refusing to write '" + given + "': it is " +
                                std::string(fs::file_type_name(info->type)) +
                                ", not a regular file. The file was NOT modified.");
}

Status check_not_stale(const file_common::ReadTracker& tracker, const std::string& real_path,
                       const fs::FileSystem& fs) {
  file_common::FileVersion current;
  if (!file_common::stat_version(fs, real_path, current)) return {};  // a new file
  if (tracker.has_seen_whole(real_path, current)) return {};
  if (tracker.has_read(real_path)) {
    return Error{ErrorCode::kConflict,
                 "it exists but this task has not seen its full current content: it was "
                 "modified since you last read it, or only part of it was read."};
  }
  return Error{ErrorCode::kConflict,
               "it exists but this task has not seen its full current content (it was never "
               "read in full)."};
}

}  // namespace hermes::write_file
