// SPDX-License-Identifier: MIT
#include "http/endpoint.h"

#include "core/log.h"
#include "core/strings.h"
#include "mcp/call_channel.h"
#include "mcp/lenient_json.h"
#include "mcp/pending_requests.h"
#include "mcp/request_channel.h"
#include "registry/session.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace hermes::http {
namespace {

using mcp::RpcError;
using Clock = std::chrono::steady_clock;

constexpr const char* kAllow = "GET, POST, DELETE";

HttpResponse json_response(int status, const Json& message, Headers headers = {}) {
  headers.emplace_back("Content-Type", "application/json");
  return HttpResponse{status, std::move(headers), dump_json(message)};
}

HttpResponse refuse(int status, int code, std::string_view message, Headers headers = {}) {
  headers.emplace_back("Content-Type", "application/json");
  return HttpResponse{status, std::move(headers), error_body(code, message)};
}

HttpResponse rpc_error(int status, const Json& id, RpcError code, const std::string& message) {
  return json_response(status, mcp::make_error(id, code, message));
}

HttpResponse accepted() { return HttpResponse{202, {}, ""}; }

// Does an Accept header admit `type` ("application/json")? Wildcards count.
bool accepts(std::string_view accept, std::string_view type) {
  std::string text = to_lower(accept);
  std::string family = std::string(type.substr(0, type.find('/'))) + "/*";
  return text.find(type) != std::string::npos || text.find(family) != std::string::npos ||
         text.find("*/*") != std::string::npos;
}

bool is_json_media_type(std::string_view content_type) {
  std::string type = to_lower(content_type.substr(0, content_type.find(';')));
  type.erase(std::remove(type.begin(), type.end(), ' '), type.end());
  return type == "application/json";
}

// The modern wire's conversation key: the client's name for one
// conversation with the model, so that calls on one token keep their read
// dedup and loop guards apart (docs/http.md).
constexpr const char* kConversationKey = "hermes-tools/conversationId";
constexpr size_t kMaxConversationKey = 256;

// The request's conversation key; nullopt when it names none.
Result<std::optional<std::string>> conversation_key(const Json& params) {
  if (!params.contains("_meta") || !params["_meta"].contains(kConversationKey)) {
    return std::optional<std::string>();
  }
  const Json& key = params["_meta"][kConversationKey];
  if (!key.is_string() || key.get<std::string>().empty() ||
      key.get<std::string>().size() > kMaxConversationKey) {
    return Error::InvalidArgument(std::string("Invalid params: _meta[\"") + kConversationKey +
                                  "\"] must be a string of 1 to " +
                                  std::to_string(kMaxConversationKey) + " bytes");
  }
  return std::optional<std::string>(key.get<std::string>());
}

bool is_legacy_version(std::string_view version) {
  const auto& versions = mcp::supported_versions();
  return std::find(versions.begin(), versions.end(), version) != versions.end();
}

}  // namespace

std::string error_body(int code, std::string_view message) {
  return dump_json(
      Json{{"jsonrpc", "2.0"}, {"error", {{"code", code}, {"message", std::string(message)}}}});
}

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

// One legacy session, or one principal's modern state: the tool session, the
// channel progress takes, and the calls in flight (legacy cancellation by id).
// On the modern wire each call runs in a conversation inside the session
// (registry::Session's shared form): the one its key names, else one of its
// own, so that read dedup and loop guards never span clients of one token.
struct Endpoint::Bucket {
  static constexpr size_t kMaxConversations = 64;

  Bucket(std::string owner, const std::string& id) : principal(std::move(owner)), session(id) {}
  const std::string principal;
  // Before the session: the session ends first, and the background jobs it
  // stops may still notify through the channel as they go.
  mcp::RequestChannel channel;
  // Legacy: our requests to the client (elicitation, when its initialize
  // declared it), answered in later POSTs.
  bool elicitation = false;  // set before the bucket is shared
  mcp::PendingRequests asked;
  // Legacy: the level logging/setLevel chose for a call's log messages.
  mcp::LogThreshold logs;
  registry::Session session;
  // After the session, so they end before it. mu; by key, each with when it
  // was last used: past the cap the least recent goes (a call still in it
  // keeps it alive), which costs it only its guards' memory.
  std::map<std::string, std::pair<std::shared_ptr<registry::Session>, uint64_t>> conversations;
  uint64_t conversation_uses = 0;  // mu
  std::atomic<int> inflight{0};
  std::atomic<Clock::rep> last_used{Clock::now().time_since_epoch().count()};
  std::mutex mu;
  std::map<std::string, std::shared_ptr<std::stop_source>> flights;  // mu; by id JSON
  // mu: set once the bucket has left its table, so that a call that found
  // it just before starts on it no more (it would be neither cancelled nor
  // counted by the retirement).
  bool retired = false;
  void touch() { last_used = Clock::now().time_since_epoch().count(); }

  // mu held: the conversation `key` names, or a new one of the call's own.
  std::shared_ptr<registry::Session> conversation(const std::optional<std::string>& key) {
    if (!key) return std::make_shared<registry::Session>(session.id() + "/call", session);
    auto found = conversations.find(*key);
    if (found == conversations.end()) {
      if (conversations.size() >= kMaxConversations) {
        conversations.erase(std::min_element(
            conversations.begin(), conversations.end(),
            [](const auto& a, const auto& b) { return a.second.second < b.second.second; }));
      }
      auto made = std::make_shared<registry::Session>(session.id() + "/" + *key, session);
      found = conversations.emplace(*key, std::make_pair(std::move(made), 0)).first;
    }
    found->second.second = ++conversation_uses;
    return found->second.first;
  }
};

// A parsed POST: the message and what the headers said.
struct Endpoint::Post {
  const HttpRequest& request;
  const std::string& principal;
  const Json& message;
  Json id;  // null for a notification
  std::string method;
  const Json& params;
};

Endpoint::Endpoint(mcp::Router& router, EndpointOptions options)
    : router_(router),
      options_(std::move(options)),
      guard_(options_.allow_hosts, options_.allow_origins),
      reaper_([this](std::stop_token stop) { reap_loop(stop); }) {}

Endpoint::~Endpoint() {
  for (auto& [id, bucket] : sessions_) {
    std::lock_guard lock(bucket->mu);
    for (auto& [key, stop] : bucket->flights) stop->request_stop();
  }
  router_.stop_tasks();
  for (auto& [id, bucket] : sessions_) retire(bucket);
  for (auto& [id, bucket] : modern_) retire(bucket);
  sessions_.clear();
  modern_.clear();
  reaper_.request_stop();
  reaper_.join();  // destroys what is left
}

void Endpoint::retire(std::shared_ptr<Bucket> bucket) {
  {
    std::lock_guard lock(bucket->mu);
    bucket->retired = true;
    for (auto& [key, stop] : bucket->flights) stop->request_stop();
  }
  std::lock_guard lock(retired_mu_);
  retired_.push_back(std::move(bucket));
  retired_cv_.notify_all();
}

void Endpoint::reap_loop(std::stop_token stop) {
  std::unique_lock lock(retired_mu_);
  while (true) {
    retired_cv_.wait(lock, stop, [this] { return !retired_.empty(); });
    std::vector<std::shared_ptr<Bucket>> batch;
    batch.swap(retired_);
    lock.unlock();
    batch.clear();  // a call still running holds its own reference
    lock.lock();
    if (stop.stop_requested() && retired_.empty()) return;
  }
}

size_t Endpoint::session_count() const {
  std::lock_guard lock(sessions_mu_);
  return sessions_.size();
}

void Endpoint::expire_idle() {
  std::lock_guard lock(sessions_mu_);
  expire_idle_locked();
}

// Decided under the bucket's lock, where a starting call counts itself:
// the call is either counted here or finds the bucket retired.
bool Endpoint::retire_if_unused_since(const std::shared_ptr<Bucket>& bucket, Clock::rep before) {
  {
    std::lock_guard lock(bucket->mu);
    if (bucket->inflight > 0 || bucket->last_used >= before) return false;
    bucket->retired = true;
  }
  retire(bucket);
  return true;
}

void Endpoint::expire_idle_locked() {
  auto idle = std::chrono::duration_cast<Clock::duration>(options_.session_idle);
  auto before = (Clock::now() - idle).time_since_epoch().count();
  auto retire_if_idle = [&](const auto& entry) {
    return retire_if_unused_since(entry.second, before);
  };
  std::erase_if(sessions_, retire_if_idle);
  std::erase_if(modern_, [&](const auto& entry) {
    return !router_.has_live_tasks(entry.first) && retire_if_idle(entry);
  });
}

// A principal at its own cap makes room by ending its least recently used
// session without a call in flight, so that one token can neither take
// every session nor be locked out by its own leaked ones.
// False when every one of its sessions has a call in flight.
bool Endpoint::make_room_for_locked(const std::string& principal) {
  if (options_.tokens.empty()) return true;  // one principal: only the total counts
  size_t cap = options_.max_sessions_per_principal ? options_.max_sessions_per_principal
                                                   : std::max<size_t>(options_.max_sessions / 4, 1);
  // Last use read once: a request on another thread may touch a session.
  std::vector<std::pair<Clock::rep, decltype(sessions_)::iterator>> own;
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    if (it->second->principal == principal) own.emplace_back(it->second->last_used.load(), it);
  }
  if (own.size() < cap) return true;
  std::sort(own.begin(), own.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t excess = own.size() - cap + 1;  // to end for one more
  for (auto& [used, it] : own) {
    if (excess == 0) break;
    if (retire_if_unused_since(it->second, std::numeric_limits<Clock::rep>::max())) {
      sessions_.erase(it);
      --excess;
    }
  }
  return excess == 0;
}

std::optional<HttpResponse> Endpoint::check_guards(const HttpRequest& request) const {
  auto host = request.header("host");
  if (!host) return refuse(400, -32000, "Bad Request: missing Host header");
  if (!guard_.host_allowed(*host)) return refuse(403, -32000, "Forbidden: Host not allowed");
  if (!guard_.origin_allowed(request.header("origin"))) {
    return refuse(403, -32000, "Forbidden: Origin not allowed");
  }
  return std::nullopt;
}

std::variant<std::string, HttpResponse> Endpoint::authenticate(const HttpRequest& request) const {
  if (options_.tokens.empty()) return std::string("local");
  auto header = request.header("authorization");
  if (header) {
    if (auto principal = options_.tokens.principal(*header)) return *principal;
  }
  std::string challenge = "Bearer realm=\"hermes-tools\"";
  if (header) challenge += ", error=\"invalid_token\"";
  Json body = {{"error", "invalid_token"},
               {"error_description",
                header ? "The bearer token is not valid" : "A bearer token is required"}};
  return json_response(401, body, {{"WWW-Authenticate", challenge}});
}

std::variant<Admission, HttpResponse> Endpoint::admit(const HttpRequest& request) const {
  std::string_view target = request.target;
  std::string_view path = target.substr(0, target.find('?'));
  if (auto refused = check_guards(request)) return *refused;
  if (path == "/healthz" && request.method == "GET") return Admission{};
  if (path != options_.path) return refuse(404, -32000, "Not Found");
  if (target.find("access_token=") != std::string_view::npos) {
    return refuse(400, -32000, "Bad Request: tokens go in the Authorization header");
  }
  if (request.method == "OPTIONS" && request.header("origin")) return Admission{};
  auto auth = authenticate(request);
  if (auto* refused = std::get_if<HttpResponse>(&auth)) return *refused;
  return Admission{std::get<std::string>(std::move(auth))};
}

std::variant<HttpResponse, CallJob> Endpoint::handle(const HttpRequest& request) {
  try {
    return route(request);
  } catch (const std::exception& e) {
    log::error(std::string("HTTP request failed: ") + e.what());
    return refuse(500, -32603, std::string("Internal error: ") + e.what());
  }
}

Endpoint::Outcome Endpoint::route(const HttpRequest& request) {
  auto admitted = admit(request);
  if (auto* refused = std::get_if<HttpResponse>(&admitted)) return *refused;
  std::string_view path = std::string_view(request.target).substr(0, request.target.find('?'));
  if (path == "/healthz" && request.method == "GET")
    return HttpResponse{200, {{"Content-Type", "text/plain"}}, "ok"};
  if (request.method == "OPTIONS" && request.header("origin")) {
    return HttpResponse{
        204,
        {{"Access-Control-Allow-Origin", std::string(*request.header("origin"))},
         {"Vary", "Origin"},
         {"Access-Control-Allow-Methods", kAllow},
         {"Access-Control-Allow-Headers",
          std::string(request.header("access-control-request-headers").value_or(""))},
         {"Access-Control-Expose-Headers",
          "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"}},
        ""};
  }
  const std::string& principal = *std::get<Admission>(admitted).principal;
  if (request.method == "POST") return handle_post(request, principal);
  if (request.method == "DELETE") return handle_delete(request, principal);
  if (request.method == "GET" &&
      !accepts(request.header("accept").value_or(""), "text/event-stream")) {
    return refuse(406, -32000, "Not Acceptable: GET must accept text/event-stream");
  }
  // GET included: this endpoint sends nothing unsolicited, so it offers no stream.
  return refuse(405, -32000, "Method Not Allowed", {{"Allow", kAllow}});
}

std::variant<HttpResponse, CallJob> Endpoint::handle_post(const HttpRequest& request,
                                                          const std::string& principal) {
  std::string_view accept = request.header("accept").value_or("");
  if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
    return refuse(406, -32000,
                  "Not Acceptable: Accept must list application/json and text/event-stream");
  }
  if (!is_json_media_type(request.header("content-type").value_or(""))) {
    return refuse(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
  }
  auto parsed = mcp::parse_lenient(request.body);
  if (!parsed) return refuse(400, -32700, "Parse error: " + parsed.error().message);
  const Json& message = *parsed;
  if (message.is_array()) return refuse(400, -32600, "Invalid request: batches are not supported");
  if (!message.is_object()) return refuse(400, -32600, "Invalid request: expected a JSON object");
  Json id = message.contains("id") ? message["id"] : Json();
  if (message.contains("id") && !mcp::is_valid_id(id)) {
    return refuse(400, -32600, "Invalid request: id must be a string or an integer");
  }
  if (message.value("jsonrpc", Json()) != "2.0") {
    return rpc_error(400, id, RpcError::kInvalidRequest,
                     "Invalid request: jsonrpc must be \"2.0\"");
  }
  if (!message.contains("method")) {
    // Only a legacy session's client answers our requests (elicitation).
    if (message.contains("result") || message.contains("error")) {
      return deliver_response(request, principal, message);
    }
    return rpc_error(400, id, RpcError::kInvalidRequest,
                     "Invalid request: expected a request or notification");
  }
  if (!message["method"].is_string()) {
    return rpc_error(400, id, RpcError::kInvalidRequest,
                     "Invalid request: method must be a string");
  }
  static const Json kEmpty = Json::object();
  const Json& params = message.contains("params") ? message["params"] : kEmpty;
  if (!params.is_object()) {
    return rpc_error(400, id, RpcError::kInvalidParams, "Invalid params: must be an object");
  }
  Post post{request, principal, message, id, message["method"].get<std::string>(), params};
  auto header_version = request.header("mcp-protocol-version");
  bool modern_header = header_version && mcp::names_modern_version(*header_version);
  if (mcp::has_claim(params)) return handle_modern(post);
  if (modern_header) {
    if (post.method == "initialize") {
      return rpc_error(400, id, RpcError::kHeaderMismatch,
                       "MCP-Protocol-Version names the modern era but initialize is legacy");
    }
    return rpc_error(400, id, RpcError::kInvalidParams,
                     "Invalid params: _meta must claim the protocol version");
  }
  return handle_legacy(post);
}

std::variant<HttpResponse, CallJob> Endpoint::handle_modern(const Post& post) {
  if (!options_.modern) {
    return rpc_error(400, post.id, RpcError::kUnsupportedProtocolVersion,
                     "This server does not serve the modern protocol era");
  }
  if (post.id.is_null()) return accepted();  // modern notifications carry nothing for us
  mcp::WireHeaders headers;
  if (auto v = post.request.header("mcp-protocol-version"))
    headers.protocol_version = std::string(*v);
  if (auto m = post.request.header("mcp-method")) headers.method = std::string(*m);
  if (auto n = post.request.header("mcp-name")) {
    headers.name = mcp::decode_header_value(*n);
    if (!headers.name) {
      return rpc_error(400, post.id, RpcError::kHeaderMismatch, "Mcp-Name is not valid base64");
    }
  }
  auto checked = mcp::check_modern_request(post.method, post.params, &headers);
  if (auto* refusal = std::get_if<mcp::Refusal>(&checked)) {
    mcp::Reply reply = mcp::refusal_reply(post.id, *refusal);
    return json_response(reply.http_status, reply.message);
  }
  const mcp::Envelope& envelope = std::get<mcp::Envelope>(checked);
  // Any request keeps the principal's state alive: a client that polls a
  // long task with tasks/get is not idle.
  std::shared_ptr<Bucket> bucket = modern_bucket(post.principal);
  if (post.method == "tools/call") {
    auto key = conversation_key(post.params);
    if (!key) return rpc_error(400, post.id, RpcError::kInvalidParams, key.error().message);
    return start_call(post, std::move(bucket), &envelope, *key);
  }
  mcp::Reply reply = router_.modern(post.id, post.method, post.params, envelope, post.principal);
  return json_response(reply.http_status, reply.message);
}

std::shared_ptr<Endpoint::Bucket> Endpoint::modern_bucket(const std::string& principal) {
  std::lock_guard lock(sessions_mu_);
  auto& bucket = modern_[principal];
  if (!bucket) bucket = std::make_shared<Bucket>(principal, "modern:" + principal);
  bucket->touch();
  return bucket;
}

std::variant<HttpResponse, CallJob> Endpoint::handle_legacy(const Post& post) {
  if (!options_.legacy) {
    return rpc_error(400, post.id, RpcError::kInvalidRequest,
                     "This server serves only the modern protocol era: claim it in _meta");
  }
  if (post.method == "initialize" && !post.id.is_null()) return legacy_initialize(post);
  auto found = find_session(post.request, post.principal);
  if (auto* refused = std::get_if<HttpResponse>(&found)) return *refused;
  std::shared_ptr<Bucket> bucket = std::get<std::shared_ptr<Bucket>>(found);
  if (post.id.is_null()) {
    if (post.method == "notifications/cancelled" && post.params.contains("requestId")) {
      std::lock_guard lock(bucket->mu);
      auto it = bucket->flights.find(dump_json(post.params["requestId"]));
      if (it != bucket->flights.end()) it->second->request_stop();
    }
    return accepted();
  }
  if (post.method == "tools/call") return start_call(post, bucket, nullptr);
  mcp::Reply reply = router_.legacy(post.id, post.method, post.params, nullptr, &bucket->logs);
  return json_response(200, reply.message);
}

HttpResponse Endpoint::deliver_response(const HttpRequest& request, const std::string& principal,
                                        const Json& message) {
  if (!request.header("mcp-session-id")) {  // only a session's client is asked anything
    return rpc_error(400, message.value("id", Json()), RpcError::kInvalidRequest,
                     "Invalid request: expected a request or notification");
  }
  auto found = find_session(request, principal);
  if (auto* refused = std::get_if<HttpResponse>(&found)) return *refused;
  if (!std::get<std::shared_ptr<Bucket>>(found)->asked.deliver(message)) {
    return rpc_error(400, message.value("id", Json()), RpcError::kInvalidRequest,
                     "Invalid request: no request of ours has this id");
  }
  return accepted();
}

std::variant<HttpResponse, CallJob> Endpoint::legacy_initialize(const Post& post) {
  std::string id = random_hex(16);
  {
    std::lock_guard lock(sessions_mu_);
    if (sessions_.size() >= options_.max_sessions) expire_idle_locked();
    if (!make_room_for_locked(post.principal)) {
      return refuse(503, -32000,
                    "Service Unavailable: too many sessions for this principal, each with a call "
                    "in flight",
                    {{"Retry-After", "30"}});
    }
    if (sessions_.size() >= options_.max_sessions) {
      return refuse(503, -32000, "Service Unavailable: too many sessions", {{"Retry-After", "30"}});
    }
    auto bucket = std::make_shared<Bucket>(post.principal, "http:" + id.substr(0, 8));
    const Json& capabilities = post.params.value("capabilities", Json::object());
    bucket->elicitation = capabilities.is_object() && capabilities.contains("elicitation");
    sessions_[id] = std::move(bucket);
  }
  mcp::Reply reply = router_.legacy(post.id, post.method, post.params, nullptr, nullptr);
  return json_response(200, reply.message, {{"Mcp-Session-Id", id}});
}

std::variant<std::shared_ptr<Endpoint::Bucket>, HttpResponse> Endpoint::find_session(
    const HttpRequest& request, const std::string& principal) {
  auto id = request.header("mcp-session-id");
  if (!id) return refuse(400, -32000, "Bad Request: Mcp-Session-Id header is required");
  std::shared_ptr<Bucket> bucket;
  {
    std::lock_guard lock(sessions_mu_);
    auto it = sessions_.find(std::string(*id));
    if (it != sessions_.end()) bucket = it->second;
  }
  // Another principal's session reads as unknown: possession is not identity.
  if (!bucket || bucket->principal != principal) return refuse(404, -32001, "Session not found");
  if (auto version = request.header("mcp-protocol-version");
      version && !is_legacy_version(*version)) {
    return refuse(400, -32000,
                  "Bad Request: unsupported MCP-Protocol-Version (supported: " +
                      dump_json(mcp::supported_versions()) + ")");
  }
  bucket->touch();
  return bucket;
}

HttpResponse Endpoint::handle_delete(const HttpRequest& request, const std::string& principal) {
  auto version = request.header("mcp-protocol-version");
  if (version && mcp::names_modern_version(*version)) {
    return refuse(405, -32000, "Method Not Allowed", {{"Allow", kAllow}});
  }
  auto found = find_session(request, principal);
  if (auto* refused = std::get_if<HttpResponse>(&found)) return *refused;
  // Moved, not copied: the reaper may then hold the last reference, so the
  // session ends there rather than on this I/O thread.
  auto bucket = std::get<std::shared_ptr<Bucket>>(std::move(found));
  {
    std::lock_guard lock(sessions_mu_);
    auto it = sessions_.find(std::string(*request.header("mcp-session-id")));
    // A DELETE on another thread may have ended it first: it is retired once.
    if (it == sessions_.end() || it->second != bucket)
      return refuse(404, -32001, "Session not found");
    sessions_.erase(it);
  }
  retire(std::move(bucket));
  return HttpResponse{200, {}, ""};
}

void Endpoint::release_load(const std::string& principal) {
  std::lock_guard load(load_mu_);
  --inflight_;
  if (--inflight_by_principal_[principal] == 0) inflight_by_principal_.erase(principal);
}

// What a call holds while it runs (its place in the in-flight counts, its
// legacy flight id, its session's count), given back once: when the call
// ends, or when its job is dropped without running (no worker could be
// started, the server stopped).
class Endpoint::CallTicket {
 public:
  CallTicket(Endpoint& endpoint, std::shared_ptr<Bucket> bucket, std::string principal,
             std::string flight)
      : endpoint_(endpoint),
        bucket_(std::move(bucket)),
        principal_(std::move(principal)),
        flight_(std::move(flight)) {}
  CallTicket(const CallTicket&) = delete;
  CallTicket& operator=(const CallTicket&) = delete;
  ~CallTicket() { end(); }

  Bucket& bucket() const { return *bucket_; }
  const std::shared_ptr<Bucket>& shared_bucket() const { return bucket_; }

  void end() {
    if (ended_.exchange(true)) return;
    if (!flight_.empty()) {
      std::lock_guard lock(bucket_->mu);
      bucket_->flights.erase(flight_);
    }
    // Touched before the count drops: a sweep in between would otherwise
    // find the session idle since before a long call.
    bucket_->touch();
    --bucket_->inflight;
    endpoint_.release_load(principal_);
  }

 private:
  Endpoint& endpoint_;
  const std::shared_ptr<Bucket> bucket_;
  const std::string principal_;
  const std::string flight_;  // empty on the modern wire
  std::atomic<bool> ended_{false};
};

std::variant<HttpResponse, CallJob> Endpoint::start_call(
    const Post& post, std::shared_ptr<Bucket> bucket, const mcp::Envelope* envelope,
    const std::optional<std::string>& conversation_key) {
  auto prepared = router_.prepare_call(post.id, post.params, envelope);
  if (auto* reply = std::get_if<mcp::Reply>(&prepared)) {
    return json_response(reply->http_status, reply->message);
  }
  if (envelope) {
    const mcp::PreparedCall& call = std::get<mcp::PreparedCall>(prepared);
    auto refused = mcp::check_param_headers(
        call.spec->input_schema, call.args,
        [&](const std::string& name) { return post.request.header(name); });
    if (refused) {
      mcp::Reply reply = mcp::refusal_reply(post.id, *refused);
      return json_response(reply.http_status, reply.message);
    }
  }
  {
    std::lock_guard lock(load_mu_);
    size_t& mine = inflight_by_principal_[post.principal];
    if (inflight_ >= options_.max_inflight || mine >= options_.max_inflight_per_principal) {
      return refuse(429, -32000, "Too Many Requests: calls in flight at the limit",
                    {{"Retry-After", "1"}});
    }
    ++inflight_;
    ++mine;
  }
  auto stop = std::make_shared<std::stop_source>();
  std::string key = dump_json(post.id);
  std::shared_ptr<registry::Session> conversation;  // the modern wire's
  for (;;) {
    std::unique_lock lock(bucket->mu);
    if (bucket->retired && envelope) {  // the principal's state expired: a fresh one
      lock.unlock();
      bucket = modern_bucket(post.principal);
      continue;
    }
    if (bucket->retired) {  // DELETEd or expired since it was found
      release_load(post.principal);
      return refuse(404, -32001, "Session not found");
    }
    if (!envelope && !bucket->flights.emplace(key, stop).second) {
      release_load(post.principal);
      return rpc_error(200, post.id, RpcError::kInvalidRequest,
                       "Invalid request: id " + key + " is already in use");
    }
    ++bucket->inflight;
    if (envelope) conversation = bucket->conversation(conversation_key);
    break;
  }
  auto ticket = std::make_shared<CallTicket>(*this, bucket, post.principal, envelope ? "" : key);
  CallJob job;
  job.stop = stop;
  job.cancel_on_disconnect = envelope != nullptr;
  job.kind = std::get<mcp::PreparedCall>(prepared).kind;
  if (!envelope) job.headers.emplace_back("Mcp-Session-Id", *post.request.header("mcp-session-id"));
  std::optional<mcp::Envelope> env_copy;
  if (envelope) env_copy = *envelope;
  job.run = [this, ticket, stop, id = post.id, principal = post.principal,
             call = std::get<mcp::PreparedCall>(std::move(prepared)), env_copy,
             conversation](std::function<void(const Json&)> sink) -> std::optional<Json> {
    Bucket& mine = ticket->bucket();
    std::optional<mcp::Reply> reply;
    try {
      auto route = mine.channel.open(call.progress_token, sink);
      // A brief call runs on its connection's loop, which must not wait for
      // the client's answer (it may come on that loop): it asks nothing.
      mcp::CallChannel legacy_channel(mine.channel, mine.asked, mine.logs, sink,
                                      mine.elicitation && call.kind != mcp::CallKind::kBrief);
      registry::ClientChannel& client =
          env_copy ? static_cast<registry::ClientChannel&>(mine.channel) : legacy_channel;
      mcp::CallEnv env{conversation ? *conversation : mine.session, client, stop->get_token(),
                       env_copy ? &*env_copy : nullptr, principal};
      // A task keeps the conversation, and the session it shares, past this call.
      if (conversation) {
        env.keep_alive = std::make_shared<
            std::pair<std::shared_ptr<Bucket>, std::shared_ptr<registry::Session>>>(
            ticket->shared_bucket(), conversation);
      }
      reply = router_.run_call(id, call, std::move(env));
    } catch (const std::exception& e) {  // no thread to be had for a task or a ticker
      reply = mcp::Reply{mcp::make_error(id, RpcError::kInternalError,
                                         std::string("Internal error: ") + e.what())};
    }
    ticket->end();
    if (!reply) return std::nullopt;
    return std::move(reply->message);
  };
  return job;
}

}  // namespace hermes::http
