// SPDX-License-Identifier: MIT
// hermes-tools: the command-line entry point.
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/runtime.h"
#include "cli/serve.h"
#include "core/allocator.h"
#include "proc/spawn.h"
#include "registry/registry.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

// CLI11 checks for the missing subcommand before it reports words it did not
// take, so `hermes-tools frob` would say only "A subcommand is required":
// the first word left over is what the person mistyped.
std::optional<std::string> unexpected_word(const CLI::App& app, const CLI::ParseError& e) {
  if (dynamic_cast<const CLI::RequiredError*>(&e) == nullptr) return std::nullopt;
  std::vector<std::string> left = app.remaining();
  if (left.empty()) return std::nullopt;
  return left.front();
}

int usage_error(const std::string& word) {
  std::cerr << "hermes-tools: "
            << (word.starts_with("-") ? "unknown option '" : "unknown subcommand '") << word
            << "' (subcommands: mcp, serve, call, tools; see --help)\n";
  return hermes::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // A vanished client must not kill us mid-write: EPIPE is handled instead.
  std::signal(SIGPIPE, SIG_IGN);
  hermes::tune_allocator();
  using namespace hermes::cli;
  CLI::App app{"hermes-tools: the Hermes Agent tool runtime, served over MCP"};
  app.set_version_flag("--version", std::string(HERMES_VERSION));
  app.require_subcommand(1);
  // MCP clients are configured with an argument array, and people write the
  // global flags after the subcommand (`mcp --root . --yolo`): a subcommand
  // hands the options it does not know to the app, so either side works.
  app.fallthrough();
  app.footer(
      "Global options go before or after the subcommand: "
      "`hermes-tools --root . mcp` and `hermes-tools mcp --root .` are the same.");
  GlobalOptions options;
  app.add_option(
         "--toolsets", options.toolsets,
         "Toolsets to enable, comma-separated: " + hermes::registry::Registry::toolset_names() +
             " (default: config `toolsets`, else all)")
      ->delimiter(',');
  app.add_option("--root", options.root, "Confine file tools and workdir to this tree");
  app.add_flag("--yolo", options.yolo, "Run dangerous commands without approval");

  auto* mcp = app.add_subcommand("mcp", "Serve MCP over stdio (newline-delimited JSON-RPC)");
  ServeFlags serve_flags;
  auto* serve = add_serve_command(app, serve_flags);
  auto* call = app.add_subcommand("call", "Call one tool and print its JSON result");
  std::string tool, args;
  call->add_option("tool", tool, "Tool name, or - to read JSON lines from stdin")->required();
  call->add_option("arguments", args, "Arguments as a JSON object");
  auto* tools = app.add_subcommand("tools", "List the tools with descriptions and schemas");
  bool as_json = false;
  tools->add_flag("--json", as_json, "Print as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (auto word = unexpected_word(app, e)) return usage_error(*word);
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  // A server's children (terminal commands, scripts) must not read its
  // environment or memory through /proc.
  if (*mcp || *serve || *call) {
    if (auto undumpable = hermes::proc::make_undumpable(); !undumpable) {
      std::cerr << "hermes-tools: " << undumpable.error().message << "\n";
      return kExitToolError;
    }
  }
  try {
    auto runtime = Runtime::create(options);
    if (!runtime) {
      std::cerr << "hermes-tools: " << runtime.error().message << "\n";
      return kExitUsage;
    }
    if (*mcp) return run_mcp(**runtime);
    if (*serve) return run_serve(**runtime, serve_flags);
    if (*call) return run_call(**runtime, tool, args);
    return run_tools(**runtime, as_json);
  } catch (const std::exception& e) {
    std::cerr << "hermes-tools: fatal: " << e.what() << "\n";
    return kExitToolError;
  }
}
