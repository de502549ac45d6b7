// SPDX-License-Identifier: MIT
// ISO-8601 timestamps as epoch milliseconds (UTC), for cache records,
// telemetry windows and old auth.json files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::task {

// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an optional `Z` or
// `±HH:MM` offset (no offset means UTC). nullopt when it does not parse.
std::optional<int64_t> parse_iso8601_ms(std::string_view text);

// `2026-08-11T11:52:47.084Z`.
std::string format_iso8601_ms(int64_t epoch_ms);

// Wall-clock now in epoch milliseconds.
int64_t now_epoch_ms();

}  // namespace hermes::task
