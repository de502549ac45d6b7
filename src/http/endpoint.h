// SPDX-License-Identifier: MIT
// The MCP endpoint's HTTP semantics, independent of sockets: guards, bearer
// tokens, the status ladder of both eras, legacy sessions (Mcp-Session-Id)
// and the modern era's per-principal state. The listener feeds it parsed
// requests from its I/O threads and writes what it answers; a tools/call
// comes back as a CallJob to run. Tools see the same Router and Dispatcher
// as on stdio. Thread-safe.
#pragma once

#include "json/json.h"
#include "mcp/router.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "http/auth.h"
#include "http/guard.h"

namespace hermes::http {

struct EndpointOptions {
  std::string path = "/mcp";
  std::vector<std::string> allow_hosts;
  std::vector<std::string> allow_origins;
  TokenTable tokens;  // empty: no authentication (every caller is "local")
  size_t max_sessions = 256;
  // 0: a quarter of max_sessions (at least 1). Applies only with tokens:
  // without them every caller is one principal.
  size_t max_sessions_per_principal = 0;
  std::chrono::milliseconds session_idle{std::chrono::minutes(30)};
  size_t max_inflight = 256;
  size_t max_inflight_per_principal = 32;
  bool legacy = true;
  bool modern = true;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // "POST"
  std::string target;  // "/mcp?x"
  Headers headers;     // names lowercased
  std::string body;
  // The first value of a header (name in lower case).
  std::optional<std::string_view> header(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  Headers headers;
  std::string body;
};

// A tools/call accepted for a worker thread. `run` calls the tool, passing
// each notification for this request (progress) to `sink` as it comes; it
// returns the JSON-RPC response, or nullopt when the call was cancelled.
struct CallJob {
  std::function<std::optional<Json>(std::function<void(const Json&)> sink)> run;
  std::shared_ptr<std::stop_source> stop;
  bool cancel_on_disconnect = false;  // the modern era: a closed stream cancels
  mcp::CallKind kind = mcp::CallKind::kMayBlock;
  Headers headers;  // for the response (Mcp-Session-Id)
};

// What a request's headers alone decided (Endpoint::admit).
struct Admission {
  // The principal a token (or the absence of a token table) vouched for;
  // nullopt for the requests that need none (GET /healthz, a CORS preflight).
  std::optional<std::string> principal;
};

class Endpoint {
 public:
  Endpoint(mcp::Router& router, EndpointOptions options);
  // Stops every task and call, ends every session (killing their processes).
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // Guards, path and token, judged on the headers (the body may be empty):
  // the listener asks before it reads a body, so that a refused request
  // never buffers one.
  std::variant<Admission, HttpResponse> admit(const HttpRequest& request) const;
  // Never throws: a request whose handling throws is answered 500 and the
  // server keeps serving.
  std::variant<HttpResponse, CallJob> handle(const HttpRequest& request);
  // Ends sessions idle (and without a call in flight) past the limit.
  void expire_idle();
  size_t session_count() const;

 private:
  struct Bucket;
  struct Post;
  class CallTicket;
  using Outcome = std::variant<HttpResponse, CallJob>;

  Outcome route(const HttpRequest& request);
  std::optional<HttpResponse> check_guards(const HttpRequest& request) const;
  std::variant<std::string, HttpResponse> authenticate(const HttpRequest& request) const;
  Outcome handle_post(const HttpRequest& request, const std::string& principal);
  Outcome handle_modern(const Post& post);
  Outcome handle_legacy(const Post& post);
  Outcome legacy_initialize(const Post& post);
  HttpResponse deliver_response(const HttpRequest& request, const std::string& principal,
                                const Json& message);
  HttpResponse handle_delete(const HttpRequest& request, const std::string& principal);
  Outcome start_call(const Post& post, std::shared_ptr<Bucket> bucket,
                     const mcp::Envelope* envelope,
                     const std::optional<std::string>& conversation_key = std::nullopt);
  std::variant<std::shared_ptr<Bucket>, HttpResponse> find_session(const HttpRequest& request,
                                                                   const std::string& principal);
  std::shared_ptr<Bucket> modern_bucket(const std::string& principal);
  void expire_idle_locked();  // sessions_mu_ held
  // Retires `bucket` unless a call is in flight on it or it was used at or
  // after `before` (a steady_clock count); sessions_mu_ held.
  bool retire_if_unused_since(const std::shared_ptr<Bucket>& bucket,
                              std::chrono::steady_clock::rep before);
  bool make_room_for_locked(const std::string& principal);  // sessions_mu_ held
  void retire(std::shared_ptr<Bucket> bucket);
  void reap_loop(std::stop_token stop);
  void release_load(const std::string& principal);

  mcp::Router& router_;
  const EndpointOptions options_;
  const Guard guard_;
  mutable std::mutex sessions_mu_;
  std::map<std::string, std::shared_ptr<Bucket>> sessions_;  // sessions_mu_; legacy, by id
  std::map<std::string, std::shared_ptr<Bucket>> modern_;    // sessions_mu_; by principal
  std::mutex load_mu_;
  size_t inflight_ = 0;                                  // load_mu_
  std::map<std::string, size_t> inflight_by_principal_;  // load_mu_
  // Sessions leave the tables on an I/O thread but are destroyed (which
  // kills their processes, up to a second each) on this thread.
  std::mutex retired_mu_;
  std::condition_variable_any retired_cv_;
  std::vector<std::shared_ptr<Bucket>> retired_;  // retired_mu_
  std::jthread reaper_;
};

// A JSON-RPC error body without id, for refusals before the body is read.
std::string error_body(int code, std::string_view message);

}  // namespace hermes::http
