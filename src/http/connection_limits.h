// SPDX-License-Identifier: MIT
// Caps on the connections `serve` holds open, in total and per peer, so that
// one client cannot take every descriptor. A peer is an IPv4
// address or an IPv6 /64 (one host usually holds a whole /64). Thread-safe:
// the accept loop admits, and each connection gives its place back from its
// own I/O thread when it closes.
#pragma once

#include <cstddef>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace hermes::http {

class ConnectionLimits {
 public:
  // A connection's place; given back when destroyed.
  class Slot {
   public:
    Slot(Slot&& other) noexcept;
    Slot& operator=(Slot&&) = delete;
    Slot(const Slot&) = delete;
    ~Slot();

   private:
    friend class ConnectionLimits;
    Slot(ConnectionLimits* limits, std::string peer);
    ConnectionLimits* limits_;  // null once moved from
    std::string peer_;
  };

  ConnectionLimits(size_t total, size_t per_peer);
  ConnectionLimits(const ConnectionLimits&) = delete;
  ConnectionLimits& operator=(const ConnectionLimits&) = delete;

  // A place for one more connection from `peer`, or nullopt at either cap.
  std::optional<Slot> admit(const std::string& peer);
  size_t open() const;

 private:
  void release(const std::string& peer);

  const size_t total_;
  const size_t per_peer_;
  mutable std::mutex mu_;
  size_t open_ = 0;                        // mu_
  std::map<std::string, size_t> by_peer_;  // mu_
};

}  // namespace hermes::http
