// SPDX-License-Identifier: MIT
#include "core/config.h"

#include "core/capped_read.h"
#include "core/log.h"
#include "core/strings.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>

namespace hermes {

struct Config::Tree {
  YAML::Node root;
  // Every scalar reachable through maps, by dotted key, taken once at load:
  // the lookups on each call then neither walk nor clone the tree. A key
  // that itself holds a dot can't be named by a dotted path and is left out.
  std::map<std::string, std::string, std::less<>> scalars;

  // Walks a dotted key; an undefined node when any hop is missing.
  YAML::Node find(std::string_view key) const {
    YAML::Node node = YAML::Clone(root);
    for (const std::string& part : split(key, '.')) {
      if (!node || !node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
      node = node[part];
    }
    return node;
  }

  void index(const YAML::Node& node, const std::string& prefix) {
    if (node.IsScalar()) {
      scalars.emplace(prefix, node.Scalar());  // the first of duplicate keys, as find() sees
      return;
    }
    if (!node.IsMap()) return;
    for (const auto& item : node) {
      if (!item.first.IsScalar() || item.first.Scalar().find('.') != std::string::npos) continue;
      index(item.second, prefix.empty() ? item.first.Scalar() : prefix + "." + item.first.Scalar());
    }
  }
};

Config::Config() : tree_(std::make_unique<Tree>()) {}
Config::~Config() = default;

std::string Config::default_home() {
  const char* env = std::getenv("HERMES_HOME");
  if (env && *env) return env;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "/root") + "/.hermes";
}

std::unique_ptr<Config> Config::load(const std::string& home) {
  auto text = read_capped_file(home + "/config.yaml", kMaxConfigFileBytes);
  if (!text) {
    if (text.error().code != ErrorCode::kNotFound) {
      log::warn("config.yaml not read (" + text.error().message + "); using defaults");
    }
    auto config = std::make_unique<Config>();
    config->home_ = home;
    return config;
  }
  return from_yaml(*text, home);
}

std::unique_ptr<Config> Config::from_yaml(std::string_view text, const std::string& home) {
  auto config = std::make_unique<Config>();
  config->home_ = home;
  try {
    config->tree_->root = YAML::Load(std::string(text));
    if (config->tree_->root.IsMap()) config->tree_->index(config->tree_->root, "");
  } catch (const YAML::Exception& e) {
    log::warn("config.yaml does not parse (" + std::string(e.what()) + "); using defaults");
  }
  return config;
}

void Config::set_override(const std::string& key, const std::string& value) {
  overrides_[key] = value;
}

std::optional<std::string> Config::raw_scalar(std::string_view key, std::string_view env) const {
  if (auto it = overrides_.find(key); it != overrides_.end()) return it->second;
  if (!env.empty()) {
    const char* value = std::getenv(std::string(env).c_str());
    if (value && *value) return std::string(value);
  }
  if (auto it = tree_->scalars.find(key); it != tree_->scalars.end()) return it->second;
  return std::nullopt;
}

bool Config::has(std::string_view key) const {
  if (overrides_.count(key)) return true;
  YAML::Node node = tree_->find(key);
  return node && !node.IsNull();
}

void Config::warn_once(std::string_view key, const std::string& value,
                       const std::string& fallback) const {
  std::lock_guard lock(warned_mu_);
  if (!warned_.insert(std::string(key)).second) return;
  log::warn("config " + std::string(key) + ": bad value '" + value + "', using the default " +
            fallback);
}

int64_t Config::get_int(std::string_view key, int64_t fallback, std::string_view env) const {
  auto raw = raw_scalar(key, env);
  if (!raw) return fallback;
  if (auto parsed = parse_int(*raw)) return *parsed;
  warn_once(key, *raw, std::to_string(fallback));
  return fallback;
}

double Config::get_double(std::string_view key, double fallback, std::string_view env) const {
  auto raw = raw_scalar(key, env);
  if (!raw) return fallback;
  char* end = nullptr;
  double value = std::strtod(raw->c_str(), &end);
  if (!raw->empty() && end && *end == '\0') return value;
  warn_once(key, *raw, std::to_string(fallback));
  return fallback;
}

bool Config::get_bool(std::string_view key, bool fallback, std::string_view env) const {
  auto raw = raw_scalar(key, env);
  if (!raw) return fallback;
  std::string value = to_lower(trim(*raw));
  if (value == "true" || value == "1" || value == "yes" || value == "on") return true;
  if (value == "false" || value == "0" || value == "no" || value == "off") return false;
  warn_once(key, *raw, fallback ? "true" : "false");
  return fallback;
}

std::string Config::get_string(std::string_view key, const std::string& fallback,
                               std::string_view env) const {
  return raw_scalar(key, env).value_or(fallback);
}

std::vector<std::string> Config::get_string_list(std::string_view key) const {
  if (auto it = overrides_.find(key); it != overrides_.end()) {
    return split(it->second, ',');
  }
  YAML::Node node = tree_->find(key);
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return split(node.Scalar(), ',');
  if (!node.IsSequence()) {
    warn_once(key, "<not a list>", "[]");
    return out;
  }
  for (const auto& item : node) {
    if (item.IsScalar()) out.push_back(item.Scalar());
  }
  return out;
}

std::map<std::string, std::string> Config::get_string_map(std::string_view key) const {
  YAML::Node node = tree_->find(key);
  std::map<std::string, std::string> out;
  if (!node || !node.IsMap()) return out;
  for (const auto& item : node) {
    if (item.first.IsScalar() && item.second.IsScalar()) {
      out[item.first.Scalar()] = item.second.Scalar();
    }
  }
  return out;
}

}  // namespace hermes
