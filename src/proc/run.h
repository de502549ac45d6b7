// SPDX-License-Identifier: MIT
// Driving a spawned child to completion: output streamed to a callback,
// a deadline, cancellation by stop_token, and a bounded drain after exit.
#pragma once

#include "proc/spawn.h"

#include <signal.h>

#include <chrono>
#include <functional>
#include <stop_token>
#include <string_view>

namespace hermes::proc {

struct RunLimits {
  // Wall-clock limit from the call; zero or negative means none.
  std::chrono::milliseconds timeout{0};
  // How long output is still read after the child exits: a grandchild that
  // inherited the pipe must not hold the call open.
  std::chrono::milliseconds drain_grace{300};
  // Between the stop signal and SIGKILL when the run is cut short.
  std::chrono::milliseconds kill_grace{200};
  // What a cut-short run gets first: SIGTERM, or SIGINT for a foreground
  // command (what Ctrl-C sends), so it can clean up (remove its lock files)
  // before the grace runs out.
  int stop_signal = SIGTERM;
};

enum class RunEnd {
  kExited,     // the child exited on its own
  kTimedOut,   // the deadline passed; the group was killed
  kCancelled,  // the stop_token fired; the group was killed
};

struct RunOutcome {
  RunEnd end = RunEnd::kExited;
  ExitStatus status;
  // Cut short and still there when the grace ran out: SIGKILL ended it.
  bool forced = false;
};

// How terminate_group ended a child.
struct Termination {
  ExitStatus status;
  bool forced = false;  // SIGKILL was needed
};

using OutputCallback = std::function<void(std::string_view bytes)>;

// Reads `child`'s output into `on_output` until the child exits (plus the
// drain grace), the deadline passes or `stop` is requested, and reaps it.
// On timeout or cancel the whole process group gets the stop signal, then
// SIGKILL (terminate_group).
// Blocks the calling thread; `on_output` runs on it.
RunOutcome run_bounded(ChildProcess& child, const RunLimits& limits, std::stop_token stop,
                       const OutputCallback& on_output);

// Sends the group `first_signal`, waits up to `grace` for the child to exit
// (a whole tree: for all of it to be gone), then SIGKILL; reaps it. After a
// SIGINT, what outlives the child itself gets SIGTERM within the same grace:
// a shell's `&` jobs ignore SIGINT. Output is not read meanwhile.
Termination terminate_group(ChildProcess& child, std::chrono::milliseconds grace,
                            int first_signal = SIGTERM);

}  // namespace hermes::proc
