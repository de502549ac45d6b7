// SPDX-License-Identifier: MIT
#include "http/connection_limits.h"

#include <utility>

namespace hermes::http {

ConnectionLimits::Slot::Slot(ConnectionLimits* limits, std::string peer)
    : limits_(limits), peer_(std::move(peer)) {}

ConnectionLimits::Slot::Slot(Slot&& other) noexcept
    : limits_(std::exchange(other.limits_, nullptr)), peer_(std::move(other.peer_)) {}

ConnectionLimits::Slot::~Slot() {
  if (limits_) limits_->release(peer_);
}

ConnectionLimits::ConnectionLimits(size_t total, size_t per_peer)
    : total_(total), per_peer_(per_peer) {}

std::optional<ConnectionLimits::Slot> ConnectionLimits::admit(const std::string& peer) {
  std::lock_guard lock(mu_);
  auto it = by_peer_.find(peer);
  size_t mine = it == by_peer_.end() ? 0 : it->second;
  if (open_ >= total_ || mine >= per_peer_) return std::nullopt;
  ++by_peer_[peer];
  ++open_;
  return Slot(this, peer);
}

size_t ConnectionLimits::open() const {
  std::lock_guard lock(mu_);
  return open_;
}

void ConnectionLimits::release(const std::string& peer) {
  std::lock_guard lock(mu_);
  --open_;
  auto it = by_peer_.find(peer);
  if (--it->second == 0) by_peer_.erase(it);
}

}  // namespace hermes::http
