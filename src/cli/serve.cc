// SPDX-License-Identifier: MIT
#include "cli/serve.h"

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "core/capped_read.h"
#include "core/log.h"

#include <cstdlib>
#include <iostream>

#include "http/guard.h"
#include "http/server.h"

namespace hermes::cli {
namespace {

using std::chrono::milliseconds;

// "500ms", "10s", "30m", "1h"; a bare number is seconds.
std::optional<milliseconds> parse_duration(const std::string& text) {
  size_t digits = text.find_first_not_of("0123456789");
  if (digits == 0 || text.empty() || digits > 9) return std::nullopt;
  long long value = std::stoll(text.substr(0, digits));
  std::string unit = digits == std::string::npos ? "s" : text.substr(digits);
  if (unit == "ms") return milliseconds(value);
  if (unit == "s") return milliseconds(value * 1000);
  if (unit == "m") return milliseconds(value * 60'000);
  if (unit == "h") return milliseconds(value * 3'600'000);
  return std::nullopt;
}

// "16MiB", "16KiB", "4096"; bytes.
std::optional<size_t> parse_size(const std::string& text) {
  size_t digits = text.find_first_not_of("0123456789");
  if (digits == 0 || text.empty() || digits > 12) return std::nullopt;
  size_t value = std::stoull(text.substr(0, digits));
  std::string unit = digits == std::string::npos ? "" : text.substr(digits);
  if (unit.empty() || unit == "B") return value;
  if (unit == "KiB") return value << 10;
  if (unit == "MiB") return value << 20;
  return std::nullopt;
}

// One line per token: thousands of principals fit in far less.
constexpr size_t kMaxTokenFileBytes = 1u << 20;

struct Problem {
  std::string message;
};

// The token table from --token-file, else HERMES_MCP_TOKENS, else empty.
std::variant<http::TokenTable, Problem> load_tokens(const ServeFlags& flags) {
  std::string text;
  if (!flags.token_file.empty()) {
    auto file = read_capped_file(flags.token_file, kMaxTokenFileBytes);
    if (!file) return Problem{"cannot read --token-file: " + file.error().message};
    text = std::move(file).value();
  } else if (const char* env = std::getenv("HERMES_MCP_TOKENS")) {
    text = env;
  }
  auto table = http::TokenTable::parse(text);
  if (!table) return Problem{table.error().message};
  return std::move(*table);
}

std::variant<http::ServerOptions, Problem> server_options(const ServeFlags& flags) {
  http::ServerOptions options;
  auto listen = http::parse_listen(flags.listen);
  if (!listen) return Problem{listen.error().message};
  options.host = listen->first;
  options.port = listen->second;
  auto& endpoint = options.endpoint;
  endpoint.path = flags.path;
  endpoint.allow_hosts = flags.allow_hosts;
  endpoint.allow_origins = flags.allow_origins;
  endpoint.max_sessions = flags.max_sessions;
  endpoint.max_sessions_per_principal = flags.max_sessions_per_principal;
  endpoint.max_inflight = flags.max_inflight;
  endpoint.max_inflight_per_principal = flags.max_inflight_per_principal;
  options.io_threads = flags.io_threads;
  options.max_connections = flags.max_connections;
  options.max_connections_per_peer = flags.max_connections_per_peer;
  auto idle = parse_duration(flags.session_idle);
  auto body = parse_size(flags.max_body);
  auto header = parse_size(flags.max_header);
  if (!idle) return Problem{"--session-idle: expected a duration like 30m, 10s or 500ms"};
  if (!body || !header)
    return Problem{"--max-body/--max-header: expected a size like 16MiB, 16KiB or 4096"};
  endpoint.session_idle = *idle;
  options.max_body_bytes = *body;
  options.max_header_bytes = *header;
  endpoint.legacy = endpoint.modern = false;
  for (const std::string& era : flags.eras) {
    if (era != "legacy" && era != "modern" && era != "both")
      return Problem{"--eras: unknown era '" + era + "' (name legacy, modern or both)"};
    endpoint.legacy = endpoint.legacy || era != "modern";
    endpoint.modern = endpoint.modern || era != "legacy";
  }
  if (!endpoint.legacy && !endpoint.modern) return Problem{"--eras: name legacy, modern or both"};
  auto tokens = load_tokens(flags);
  if (auto* problem = std::get_if<Problem>(&tokens)) return *problem;
  endpoint.tokens = std::move(std::get<http::TokenTable>(tokens));
  return options;
}

// A bind others can reach needs authentication (or the explicit opt-out),
// and a wildcard bind needs the names clients will use.
std::optional<Problem> check_exposure(const http::ServerOptions& options, const ServeFlags& flags) {
  std::string host =
      options.host.find(':') != std::string::npos ? "[" + options.host + "]" : options.host;
  bool loopback = http::is_loopback_host(host);
  if (!loopback && options.endpoint.tokens.empty() && !flags.allow_unauthenticated) {
    return Problem{"refusing to listen on " + flags.listen +
                   " without authentication: give --token-file (or HERMES_MCP_TOKENS), or "
                   "--allow-unauthenticated"};
  }
  if (http::is_wildcard_address(options.host) && flags.allow_hosts.empty()) {
    return Problem{
        "a wildcard --listen needs --allow-host with the names clients use (or --allow-host '*')"};
  }
  return std::nullopt;
}

mcp::RouterOptions router_options(const ServeFlags& flags, std::optional<Problem>& problem) {
  mcp::RouterOptions router;
  router.identity = server_identity();
  router.tasks = flags.tasks == "on";
  if (flags.tasks != "on" && flags.tasks != "off") problem = Problem{"--tasks: on or off"};
  router.task.inline_budget = milliseconds(std::max(0L, flags.task_inline_ms));
  auto ttl = parse_duration(flags.task_ttl);
  auto ttl_max = parse_duration(flags.task_ttl_max);
  if (!ttl || !ttl_max) problem = Problem{"--task-ttl/--task-ttl-max: expected a duration like 1h"};
  if (ttl) router.task.ttl = *ttl;
  if (ttl_max) router.task.ttl_max = *ttl_max;
  return router;
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeFlags& f) {
  auto* serve = app.add_subcommand("serve", "Serve MCP over Streamable HTTP (both protocol eras)");
  serve->add_option("--listen", f.listen, "HOST:PORT to bind (IPv6 as [::1]:PORT)")
      ->capture_default_str();
  serve->add_option("--path", f.path, "The MCP endpoint's path")->capture_default_str();
  serve->add_option(
      "--token-file", f.token_file,
      "Bearer tokens, one label:token or label:sha256:<hex> per line (the label is the "
      "principal); else env HERMES_MCP_TOKENS");
  serve->add_option("--allow-host", f.allow_hosts,
                    "Extra Host names to accept (repeatable; '*' = any)");
  serve->add_option("--allow-origin", f.allow_origins,
                    "Extra Origins to accept (repeatable; '*' = any)");
  serve->add_flag("--allow-unauthenticated", f.allow_unauthenticated,
                  "Permit a non-loopback bind without tokens");
  serve->add_option("--max-sessions", f.max_sessions, "Legacy sessions at most")
      ->capture_default_str();
  serve
      ->add_option("--max-sessions-per-principal", f.max_sessions_per_principal,
                   "Legacy sessions of one principal at most, with tokens (0: a quarter of "
                   "--max-sessions); beyond, its least recently used one ends")
      ->capture_default_str();
  serve->add_option("--session-idle", f.session_idle, "Idle time that ends a session")
      ->capture_default_str();
  serve->add_option("--max-body", f.max_body, "Largest request body (413 beyond)")
      ->capture_default_str();
  serve->add_option("--max-header", f.max_header, "Largest request header block (431 beyond)")
      ->capture_default_str();
  serve->add_option("--max-inflight", f.max_inflight, "Calls in flight at most (429 beyond)")
      ->capture_default_str();
  serve
      ->add_option("--max-inflight-per-principal", f.max_inflight_per_principal,
                   "Calls in flight per principal at most")
      ->capture_default_str();
  serve
      ->add_option("--io-threads", f.io_threads,
                   "Event-loop threads (0: one per usable CPU, at most 16)")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  serve
      ->add_option("--max-connections", f.max_connections,
                   "Connections open at once (0: half the open-files limit; 503 beyond)")
      ->capture_default_str();
  serve
      ->add_option("--max-connections-per-peer", f.max_connections_per_peer,
                   "Connections open at once from one address or IPv6 /64 (0: a quarter of "
                   "--max-connections)")
      ->capture_default_str();
  serve
      ->add_option("--eras", f.eras,
                   "Protocol eras to serve: legacy, modern, both (comma-separated)")
      ->capture_default_str()
      ->delimiter(',');
  serve->add_option("--tasks", f.tasks, "Offer the tasks extension on the modern wire: on|off")
      ->capture_default_str();
  serve
      ->add_option("--task-inline-ms", f.task_inline_ms,
                   "How long a long-running call runs inline before it becomes a task")
      ->capture_default_str();
  serve->add_option("--task-ttl", f.task_ttl, "How long a task stays readable after it ends")
      ->capture_default_str();
  serve->add_option("--task-ttl-max", f.task_ttl_max, "The longest a task is kept")
      ->capture_default_str();
  return serve;
}

int run_serve(const Runtime& runtime, const ServeFlags& flags) {
  std::optional<Problem> problem;
  mcp::RouterOptions router_opts = router_options(flags, problem);
  auto options = server_options(flags);
  if (auto* p = std::get_if<Problem>(&options)) problem = *p;
  if (!problem) problem = check_exposure(std::get<http::ServerOptions>(options), flags);
  if (problem) {
    std::cerr << "hermes-tools serve: " << problem->message << "\n";
    return kExitUsage;
  }
  std::jthread backend_check = check_backend(runtime.services().config);
  mcp::Router router(runtime.registry(), runtime.services(), router_opts);
  http::Server server(router, std::get<http::ServerOptions>(std::move(options)));
  if (auto bound = server.bind(); !bound) {
    std::cerr << "hermes-tools serve: " << bound.error().message << "\n";
    return kExitUsage;
  }
  log::info("MCP server " + router_opts.identity.version + " on http://" +
            flags.listen.substr(0, flags.listen.rfind(':')) + ":" + std::to_string(server.port()) +
            flags.path);
  server.run();
  return kExitSuccess;
}

}  // namespace hermes::cli
