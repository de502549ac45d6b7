// SPDX-License-Identifier: MIT
// Hermes' auth.json: reading credential liveness fields into typed form, and
// marking a provider's credentials exhausted under a lock file with an atomic
// rewrite that keeps every other byte of meaning (unknown keys, order, mode).
#pragma once

#include "core/result.h"
#include "json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hermes::task {

// The liveness-relevant fields of one credential_pool entry (or of a
// top-level `providers` object). Times are epoch milliseconds whatever the
// file used (seconds, milliseconds above 1e12, or ISO strings).
struct Credential {
  bool is_object = false;
  Json last_status;      // raw value, echoed by hermes_models
  Json last_error_code;  // raw value, echoed by hermes_models
  std::optional<int64_t> last_status_at_ms;
  std::optional<int64_t> last_error_reset_at_ms;
};

struct ProviderCredentials {
  std::string provider;
  std::vector<Credential> credentials;  // a single dict becomes one entry
};

// What the task server needs from auth.json, in file order.
struct AuthSnapshot {
  bool has_pool = false;       // `credential_pool` is an object
  bool has_providers = false;  // `providers` is an object
  std::vector<ProviderCredentials> pool;
  std::vector<ProviderCredentials> providers;
};

// Reads and parses `path` (a regular file of at most 4 MiB, never waiting on a
// FIFO or a device). kNotFound when missing; kTooLarge past the cap;
// kInvalidArgument with the reason when it is not a file or not a JSON object.
Result<AuthSnapshot> read_auth(const std::string& path);

// An epoch timestamp in seconds, in milliseconds (> 1e12), as a numeric
// string, or ISO-8601; nullopt for anything else or non-positive values.
std::optional<int64_t> epoch_ms_of(const Json& value);

struct ExhaustionMark {
  std::string message;  // last stderr lines, already capped
  int64_t now_ms = 0;
  int64_t reset_window_ms = 0;
  int64_t lock_timeout_ms = 200;
};

// Marks every credential_pool entry of `provider` exhausted: last_status
// "exhausted", last_error_code 429, last_error_reason "RateLimitError",
// last_error_message, last_status_at = now and last_error_reset_at = now +
// window (both epoch seconds, as Hermes writes them). Takes `<path>.lock`
// (O_EXCL; a lock older than 30 s is treated as stale) and rewrites through a
// temporary file + rename. Returns false without writing when the provider has
// no pool entry or the file does not parse (a corrupt file is never
// replaced); kUnavailable when the lock stays busy past the timeout.
Result<bool> mark_exhausted(const std::string& path, const std::string& provider,
                            const ExhaustionMark& mark);

}  // namespace hermes::task
