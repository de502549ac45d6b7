// SPDX-License-Identifier: MIT
// The MCP server end to end on arbitrary input bytes: framing, parsing,
// dispatch, tools/call threads, cancellation and EOF, with cheap stub tools
// (an echo, one that throws, one that waits for its stop token). Every input
// is a whole session: the server reads it from a memfd until EOF and writes
// to /dev/null.
#include "core/config.h"
#include "core/paths.h"
#include "mcp/server.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>

namespace {

using hermes::Json;
using hermes::registry::CallContext;
using hermes::registry::ToolReply;

hermes::registry::Registry& stub_registry() {
  static hermes::registry::Registry registry = [] {
    hermes::registry::Registry r;
    Json schema = {{"type", "object"}};
    r.add({.name = "echo",
           .toolset = "file",
           .description = "d",
           .input_schema = schema,
           .run = [](const Json& args, CallContext&) { return ToolReply{args}; }});
    r.add(
        {.name = "fail",
         .toolset = "file",
         .description = "d",
         .input_schema = schema,
         .run = [](const Json&, CallContext&) -> ToolReply { throw std::runtime_error("boom"); }});
    r.add({.name = "wait",
           .toolset = "file",
           .description = "d",
           .input_schema = schema,
           .run = [](const Json&, CallContext& ctx) {
             for (int i = 0; i < 1000 && !ctx.stop.stop_requested(); ++i) ::usleep(100);
             return ToolReply{{{"stopped", ctx.stop.stop_requested()}}};
           }});
    return r;
  }();
  return registry;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto config = hermes::Config::from_yaml("");
  static hermes::PathResolver paths;
  static hermes::registry::Services services{*config, paths};
  static int out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  int in = ::memfd_create("mcp-fuzz-input", MFD_CLOEXEC);
  if (in < 0 || out < 0) std::abort();
  if (size && ::write(in, data, size) != static_cast<ssize_t>(size)) std::abort();
  ::lseek(in, 0, SEEK_SET);
  hermes::mcp::Server server(stub_registry(), services, {.max_line_bytes = 1 << 16});
  server.run(in, out);
  ::close(in);
  return 0;
}
