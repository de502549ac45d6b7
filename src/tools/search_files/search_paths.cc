// SPDX-License-Identifier: MIT
#include "tools/search_files/search_paths.h"

#include "core/strings.h"

#include <algorithm>
#include <array>

namespace hermes::search {
namespace {

constexpr size_t kListedEntries = 20;
constexpr size_t kSuggestions = 5;

// Visible entries of `dir`, sorted as `ls -1` would list them.
std::vector<std::string> visible_entries(const std::string& dir, SearchHost& host) {
  std::vector<std::string> names;
  for (DirEntry& entry : host.list_dir(dir)) {
    if (!entry.name.starts_with('.')) names.push_back(std::move(entry.name));
  }
  return names;
}

bool resembles(const std::string& entry, const std::string& wanted) {
  std::string e = to_lower(entry);
  return e.find(wanted) != std::string::npos || wanted.find(e) != std::string::npos ||
         e.starts_with(wanted.substr(0, 3));
}

}  // namespace

std::optional<std::string> nt_namespace_error(std::string_view given) {
  static constexpr std::array<std::string_view, 6> kPrefixes = {R"(\\?\)", R"(\??\)", R"(\\.\)",
                                                                "//?/",    R"(/??/)", "//./"};
  for (std::string_view prefix : kPrefixes) {
    if (given.starts_with(prefix)) {
      return "Access denied: '" + std::string(given) +
             "' is a Windows device or NT-namespace path and cannot be searched.";
    }
  }
  return std::nullopt;
}

std::string path_not_found_message(const std::string& given, const std::string& cwd,
                                   SearchHost& host) {
  std::string message = "Path not found: " + given;
  size_t slash = given.find_last_of('/');
  std::string parent = slash == std::string::npos ? "." : given.substr(0, slash);
  if (parent.empty()) parent = "/";
  std::string base = to_lower(slash == std::string::npos ? given : given.substr(slash + 1));
  std::string disk = host.expand_user(parent);
  if (!disk.starts_with('/')) disk = cwd + "/" + disk;
  if (base.empty() || host.kind(disk) != PathKind::kDirectory) return message;
  std::vector<std::string> entries = visible_entries(disk, host);
  if (entries.size() > kListedEntries) entries.resize(kListedEntries);
  std::vector<std::string> similar;
  for (const auto& entry : entries) {
    if (similar.size() < kSuggestions && resembles(entry, base)) {
      similar.push_back(parent.ends_with('/') ? parent + entry : parent + "/" + entry);
    }
  }
  if (similar.empty()) return message;
  message += ". Similar paths: " + similar[0];
  for (size_t i = 1; i < similar.size(); ++i) message += ", " + similar[i];
  return message;
}

std::vector<std::string> split_multi_path(const std::string& path) {
  if (path.find(',') != std::string::npos) return split(path, ',');
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && std::isspace(static_cast<unsigned char>(path[i]))) ++i;
    size_t start = i;
    while (i < path.size() && !std::isspace(static_cast<unsigned char>(path[i]))) ++i;
    if (i > start) parts.push_back(path.substr(start, i - start));
  }
  return parts;
}

std::optional<std::string> special_root_error(const std::string& given, PathKind kind) {
  const char* what = nullptr;
  switch (kind) {
    case PathKind::kMissing:
    case PathKind::kDirectory:
    case PathKind::kRegular:
      return std::nullopt;
    case PathKind::kFifo:
      what = "a FIFO (named pipe)";
      break;
    case PathKind::kSocket:
      what = "a socket";
      break;
    case PathKind::kCharDevice:
      what = "a character device";
      break;
    case PathKind::kBlockDevice:
      what = "a block device";
      break;
    case PathKind::kOther:
      what = "a special file";
      break;
  }
  return "Cannot search '" + given + "': it is " + what + ", not a regular file or directory.";
}

}  // namespace hermes::search
