// SPDX-License-Identifier: MIT
#include "mcp/server.h"

#include "core/log.h"
#include "mcp/lenient_json.h"
#include "mcp/line_reader.h"

#include <exception>
#include <vector>

namespace hermes::mcp {
namespace {

// Inflight calls are keyed by the id's JSON text so 1 and "1" differ.
std::string id_key(const Json& id) { return dump_json(id); }

std::string describe_type(const Json& value) {
  return value.is_null() ? "null" : value.type_name();
}

}  // namespace

Server::Server(const registry::Registry& registry, const registry::Services& services,
               ServerOptions options)
    : options_(std::move(options)),
      router_(registry, services, options_.router),
      session_(std::make_unique<registry::Session>("stdio")) {}

Server::~Server() { stop_all_and_join(); }

int Server::run(int in_fd, int out_fd) {
  writer_ = std::make_unique<OutputWriter>(out_fd);
  client_ = std::make_unique<ClientLink>(*writer_);
  LineReader reader(in_fd, options_.max_line_bytes, options_.input_spin);
  std::string line;
  while (true) {
    LineReader::Status status = reader.next(line);
    if (status == LineReader::Status::kEof) break;
    if (status == LineReader::Status::kTooLong) {
      send(make_error(nullptr, RpcError::kInvalidRequest,
                      "Message exceeds the " + std::to_string(options_.max_line_bytes) +
                          "-byte line limit and was discarded"));
      continue;
    }
    input_waiting_ = reader.has_buffered();
    handle_line(line);
  }
  // Nothing can answer a question to the client any more; calls that would
  // ask fail at once.
  client_->close();
  finish_on_eof();
  stop_all_and_join();
  router_.stop_tasks();
  session_.reset();  // ends background processes the session owns
  return 0;
}

void Server::send(const Json& message) { writer_->write(message); }

void Server::handle_line(const std::string& line) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  auto parsed = parse_lenient(line, {.max_bytes = options_.max_line_bytes});
  if (!parsed) {
    send(make_error(nullptr, RpcError::kParseError, "Parse error: " + parsed.error().message));
    return;
  }
  try {
    handle_message(*parsed);
  } catch (const std::exception& e) {
    log::error(std::string("request failed: ") + e.what());
    Json id = parsed->is_object() && parsed->contains("id") ? (*parsed)["id"] : Json();
    send(make_error(is_valid_id(id) ? id : Json(), RpcError::kInternalError,
                    std::string("Internal error: ") + e.what()));
  }
}

void Server::handle_message(const Json& message) {
  if (message.is_array()) {
    send(make_error(nullptr, RpcError::kInvalidRequest,
                    "Invalid request: JSON-RPC batches are not supported"));
    return;
  }
  if (!message.is_object()) {
    send(make_error(nullptr, RpcError::kInvalidRequest,
                    "Invalid request: expected a JSON object, got " + describe_type(message)));
    return;
  }
  bool has_id = message.contains("id");
  const Json id = has_id ? message["id"] : Json();
  if (has_id && !is_valid_id(id)) {
    send(make_error(nullptr, RpcError::kInvalidRequest,
                    "Invalid request: id must be a string or an integer"));
    return;
  }
  if (message.value("jsonrpc", Json()) != "2.0") {
    send(make_error(id, RpcError::kInvalidRequest, "Invalid request: jsonrpc must be \"2.0\""));
    return;
  }
  if (!message.contains("method")) {
    if (has_id && (message.contains("result") || message.contains("error"))) {
      client_->deliver_response(message);
      return;
    }
    send(make_error(id, RpcError::kInvalidRequest, "Invalid request: missing method"));
    return;
  }
  if (!message["method"].is_string()) {
    send(make_error(id, RpcError::kInvalidRequest, "Invalid request: method must be a string"));
    return;
  }
  const Json params = message.contains("params") ? message["params"] : Json::object();
  const std::string& method = message["method"].get_ref<const std::string&>();
  if (!params.is_object() && !params.is_array()) {
    if (has_id) send(make_error(id, RpcError::kInvalidParams, "Invalid params: must be an object"));
    return;
  }
  if (!has_id) return handle_notification(method, params);
  if (has_claim(params)) return handle_modern(id, method, params);
  if (method == "tools/call") return handle_tools_call(id, params, std::nullopt);
  send(router_.legacy(id, method, params, client_.get(), &client_->logs()).message);
}

void Server::handle_modern(const Json& id, const std::string& method, const Json& params) {
  auto checked = check_modern_request(method, params, nullptr);
  if (auto* refusal = std::get_if<Refusal>(&checked))
    return send(refusal_reply(id, *refusal).message);
  Envelope& envelope = std::get<Envelope>(checked);
  if (method == "tools/call") return handle_tools_call(id, params, std::move(envelope));
  send(router_.modern(id, method, params, envelope, session_->id()).message);
}

void Server::handle_notification(const std::string& method, const Json& params) {
  if (method == "notifications/cancelled" && params.is_object() && params.contains("requestId")) {
    cancel(params["requestId"]);
  }
  // notifications/initialized and anything unknown need no answer.
}

void Server::handle_tools_call(const Json& id, const Json& params,
                               std::optional<Envelope> envelope) {
  auto prepared = router_.prepare_call(id, params, envelope ? &*envelope : nullptr);
  if (auto* reply = std::get_if<Reply>(&prepared)) return send(reply->message);
  auto flight = std::make_shared<InFlight>();
  flight->id = id;
  flight->envelope = std::move(envelope);
  if (!track(id, flight)) {
    return send(make_error(id, RpcError::kInvalidRequest,
                           "Invalid request: id " + id_key(id) + " is already in use"));
  }
  PreparedCall& call = std::get<PreparedCall>(prepared);
  const CallKind kind = call.kind;
  // A brief read is answered from this thread when no other input waits:
  // handing it to a worker and back costs a wake-up, often across CPUs, which
  // is more than the read. Input already waiting (a client that sent several
  // calls at once) sends it to the workers, to run beside the rest. Reads
  // only: a write may wait for a file lock, or ask the client a question
  // whose answer this very thread would have to read.
  if (kind == CallKind::kBrief && call.spec->annotations.read_only && !input_waiting_) {
    return run_call(id, call, std::move(flight));
  }
  // A write's lock that the brief check took is for a call that must not
  // wait (an HTTP event loop's). Here the call waits for a worker, may ask
  // the user to approve it, and its answer may wait on stdout: it takes its
  // lock on the worker, after the approval, and for the write alone.
  call.brief_findings.writer_lock.reset();
  pool_.submit([this, id, call = std::move(call),
                flight = std::move(flight)] { run_call(id, call, flight); },
               kind);
}

bool Server::track(const Json& id, const std::shared_ptr<InFlight>& flight) {
  std::lock_guard lock(flights_mu_);
  return flights_.emplace(id_key(id), flight).second;
}

void Server::run_call(const Json& id, const PreparedCall& call, std::shared_ptr<InFlight> flight) {
  // A call cancelled while it waited for a worker is not started.
  if (!flight->cancelled) {
    bool modern = flight->envelope.has_value();
    std::optional<Reply> reply;
    {
      auto route =
          modern ? modern_channel_.open(call.progress_token, [this](const Json& n) { send(n); })
                 : RequestChannel::Route();
      CallEnv env{*session_,
                  modern ? static_cast<registry::ClientChannel&>(modern_channel_) : *client_,
                  flight->stop.get_token(), modern ? &*flight->envelope : nullptr, session_->id()};
      reply = router_.run_call(id, call, env);
    }
    // A cancelled request gets no response (the client has moved on), nor
    // one that finish_on_eof already answered.
    if (reply && !flight->cancelled && !flight->answered.exchange(true)) send(reply->message);
  }
  std::lock_guard lock(flights_mu_);
  flights_.erase(id_key(id));
  flight_done_.notify_all();
}

void Server::cancel(const Json& request_id) {
  std::lock_guard lock(flights_mu_);
  auto it = flights_.find(id_key(request_id));
  if (it == flights_.end()) return;  // finished already, or never ours
  it->second->cancelled = true;
  it->second->stop.request_stop();
}

// A client that closes its input after its last request (`printf ... |
// hermes-tools mcp`) still wants the answers: calls in flight get
// `eof_grace` to finish; each one left is answered now, with an error that
// says why, so no call holds the answers past the grace. They are stopped
// afterwards (stop_all_and_join).
void Server::finish_on_eof() {
  std::vector<std::shared_ptr<InFlight>> left;
  {
    std::unique_lock lock(flights_mu_);
    flight_done_.wait_for(lock, options_.eof_grace, [&] { return flights_.empty(); });
    for (auto& [key, flight] : flights_) {
      flight->cancelled = true;  // one still queued does not start
      left.push_back(flight);
    }
  }
  for (const auto& flight : left) {
    if (flight->answered.exchange(true)) continue;  // its own answer is being written
    send(make_error(flight->id, RpcError::kInternalError,
                    "Request cancelled: input closed and the call did not finish within " +
                        std::to_string(options_.eof_grace.count()) + " ms"));
  }
}

void Server::stop_all_and_join() {
  {
    std::lock_guard lock(flights_mu_);
    for (auto& [key, flight] : flights_) {
      flight->cancelled = true;
      flight->stop.request_stop();
    }
  }
  pool_.drain();
}

}  // namespace hermes::mcp
