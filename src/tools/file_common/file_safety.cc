// SPDX-License-Identifier: MIT
// The read denylist: env basenames anywhere, Hermes credential stores and
// token/cache directories under the home and its root, compared as real paths.
#include "tools/file_common/file_safety.h"

#include "core/link_walk.h"
#include "core/paths.h"
#include "core/strings.h"

#include <sys/stat.h>

#include <array>
#include <string_view>
#include <vector>

namespace hermes::file_common {
namespace {

constexpr std::string_view kNotBoundary =
    " (Defense-in-depth — not a security boundary; the terminal tool can still bypass.)";

constexpr std::array<std::string_view, 7> kEnvBasenames = {
    ".env",         ".env.local", ".env.development", ".env.production", ".env.test",
    ".env.staging", ".envrc"};

constexpr std::array<std::string_view, 7> kCredentialFiles = {"auth.json",
                                                              "auth.lock",
                                                              ".anthropic_oauth.json",
                                                              ".env",
                                                              "webhook_subscriptions.json",
                                                              "auth/google_oauth.json",
                                                              "cache/bws_cache.json"};

struct DeniedDir {
  std::string_view name;
  std::string_view dir_reason;
  std::string_view file_reason;
};
constexpr std::array<DeniedDir, 2> kDeniedDirs = {{
    {"mcp-tokens", "is the Hermes MCP token directory and cannot be read directly.",
     "is a Hermes MCP token file and cannot be read directly."},
    {"browser-profile",
     "is the Hermes real-profile browser snapshot directory (copied cookies/logins) and cannot "
     "be read directly.",
     "is inside the Hermes real-profile browser snapshot (copied cookies/logins) and cannot be "
     "read directly."},
}};

// A real directory the stores live in; `exists` false when it is missing,
// so nothing beneath it can be a link.
struct HermesDir {
  std::string real;
  bool exists;
};

// The Hermes home and, for a profile home `<root>/profiles/<name>`, the root;
// each fully resolved.
std::vector<HermesDir> hermes_dirs(const std::string& home) {
  std::vector<HermesDir> dirs;
  if (home.empty()) return dirs;
  std::string real = PathResolver::real_path(PathResolver::normalize(home));
  struct stat st;
  dirs.push_back({real, ::lstat(real.c_str(), &st) == 0});
  size_t slash = real.find_last_of('/');
  if (slash != std::string::npos && slash > 0) {
    std::string parent = real.substr(0, slash);
    size_t p = parent.find_last_of('/');
    if (p != std::string::npos && parent.substr(p + 1) == "profiles") {
      dirs.push_back({p == 0 ? "/" : parent.substr(0, p), true});
    }
  }
  return dirs;
}

std::string join(const std::string& dir, std::string_view rel) {
  return dir == "/" ? "/" + std::string(rel) : dir + "/" + std::string(rel);
}

// The real path of a store: only its own components are looked at (one
// system call each for the common case of a plain file or a missing one).
std::string store_path(const HermesDir& dir, std::string_view rel) {
  if (!dir.exists) return join(dir.real, rel);
  auto real = resolve_links_beneath(dir.real, rel);
  return real ? *real : join(dir.real, rel);
}

std::optional<std::string> reason_for(const std::string& real, const std::string& home) {
  const std::vector<HermesDir> dirs = hermes_dirs(home);
  for (const HermesDir& d : dirs) {
    if (is_within(real, join(d.real, "skills/.hub"))) {
      return "is an internal Hermes cache file and cannot be read directly to prevent prompt "
             "injection. Use the skills_list or skill_view tools instead.";
    }
  }
  for (const HermesDir& d : dirs) {
    for (std::string_view name : kCredentialFiles) {
      if (real == store_path(d, name)) {
        return "is a Hermes credential store and cannot be read directly. Provider tools "
               "consume these credentials through internal channels." +
               std::string(kNotBoundary);
      }
    }
  }
  for (const DeniedDir& denied : kDeniedDirs) {
    for (const HermesDir& d : dirs) {
      std::string dir = store_path(d, denied.name);
      if (is_within(real, dir)) {
        return std::string(real == dir ? denied.dir_reason : denied.file_reason) +
               std::string(kNotBoundary);
      }
    }
  }
  size_t slash = real.find_last_of('/');
  if (is_blocked_env_basename(slash == std::string::npos ? real : real.substr(slash + 1))) {
    return "is a secret-bearing environment file and cannot be read to prevent credential "
           "leakage. If you need to check the file structure, read .env.example instead." +
           std::string(kNotBoundary);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> denied_read_paths(const std::string& hermes_home) {
  std::vector<std::string> paths;
  for (const HermesDir& d : hermes_dirs(hermes_home)) {
    paths.push_back(store_path(d, "skills/.hub"));
    for (std::string_view name : kCredentialFiles) paths.push_back(store_path(d, name));
    for (const DeniedDir& denied : kDeniedDirs) paths.push_back(store_path(d, denied.name));
  }
  return paths;
}

bool is_blocked_env_basename(const std::string& basename) {
  std::string lower = to_lower(basename);
  for (std::string_view name : kEnvBasenames) {
    if (lower == name) return true;
  }
  return false;
}

Status check_readable(const std::string& real_path, const std::string& hermes_home,
                      const std::string& display) {
  std::optional<std::string> reason = reason_for(real_path, hermes_home);
  if (!reason) return {};
  return Error::PermissionDenied("Access denied: " + (display.empty() ? real_path : display) + " " +
                                 *reason);
}

}  // namespace hermes::file_common
