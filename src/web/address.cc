// SPDX-License-Identifier: MIT
#include "web/address.h"

#include <arpa/inet.h>

#include <algorithm>

namespace hermes::web {
namespace {

struct Range4 {
  uint32_t base;
  int prefix;
};

constexpr uint32_t v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  return (uint32_t{a} << 24) | (uint32_t{b} << 16) | (uint32_t{c} << 8) | d;
}

// Not globally reachable, or reserved: 0/8 "this network", RFC 1918,
// CGNAT, loopback, link-local, IETF protocol assignments (whole /24),
// documentation, benchmarking, multicast, reserved and broadcast.
constexpr std::array<Range4, 15> kInternal4 = {{
    {v4(0, 0, 0, 0), 8},
    {v4(10, 0, 0, 0), 8},
    {v4(100, 64, 0, 0), 10},
    {v4(127, 0, 0, 0), 8},
    {v4(169, 254, 0, 0), 16},
    {v4(172, 16, 0, 0), 12},
    {v4(192, 0, 0, 0), 24},
    {v4(192, 0, 2, 0), 24},
    {v4(192, 88, 99, 0), 24},
    {v4(192, 168, 0, 0), 16},
    {v4(198, 18, 0, 0), 15},
    {v4(198, 51, 100, 0), 24},
    {v4(203, 0, 113, 0), 24},
    {v4(224, 0, 0, 0), 4},
    {v4(240, 0, 0, 0), 4},
}};

// Cloud metadata services, blocked even where private addresses are
// allowed (the list and its sources: docs/web-tools.md, "Cloud metadata").
// All of link-local: AWS (IMDS, ECS task metadata, Amazon DNS), GCP, Azure,
// Oracle, OpenStack, DigitalOcean and Tencent answer there. Then Alibaba's
// 100.100.100.200, Oracle Compute Cloud@Customer's 192.0.0.192 and Azure's
// WireServer 168.63.129.16.
constexpr std::array<Range4, 4> kMetadata4 = {{{v4(169, 254, 0, 0), 16},
                                               {v4(100, 100, 100, 200), 32},
                                               {v4(192, 0, 0, 192), 32},
                                               {v4(168, 63, 129, 16), 32}}};

bool in_range(uint32_t ip, const Range4& r) {
  uint32_t mask = r.prefix == 0 ? 0 : ~uint32_t{0} << (32 - r.prefix);
  return (ip & mask) == (r.base & mask);
}

uint32_t as_u32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

AddressClass classify4(uint32_t ip) {
  auto hit = [ip](const Range4& r) { return in_range(ip, r); };
  if (std::any_of(kMetadata4.begin(), kMetadata4.end(), hit)) return AddressClass::kMetadata;
  if (std::any_of(kInternal4.begin(), kInternal4.end(), hit)) return AddressClass::kInternal;
  return AddressClass::kPublic;
}

bool has_prefix(const std::array<uint8_t, 16>& b, std::initializer_list<uint8_t> head) {
  return std::equal(head.begin(), head.end(), b.begin());
}

// The IPv4 address an IPv6 form carries: IPv4-mapped (::ffff:0:0/96),
// NAT64 well-known prefix (64:ff9b::/96, so DNS64 networks work) and 6to4
// (2002::/16). Other embeddings (IPv4-compatible ::a.b.c.d, 64:ff9b:1::/48)
// are simply blocked as reserved space.
std::optional<uint32_t> embedded_v4(const std::array<uint8_t, 16>& b) {
  if (has_prefix(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff})) return as_u32(&b[12]);
  if (has_prefix(b, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) return as_u32(&b[12]);
  if (has_prefix(b, {0x20, 0x02})) return as_u32(&b[2]);
  return std::nullopt;
}

using Bytes6 = std::array<uint8_t, 16>;

// The IPv6 metadata endpoints: AWS's IMDS, Amazon DNS and NTP
// (fd00:ec2::254, ::253, ::123), GCP's metadata server (fd20:ce::254) and
// Oracle's IMDS (fd00:c1::a9fe:a9fe). All of fe80::/10 too, as all of
// 169.254/16 for IPv4: OpenStack's metadata service answers at
// fe80::a9fe:a9fe.
constexpr std::array<Bytes6, 5> kMetadata6 = {{
    {0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54},
    {0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x53},
    {0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x23},
    {0xfd, 0x20, 0, 0xce, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54},
    {0xfd, 0, 0, 0xc1, 0, 0, 0, 0, 0, 0, 0, 0, 0xa9, 0xfe, 0xa9, 0xfe},
}};

bool metadata6(const Bytes6& b) {
  bool link_local = b[0] == 0xfe && (b[1] & 0xc0) == 0x80;
  return link_local || std::find(kMetadata6.begin(), kMetadata6.end(), b) != kMetadata6.end();
}

// Globally routable IPv6 is 2000::/3, minus 2001::/23 (IETF protocol
// assignments, Teredo), 2001:db8::/32 and 3fff::/20 (documentation).
bool public6(const std::array<uint8_t, 16>& b) {
  if ((b[0] & 0xe0) != 0x20) return false;
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02) return false;
  if (has_prefix(b, {0x20, 0x01, 0x0d, 0xb8})) return false;
  if (b[0] == 0x3f && b[1] == 0xff && (b[2] & 0xf0) == 0) return false;
  return true;
}

AddressClass classify6(const std::array<uint8_t, 16>& b) {
  if (metadata6(b)) return AddressClass::kMetadata;
  if (auto inner = embedded_v4(b)) return classify4(*inner);
  return public6(b) ? AddressClass::kPublic : AddressClass::kInternal;
}

}  // namespace

std::optional<IpAddress> parse_ip(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
    text = text.substr(1, text.size() - 2);
  if (size_t pct = text.find('%'); pct != std::string_view::npos) text = text.substr(0, pct);
  if (text.empty() || text.size() > 45) return std::nullopt;
  std::string s(text);
  IpAddress out;
  if (inet_pton(AF_INET, s.c_str(), out.bytes.data()) == 1) return out;
  out.is_v4 = false;
  if (inet_pton(AF_INET6, s.c_str(), out.bytes.data()) == 1) return out;
  return std::nullopt;
}

std::string to_string(const IpAddress& address) {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(address.is_v4 ? AF_INET : AF_INET6, address.bytes.data(), buf, sizeof buf);
  return buf;
}

AddressClass classify(const IpAddress& address) {
  return address.is_v4 ? classify4(as_u32(address.bytes.data())) : classify6(address.bytes);
}

bool is_loopback(const IpAddress& address) {
  if (address.is_v4) return address.bytes[0] == 127;
  std::array<uint8_t, 16> one{};
  one[15] = 1;
  return address.bytes == one;
}

}  // namespace hermes::web
