// SPDX-License-Identifier: MIT
#include "mcp/server.h"

#include <exception>

#include "core/log.h"
#include "mcp/lenient_json.h"
#include "mcp/line_reader.h"

namespace hermes::mcp {
namespace {

// Inflight calls are keyed by the id's JSON text so 1 and "1" differ.
std::string id_key(const Json& id) { return dump_json(id); }

std::string describe_type(const Json& value) {
  return value.is_null() ? "null" : value.type_name();
}

}  // namespace

Server::Server(const Registry& registry, const Services& services, ServerOptions options)
    : registry_(registry),
      services_(services),
      options_(std::move(options)),
      dispatcher_(registry, services),
      session_(std::make_unique<Session>("stdio")) {}

Server::~Server() { stop_all_and_join(); }

int Server::run(int in_fd, int out_fd) {
  writer_ = std::make_unique<OutputWriter>(out_fd);
  client_ = std::make_unique<ClientLink>(*writer_);
  LineReader reader(in_fd, options_.max_line_bytes);
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
    handle_line(line);
  }
  client_->close();
  stop_all_and_join();
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
  if (has_id) {
    handle_request(id, method, params);
  } else {
    handle_notification(method, params);
  }
}

void Server::handle_request(const Json& id, const std::string& method, const Json& params) {
  if (method == "initialize") return handle_initialize(id, params);
  if (method == "ping") return send(make_result(id, Json::object()));
  if (method == "tools/list") return handle_tools_list(id);
  if (method == "tools/call") return handle_tools_call(id, params);
  if (method == "logging/setLevel") {
    if (!params.contains("level") || !params["level"].is_string() ||
        !client_->set_log_level(params["level"].get<std::string>())) {
      return send(make_error(id, RpcError::kInvalidParams, "Invalid params: unknown log level"));
    }
    return send(make_result(id, Json::object()));
  }
  send(make_error(id, RpcError::kMethodNotFound, "Method not found: " + method));
}

void Server::handle_notification(const std::string& method, const Json& params) {
  if (method == "notifications/cancelled" && params.is_object() && params.contains("requestId")) {
    cancel(params["requestId"]);
  }
  // notifications/initialized and anything unknown need no answer.
}

void Server::handle_initialize(const Json& id, const Json& params) {
  if (!params.is_object()) {
    return send(make_error(id, RpcError::kInvalidParams, "Invalid params: must be an object"));
  }
  if (params.contains("capabilities")) client_->set_capabilities(params["capabilities"]);
  std::string version = negotiate_version(params.value("protocolVersion", Json()));
  send(make_result(id, initialize_result(options_.identity, version)));
}

void Server::handle_tools_list(const Json& id) {
  Json tools = Json::array();
  for (const ToolSpec* spec : registry_.list(services_)) {
    std::string description =
        spec->describe ? spec->describe(services_, spec->description) : spec->description;
    tools.push_back(tool_to_json(*spec, description));
  }
  send(make_result(id, {{"tools", std::move(tools)}}));
}

void Server::handle_tools_call(const Json& id, const Json& params) {
  if (!params.is_object() || !params.contains("name") || !params["name"].is_string()) {
    return send(make_error(id, RpcError::kInvalidParams,
                           "Invalid params: tools/call needs a string 'name'"));
  }
  Json args = params.contains("arguments") ? params["arguments"] : Json::object();
  if (args.is_null()) args = Json::object();
  if (!args.is_object()) {
    return send(make_error(id, RpcError::kInvalidParams,
                           "Invalid params: 'arguments' must be an object"));
  }
  const std::string& name = params["name"].get_ref<const std::string&>();
  const ToolSpec* spec = dispatcher_.find(name);
  if (!spec) return send(make_error(id, RpcError::kInvalidParams, "Unknown tool: " + name));
  Json progress_token;
  if (params.contains("_meta") && params["_meta"].is_object()) {
    progress_token = params["_meta"].value("progressToken", Json());
  }
  auto flight = std::make_shared<InFlight>();
  if (!track(id, flight)) {
    return send(make_error(id, RpcError::kInvalidRequest,
                           "Invalid request: id " + id_key(id) + " is already in use"));
  }
  pool_.submit([this, id, spec, args = std::move(args), token = std::move(progress_token),
                 flight = std::move(flight)]() mutable {
    run_call(id, *spec, std::move(args), std::move(token), std::move(flight));
  });
}

bool Server::track(const Json& id, const std::shared_ptr<InFlight>& flight) {
  std::lock_guard lock(flights_mu_);
  return flights_.emplace(id_key(id), flight).second;
}

void Server::run_call(const Json& id, const ToolSpec& spec, Json args, Json progress_token,
                      std::shared_ptr<InFlight> flight) {
  // A call cancelled while it waited for a worker is not started.
  if (!flight->cancelled) {
    CallContext ctx{*session_, services_, *client_, dispatcher_, flight->stop.get_token(),
                    std::move(progress_token)};
    ToolCallResult result = dispatcher_.call(spec, args, ctx);
    // A cancelled request gets no response (the client has moved on).
    if (!flight->cancelled) send(make_result(id, call_result(result.text, result.is_error)));
  }
  std::lock_guard lock(flights_mu_);
  flights_.erase(id_key(id));
}

void Server::cancel(const Json& request_id) {
  std::lock_guard lock(flights_mu_);
  auto it = flights_.find(id_key(request_id));
  if (it == flights_.end()) return;  // finished already, or never ours
  it->second->cancelled = true;
  it->second->stop.request_stop();
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
