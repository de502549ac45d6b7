// SPDX-License-Identifier: MIT
// The method tables of both eras, shared by every transport (stdio and HTTP):
// what each method answers, how a tools/call is prepared and run, when a
// modern call becomes a task. Transports own framing, cancellation by id and
// where replies go; tools never learn which transport or era called them.
// Thread-safe.
#pragma once

#include "json/json.h"
#include "mcp/call_pool.h"
#include "mcp/era.h"
#include "mcp/log_threshold.h"
#include "mcp/protocol.h"
#include "mcp/request_state.h"
#include "mcp/task_store.h"
#include "registry/dispatcher.h"

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <variant>

namespace hermes::registry {
class ClientChannel;
class Session;
}  // namespace hermes::registry

namespace hermes::mcp {

class ClientLink;
class InputRound;

struct RouterOptions {
  ServerIdentity identity;
  bool tasks = true;  // offer the tasks extension on the modern wire
  TaskOptions task;
};

// What to send back: a JSON-RPC message (null: nothing) and, for HTTP, the
// status the validation ladder maps it to.
struct Reply {
  Json message;
  int http_status = 200;
};

// A refusal as a reply to `id`.
Reply refusal_reply(const Json& id, const Refusal& refusal);

// A validated tools/call, ready to run.
struct PreparedCall {
  const registry::ToolSpec* spec = nullptr;
  Json args;
  Json progress_token;
  CallKind kind = CallKind::kMayBlock;     // how a CallPool should schedule it
  registry::BriefFindings brief_findings;  // what deciding `kind` found and took
  bool long_running = false;               // ToolSpec::long_running, judged once
  // The 2026-07-28 wire's retry of an input_required call: the answers and
  // the state it echoes; absent on a first call (and read on no other wire).
  std::optional<Json> input_responses;
  std::optional<Json> request_state;
};

// What one input round of a modern request answers for: the name its
// requestState is bound to (a tool's; "prompts/get " and a prompt's), the
// request's arguments, and the answers and state a retry brings.
struct RoundRequest {
  std::string bound;
  const Json& args;
  const std::optional<Json>& responses;
  const std::optional<Json>& state;
};

// Where one call runs: the session whose state it uses, the channel its
// notifications take, the stop token of its request, and for the modern era
// the request's envelope and the principal tasks belong to.
struct CallEnv {
  registry::Session& session;
  registry::ClientChannel& client;
  std::stop_token stop;
  const Envelope* envelope = nullptr;  // null: legacy era
  std::string principal;
  // What `session` and `client` live in when the transport made them for
  // this call (HTTP's conversations): a call that becomes a task holds it
  // for as long as its work runs.
  std::shared_ptr<const void> keep_alive;
};

class Router {
 public:
  Router(const registry::Registry& registry, const registry::Services& services,
         RouterOptions options);

  registry::Dispatcher& dispatcher() { return dispatcher_; }
  const RouterOptions& options() const { return options_; }

  // A legacy request other than tools/call. `link` (stdio) records the
  // client's capabilities, null on HTTP; `logs` the session's log level
  // (null: logging/setLevel only checks the level's name).
  Reply legacy(const Json& id, const std::string& method, const Json& params, ClientLink* link,
               LogThreshold* logs);
  // A modern request other than tools/call, after the ladder.
  Reply modern(const Json& id, const std::string& method, const Json& params,
               const Envelope& envelope, const std::string& principal);

  // tools/call's parameters checked, or the error to answer with. On the
  // modern wire (`envelope`), the client capabilities the tool needs too.
  std::variant<PreparedCall, Reply> prepare_call(const Json& id, const Json& params,
                                                 const Envelope* envelope = nullptr);
  // Runs `call` on this thread (a modern call the tasks extension covers may
  // continue as a task). nullopt when the request was stopped: no reply.
  std::optional<Reply> run_call(const Json& id, const PreparedCall& call, CallEnv env);

  // Stops every task and waits for them: before the sessions they use go.
  void stop_tasks() { tasks_.stop_all(); }
  // True while `principal` has a task still running.
  bool has_live_tasks(const std::string& principal) { return tasks_.has_live(principal); }

 private:
  Json tools_list() const;
  // resources/*, prompts/*, completion/complete; nullopt for another method.
  // A prompt's questions go to `client`.
  std::optional<Reply> catalog_method(const Json& id, const std::string& method, const Json& params,
                                      bool modern, registry::ClientChannel& client) const;
  // prompts/get on the modern wire: a question the prompt asks makes it
  // answer input_required, as a tools/call does.
  Reply modern_prompt(const Json& id, const Json& params, const Envelope& envelope,
                      const std::string& principal);
  Reply task_method(const Json& id, const std::string& method, const Json& params,
                    const Envelope& envelope, const std::string& principal);
  bool may_become_task(const PreparedCall& call, const CallEnv& env) const;
  std::optional<Reply> run_call_unguarded(const Json& id, const PreparedCall& call,
                                          const CallEnv& env);
  // The input round of a modern request, its state checked; or the
  // refusal. Notifications go to `client`.
  std::variant<std::shared_ptr<InputRound>, Reply> open_round(const Json& id,
                                                              const RoundRequest& request,
                                                              const Envelope& envelope,
                                                              const std::string& principal,
                                                              registry::ClientChannel& client);
  // The input_required result of a round that left questions open.
  Json input_required(const RoundRequest& request, const std::string& principal,
                      const InputRound& round) const;

  const registry::Services& services_;
  RouterOptions options_;
  registry::Dispatcher dispatcher_;
  TaskStore tasks_;
  RequestStates states_;
};

}  // namespace hermes::mcp
