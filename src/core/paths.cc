// SPDX-License-Identifier: MIT
#include "core/paths.h"

#include "core/link_walk.h"
#include "core/strings.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

namespace hermes {
namespace {

std::string process_cwd() {
  char buf[PATH_MAX];
  if (::getcwd(buf, sizeof buf)) return buf;
  return "/";
}

bool is_unset_marker(std::string_view value) {
  return value.empty() || value == "." || value == "./" || value == "auto" || value == "cwd";
}

// A NUL would end the path at the first system call: refused, not truncated.
Status check_given(std::string_view given) {
  if (given.empty()) return Error::InvalidArgument("path is empty");
  if (given.find('\0') != std::string_view::npos) {
    return Error::InvalidArgument("path contains a NUL byte");
  }
  return {};
}

}  // namespace

PathResolver::PathResolver(std::string root) {
  if (root.empty()) return;
  // `--root .` is the directory the server started in, not `/`.
  std::string absolute = expand_user(root);
  if (absolute[0] != '/') absolute = process_cwd() + "/" + absolute;
  root_ = real_path(normalize(absolute));
}

std::string PathResolver::workspace(const std::string& session_cwd) {
  if (!session_cwd.empty()) return session_cwd;
  const char* env = std::getenv("TERMINAL_CWD");
  if (env && !is_unset_marker(env) && env[0] == '/') return env;
  return process_cwd();
}

std::string PathResolver::inside_root(const std::string& dir, const std::string& root) {
  if (root.empty() || is_within(real_path(dir), root)) return dir;
  return root;
}

std::string PathResolver::expand_user(std::string_view path) {
  if (path.empty() || path[0] != '~') return std::string(path);
  const char* home = std::getenv("HOME");
  return expand_user(path, home ? home : "/");
}

std::string PathResolver::expand_user(std::string_view path, const std::string& home) {
  if (path.empty() || path[0] != '~') return std::string(path);
  if (path.size() > 1 && path[1] != '/') return std::string(path);  // ~user: leave
  return home + std::string(path.substr(1));
}

std::string PathResolver::normalize(std::string_view absolute_path) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i < absolute_path.size()) {
    size_t next = absolute_path.find('/', i);
    if (next == std::string_view::npos) next = absolute_path.size();
    std::string_view part = absolute_path.substr(i, next - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = next + 1;
  }
  std::string out;
  for (auto part : parts) {
    out += '/';
    out += part;
  }
  return out.empty() ? "/" : out;
}

std::string PathResolver::real_path(const std::string& absolute_path) {
  auto real = resolve_links(absolute_path);
  return real ? *real : absolute_path;
}

Result<ResolvedPath> PathResolver::resolve(std::string_view given, const std::string& session_cwd,
                                           const KnownRealPath* known) const {
  HERMES_TRY(check_given(given));
  std::string expanded = expand_user(given);
  if (expanded[0] != '/') expanded = inside_root(workspace(session_cwd), root_) + "/" + expanded;
  ResolvedPath out{std::string(given), normalize(expanded), ""};
  // A loop stays as given; opening it fails later.
  out.real = known && known->absolute == out.absolute ? known->real : real_path(out.absolute);
  HERMES_TRY(check_contained(out.real));
  return out;
}

Result<ResolvedPath> PathResolver::resolve_on(std::string_view given, const std::string& home,
                                              const std::string& cwd,
                                              const RealPathFn& real_path) const {
  HERMES_TRY(check_given(given));
  std::string expanded = expand_user(given, home);
  if (expanded[0] != '/') expanded = cwd + "/" + expanded;
  ResolvedPath out{std::string(given), normalize(expanded), ""};
  HERMES_ASSIGN_OR_RETURN(out.real, real_path(out.absolute));
  HERMES_TRY(check_contained(out.real));
  return out;
}

Status PathResolver::check_contained(const std::string& real) const {
  if (root_.empty() || is_within(real, root_)) return {};
  return Error::OutsideRoot("Path '" + real + "' is outside the workspace root '" + root_ + "'");
}

bool is_within(std::string_view path, std::string_view dir) {
  if (dir == "/") return !path.empty() && path[0] == '/';
  if (!starts_with(path, dir)) return false;
  return path.size() == dir.size() || path[dir.size()] == '/';
}

}  // namespace hermes
