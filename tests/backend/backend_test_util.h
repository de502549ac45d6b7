// SPDX-License-Identifier: MIT
// Building a backend the way a session does (make_backend from YAML) for the
// backend tests, and small helpers around run_bash.
#pragma once

#include "backend/backend_config.h"
#include "backend/run_bash.h"
#include "core/config.h"
#include "testutil/backend_targets.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

namespace hermes::testing {

// A started backend of one kind, built from configuration; cleaned up at scope end.
struct StartedBackend {
  std::shared_ptr<backend::Backend> backend;
  Status started;
  ~StartedBackend() {
    if (backend) backend->cleanup();
  }
};

inline std::unique_ptr<StartedBackend> start_backend(const std::string& yaml) {
  auto config = Config::from_yaml(yaml);
  auto made = backend::make_backend(*config);
  auto out = std::make_unique<StartedBackend>();
  if (!made) {
    out->started = made.error();
    return out;
  }
  out->backend = *made;
  out->started = out->backend->start({});
  return out;
}

// Runs `script` and collects its output.
inline Result<backend::BashOutcome> run(
    backend::Backend& backend, const std::string& script,
    std::chrono::milliseconds timeout = std::chrono::seconds(20),
    std::optional<std::string> stdin_data = std::nullopt) {
  return backend::run_bash_captured(
      backend, {.script = script, .stdin_data = std::move(stdin_data), .timeout = timeout}, {});
}

// Waits (bounded) until `path` exists: the command under test has started.
inline bool wait_for_file(const std::string& path,
                          std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!std::filesystem::exists(path)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace hermes::testing
