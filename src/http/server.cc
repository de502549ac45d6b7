// SPDX-License-Identifier: MIT
// The only translation unit that includes Boost.Beast/Asio (they compile
// slowly): accept loop, connections, timeouts, the SSE writer.
#include "http/server.h"

#include "core/allocator.h"
#include "core/cpus.h"
#include "core/log.h"
#include "mcp/call_pool.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <deque>
#include <limits>
#include <mutex>
#include <set>
#include <thread>
#include <utility>  // before Asio: 1.74's awaitable.hpp uses std::exchange without it
#include <variant>

#include "http/connection_limits.h"

namespace hermes::http {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using asio::awaitable;
using asio::use_awaitable;
using asio::ip::tcp;
using boost::system::error_code;
using namespace std::chrono_literals;

// Where a call meets its connection: everything here is touched on the
// connection's I/O thread only (a worker posts).
struct CallState {
  explicit CallState(asio::any_io_executor executor) : wake(executor) {}
  asio::steady_timer wake;
  // Messages are serialised where the call runs: the I/O thread only writes.
  std::deque<std::string> events;  // notifications not yet written
  bool finished = false;
  std::optional<std::string> response;  // when finished: nullopt = cancelled
  bool watching = false;                // a disconnect watch is pending
  bool disconnected = false;
  void poke() { wake.cancel(); }
};

// Calls run on the same CallPool as on stdio, or inline on an I/O thread;
// the stop sources of both are kept so that shutdown can end every one of
// them, and a call that starts after it is stopped at once.
class CallRunner {
 public:
  void start(std::shared_ptr<std::stop_source> stop, mcp::CallKind kind,
             std::function<void()> work) {
    track(stop);
    pool_.submit(
        [this, stop, work = std::move(work)] {
          work();
          untrack(stop);
        },
        kind);
  }
  template <class Work>
  void run_inline(const std::shared_ptr<std::stop_source>& stop, Work work) {
    track(stop);
    work();
    untrack(stop);
  }
  // Every running call is stopped, and so is any that starts later.
  void cancel_all() {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (const auto& stop : running_) stop->request_stop();
  }
  void stop_and_join() {
    cancel_all();
    pool_.drain();
  }

 private:
  void track(const std::shared_ptr<std::stop_source>& stop) {
    std::lock_guard lock(mu_);
    running_.insert(stop);
    if (stopping_) stop->request_stop();
  }
  void untrack(const std::shared_ptr<std::stop_source>& stop) {
    std::lock_guard lock(mu_);
    running_.erase(stop);
  }

  std::mutex mu_;
  std::set<std::shared_ptr<std::stop_source>> running_;  // mu_
  bool stopping_ = false;                                // mu_
  mcp::CallPool pool_;  // last: its workers finish before `running_` goes
};

// Runs a call on this thread, handing each notification to `event` as
// text; returns the response as text (nullopt: cancelled).
std::optional<std::string> run_job(CallJob& job, std::function<void(std::string)> event) {
  std::optional<Json> message = job.run(
      [event = std::move(event)](const Json& notification) { event(dump_json(notification)); });
  if (!message) return std::nullopt;
  return dump_json(*message);
}

// A brief call (a local file tool) runs on the connection's I/O thread:
// handing it to a worker and back would cost more than the call. It never
// waits on the client either: a brief call's channel asks the client
// nothing (Endpoint), so no answer has to come through this loop.
void run_here(CallRunner& calls, CallJob& job, const std::shared_ptr<CallState>& state) {
  calls.run_inline(job.stop, [&] {
    state->response =
        run_job(job, [state](std::string text) { state->events.push_back(std::move(text)); });
  });
  state->finished = true;
  // What the call held goes now, not after its answer reaches a slow client:
  // a write's file lock, taken by its brief check (registry::BriefFindings).
  job.run = nullptr;
}

// Built outside the coroutines: g++ 12 miscompiles braced lists inside them.
HttpResponse limit_refusal(int status, std::string_view message) {
  HttpResponse response{status, {}, error_body(-32000, message)};
  response.headers.emplace_back("Content-Type", "application/json");
  return response;
}

// How long the server must see no request before it hands freed memory back.
constexpr auto kQuietBeforeTrim = 1s;

std::string sse_event(const std::string& message) {
  return "event: message\ndata: " + message + "\n\n";
}

// A request that no token vouched for (GET /healthz, a CORS preflight) has
// no use for a body: it may not make the server buffer one.
constexpr std::uint64_t kUnvouchedBodyBytes = 4 << 10;

// How long a refused request's remaining bytes are read and dropped before
// its connection closes (see refuse_and_close()).
constexpr auto kLinger = 1s;

// After an accept fails for want of a resource, the next try waits this long
// rather than failing again at once in a loop.
constexpr auto kAcceptPause = 50ms;

// The most queued connections taken and closed at once when out of
// descriptors (see Server::Impl::shed_queued()).
constexpr int kShedAtMost = 64;

// Written to a connection over a cap, if its socket takes it at once.
constexpr std::string_view kBusy =
    "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\n"
    "Connection: close\r\n\r\n";

// Over a cap: the short answer, then close.
void turn_away(tcp::socket& socket) {
  error_code ignored;
  socket.non_blocking(true, ignored);
  socket.write_some(asio::buffer(kBusy), ignored);
  socket.close(ignored);
}

// Whose connection this is, for the per-peer cap: an IPv4 address (mapped
// or not), or an IPv6 /64, which one host usually holds whole.
std::string peer_key(asio::ip::address address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
  if (address.is_v4()) return address.to_string();
  auto bytes = address.to_v6().to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return asio::ip::address_v6(bytes).to_string() + "/64";
}

size_t open_files_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  return limit.rlim_cur;
}

// The caps ServerOptions asks for, its zeros worked out.
ConnectionLimits connection_limits(const ServerOptions& options) {
  size_t total = options.max_connections ? options.max_connections
                                         : std::max<size_t>(open_files_limit() / 2, 1);
  size_t per_peer = options.max_connections_per_peer ? options.max_connections_per_peer
                                                     : std::max<size_t>(total / 4, 1);
  return ConnectionLimits(total, per_peer);
}

// A descriptor kept spare for when the process runs out (see
// Server::Impl::shed_queued()).
class ReserveFd {
 public:
  ReserveFd() { take(); }
  ~ReserveFd() { release(); }
  ReserveFd(const ReserveFd&) = delete;
  ReserveFd& operator=(const ReserveFd&) = delete;
  void take() {
    if (fd_ < 0) fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  }
  void release() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// A request's method, target and headers (names lowercased); no body yet.
HttpRequest request_head(const bhttp::request<bhttp::string_body>& message) {
  HttpRequest request;
  request.method = std::string(message.method_string());
  request.target = std::string(message.target());
  for (const auto& field : message) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    request.headers.emplace_back(std::move(name), std::string(field.value()));
  }
  return request;
}

// The bind address as a request's Host names it ("10.0.0.5", "[fe80::1]"),
// so that it is a valid Host (docs/http.md); nothing for a
// wildcard, which names no one host.
ServerOptions with_bind_host(ServerOptions options) {
  error_code ec;
  auto address = asio::ip::make_address(options.host, ec);
  if (ec || is_wildcard_address(options.host)) return options;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
  options.endpoint.allow_hosts.push_back(address.is_v6() ? "[" + address.to_string() + "]"
                                                         : address.to_string());
  return options;
}

}  // namespace

bool is_wildcard_address(const std::string& host) {
  error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) return false;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6()).is_unspecified();
  return address.is_unspecified();
}

Result<std::pair<std::string, unsigned short>> parse_listen(const std::string& listen) {
  size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    return Error::InvalidArgument("--listen wants HOST:PORT (IPv6 as [::1]:PORT), got '" + listen +
                                  "'");
  }
  std::string host = listen.substr(0, colon), port = listen.substr(colon + 1);
  if (host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  error_code ec;
  asio::ip::make_address(host, ec);
  if (ec) return Error::InvalidArgument("--listen: '" + host + "' is not an IP address");
  if (port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535) {
    return Error::InvalidArgument("--listen: '" + port + "' is not a port");
  }
  return std::make_pair(host, static_cast<unsigned short>(std::stoul(port)));
}

// One event loop per I/O thread; a connection lives on one of them for its
// whole life, so its coroutines, timers and call state need no locks.
class IoThreads {
 public:
  explicit IoThreads(size_t count) {
    for (size_t i = 0; i < std::max<size_t>(count, 1); ++i)
      loops_.push_back(std::make_unique<asio::io_context>(1));
  }
  asio::io_context& main() { return *loops_.front(); }
  // The loop for the next connection, in turn.
  asio::io_context& next() { return *loops_[next_++ % loops_.size()]; }
  // Runs the other loops on threads of their own and the main one here,
  // until stop(); then joins them.
  void run() {
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep;
    std::vector<std::thread> threads;
    for (size_t i = 1; i < loops_.size(); ++i) {
      keep.push_back(asio::make_work_guard(*loops_[i]));
      threads.emplace_back([loop = loops_[i].get()] { loop->run(); });
    }
    main().run();
    stop();
    for (auto& thread : threads) thread.join();
  }
  void stop() {
    for (auto& loop : loops_) loop->stop();
  }

 private:
  std::vector<std::unique_ptr<asio::io_context>> loops_;
  size_t next_ = 0;  // the main loop's accept coroutine only
};

struct Server::Impl {
  Impl(mcp::Router& router, ServerOptions opts)
      : options(with_bind_host(std::move(opts))),
        endpoint(router, options.endpoint),
        connections(connection_limits(options)),
        loops(options.io_threads ? options.io_threads : std::min<size_t>(usable_cpus(), 16)),
        io(loops.main()),
        acceptor(io),
        accept_pause(io),
        sweeper(io),
        trim_timer(io),
        signals(signal_io, SIGINT, SIGTERM) {}

  ServerOptions options;
  // Before the loops: a call's job left in a connection's frame gives its
  // place back to the endpoint when the loops destroy that frame.
  Endpoint endpoint;
  // Before the loops too: a connection's frame gives its place back here.
  ConnectionLimits connections;
  IoThreads loops;
  asio::io_context& io;  // the main loop: accepting, sweeping
  tcp::acceptor acceptor;
  asio::steady_timer accept_pause;
  ReserveFd reserve;
  asio::steady_timer sweeper;
  asio::steady_timer trim_timer;
  std::atomic<bool> trim_pending = false;  // trim_when_quiet is waiting
  std::atomic<std::chrono::steady_clock::rep> last_request{0};
  // Signals have a loop (and, while run() runs, a thread) of their own:
  // every I/O loop may be busy with a call when one comes.
  asio::io_context signal_io{1};
  asio::signal_set signals;
  CallRunner calls;
  // Where large bodies are handled (handle()). Last: destroyed first, it
  // finishes a body in hand while the loops and the endpoint still exist.
  asio::thread_pool parsers{std::min<size_t>(usable_cpus(), 4)};

  awaitable<void> accept_loop();
  awaitable<void> back_off(const error_code& ec);
  void shed_queued();
  awaitable<void> sweep_loop();
  void note_request();
  awaitable<void> trim_when_quiet();
  awaitable<void> serve(tcp::socket socket, ConnectionLimits::Slot slot);
  awaitable<void> refuse_and_close(beast::tcp_stream& stream, HttpResponse response);
  awaitable<std::variant<HttpResponse, CallJob>> handle(const HttpRequest& request);
  awaitable<bool> write(beast::tcp_stream& stream, HttpResponse response, bool keep_alive);
  awaitable<bool> run_call(beast::tcp_stream& stream, beast::flat_buffer& buffer, CallJob job,
                           bool keep_alive);
  awaitable<void> watch(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                        std::shared_ptr<CallState> state, std::shared_ptr<std::stop_source> stop);
  awaitable<bool> stream_sse(beast::tcp_stream& stream, std::shared_ptr<CallState> state,
                             Headers headers);
  awaitable<bool> write_chunk(beast::tcp_stream& stream, std::string text);
  awaitable<void> stop_watching(beast::tcp_stream& stream, std::shared_ptr<CallState> state);
  void start_worker(CallJob& job, std::shared_ptr<CallState> state);
};

awaitable<void> Server::Impl::accept_loop() {
  while (acceptor.is_open()) {
    error_code ec;
    tcp::socket socket =
        co_await acceptor.async_accept(loops.next(), asio::redirect_error(use_awaitable, ec));
    if (ec == asio::error::operation_aborted) co_return;
    if (ec) {
      co_await back_off(ec);
      continue;
    }
    auto peer = socket.remote_endpoint(ec);
    std::optional<ConnectionLimits::Slot> slot =
        ec ? std::nullopt : connections.admit(peer_key(peer.address()));
    if (!slot) {
      turn_away(socket);
      continue;
    }
    // Small responses must not wait for the peer's delayed ACK (Nagle).
    socket.set_option(tcp::no_delay(true), ec);
    auto loop = socket.get_executor();
    asio::co_spawn(loop, serve(std::move(socket), std::move(*slot)), asio::detached);
  }
}

// An accept that failed (out of descriptors, memory or buffers) would fail
// again at once: the loop waits a moment rather than spin.
awaitable<void> Server::Impl::back_off(const error_code& ec) {
  if (ec == asio::error::no_descriptors ||
      ec == error_code(ENFILE, asio::error::get_system_category()))
    shed_queued();
  accept_pause.expires_after(kAcceptPause);
  error_code ignored;
  co_await accept_pause.async_wait(asio::redirect_error(use_awaitable, ignored));
}

// Out of descriptors, a connection waiting in the listen queue cannot be
// accepted, and its client waits on. The reserve descriptor is given up to
// take the waiting connections and close them (the client learns at once),
// then taken back.
void Server::Impl::shed_queued() {
  reserve.release();
  for (int i = 0; i < kShedAtMost; ++i) {
    int fd = ::accept4(acceptor.native_handle(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) break;
    ::close(fd);
  }
  reserve.take();
}

awaitable<void> Server::Impl::sweep_loop() {
  auto every =
      std::clamp<std::chrono::milliseconds>(options.endpoint.session_idle / 2, 100ms, 30000ms);
  while (true) {
    sweeper.expires_after(every);
    error_code ec;
    co_await sweeper.async_wait(asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;
    endpoint.expire_idle();
  }
}

// A request was answered: once none has come for kQuietBeforeTrim, the
// memory its calls (and ended sessions) freed goes back to the kernel. The
// timer is armed once per quiet spell, not per request. Any I/O thread.
void Server::Impl::note_request() {
  last_request.store(std::chrono::steady_clock::now().time_since_epoch().count(),
                     std::memory_order_relaxed);
  if (trim_pending.load(std::memory_order_relaxed) || trim_pending.exchange(true)) return;
  asio::co_spawn(io, trim_when_quiet(), asio::detached);
}

awaitable<void> Server::Impl::trim_when_quiet() {
  using Clock = std::chrono::steady_clock;
  while (true) {
    Clock::time_point last{Clock::duration(last_request.load(std::memory_order_relaxed))};
    if (Clock::now() - last >= kQuietBeforeTrim) break;
    trim_timer.expires_at(last + kQuietBeforeTrim);
    error_code ec;
    co_await trim_timer.async_wait(asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;  // shutting down
  }
  trim_pending = false;
  release_free_memory();
}

awaitable<bool> Server::Impl::write(beast::tcp_stream& stream, HttpResponse response,
                                    bool keep_alive) {
  bhttp::response<bhttp::string_body> out{static_cast<bhttp::status>(response.status), 11};
  for (auto& [name, value] : response.headers) out.set(name, value);
  out.body() = std::move(response.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();
  stream.expires_after(options.write_stall_timeout);
  error_code ec;
  co_await bhttp::async_write(stream, out, asio::redirect_error(use_awaitable, ec));
  co_return !ec && keep_alive;
}

// A request refused before its body was read: the answer, then the
// connection closes. The client may still be sending that body, and a close
// with bytes unread would reset the connection and could lose the answer, so
// they are read and dropped for up to kLinger first (nothing is kept).
awaitable<void> Server::Impl::refuse_and_close(beast::tcp_stream& stream, HttpResponse response) {
  co_await write(stream, std::move(response), false);
  error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  stream.expires_after(kLinger);
  std::array<char, 4096> sink;
  while (!ec)
    co_await stream.async_read_some(asio::buffer(sink), asio::redirect_error(use_awaitable, ec));
}

// `slot`, the connection's place under the caps, is given back when this ends.
awaitable<void> Server::Impl::serve(tcp::socket socket,
                                    [[maybe_unused]] ConnectionLimits::Slot slot) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  bool open = true;
  // Has a token (or the absence of a token table) vouched for a request on
  // this connection? Until then an idle connection is kept only briefly.
  bool vouched_once = false;
  for (bool first = true; open; first = false) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(options.max_header_bytes));
    // The body's size is judged once the headers are admitted, below.
    parser.body_limit(std::numeric_limits<std::uint64_t>::max());
    stream.expires_after(first          ? options.header_timeout
                         : vouched_once ? options.keep_alive_timeout
                                        : options.unauthenticated_keep_alive);
    error_code ec;
    co_await bhttp::async_read_header(stream, buffer, parser,
                                      asio::redirect_error(use_awaitable, ec));
    if (ec == bhttp::error::header_limit) {
      co_await refuse_and_close(stream, limit_refusal(431, "Request Header Fields Too Large"));
    }
    if (ec) break;  // refused above, or EOF, timeout, garbage: drop the connection
    HttpRequest request = request_head(parser.get());
    // Guards and token on the headers: a refused request's body is never
    // read, so no client without a token makes the server buffer one.
    auto admitted = endpoint.admit(request);
    if (auto* refused = std::get_if<HttpResponse>(&admitted)) {
      co_await refuse_and_close(stream, std::move(*refused));
      break;
    }
    bool vouched = std::get<Admission>(admitted).principal.has_value();
    vouched_once = vouched_once || vouched;
    std::uint64_t body_limit = vouched ? options.max_body_bytes : kUnvouchedBodyBytes;
    if (parser.content_length().value_or(0) > body_limit) {
      co_await refuse_and_close(stream, limit_refusal(413, "Payload Too Large"));
      break;
    }
    parser.body_limit(body_limit);  // a chunked body is counted as it comes
    stream.expires_after(options.body_timeout);
    co_await bhttp::async_read(stream, buffer, parser, asio::redirect_error(use_awaitable, ec));
    if (ec == bhttp::error::body_limit) {
      co_await refuse_and_close(stream, limit_refusal(413, "Payload Too Large"));
    }
    if (ec) break;
    request.body = std::move(parser.get().body());
    bool keep_alive = parser.get().keep_alive();
    auto outcome = co_await handle(request);
    if (auto* response = std::get_if<HttpResponse>(&outcome)) {
      open = co_await write(stream, std::move(*response), keep_alive);
    } else {
      open = co_await run_call(stream, buffer, std::move(std::get<CallJob>(outcome)), keep_alive);
    }
    note_request();
  }
  error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
}

// Handling a request parses its body. Up to this size that costs less than
// a hand-off to another thread; a larger body is parsed on `parsers`, so
// that no other connection of this loop waits for it (16 MiB of JSON: a
// second or more).
constexpr std::size_t kBodyParsedOnLoop = 64 << 10;

awaitable<std::variant<HttpResponse, CallJob>> Server::Impl::handle(const HttpRequest& request) {
  if (request.body.size() <= kBodyParsedOnLoop) co_return endpoint.handle(request);
  co_return co_await asio::co_spawn(
      parsers,
      [this, &request]() -> awaitable<std::variant<HttpResponse, CallJob>> {
        co_return endpoint.handle(request);
      },
      use_awaitable);
}

void Server::Impl::start_worker(CallJob& job, std::shared_ptr<CallState> state) {
  auto executor = state->wake.get_executor();
  auto stop = job.stop;
  auto kind = job.kind;
  calls.start(stop, kind, [job = std::move(job), state, executor]() mutable {
    auto event = [state, executor](std::string text) {
      asio::post(executor, [state, text = std::move(text)]() mutable {
        state->events.push_back(std::move(text));
        state->poke();
      });
    };
    asio::post(executor, [state, response = run_job(job, event)]() mutable {
      state->finished = true;
      state->response = std::move(response);
      state->poke();
    });
  });
}

// Reads while a modern call runs: EOF or an error means the client went
// away, which cancels the call. Bytes (a pipelined request) are kept, and
// the watch goes on until they pass kWatchBacklog (then a disconnect is seen
// when the call's answer is written).
constexpr std::size_t kWatchBacklog = 64 << 10;

awaitable<void> Server::Impl::watch(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                                    std::shared_ptr<CallState> state,
                                    std::shared_ptr<std::stop_source> stop) {
  stream.expires_never();
  error_code ec;
  while (!ec && buffer.size() < kWatchBacklog) {
    std::size_t n = co_await stream.socket().async_read_some(
        buffer.prepare(4096), asio::redirect_error(use_awaitable, ec));
    buffer.commit(n);
  }
  if (ec && ec != asio::error::operation_aborted) {
    state->disconnected = true;
    stop->request_stop();
  }
  state->watching = false;
  state->poke();
}

awaitable<bool> Server::Impl::run_call(beast::tcp_stream& stream, beast::flat_buffer& buffer,
                                       CallJob job, bool keep_alive) {
  auto state = std::make_shared<CallState>(stream.get_executor());
  Headers headers = std::move(job.headers);
  if (job.kind == mcp::CallKind::kBrief) {
    run_here(calls, job, state);
  } else {
    if (job.cancel_on_disconnect) {
      state->watching = true;
      asio::co_spawn(stream.get_executor(), watch(stream, buffer, state, job.stop), asio::detached);
    }
    start_worker(job, state);
  }
  auto wait = [&](std::chrono::steady_clock::time_point until) -> awaitable<void> {
    state->wake.expires_at(until);
    error_code ec;
    co_await state->wake.async_wait(asio::redirect_error(use_awaitable, ec));
  };
  auto json_deadline = std::chrono::steady_clock::now() + options.json_window;
  while (!state->finished && state->events.empty() && !state->disconnected &&
         std::chrono::steady_clock::now() < json_deadline) {
    co_await wait(json_deadline);
  }
  bool open = !state->disconnected;
  if (open && state->finished && state->events.empty()) {
    if (!state->response) {
      open = false;  // cancelled: nothing to say
    } else {
      HttpResponse response{200, std::move(headers), std::move(*state->response)};
      response.headers.emplace_back("Content-Type", "application/json");
      if (state->watching) co_await stop_watching(stream, state);  // no frame when none
      co_return co_await write(stream, std::move(response), keep_alive && !state->disconnected);
    }
  } else if (open) {
    open = co_await stream_sse(stream, state, std::move(headers));
  }
  // Gone or cancelled: let the call end on its own (the stop was requested).
  if (state->watching) co_await stop_watching(stream, state);
  co_return open&& keep_alive && !state->disconnected;
}

// Ends a pending disconnect watch and waits for it: it reads into the
// connection's buffer, which the next request's parse needs back.
awaitable<void> Server::Impl::stop_watching(beast::tcp_stream& stream,
                                            std::shared_ptr<CallState> state) {
  if (!state->watching) co_return;
  error_code ignored;
  stream.socket().cancel(ignored);
  while (state->watching) {
    state->wake.expires_after(1s);
    co_await state->wake.async_wait(asio::redirect_error(use_awaitable, ignored));
  }
}

awaitable<bool> Server::Impl::write_chunk(beast::tcp_stream& stream, std::string text) {
  stream.expires_after(options.write_stall_timeout);
  error_code ec;
  co_await asio::async_write(stream, bhttp::make_chunk(asio::buffer(text)),
                             asio::redirect_error(use_awaitable, ec));
  co_return !ec;
}

// The response as an SSE stream: notifications as they come, keep-alive
// comments while nothing does, then the response and the end of the stream.
awaitable<bool> Server::Impl::stream_sse(beast::tcp_stream& stream,
                                         std::shared_ptr<CallState> state, Headers headers) {
  bhttp::response<bhttp::empty_body> head{bhttp::status::ok, 11};
  for (auto& [name, value] : headers) head.set(name, value);
  head.set(bhttp::field::content_type, "text/event-stream");
  head.set(bhttp::field::cache_control, "no-cache, no-transform");
  head.set("X-Accel-Buffering", "no");
  head.chunked(true);
  bhttp::response_serializer<bhttp::empty_body> serializer{head};
  stream.expires_after(options.write_stall_timeout);
  error_code ec;
  co_await bhttp::async_write_header(stream, serializer, asio::redirect_error(use_awaitable, ec));
  if (ec) co_return false;
  while (true) {
    while (!state->events.empty()) {
      std::string event = std::move(state->events.front());
      state->events.pop_front();
      if (!co_await write_chunk(stream, sse_event(event))) co_return false;
    }
    if (state->disconnected) co_return false;
    if (state->finished) break;
    state->wake.expires_after(options.sse_keep_alive);
    co_await state->wake.async_wait(asio::redirect_error(use_awaitable, ec));
    if (!state->finished && state->events.empty() && !state->disconnected) {
      if (!co_await write_chunk(stream, ": keepalive\n\n")) co_return false;
    }
  }
  if (state->response && !co_await write_chunk(stream, sse_event(*state->response)))
    co_return false;
  stream.expires_after(options.write_stall_timeout);
  co_await asio::async_write(stream, bhttp::make_chunk_last(),
                             asio::redirect_error(use_awaitable, ec));
  co_return !ec;
}

Server::Server(mcp::Router& router, ServerOptions options)
    : impl_(std::make_unique<Impl>(router, std::move(options))) {}

Server::~Server() {
  impl_->loops.stop();
  impl_->calls.stop_and_join();  // workers post into the loops: they end before those do
}

Result<void> Server::bind() {
  error_code ec;
  tcp::endpoint where(asio::ip::make_address(impl_->options.host, ec), impl_->options.port);
  if (ec) return Error::InvalidArgument("not an IP address: " + impl_->options.host);
  auto& acceptor = impl_->acceptor;
  acceptor.open(where.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(where, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) acceptor.non_blocking(true, ec);  // shed_queued() accepts until none waits
  if (ec)
    return Error::Unavailable("cannot listen on " + impl_->options.host + ":" +
                              std::to_string(impl_->options.port) + ": " + ec.message());
  return {};
}

unsigned short Server::port() const { return impl_->acceptor.local_endpoint().port(); }

void Server::run() {
  Impl& impl = *impl_;
  impl.signals.async_wait([this](const error_code& ec, int) {
    if (!ec) stop();
  });
  std::jthread signal_thread([&impl] { impl.signal_io.run(); });
  asio::co_spawn(impl.io, impl.accept_loop(), asio::detached);
  asio::co_spawn(impl.io, impl.sweep_loop(), asio::detached);
  impl.loops.run();
  asio::post(impl.signal_io, [&impl] {
    error_code ignored;
    impl.signals.cancel(ignored);
  });
}  // the signal thread ends once its loop has nothing left to do

void Server::stop() {
  Impl* impl = impl_.get();
  impl->calls.cancel_all();  // a call running inline holds its loop until it ends
  asio::post(impl->signal_io, [impl] {
    error_code ignored;
    impl->signals.cancel(ignored);
    // Back to the default action: should the shutdown hang, a second
    // SIGINT or SIGTERM ends the process at once.
    impl->signals.clear(ignored);
  });
  asio::post(impl->io, [impl] {
    error_code ignored;
    impl->acceptor.close(ignored);
    impl->accept_pause.cancel();
    impl->sweeper.cancel();
    impl->trim_timer.cancel();
    impl->loops.stop();
  });
}

}  // namespace hermes::http
