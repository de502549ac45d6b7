// SPDX-License-Identifier: MIT
// The tools the tasks extension's scenarios (tasks-*) call: one that answers
// at once, one that computes for a while (a task on the modern wire when the
// client declared the extension), and one that fails as a tool after a
// second and cannot run but as a task. They become tasks the way the product
// tools do: `long_running`, and `own_progress` for work that reports its
// own progress and so becomes a task at once (as hermes_task).
#include "registry/client_channel.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace hermes::conformance {
namespace {

using namespace std::chrono_literals;

// Waits `duration` or until the call is stopped; false when stopped.
bool wait(registry::CallContext& ctx, std::chrono::milliseconds duration) {
  std::mutex mu;
  std::condition_variable_any wake;
  std::unique_lock lock(mu);
  return !wake.wait_for(lock, ctx.stop, duration, [] { return false; }) &&
         !ctx.stop.stop_requested();
}

std::string string_arg(const FixtureParams& params, const char* key, const char* fallback) {
  auto it = params.args.find(key);
  return it != params.args.end() && it->is_string() ? it->get<std::string>() : fallback;
}

Result<FixtureOutput> greet(const FixtureParams& params, registry::CallContext&) {
  return FixtureOutput{"Hello, " + string_arg(params, "name", "World") + "!"};
}

Result<FixtureOutput> slow_compute(const FixtureParams& params, registry::CallContext& ctx) {
  auto it = params.args.find("seconds");
  const int seconds = it != params.args.end() && it->is_number() ? it->get<int>() : 1;
  for (int done = 0; done < seconds; ++done) {
    if (!ctx.progress_token.is_null()) {
      ctx.client.notify(
          "notifications/progress",
          {{"progressToken", ctx.progress_token}, {"progress", done}, {"total", seconds}});
    }
    if (!wait(ctx, 1s)) return Error::Cancelled("slow_compute was cancelled");
  }
  return FixtureOutput{"Computed " + string_arg(params, "label", "result") + " in " +
                       std::to_string(seconds) + "s"};
}

Result<FixtureOutput> failing_job(const FixtureParams&, registry::CallContext& ctx) {
  if (!wait(ctx, 1s)) return Error::Cancelled("failing_job was cancelled");
  return Error::Internal("failing_job failed as designed");
}

registry::ToolSpec task_tool(registry::ToolSpec spec) {
  spec.long_running = [](const Json&) { return true; };
  spec.own_progress = true;
  return spec;
}

}  // namespace

void register_task_fixtures(registry::Registry& registry) {
  registry.add(fixture_tool("greet", "Greets at once (never a task)",
                            string_args_schema({{"name", "Whom to greet"}}), greet));
  Json compute = string_args_schema({{"label", "A label for the result"}});
  compute["properties"]["seconds"] = {{"type", "integer"}, {"description", "How long to compute"}};
  registry.add(task_tool(fixture_tool("slow_compute", "Computes for some seconds (a task)",
                                      std::move(compute), slow_compute)));
  registry::ToolSpec failing =
      task_tool(fixture_tool("failing_job", "Fails as a tool after a second; runs only as a task",
                             string_args_schema({}), failing_job));
  failing.client_capabilities = {
      {"extensions", {{"io.modelcontextprotocol/tasks", Json::object()}}}};
  registry.add(std::move(failing));
}

}  // namespace hermes::conformance
