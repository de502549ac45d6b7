// SPDX-License-Identifier: MIT
// DNS-rebinding defence for the HTTP endpoint: the Host a request names and
// the Origin a browser adds must both be ones we serve. Loopback names (any
// port) are always allowed; more come from the command line. A page on
// evil.example that rebinds its name to 127.0.0.1 still sends its own Host
// and Origin, and is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes::http {

class Guard {
 public:
  // `hosts`: extra Host names ("name" any port, "name:port" that port only,
  // "*" any). `origins`: extra origins ("scheme://host[:port]", "*" any).
  Guard(std::vector<std::string> hosts, std::vector<std::string> origins);

  // A request without Host is malformed (400), not merely foreign.
  bool host_allowed(std::string_view host) const;
  // A missing Origin passes (not a browser); "null" and malformed ones fail.
  bool origin_allowed(std::optional<std::string_view> origin) const;

 private:
  std::vector<std::string> hosts_;
  std::vector<std::string> origins_;
};

// Splits "host:port" / "[v6]:port" into its host (lowercased, brackets kept)
// and port (empty when absent). nullopt when malformed.
std::optional<std::pair<std::string, std::string>> split_host_port(std::string_view authority);
// True for localhost, 127.0.0.0/8 and [::1].
bool is_loopback_host(std::string_view host);

}  // namespace hermes::http
