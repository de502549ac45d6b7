// SPDX-License-Identifier: MIT
#include "proc/child_env.h"

#include "core/strings.h"

#include <algorithm>
#include <array>

extern char** environ;

namespace hermes::proc {
namespace {

constexpr std::array<std::string_view, 12> kSecretSubstrings = {
    "KEY",  "TOKEN", "SECRET",  "PASSWORD", "CREDENTIAL", "PASSWD",
    "AUTH", "DSN",   "WEBHOOK", "CREDS",    "BEARER",     "APIKEY"};

// Case-sensitive prefixes of harmless system variables.
constexpr std::array<std::string_view, 15> kSafePrefixes = {
    "PATH", "HOME",  "USER",    "LANG", "LC_",        "TERM",        "TMPDIR", "TMP",
    "TEMP", "SHELL", "LOGNAME", "XDG_", "PYTHONPATH", "VIRTUAL_ENV", "CONDA"};

// What the local terminal's PATH gets appended when it lacks /usr/bin (a
// server started from a stripped service environment), so commands are
// found.
constexpr std::string_view kStandardPath =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

void append_standard_path(std::vector<std::string>& env) {
  std::string path = get_env(env, "PATH");
  std::vector<std::string> dirs = split(path, ':');
  if (std::find(dirs.begin(), dirs.end(), "/usr/bin") != dirs.end()) return;
  set_env(env, "PATH",
          path.empty() ? std::string(kStandardPath) : path + ":" + std::string(kStandardPath));
}

constexpr std::array<std::string_view, 4> kHermesNames = {"HERMES_HOME", "HERMES_PROFILE",
                                                          "HERMES_CONFIG", "HERMES_ENV"};

// Credentials Hermes manages for its model providers: a passthrough list
// cannot hand them to model-written code.
constexpr std::array<std::string_view, 14> kProviderCredentials = {
    "OPENROUTER_API_KEY", "OPENAI_API_KEY",   "ANTHROPIC_API_KEY",    "ANTHROPIC_TOKEN",
    "NOUS_API_KEY",       "GEMINI_API_KEY",   "GOOGLE_API_KEY",       "KIMI_API_KEY",
    "NVIDIA_API_KEY",     "HF_TOKEN",         "OPENCODE_ZEN_API_KEY", "OPENCODE_GO_API_KEY",
    "XAI_API_KEY",        "DEEPINFRA_API_KEY"};

// Settings and secrets of Hermes' providers, tools and messaging gateways
// that the terminal never sees unless passed through: the contract's local
// backend list, plus the keys of our own web tools.
constexpr std::array<std::string_view, 63> kProviderSecrets = {"OPENAI_BASE_URL",
                                                               "OPENAI_API_KEY",
                                                               "OPENAI_API_BASE",
                                                               "OPENAI_ORG_ID",
                                                               "OPENAI_ORGANIZATION",
                                                               "OPENROUTER_API_KEY",
                                                               "ANTHROPIC_API_KEY",
                                                               "ANTHROPIC_BASE_URL",
                                                               "ANTHROPIC_TOKEN",
                                                               "CLAUDE_CODE_OAUTH_TOKEN",
                                                               "LLM_MODEL",
                                                               "GOOGLE_API_KEY",
                                                               "GEMINI_API_KEY",
                                                               "NOUS_API_KEY",
                                                               "KIMI_API_KEY",
                                                               "NVIDIA_API_KEY",
                                                               "HF_TOKEN",
                                                               "OPENCODE_ZEN_API_KEY",
                                                               "OPENCODE_GO_API_KEY",
                                                               "DEEPINFRA_API_KEY",
                                                               "DEEPSEEK_API_KEY",
                                                               "MISTRAL_API_KEY",
                                                               "GROQ_API_KEY",
                                                               "TOGETHER_API_KEY",
                                                               "PERPLEXITY_API_KEY",
                                                               "COHERE_API_KEY",
                                                               "FIREWORKS_API_KEY",
                                                               "XAI_API_KEY",
                                                               "HELICONE_API_KEY",
                                                               "PARALLEL_API_KEY",
                                                               "FIRECRAWL_API_KEY",
                                                               "FIRECRAWL_API_URL",
                                                               "EXA_API_KEY",
                                                               "TAVILY_API_KEY",
                                                               "BRAVE_SEARCH_API_KEY",
                                                               "SEARXNG_URL",
                                                               "TELEGRAM_HOME_CHANNEL",
                                                               "TELEGRAM_HOME_CHANNEL_NAME",
                                                               "DISCORD_HOME_CHANNEL",
                                                               "DISCORD_HOME_CHANNEL_NAME",
                                                               "DISCORD_REQUIRE_MENTION",
                                                               "DISCORD_FREE_RESPONSE_CHANNELS",
                                                               "DISCORD_AUTO_THREAD",
                                                               "SLACK_HOME_CHANNEL",
                                                               "SLACK_HOME_CHANNEL_NAME",
                                                               "SLACK_ALLOWED_USERS",
                                                               "WHATSAPP_ENABLED",
                                                               "WHATSAPP_MODE",
                                                               "WHATSAPP_ALLOWED_USERS",
                                                               "SIGNAL_HTTP_URL",
                                                               "SIGNAL_ACCOUNT",
                                                               "SIGNAL_ALLOWED_USERS",
                                                               "SIGNAL_GROUP_ALLOWED_USERS",
                                                               "SIGNAL_HOME_CHANNEL",
                                                               "SIGNAL_HOME_CHANNEL_NAME",
                                                               "SIGNAL_IGNORE_STORIES",
                                                               "HASS_TOKEN",
                                                               "HASS_URL",
                                                               "EMAIL_ADDRESS",
                                                               "EMAIL_PASSWORD",
                                                               "GH_TOKEN",
                                                               "GITHUB_APP_PRIVATE_KEY_PATH",
                                                               "DAYTONA_API_KEY"};
// Whole families on the blocklist.
constexpr std::array<std::string_view, 2> kProviderSecretPrefixes = {"MODAL_TOKEN_",
                                                                     "TELEGRAM_BOT_"};
constexpr std::string_view kForcePrefix = "_HERMES_FORCE_";

template <size_t N>
bool is_listed(const std::array<std::string_view, N>& list, std::string_view name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

bool has_safe_prefix(std::string_view name) {
  return std::any_of(kSafePrefixes.begin(), kSafePrefixes.end(),
                     [&](std::string_view prefix) { return starts_with(name, prefix); });
}

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

bool is_provider_secret(std::string_view name) {
  return is_listed(kProviderSecrets, name) ||
         std::any_of(kProviderSecretPrefixes.begin(), kProviderSecretPrefixes.end(),
                     [&](std::string_view prefix) { return starts_with(name, prefix); });
}

std::vector<std::string> terminal_environment(const std::vector<std::string>& parent,
                                              const std::vector<std::string>& passthrough) {
  std::vector<std::string> out;
  std::vector<std::string> forced;
  for (const std::string& entry : parent) {
    std::string_view name = name_of(entry);
    if (name.empty() || name.size() == entry.size()) continue;
    if (starts_with(name, kForcePrefix)) {
      if (name.size() > kForcePrefix.size()) forced.push_back(entry.substr(kForcePrefix.size()));
      continue;
    }
    bool passed = std::find(passthrough.begin(), passthrough.end(), name) != passthrough.end();
    if (passed || !is_provider_secret(name)) out.push_back(entry);
  }
  for (const std::string& entry : forced) {
    set_env(out, name_of(entry), std::string_view(entry).substr(name_of(entry).size() + 1));
  }
  append_standard_path(out);
  return out;
}

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

}  // namespace hermes::proc
