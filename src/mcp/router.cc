// SPDX-License-Identifier: MIT
#include "mcp/router.h"

#include "core/log.h"
#include "mcp/catalog_json.h"
#include "mcp/client_link.h"
#include "mcp/input_round.h"
#include "mcp/task_channel.h"
#include "registry/call_status.h"
#include "registry/progress_ticker.h"
#include "registry/session.h"

#include <chrono>
#include <stdexcept>

namespace hermes::mcp {
namespace {

// A tools/call's round is bound to its tool.
RoundRequest round_request(const PreparedCall& call) {
  return {call.spec->name, call.args, call.input_responses, call.request_state};
}

// `params[key]` when the request has it (even null), else nullopt.
std::optional<Json> optional_param(const Json& params, const char* key) {
  if (!params.is_object() || !params.contains(key)) return std::nullopt;
  return params[key];
}

Reply error_reply(const Json& id, RpcError code, const std::string& message, int status = 200,
                  Json data = Json()) {
  return Reply{make_error(id, code, message, std::move(data)), status};
}

// Foreground work that may run for minutes, as the tool judges its
// arguments. A predicate that throws judges arguments its tool will refuse.
bool is_long_running(const registry::ToolSpec& spec, const Json& args) {
  if (!spec.long_running) return false;
  try {
    return spec.long_running(args);
  } catch (const std::exception& e) {
    log::warn("tool " + spec.name + ": its arguments could not be judged: " + e.what());
    return false;
  }
}

// Whether the call is brief (registry::runs_briefly); a predicate that
// throws makes it a call that may block, which the dispatcher then answers.
CallKind call_kind(const registry::ToolSpec& spec, const Json& args,
                   const registry::Services& services, registry::BriefFindings& found) {
  try {
    return registry::runs_briefly(spec, args, services, found) ? CallKind::kBrief
                                                               : CallKind::kMayBlock;
  } catch (const std::exception& e) {
    log::warn("tool " + spec.name + ": its arguments could not be judged: " + e.what());
    found = {};
    return CallKind::kMayBlock;
  }
}

// What of `required` (a ClientCapabilities object) `declared` lacks: each
// capability an object there, and within it each one it names in turn.
Json missing_capabilities(const Json& required, const Json& declared) {
  Json missing = Json::object();
  for (const auto& [name, inner] : required.items()) {
    const Json& have = param(declared, name.c_str());
    if (!have.is_object()) {
      missing[name] = inner;
    } else if (Json deeper = missing_capabilities(inner, have); !deeper.empty()) {
      missing[name] = std::move(deeper);
    }
  }
  return missing;
}

// A tool's answer for a call that threw outside the dispatcher's own
// boundary (no thread to be had for a ticker or a task): an error result
// that names the tool, so the server keeps serving.
Json internal_error_result(const registry::ToolSpec& spec, std::string_view what) {
  log::error("tool " + spec.name + " failed: " + std::string(what));
  return call_result(
      dump_json(registry::error_json("Internal error in " + spec.name + ": " + std::string(what))),
      true);
}

}  // namespace

Reply refusal_reply(const Json& id, const Refusal& refusal) {
  return error_reply(id, refusal.code, refusal.message, refusal.http_status, refusal.data);
}

Router::Router(const registry::Registry& registry, const registry::Services& services,
               RouterOptions options)
    : services_(services),
      options_(std::move(options)),
      dispatcher_(registry, services),
      tasks_(options_.task),
      states_(services.clock) {}

Json Router::tools_list() const {
  Json tools = Json::array();
  for (const registry::ToolSpec* spec : dispatcher_.registry().list(services_)) {
    std::string description =
        spec->describe ? spec->describe(services_, spec->description) : spec->description;
    tools.push_back(tool_to_json(*spec, description));
  }
  return {{"tools", std::move(tools)}};
}

Reply Router::legacy(const Json& id, const std::string& method, const Json& params,
                     ClientLink* link, LogThreshold* logs) {
  if (method == "initialize") {
    if (link && !param(params, "capabilities").is_null())
      link->set_capabilities(param(params, "capabilities"));
    std::string version = negotiate_version(param(params, "protocolVersion"));
    return {
        make_result(id, initialize_result(options_.identity, version,
                                          catalog_capabilities(dispatcher_.registry(), false)))};
  }
  if (method == "ping") return {make_result(id, Json::object())};
  if (method == "tools/list") return {make_result(id, tools_list())};
  registry::NullClientChannel nobody;  // the legacy wire's prompts ask nothing
  if (auto reply = catalog_method(id, method, params, false, nobody)) return std::move(*reply);
  if (method == "logging/setLevel") {
    const Json& level = param(params, "level");
    bool known = level.is_string() && (logs ? logs->set(level.get<std::string>())
                                            : is_log_level(level.get<std::string>()));
    if (!known)
      return error_reply(id, RpcError::kInvalidParams, "Invalid params: unknown log level");
    return {make_result(id, Json::object())};
  }
  return error_reply(id, RpcError::kMethodNotFound, "Method not found: " + method);
}

Reply Router::modern(const Json& id, const std::string& method, const Json& params,
                     const Envelope& envelope, const std::string& principal) {
  if (method == "server/discover") {
    return {make_result(id, discover_result(options_.identity, options_.tasks,
                                            catalog_capabilities(dispatcher_.registry(), true)))};
  }
  if (method == "prompts/get" && offers_prompts(dispatcher_.registry())) {
    return modern_prompt(id, params, envelope, principal);
  }
  registry::NullClientChannel nobody;
  if (auto reply = catalog_method(id, method, params, true, nobody)) return std::move(*reply);
  if (method == "tools/list") {
    Json list = tools_list();
    list["ttlMs"] = kListTtlMs;
    list["cacheScope"] = "private";
    return {make_result(id, modern_result(options_.identity, std::move(list)))};
  }
  if (options_.tasks && method.starts_with("tasks/") && method != "tasks/result" &&
      method != "tasks/list") {
    return task_method(id, method, params, envelope, principal);
  }
  return error_reply(id, RpcError::kMethodNotFound, "Method not found: " + method, 404);
}

std::optional<Reply> Router::catalog_method(const Json& id, const std::string& method,
                                            const Json& params, bool modern,
                                            registry::ClientChannel& client) const {
  const registry::Registry& registry = dispatcher_.registry();
  const bool resources = offers_resources(registry);
  std::optional<Json> result;
  if (method == "resources/list" && resources) {
    result = resources_list(registry);
  } else if (method == "resources/templates/list" && resources) {
    result = resource_templates_list(registry);
  } else if (method == "prompts/list" && offers_prompts(registry)) {
    result = prompts_list(registry);
  } else if (method == "completion/complete" && (resources || offers_prompts(registry))) {
    result = completion_result();
  } else if (method == "resources/read" && resources) {
    const Json& uri = param(params, "uri");
    if (!uri.is_string()) {
      return error_reply(id, RpcError::kInvalidParams, "Invalid params: uri must be a string");
    }
    result = read_resource(registry, uri.get<std::string>());
    // Legacy revisions name this -32002; 2026-07-28 made it -32602 (SEP-2164).
    if (!result) {
      return error_reply(id, modern ? RpcError::kInvalidParams : RpcError::kResourceNotFound,
                         "Resource not found: " + uri.get<std::string>(), 200, {{"uri", uri}});
    }
  } else if (method == "prompts/get" && offers_prompts(registry)) {
    const Json& name = param(params, "name");
    if (!name.is_string()) {
      return error_reply(id, RpcError::kInvalidParams, "Invalid params: name must be a string");
    }
    result = get_prompt(registry, name.get<std::string>(), param(params, "arguments"), client);
    if (!result) {
      return error_reply(id, RpcError::kInvalidParams,
                         "Invalid params: unknown prompt " + name.get<std::string>());
    }
  } else if ((method == "resources/subscribe" || method == "resources/unsubscribe") && resources &&
             !modern) {
    // Subscriptions are accepted; the resources never change, so no update follows.
    if (!param(params, "uri").is_string()) {
      return error_reply(id, RpcError::kInvalidParams, "Invalid params: uri must be a string");
    }
    result = Json::object();
  }
  if (!result) return std::nullopt;
  if (!modern) return Reply{make_result(id, std::move(*result))};
  // SEP-2549: the cacheable results (every list, and a resource's contents).
  if (method.ends_with("/list") || method == "resources/read") {
    (*result)["ttlMs"] = kListTtlMs;
    (*result)["cacheScope"] = "private";
  }
  return Reply{make_result(id, modern_result(options_.identity, std::move(*result)))};
}

Reply Router::modern_prompt(const Json& id, const Json& params, const Envelope& envelope,
                            const std::string& principal) {
  const Json& name = param(params, "name");
  const Json& given = param(params, "arguments");
  const Json args = given.is_object() ? given : Json::object();
  const auto responses = optional_param(params, "inputResponses");
  const auto state = optional_param(params, "requestState");
  RoundRequest request{"prompts/get " + (name.is_string() ? name.get<std::string>() : ""), args,
                       responses, state};
  registry::NullClientChannel nobody;  // a prompt sends no notifications
  auto opened = open_round(id, request, envelope, principal, nobody);
  if (auto* refused = std::get_if<Reply>(&opened)) return std::move(*refused);
  auto round = std::get<std::shared_ptr<InputRound>>(std::move(opened));
  std::optional<Reply> reply = catalog_method(id, "prompts/get", params, true, *round);
  if (reply->message.contains("result") && !round->questions().empty()) {
    reply->message = make_result(id, input_required(request, principal, *round));
  }
  return std::move(*reply);
}

Reply Router::task_method(const Json& id, const std::string& method, const Json& params,
                          const Envelope& envelope, const std::string& principal) {
  if (method != "tasks/get" && method != "tasks/cancel" && method != "tasks/update") {
    return error_reply(id, RpcError::kMethodNotFound, "Method not found: " + method, 404);
  }
  if (!envelope.declares_tasks()) {
    Json required = {{"extensions", {{std::string(kTasksExtension), Json::object()}}}};
    return error_reply(id, RpcError::kMissingClientCapability,
                       "Missing required client capability: the tasks extension", 400,
                       {{"requiredCapabilities", std::move(required)}});
  }
  const Json& task_id = param(params, "taskId");
  if (!task_id.is_string()) {
    return error_reply(id, RpcError::kInvalidParams, "Invalid params: taskId must be a string");
  }
  const std::string& key = task_id.get_ref<const std::string&>();
  const Json& responses = param(params, "inputResponses");
  if (method == "tasks/update" && !responses.is_object()) {
    return error_reply(id, RpcError::kInvalidParams,
                       "Invalid params: inputResponses must be an object");
  }
  std::optional<Json> found;
  if (method == "tasks/get") {
    found = tasks_.get(principal, key);
  } else if (method == "tasks/cancel" ? tasks_.cancel(principal, key)
                                      : tasks_.update(principal, key, responses)) {
    found = Json::object();  // an acknowledgement; the task settles on its own
  }
  if (!found) {
    return error_reply(id, RpcError::kInvalidParams, "Failed to retrieve task: Task not found");
  }
  return {make_result(id, modern_result(options_.identity, std::move(*found)))};
}

std::variant<PreparedCall, Reply> Router::prepare_call(const Json& id, const Json& params,
                                                       const Envelope* envelope) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    return error_reply(id, RpcError::kInvalidParams,
                       "Invalid params: tools/call needs a string 'name'");
  }
  Json args = params.contains("arguments") ? params["arguments"] : Json::object();
  if (args.is_null()) args = Json::object();
  if (!args.is_object()) {
    return error_reply(id, RpcError::kInvalidParams,
                       "Invalid params: 'arguments' must be an object");
  }
  const std::string& name = params["name"].get_ref<const std::string&>();
  const registry::ToolSpec* spec = dispatcher_.find(name);
  if (!spec) {
    return error_reply(id, RpcError::kInvalidParams,
                       dispatcher_.registry().why_missing(name, services_).message);
  }
  if (envelope) {
    Json missing = missing_capabilities(spec->client_capabilities, envelope->client_capabilities);
    if (!missing.empty()) {
      return error_reply(id, RpcError::kMissingClientCapability,
                         "Missing required client capability: " + dump_json(missing), 400,
                         {{"requiredCapabilities", std::move(missing)}});
    }
  }
  registry::BriefFindings found;
  const CallKind kind = call_kind(*spec, args, services_, found);
  const bool long_running = is_long_running(*spec, args);
  PreparedCall call{spec, std::move(args), Json(), kind, std::move(found), long_running};
  call.progress_token = param(param(params, "_meta"), "progressToken");
  if (params.contains("inputResponses")) call.input_responses = params["inputResponses"];
  if (params.contains("requestState")) call.request_state = params["requestState"];
  return call;
}

bool Router::may_become_task(const PreparedCall& call, const CallEnv& env) const {
  return options_.tasks && env.envelope && env.envelope->declares_tasks() && call.long_running;
}

std::optional<Reply> Router::run_call(const Json& id, const PreparedCall& call, CallEnv env) {
  try {
    return run_call_unguarded(id, call, env);
  } catch (const std::exception& e) {  // no thread to be had for a ticker or a task
    Json out = internal_error_result(*call.spec, e.what());
    if (env.envelope) out = modern_result(options_.identity, std::move(out));
    return Reply{make_result(id, std::move(out))};
  }
}

// Answers count only with a state issued for this very request: a client
// cannot answer a question it was not asked (an approval it never showed),
// nor carry an answer to other arguments or another principal.
std::variant<std::shared_ptr<InputRound>, Reply> Router::open_round(
    const Json& id, const RoundRequest& request, const Envelope& envelope,
    const std::string& principal, registry::ClientChannel& client) {
  const Json responses = request.responses.value_or(Json::object());
  if (!responses.is_object()) {
    return error_reply(id, RpcError::kInvalidParams,
                       "Invalid params: inputResponses must be an object");
  }
  Json record = Json::object();
  if (request.state) {
    if (!request.state->is_string()) {
      return error_reply(id, RpcError::kInvalidParams,
                         "Invalid params: requestState must be a string");
    }
    auto redeemed = states_.redeem(request.state->get_ref<const std::string&>(),
                                   {principal, request.bound, request.args});
    if (!redeemed) {
      return error_reply(
          id, RpcError::kInvalidParams,
          "Invalid params: " + redeemed.error().message + "; call the tool again without it");
    }
    record = std::move(*redeemed);
  }
  return std::make_shared<InputRound>(client, envelope.client_capabilities, states_,
                                      std::move(record), responses);
}

Json Router::input_required(const RoundRequest& request, const std::string& principal,
                            const InputRound& round) const {
  Json out = {
      {"inputRequests", round.questions()},
      {"requestState", states_.issue({principal, request.bound, request.args}, round.record())}};
  return modern_result(options_.identity, std::move(out), "input_required");
}

std::optional<Reply> Router::run_call_unguarded(const Json& id, const PreparedCall& call,
                                                const CallEnv& env) {
  // On the modern wire a question the tool asks makes the call answer
  // input_required (input_round.h); the tool's own result is then dropped.
  std::shared_ptr<InputRound> round;
  if (env.envelope) {
    auto opened = open_round(id, round_request(call), *env.envelope, env.principal, env.client);
    if (auto* refused = std::get_if<Reply>(&opened)) return std::move(*refused);
    round = std::get<std::shared_ptr<InputRound>>(std::move(opened));
  }
  auto finished = [&](Json result) {
    if (round && !round->questions().empty()) {
      result = input_required(round_request(call), env.principal, *round);
    }
    return Reply{make_result(id, std::move(result))};
  };
  // Progress for the request's life (hermes_task ticks on its own): it ends
  // with this frame, at the response or the promotion to a task.
  // What the call has written so far, for that progress and a task's
  // statusMessage; shared with a promoted call's work.
  std::shared_ptr<registry::CallStatus> status;
  if (call.long_running) status = std::make_shared<registry::CallStatus>();
  std::optional<registry::ProgressTicker> ticker;
  if (call.long_running && !call.spec->own_progress) {
    ticker.emplace(env.client, call.progress_token, std::chrono::seconds(1), 0, call.spec->name,
                   status.get());
  }
  // A call that may become a task is copied into its work: a promoted call
  // outlives this frame (the session and channel outlive every call and
  // task of theirs; the work holds the round). A task's result is what the
  // direct call would have answered; a question asked after the promotion
  // parks the task in input_required until tasks/update answers it
  // (task_channel.h).
  bool modern = env.envelope != nullptr;
  auto run = [this, modern, &session = env.session, &plain = env.client, round, status](
                 const PreparedCall& prepared, std::stop_token stop, TaskLink* link) {
    std::optional<TaskChannel> task_channel;
    if (link && round) task_channel.emplace(*round, *link);
    registry::ClientChannel& client = task_channel ? *task_channel
                                      : round      ? static_cast<registry::ClientChannel&>(*round)
                                                   : plain;
    registry::CallContext ctx{session,
                              services_,
                              client,
                              dispatcher_,
                              stop,
                              prepared.progress_token,
                              &prepared.brief_findings,
                              status.get()};
    registry::ToolCallResult result = dispatcher_.call(*prepared.spec, prepared.args, ctx);
    // A tool that threw ends a task `failed`, a protocol-level error; a
    // direct call answers it as the tool's own error.
    if (link && result.crash) {
      throw std::runtime_error(prepared.spec->name + ": " + *result.crash);
    }
    // A failure's JSON is no output the schema describes: text only.
    const bool structured = !result.is_error && !prepared.spec->output_schema.is_null();
    Json out = call_result(std::move(result.text), result.is_error, result.content,
                           structured ? std::move(result.value) : Json());
    return modern ? modern_result(options_.identity, std::move(out)) : out;
  };
  if (!may_become_task(call, env)) {
    Json result = run(call, env.stop, nullptr);
    if (env.stop.stop_requested()) return std::nullopt;
    return finished(std::move(result));
  }
  bool at_once = call.spec->own_progress || options_.task.inline_budget.count() == 0;
  auto work = [run, call, keep = env.keep_alive](std::stop_token stop, TaskLink& link) {
    (void)keep;  // held, not used
    return run(call, stop, &link);
  };
  TaskStore::Outcome outcome =
      tasks_.run(env.principal, call.spec->name, std::move(work), env.stop, at_once, status);
  if (auto* promoted = std::get_if<TaskStore::Promoted>(&outcome)) {
    return Reply{
        make_result(id, modern_result(options_.identity, std::move(promoted->created), "task"))};
  }
  auto* inline_end = std::get_if<TaskStore::Finished>(&outcome);
  if (!inline_end) return std::nullopt;
  if (inline_end->failed) {
    return Reply{make_error(id, RpcError::kInternalError, inline_end->result.value("message", ""))};
  }
  return finished(std::move(inline_end->result));
}

}  // namespace hermes::mcp
