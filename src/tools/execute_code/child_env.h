// SPDX-License-Identifier: MIT
// The environment a script's interpreter gets (docs/tools/execute_code.md):
// secrets stripped, safe system variables kept, exact HERMES_* names only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::execute_code {

struct ScrubbedEnv {
  std::vector<std::string> kept;              // `NAME=value`, in input order
  std::vector<std::string> dropped_hermes;    // names of HERMES_* dropped
};

// Filters `parent` (`NAME=value` entries) by, in order: names in
// `passthrough` kept (never a Hermes provider credential); names holding a
// secret substring dropped; safe prefixes kept; the four operational
// HERMES_* names kept; everything else dropped. Pure.
ScrubbedEnv scrub_environment(const std::vector<std::string>& parent,
                              const std::vector<std::string>& passthrough);

// True when the upper-cased `name` contains one of the twelve secret
// substrings (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, PASSWD, AUTH, DSN,
// WEBHOOK, CREDS, BEARER, APIKEY).
bool is_secret_name(std::string_view name);

// Sets `name` to `value` in `env`, replacing an existing entry.
void set_env(std::vector<std::string>& env, std::string_view name, std::string_view value);
// The value of `name` in `env`, or "" when unset.
std::string get_env(const std::vector<std::string>& env, std::string_view name);

// The server's own environment as `NAME=value` entries.
std::vector<std::string> current_environment();

}  // namespace hermes::execute_code
