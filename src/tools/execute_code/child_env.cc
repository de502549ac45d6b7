// SPDX-License-Identifier: MIT
#include "tools/execute_code/child_env.h"

#include <algorithm>
#include <array>

#include "core/strings.h"

extern char** environ;

namespace hermes::execute_code {
namespace {

constexpr std::array<std::string_view, 12> kSecretSubstrings = {
    "KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "PASSWD",
    "AUTH", "DSN", "WEBHOOK", "CREDS", "BEARER", "APIKEY"};

// Case-sensitive prefixes of harmless system variables.
constexpr std::array<std::string_view, 15> kSafePrefixes = {
    "PATH", "HOME", "USER", "LANG", "LC_", "TERM", "TMPDIR", "TMP", "TEMP",
    "SHELL", "LOGNAME", "XDG_", "PYTHONPATH", "VIRTUAL_ENV", "CONDA"};

constexpr std::array<std::string_view, 4> kHermesNames = {
    "HERMES_HOME", "HERMES_PROFILE", "HERMES_CONFIG", "HERMES_ENV"};

// Credentials Hermes manages for its model providers: a passthrough list
// cannot hand them to model-written code.
constexpr std::array<std::string_view, 14> kProviderCredentials = {
    "OPENROUTER_API_KEY", "OPENAI_API_KEY",    "ANTHROPIC_API_KEY",
    "ANTHROPIC_TOKEN",    "NOUS_API_KEY",      "GEMINI_API_KEY",
    "GOOGLE_API_KEY",     "KIMI_API_KEY",      "NVIDIA_API_KEY",
    "HF_TOKEN",           "OPENCODE_ZEN_API_KEY", "OPENCODE_GO_API_KEY",
    "XAI_API_KEY",        "DEEPINFRA_API_KEY"};

template <size_t N>
bool is_listed(const std::array<std::string_view, N>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool has_safe_prefix(std::string_view name) {
  return std::any_of(kSafePrefixes.begin(), kSafePrefixes.end(),
                     [&](std::string_view prefix) { return starts_with(name, prefix); });
}

std::string_view name_of(std::string_view entry) {
  return entry.substr(0, entry.find('='));
}

}  // namespace

bool is_secret_name(std::string_view name) {
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return std::any_of(kSecretSubstrings.begin(), kSecretSubstrings.end(),
                     [&](std::string_view s) { return upper.find(s) != std::string::npos; });
}

ScrubbedEnv scrub_environment(const std::vector<std::string>& parent,
                              const std::vector<std::string>& passthrough) {
  ScrubbedEnv out;
  for (const std::string& entry : parent) {
    std::string_view name = name_of(entry);
    if (name.empty() || name.size() == entry.size()) continue;
    bool passed = std::find(passthrough.begin(), passthrough.end(), name) != passthrough.end();
    if (passed && !is_listed(kProviderCredentials, name)) {
      out.kept.push_back(entry);
    } else if (is_secret_name(name)) {
      continue;
    } else if (has_safe_prefix(name) || is_listed(kHermesNames, name)) {
      out.kept.push_back(entry);
    } else if (starts_with(name, "HERMES_")) {
      out.dropped_hermes.emplace_back(name);
    }
  }
  return out;
}

void set_env(std::vector<std::string>& env, std::string_view name, std::string_view value) {
  std::string entry = std::string(name) + "=" + std::string(value);
  for (std::string& existing : env) {
    if (name_of(existing) == name) {
      existing = std::move(entry);
      return;
    }
  }
  env.push_back(std::move(entry));
}

std::string get_env(const std::vector<std::string>& env, std::string_view name) {
  for (const std::string& entry : env) {
    if (name_of(entry) == name) return entry.substr(name.size() + 1);
  }
  return "";
}

std::vector<std::string> current_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

}  // namespace hermes::execute_code
