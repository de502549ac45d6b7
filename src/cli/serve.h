// SPDX-License-Identifier: MIT
// `hermes-tools serve`: its flags, their checks, and the run.
#pragma once

#include "cli/runtime.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace hermes::cli {

struct ServeFlags {
  std::string listen = "127.0.0.1:8787";
  std::string path = "/mcp";
  std::string token_file;
  std::vector<std::string> allow_hosts;
  std::vector<std::string> allow_origins;
  bool allow_unauthenticated = false;
  size_t max_sessions = 256;
  size_t max_sessions_per_principal = 0;  // 0: a quarter of max_sessions
  std::string session_idle = "30m";
  std::string max_body = "16MiB";
  std::string max_header = "16KiB";
  size_t max_inflight = 256;
  size_t max_inflight_per_principal = 32;
  size_t io_threads = 0;                // 0: one per usable CPU
  size_t max_connections = 0;           // 0: half the open-files limit
  size_t max_connections_per_peer = 0;  // 0: a quarter of max_connections
  std::vector<std::string> eras = {"legacy", "modern"};
  std::string tasks = "on";
  long task_inline_ms = 5000;
  std::string task_ttl = "1h";
  std::string task_ttl_max = "24h";
};

// Declares the subcommand and its flags on `app`, bound to `flags`.
CLI::App* add_serve_command(CLI::App& app, ServeFlags& flags);
int run_serve(const Runtime& runtime, const ServeFlags& flags);

}  // namespace hermes::cli
