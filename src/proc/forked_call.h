// SPDX-License-Identifier: MIT
// A function run in a forked copy of this process (fork, no exec) so that
// whatever it does with hostile input — loop for ever, exhaust memory,
// crash — costs at most its budget and never the server. The child writes
// its answer to a pipe; the parent waits for it within a deadline and the
// call's cancellation and kills the child on any overrun.
//
// Only for code that needs nothing another thread may hold at fork time:
// malloc (glibc's is fork-safe) and plain computation, no iconv, no stdio,
// no locks of its own.
#pragma once

#include "core/result.h"

#include <chrono>
#include <functional>
#include <stop_token>
#include <string>
#include <string_view>

namespace hermes::proc {

// The child's end of the pipe.
class ForkedOutput {
 public:
  explicit ForkedOutput(int fd) : fd_(fd) {}
  // Writes all of `bytes`; false once the parent stopped reading.
  bool write(std::string_view bytes);

 private:
  int fd_;
};

// Whether ForkedLimits::memory_growth is applied: not under ASan or TSan,
// whose shadow memory needs more address space than any cap leaves. (gcc
// names the sanitizer with a macro, clang with __has_feature.)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kMemoryCapWorks = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kMemoryCapWorks = false;
#else
inline constexpr bool kMemoryCapWorks = true;
#endif
#else
inline constexpr bool kMemoryCapWorks = true;
#endif

struct ForkedLimits {
  // Wall clock; the child is killed when it passes. Also sets RLIMIT_CPU
  // (rounded up to whole seconds) as a backstop.
  std::chrono::steady_clock::time_point deadline;
  // Address space the child may add to the parent's (RLIMIT_AS); 0 for
  // none. Not applied under a sanitizer, whose shadow memory needs more.
  size_t memory_growth = 0;
  // Bytes of output the parent accepts; more kills the child.
  size_t output_cap = 1 << 20;
};

// Runs `work` in a forked child and returns what it wrote. Errors:
// kTimeout (the deadline or the CPU limit), kCancelled (`stop`), kTooLarge
// (output over the cap, or the child ran out of memory: an allocation
// failed), kIo (the child died by another signal — "was killed by signal 11
// (SIGSEGV)" — threw, or could not be started).
// `work` runs in the child only; the child never returns from this call.
Result<std::string> run_forked(const std::function<void(ForkedOutput&)>& work,
                               const ForkedLimits& limits, std::stop_token stop);

}  // namespace hermes::proc
