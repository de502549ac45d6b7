// SPDX-License-Identifier: MIT
// Configuration: `$HERMES_HOME/config.yaml` (upstream keys), environment
// overrides and command-line overrides. Every lookup names its default; a
// value of the wrong type falls back to it with one warning line on stderr.
// Thread-safe: lookups are const and the warning set is mutex-guarded.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// config.yaml is hand-written: kilobytes. A larger one is refused unread.
inline constexpr size_t kMaxConfigFileBytes = 1u << 20;

class Config {
 public:
  // Empty configuration: every lookup returns its default (env still applies).
  Config();
  ~Config();
  Config(const Config&) = delete;
  Config& operator=(const Config&) = delete;

  // `HERMES_HOME` or `~/.hermes`.
  static std::string default_home();
  // Reads `<home>/config.yaml` when present. A file that does not parse is
  // ignored with a warning: the server still starts with the defaults.
  static std::unique_ptr<Config> load(const std::string& home);
  // For tests: configuration from YAML text.
  static std::unique_ptr<Config> from_yaml(std::string_view text, const std::string& home = "");

  const std::string& home() const { return home_; }

  // Command-line overrides win over env and file (`--yolo`, `--root`).
  void set_override(const std::string& key, const std::string& value);

  // Lookups by dotted key (`tool_output.max_lines`). `env` names an
  // environment variable that overrides the file when set and non-empty.
  int64_t get_int(std::string_view key, int64_t fallback, std::string_view env = {}) const;
  double get_double(std::string_view key, double fallback, std::string_view env = {}) const;
  bool get_bool(std::string_view key, bool fallback, std::string_view env = {}) const;
  std::string get_string(std::string_view key, const std::string& fallback,
                         std::string_view env = {}) const;
  // A YAML sequence of scalars, or a comma-separated string.
  std::vector<std::string> get_string_list(std::string_view key) const;
  // String-to-string map under `key` (e.g. an env block); empty when absent.
  std::map<std::string, std::string> get_string_map(std::string_view key) const;
  bool has(std::string_view key) const;

 private:
  struct Tree;
  // The raw text for `key` from overrides, env, then file, if any.
  std::optional<std::string> raw_scalar(std::string_view key, std::string_view env) const;
  void warn_once(std::string_view key, const std::string& value, const std::string& fallback) const;

  std::string home_;
  std::unique_ptr<Tree> tree_;
  std::map<std::string, std::string, std::less<>> overrides_;
  mutable std::mutex warned_mu_;
  mutable std::set<std::string> warned_;  // guarded by warned_mu_
};

}  // namespace hermes
