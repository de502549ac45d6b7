// SPDX-License-Identifier: MIT
// Writes one JSON-RPC message per line to the protocol fd. Thread-safe: one
// mutex makes each message a single uninterrupted line.
#pragma once

#include "json/json.h"

#include <mutex>

namespace hermes::mcp {

class OutputWriter {
 public:
  explicit OutputWriter(int fd) : fd_(fd) {}
  // Serialises `message` and writes it with its newline. Returns false once
  // the peer is gone (EPIPE); later writes are dropped.
  bool write(const Json& message);

 private:
  int fd_;
  std::mutex mu_;
  bool closed_ = false;  // guarded by mu_
};

}  // namespace hermes::mcp
