// SPDX-License-Identifier: MIT
// The tools the tasks extension's scenarios (tasks-*) call: one that answers
// at once, one that computes for a while (a task on the modern wire when the
// client declared the extension), one that fails as a tool after a second
// and cannot run but as a task, one that crashes (a protocol-level failure),
// two that ask the user once they are tasks (one question, then two at
// once), and one that asks first and then goes on as a task. They become
// tasks the way the product tools do: `long_running`, `own_progress` for
// work that reports its own progress and so becomes a task at once (as
// hermes_task), or the channel's continue_as_task(); and they ask through
// the call's ClientChannel as any tool does.
#include "registry/client_channel.h"
#include "tools/conformance/conformance.h"
#include "tools/conformance/fixture_json.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

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

Result<FixtureOutput> protocol_error_job(const FixtureParams&, registry::CallContext& ctx) {
  if (!wait(ctx, 1s)) return Error::Cancelled("protocol_error_job was cancelled");
  throw std::runtime_error("protocol_error_job crashed as designed");
}

// A yes/no elicitation under `key`: true when the user accepted with yes.
bool confirmed(registry::CallContext& ctx, const std::string& key, const std::string& message) {
  std::optional<Json> reply = ask_field(ctx.client, ctx.stop, key, message, "confirm", "boolean");
  // Whatever the client answered (it may run on a thread of its own, where
  // a JSON type error would end the server): read, never assumed.
  if (!reply || !reply->is_object() || (*reply)["action"] != "accept") return false;
  const Json& content = (*reply)["content"];
  return content.is_object() && content.contains("confirm") && content["confirm"] == true;
}

Result<FixtureOutput> confirm_delete(const FixtureParams& params, registry::CallContext& ctx) {
  std::string file = string_arg(params, "filename", "file.txt");
  bool yes = confirmed(ctx, "confirm", "Delete " + file + "?");
  if (ctx.stop.stop_requested()) return Error::Cancelled("confirm_delete was cancelled");
  return FixtureOutput{(yes ? "Deleted " : "Kept ") + file};
}

// Two questions at once: each parks the task until it is answered.
Result<FixtureOutput> multi_input(const FixtureParams&, registry::CallContext& ctx) {
  bool first = false;
  std::thread other([&] { first = confirmed(ctx, "first", "Proceed with the first step?"); });
  bool second = confirmed(ctx, "second", "Proceed with the second step?");
  other.join();
  if (ctx.stop.stop_requested()) return Error::Cancelled("multi_input was cancelled");
  return FixtureOutput{std::string("first: ") + (first ? "yes" : "no") +
                       ", second: " + (second ? "yes" : "no")};
}

// Asks a name in an input round, then goes on as a task with it.
Result<FixtureOutput> test_tool_with_task(const FixtureParams&, registry::CallContext& ctx) {
  std::optional<Json> reply =
      ask_field(ctx.client, ctx.stop, "user_name", "What is your name?", "name", "string");
  Json content = reply && reply->is_object() ? (*reply)["content"] : Json();
  if (!content.is_object() || !content.contains("name") || !content["name"].is_string()) {
    return FixtureOutput{"No name was given"};  // the round's question is the answer
  }
  ctx.client.continue_as_task();
  if (!wait(ctx, 1s)) return Error::Cancelled("test_tool_with_task was cancelled");
  return FixtureOutput{"Hello, " + content["name"].get<std::string>() + "! (finished as a task)"};
}

registry::ToolSpec task_tool(registry::ToolSpec spec) {
  spec.long_running = [](const Json&) { return true; };
  spec.own_progress = true;
  return spec;
}

// A tool that runs only as a task: a client without the extension is refused.
registry::ToolSpec task_only(registry::ToolSpec spec) {
  spec.client_capabilities = {{"extensions", {{"io.modelcontextprotocol/tasks", Json::object()}}}};
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
  registry.add(task_only(
      task_tool(fixture_tool("failing_job", "Fails as a tool after a second; runs only as a task",
                             string_args_schema({}), failing_job))));
  registry.add(task_only(task_tool(
      fixture_tool("protocol_error_job",
                   "Crashes after a second (a protocol-level failure); runs only as a task",
                   string_args_schema({}), protocol_error_job))));
  registry.add(task_tool(
      fixture_tool("confirm_delete", "Asks to confirm a deletion once it is a task",
                   string_args_schema({{"filename", "The file to delete"}}), confirm_delete)));
  registry.add(task_tool(fixture_tool("multi_input", "Asks two questions at once as a task",
                                      string_args_schema({}), multi_input)));
  registry::ToolSpec with_task =
      fixture_tool("test_tool_with_task", "Asks a name, then finishes with it as a task",
                   string_args_schema({}), test_tool_with_task);
  with_task.long_running = [](const Json&) { return true; };
  registry.add(task_only(std::move(with_task)));
}

}  // namespace hermes::conformance
