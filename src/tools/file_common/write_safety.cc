// SPDX-License-Identifier: MIT
// The write-side path policy: the lists of docs/tools/write_file.md.
#include "tools/file_common/write_safety.h"

#include "core/config.h"
#include "core/strings.h"
#include "registry/client_channel.h"
#include "registry/elicitation.h"

#include <fnmatch.h>

#include <chrono>
#include <cstdlib>
#include <string_view>

namespace hermes::file_common {
namespace {

constexpr std::string_view kSensitivePrefixes[] = {
    "/etc/",         "/boot/",           "/usr/lib/systemd/",
    "/private/etc/", "/private/var/db/", "/private/var/root/"};
constexpr std::string_view kSensitiveExact[] = {"/var/run/docker.sock", "/run/docker.sock"};
constexpr std::string_view kDocumentExts[] = {".doc",  ".docx", ".docm", ".xls",  ".xlsx", ".xlsm",
                                              ".xlsb", ".ppt",  ".pps",  ".pptx", ".pptm", ".ppsx",
                                              ".ppsm", ".odt",  ".ods",  ".odp",  ".rtf"};
// read_file's binary extensions (docs/tools/read_file.md), documents and .epub
// aside (those are always refused).
constexpr std::string_view kBinaryExts[] = {
    ".png",   ".jpg",    ".jpeg",   ".gif",     ".bmp",   ".ico",   ".webp", ".tiff", ".tif",
    ".mp4",   ".mov",    ".avi",    ".mkv",     ".webm",  ".wmv",   ".flv",  ".m4v",  ".mpeg",
    ".mpg",   ".mp3",    ".wav",    ".ogg",     ".flac",  ".aac",   ".m4a",  ".wma",  ".aiff",
    ".opus",  ".zip",    ".tar",    ".gz",      ".bz2",   ".7z",    ".rar",  ".xz",   ".z",
    ".tgz",   ".iso",    ".exe",    ".dll",     ".so",    ".dylib", ".bin",  ".o",    ".a",
    ".obj",   ".lib",    ".app",    ".msi",     ".deb",   ".rpm",   ".ttf",  ".otf",  ".woff",
    ".woff2", ".eot",    ".pyc",    ".pyo",     ".class", ".jar",   ".war",  ".ear",  ".node",
    ".wasm",  ".rlib",   ".sqlite", ".sqlite3", ".db",    ".mdb",   ".idx",  ".psd",  ".ai",
    ".eps",   ".sketch", ".fig",    ".xd",      ".blend", ".3ds",   ".max",  ".swf",  ".fla",
    ".lockb", ".dat",    ".data"};
constexpr std::string_view kProtectedNames[] = {"agents.md", "claude.md", "soul.md",
                                                ".cursorrules"};

std::string base_name(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string parent_dir(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view value) {
  for (auto item : list) {
    if (item == value) return true;
  }
  return false;
}

bool is_sensitive(const std::string& path) {
  if (contains(kSensitiveExact, path)) return true;
  for (auto prefix : kSensitivePrefixes) {
    if (starts_with(path, prefix) || path + "/" == prefix) return true;
  }
  return false;
}

bool is_sqlite_sidecar(const std::string& name) {
  return ends_with(name, "-wal") || ends_with(name, "-shm") || ends_with(name, "-journal");
}

bool matches_extra_pattern(const std::string& name, const Config& config) {
  for (const auto& pattern :
       config.get_string_list("security.protected_instruction_extra_patterns")) {
    if (::fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) == 0) return true;
  }
  return false;
}

bool is_protected_one(const std::string& path, const Config& config) {
  std::string name = base_name(path);
  if (contains(kProtectedNames, to_lower(name)) || matches_extra_pattern(name, config)) return true;
  std::string parent = parent_dir(path);
  return base_name(parent) == ".hermes" && parent != config.home() &&
         parent != PathResolver::real_path(config.home());
}

// The Hermes-owned credential/state files in `root` (the home or a profile).
bool is_hermes_state(const std::string& path, const std::string& root) {
  if (root.empty() || !is_within(path, root) || path == root) return false;
  std::string rel = path.substr(root.size() + 1);
  return rel == ".env" || rel == ".anthropic_oauth.json" || rel == "cache/bws_cache.enc.json" ||
         rel == "state.db" || starts_with(rel, "sessions/") || starts_with(rel, "mcp-tokens/") ||
         starts_with(rel, "pairing/");
}

bool in_hermes_profile_state(const std::string& path, const std::string& hermes_home) {
  if (is_hermes_state(path, hermes_home)) return true;
  std::string profiles = hermes_home + "/profiles/";
  if (!starts_with(path, profiles)) return false;
  auto slash = path.find('/', profiles.size());
  return slash != std::string::npos && is_hermes_state(path, path.substr(0, slash));
}

bool is_denylisted(const std::string& path, const std::string& hermes_home,
                   const std::string& home) {
  static constexpr std::string_view kHomeExact[] = {"/.ssh/authorized_keys",
                                                    "/.ssh/id_rsa",
                                                    "/.ssh/id_ed25519",
                                                    "/.netrc",
                                                    "/.pgpass",
                                                    "/.npmrc",
                                                    "/.pypirc",
                                                    "/.git-credentials"};
  static constexpr std::string_view kHomeDirs[] = {"/.ssh",       "/.aws",          "/.gnupg",
                                                   "/.kube",      "/.docker",       "/.azure",
                                                   "/.config/gh", "/.config/gcloud"};
  if (path == "/etc/sudoers" || path == "/etc/passwd" || path == "/etc/shadow") return true;
  if (is_within(path, "/etc/sudoers.d") || is_within(path, "/etc/systemd")) return true;
  if (!home.empty()) {
    for (auto rel : kHomeExact) {
      if (path == home + std::string(rel)) return true;
    }
    for (auto rel : kHomeDirs) {
      if (is_within(path, home + std::string(rel)) && path != home + "/.ssh/config") return true;
    }
  }
  return in_hermes_profile_state(path, hermes_home) ||
         in_hermes_profile_state(path, PathResolver::real_path(hermes_home));
}

Status check_safe_root(const std::string& path) {
  const char* roots = std::getenv("HERMES_WRITE_SAFE_ROOT");
  if (!roots || !*roots) return {};
  for (const auto& root : split(roots, ':')) {
    std::string real_root = PathResolver::real_path(PathResolver::expand_user(root));
    if (is_within(path, real_root)) return {};
  }
  return Error::PermissionDenied("Write denied: '" + path +
                                 "' is outside HERMES_WRITE_SAFE_ROOT (" + roots +
                                 "). Write inside the allowed root(s) instead.");
}

}  // namespace

std::string file_extension(const std::string& path) {
  std::string name = base_name(path);
  auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? "" : to_lower(name.substr(dot));
}

Status check_not_sensitive(const ResolvedPath& path, const std::string& hermes_home) {
  if (is_sensitive(path.real) || is_sensitive(path.absolute)) {
    return Error::PermissionDenied(
        "Refusing to write to sensitive system path: " + path.given +
        "\nUse the terminal tool with sudo if you really need to change this file.");
  }
  std::string config_file = hermes_home + "/config.yaml";
  if (path.absolute == config_file || path.real == PathResolver::real_path(config_file)) {
    return Error::PermissionDenied("Refusing to write to Hermes config file: " + path.given +
                                   "\nUse the `hermes config` command to change settings.");
  }
  return {};
}

Status check_not_binary_document(const ResolvedPath& path, const fs::FileSystem& fs) {
  const std::string ext = file_extension(path.real);
  if (contains(kDocumentExts, ext) || ext == ".epub") {
    return Error::InvalidArgument(
        "Refusing to write plain text to binary document: " + path.given + " (" + ext +
        " is a binary container format). Generate it with a script that uses a document "
        "library instead.");
  }
  if (is_sqlite_sidecar(base_name(path.real))) {
    return Error::InvalidArgument(
        "Refusing to write plain text to binary document: " + path.given +
        " (SQLite journal/WAL sidecar files must only be changed by SQLite).");
  }
  if (!fs.stat(path.real)) return {};
  if (ext == ".pdf") {
    return Error::InvalidArgument("Refusing to overwrite existing PDF: " + path.given +
                                  " (writing text would destroy the document).");
  }
  if (contains(kBinaryExts, ext)) {
    return Error::InvalidArgument("Refusing to overwrite existing binary file: " + path.given +
                                  " (" + ext + ").");
  }
  return {};
}

Status check_not_sandbox_mirror(const ResolvedPath& path) {
  for (const std::string* p : {&path.absolute, &path.real}) {
    auto at = p->find("/sandboxes/");
    if (at == std::string::npos) continue;
    // …/sandboxes/<backend>/<task>/home/.hermes/…
    auto parts = split(std::string_view(*p).substr(at + 11), '/');
    if (parts.size() >= 5 && parts[2] == "home" && parts[3] == ".hermes") {
      return Error::PermissionDenied(
          "Refusing to write into a sandbox mirror of another Hermes profile: " + path.given +
          ". Pass cross_profile=true if you really mean to change it.");
    }
  }
  return {};
}

std::optional<std::string> protected_instruction_name(const ResolvedPath& path,
                                                      const Config& config) {
  if (!config.get_bool("security.protected_instruction_files", true)) return std::nullopt;
  if (is_protected_one(path.absolute, config) || is_protected_one(path.real, config)) {
    return path.given;
  }
  return std::nullopt;
}

bool is_ssh_config(const ResolvedPath& path, const std::string& home) {
  if (home.empty()) return false;
  const std::string target = home + "/.ssh/config";
  return path.absolute == target || path.real == PathResolver::real_path(target);
}

Status require_write_approval(registry::CallContext& ctx, const std::string& what,
                              const std::vector<std::string>& targets) {
  std::string names;
  for (const auto& t : targets) names += (names.empty() ? "" : ", ") + t;
  const std::string head = "BLOCKED: write to " + what + " (" + names + ") ";
  const std::string tail =
      " The user has NOT consented to this write. Do not retry or work around this; ask the "
      "user to make or approve the change themselves.";
  if (!ctx.client.supports_elicitation()) {
    return Error::PermissionDenied(
        head + "requires approval but no interactive user or gateway is present to approve it." +
        tail);
  }
  auto answer = registry::elicit(
      ctx.client, {.message = "Allow the agent to write to " + what + ": " + names + "?"},
      std::chrono::minutes(5), ctx.stop);
  if (answer && answer->action == "accept") return {};
  return Error::PermissionDenied(head + "was not approved by the user." + tail);
}

Result<std::optional<fs::PathLocks>> take_writer_locks(const std::vector<std::string>& reals,
                                                       const registry::CallContext& ctx) {
  const registry::BriefFindings* found = ctx.brief_findings;
  if (found && found->writer_lock && reals.size() == 1 && reals.front() == found->path.real) {
    return std::optional<fs::PathLocks>();
  }
  HERMES_ASSIGN_OR_RETURN(fs::PathLocks lock, fs::PathLocks::take(reals, ctx.stop));
  return std::optional<fs::PathLocks>(std::move(lock));
}

Status check_write_paths(const std::vector<ResolvedPath>& paths, bool cross_profile,
                         registry::CallContext& ctx, const fs::FileSystem& fs) {
  const Config& config = ctx.services.config;
  std::vector<std::string> protected_names;
  std::vector<std::string> ssh_configs;
  for (const auto& path : paths) {
    HERMES_TRY(check_not_sensitive(path, config.home()));
    HERMES_TRY(check_not_binary_document(path, fs));
    if (!cross_profile) {
      HERMES_TRY(check_not_sandbox_mirror(path));
    }
    if (auto name = protected_instruction_name(path, config)) protected_names.push_back(*name);
    if (is_ssh_config(path, fs.home())) ssh_configs.push_back(path.given);
  }
  if (!protected_names.empty()) {
    HERMES_TRY(require_write_approval(ctx, "protected agent-instruction file(s)", protected_names));
  }
  if (!ssh_configs.empty()) return require_write_approval(ctx, "SSH client config", ssh_configs);
  return {};
}

std::optional<std::string> outside_workspace_warning(const ResolvedPath& path,
                                                     const std::string& session_cwd) {
  if (path.given.starts_with('/') || path.given.starts_with('~')) return std::nullopt;
  std::string workspace = PathResolver::workspace(session_cwd);
  if (is_within(path.absolute, workspace)) return std::nullopt;
  return "Relative path '" + path.given + "' resolved to '" + path.absolute +
         "', outside the workspace '" + workspace +
         "'. Pass an absolute path if that is not what you meant.";
}

Status check_write_allowed(const std::string& real_path, const std::string& hermes_home,
                           const fs::FileSystem& fs) {
  if (is_denylisted(real_path, hermes_home, fs.home())) {
    return Error::PermissionDenied("Write denied: '" + real_path +
                                   "' is a protected system/credential file.");
  }
  return check_safe_root(real_path);
}

}  // namespace hermes::file_common
