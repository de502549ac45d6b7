// SPDX-License-Identifier: MIT
#include "cli/commands.h"

#include "backend/backend_config.h"
#include "cli/exit_codes.h"
#include "core/config.h"
#include "core/log.h"
#include "json/json.h"
#include "mcp/lenient_json.h"
#include "mcp/line_reader.h"
#include "mcp/server.h"
#include "registry/client_channel.h"
#include "registry/dispatcher.h"
#include "registry/session.h"
#include "tools/background_jobs/background_jobs.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <thread>

#ifndef HERMES_VERSION
#define HERMES_VERSION "0.0.0"
#endif

namespace hermes::cli {
namespace {

constexpr const char* kInstructions =
    "hermes-tools: file, shell, code and task tools. Every tool returns one "
    "JSON object. Prefer read_file/search_files/patch/write_file over cat, "
    "grep, sed and heredocs in terminal; use terminal for builds, git, "
    "package managers and processes (background=true for long jobs, then "
    "process to poll). Relative paths resolve against the terminal's "
    "current directory.";

// A `call -` line or `call` argument: the MCP server's line limit.
constexpr size_t kMaxLineBytes = 64u << 20;

// The session of `call` ends with the process, and its background jobs with
// it (BackgroundJobs::on_session_end): a later `call process` finds nothing.
constexpr const char* kJobsEndHint =
    "This background job ends when this hermes-tools call process exits (for `call -`, when its "
    "input ends): poll it from the same `call -` batch, or serve with `hermes-tools mcp`.";

size_t running_jobs(registry::Session& session) {
  auto jobs = background_jobs::session_jobs(session).list();
  return std::count_if(jobs.begin(), jobs.end(), [](const auto& job) { return job.running; });
}

// Runs one call in `session`; prints the tool's JSON text.
int call_one(const Runtime& runtime, registry::Session& session, const std::string& tool,
             const Json& args) {
  registry::Dispatcher dispatcher(runtime.registry(), runtime.services());
  const registry::ToolSpec* spec = dispatcher.find(tool);
  if (!spec) {
    std::cerr << "hermes-tools: "
              << runtime.registry().why_missing(tool, runtime.services()).message
              << " (see `hermes-tools tools`)\n";
    return kExitUsage;
  }
  registry::NullClientChannel client;
  std::stop_source stop;
  registry::CallContext ctx{session,    runtime.services(), client,
                            dispatcher, stop.get_token(),   Json()};
  size_t jobs_before = running_jobs(session);
  registry::ToolCallResult result = dispatcher.call(*spec, args, ctx);
  if (running_jobs(session) > jobs_before && result.value.is_object()) {
    std::string hint = result.value.value("_hint", std::string());
    result.value["_hint"] = hint.empty() ? kJobsEndHint : hint + " " + kJobsEndHint;
    result.text = dump_json(result.value);
  }
  std::cout << result.text << std::endl;
  return result.is_error ? kExitToolError : kExitSuccess;
}

int call_batch(const Runtime& runtime) {
  registry::Session session("cli");
  int worst = kExitSuccess;
  mcp::LineReader reader(STDIN_FILENO, kMaxLineBytes);
  std::string line;
  for (auto status = reader.next(line); status != mcp::LineReader::Status::kEof;
       status = reader.next(line)) {
    if (status == mcp::LineReader::Status::kLine && line.empty()) continue;
    auto request = status == mcp::LineReader::Status::kLine
                       ? mcp::parse_lenient(line)
                       : Result<Json>(Error::TooLarge("line exceeds the line limit"));
    if (!request || !request->is_object() || !(*request)["tool"].is_string()) {
      std::cerr << "hermes-tools: each line must be {\"tool\": NAME, \"arguments\": {...}}"
                << (request ? "" : ": " + request.error().message) << "\n";
      return kExitUsage;
    }
    Json args = request->value("arguments", Json::object());
    int code = call_one(runtime, session, (*request)["tool"].get<std::string>(), args);
    worst = std::max(worst, code);
  }
  return worst;
}

}  // namespace

// A remote backend is checked once at startup, beside the server, so a bad
// host or key shows in the client's server log at once; the session reuses
// the connection (ControlPersist). Tools report the same error if it stays.
std::jthread check_backend(const Config& config) {
  auto backend = backend::make_backend(config);
  if (!backend) {
    log::error(backend.error().message);
    return {};
  }
  if ((*backend)->name() != "ssh") return {};
  return std::jthread([backend = *backend](std::stop_token stop) {
    if (auto started = backend->start(stop); !started) log::error(started.error().message);
  });
}

mcp::ServerIdentity server_identity() {
  mcp::ServerIdentity identity;
  identity.version = HERMES_VERSION;
  identity.instructions = kInstructions;
  return identity;
}

int run_mcp(const Runtime& runtime) {
  std::jthread backend_check = check_backend(runtime.services().config);
  mcp::ServerOptions options;
  options.router.identity = server_identity();
  log::info(std::string("MCP server ") + HERMES_VERSION + " on stdio, " +
            std::to_string(runtime.registry().list(runtime.services()).size()) + " tools");
  mcp::Server server(runtime.registry(), runtime.services(), options);
  return server.run(STDIN_FILENO, STDOUT_FILENO);
}

int run_call(const Runtime& runtime, const std::string& tool, const std::string& json_args) {
  if (tool == "-") return call_batch(runtime);
  auto args = mcp::parse_lenient(json_args.empty() ? "{}" : json_args);
  if (!args || !args->is_object()) {
    std::cerr << "hermes-tools: arguments must be a JSON object"
              << (args ? "" : ": " + args.error().message) << "\n";
    return kExitUsage;
  }
  registry::Session session("cli");
  return call_one(runtime, session, tool, *args);
}

int run_tools(const Runtime& runtime, bool as_json) {
  Json tools = Json::array();
  for (const registry::ToolSpec* spec : runtime.registry().list(runtime.services())) {
    std::string description =
        spec->describe ? spec->describe(runtime.services(), spec->description) : spec->description;
    if (as_json) {
      Json tool = {{"name", spec->name},
                   {"toolset", spec->toolset},
                   {"description", description},
                   {"inputSchema", spec->input_schema}};
      if (!spec->output_schema.is_null()) tool["outputSchema"] = spec->output_schema;
      tools.push_back(std::move(tool));
    } else {
      std::cout << spec->name << " [" << spec->toolset << "]\n  " << description << "\n  "
                << dump_json(spec->input_schema) << "\n\n";
    }
  }
  if (as_json) std::cout << tools.dump(2) << std::endl;
  return kExitSuccess;
}

}  // namespace hermes::cli
