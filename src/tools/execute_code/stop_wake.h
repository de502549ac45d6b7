// SPDX-License-Identifier: MIT
// An eventfd that becomes readable once a stop token is stopped: a kernel's
// cell loop polls it beside its pipes instead of checking the token.
#pragma once

#include "proc/unique_fd.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <stop_token>

namespace hermes::execute_code {

class StopWake {
 public:
  explicit StopWake(std::stop_token token)
      : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
        on_stop_(std::move(token), Ring{fd_.get()}) {}
  int fd() const { return fd_.get(); }

 private:
  struct Ring {
    int fd;
    void operator()() const {
      uint64_t one = 1;
      [[maybe_unused]] ssize_t n = ::write(fd, &one, sizeof one);
    }
  };
  proc::UniqueFd fd_;  // before on_stop_: it outlives the callback
  std::stop_callback<Ring> on_stop_;
};

}  // namespace hermes::execute_code
