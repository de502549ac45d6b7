// SPDX-License-Identifier: MIT
// The environments of the children the tools start from the server's own:
// execute_code's interpreter (docs/tools/execute_code.md: secrets stripped,
// safe system variables kept, exact HERMES_* names only) and the local
// terminal's bash (docs/terminal.md: the provider-secret blocklist dropped).
// Both honour the same passthrough list (`terminal.env_passthrough`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hermes::proc {

struct ScrubbedEnv {
  std::vector<std::string> kept;            // `NAME=value`, in input order
  std::vector<std::string> dropped_hermes;  // names of HERMES_* dropped
};

// Filters `parent` (`NAME=value` entries) by, in order: names in
// `passthrough` kept (never a Hermes provider credential); names holding a
// secret substring dropped; safe prefixes kept; the four operational
// HERMES_* names kept; everything else dropped. Pure.
ScrubbedEnv scrub_environment(const std::vector<std::string>& parent,
                              const std::vector<std::string>& passthrough);

// The local terminal's environment: `parent` without the provider-secret
// blocklist (provider keys and base URLs, the web tools' keys, messaging
// settings, GH_TOKEN, MODAL_TOKEN_*) unless a name is in `passthrough`;
// `_HERMES_FORCE_X=v` becomes `X=v`; a PATH without `/usr/bin` gets the
// standard directories appended (`/usr/local/sbin:…:/sbin:/bin`). Pure.
std::vector<std::string> terminal_environment(const std::vector<std::string>& parent,
                                              const std::vector<std::string>& passthrough);

// True when `name` is on the terminal's provider-secret blocklist.
bool is_provider_secret(std::string_view name);

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

}  // namespace hermes::proc
