// SPDX-License-Identifier: MIT
// IP addresses and our own table of where web fetches may go. The table is
// explicit (not a language runtime's), so every platform gives the same
// answer; IPv6 forms that carry an IPv4 address are judged by that address.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::web {

struct IpAddress {
  // IPv4 in bytes[0..3]; IPv6 in all 16.
  std::array<uint8_t, 16> bytes{};
  bool is_v4 = true;

  bool operator==(const IpAddress&) const = default;
};

// A literal address: dotted IPv4 or IPv6, optionally in brackets, with a
// `%scope` suffix ignored. Nothing else (no `0x7f.1`, no bare integers).
std::optional<IpAddress> parse_ip(std::string_view text);
std::string to_string(const IpAddress& address);

enum class AddressClass {
  kPublic,    // globally routable
  kInternal,  // private, loopback, link-local, CGNAT, reserved, multicast…
  kMetadata,  // cloud metadata endpoints: blocked even when private is allowed
};

AddressClass classify(const IpAddress& address);

// Whether a fetch may connect to `address`.
inline bool address_allowed(const IpAddress& address, bool allow_private) {
  AddressClass c = classify(address);
  return c == AddressClass::kPublic || (allow_private && c == AddressClass::kInternal);
}

bool is_loopback(const IpAddress& address);

}  // namespace hermes::web
