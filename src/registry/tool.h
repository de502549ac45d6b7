// SPDX-License-Identifier: MIT
// A tool: name, toolset, description, JSON schema, annotations, availability
// check and entry point. Tools are written in the typed shape of
// registry/typed_tool.h (`Params` -> `Result<Output>`); the entry point is
// the JSON edge the adapter builds around it.
#pragma once

#include "backend/backend_config.h"
#include "core/clock.h"
#include "core/paths.h"
#include "core/result.h"
#include "fs/file_system.h"
#include "json/json.h"

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "checkpoint/footprint.h"

namespace hermes {
class Config;
class PathResolver;
}  // namespace hermes

namespace hermes::fs {
class PathLocks;
}  // namespace hermes::fs

namespace hermes::checkpoint {
class Checkpoints;
}  // namespace hermes::checkpoint

namespace hermes::registry {

class Session;
class ClientChannel;
class Dispatcher;
class CallStatus;

// How a session's backend is built from the configuration.
using BackendFactory =
    std::function<Result<std::shared_ptr<backend::Backend>>(const Config& config)>;

// Services built once by main() and shared by every call: the
// configuration, and the OS as tools reach it, so a test can hand them a
// fake file system, backend or clock. Thread-safe.
struct Services {
  const Config& config;
  const PathResolver& paths;
  // The files of this host, for the native file-tool path.
  const fs::FileSystem& files = fs::native_file_system();
  // A session's backend, built on its first use (registry/session_backend.h).
  BackendFactory backends = backend::make_backend;
  // Time for negative caches and other expiring state.
  const Clock& clock = steady_clock_source();
  // Where the dispatcher records a checkpoint before a call that changes
  // the workspace (docs/checkpoints.md); nullptr: none are kept.
  const checkpoint::Checkpoints* checkpoints = nullptr;
};

// What a call's brief check found and took, for the call itself: the real
// path of its file and, for a write, that file's writer lock, held from the
// check on so that no other writer can take it in between and make the
// brief call wait (copies share it).
struct BriefFindings {
  KnownRealPath path;
  std::shared_ptr<const fs::PathLocks> writer_lock;
};

// Everything a handler may use for one call.
struct CallContext {
  Session& session;
  const Services& services;
  ClientChannel& client;
  // Lets a tool call other tools (execute_code's RPC) through the same
  // dispatcher and session bookkeeping.
  Dispatcher& dispatcher;
  // Requested when the client cancels the call or the session ends.
  std::stop_token stop;
  // The MCP `_meta.progressToken`, or null.
  Json progress_token;
  // What the call's brief check found and took, if it ran.
  const BriefFindings* brief_findings = nullptr;
  // A long-running call's output so far, for its progress and task status
  // (registry/call_status.h); null for the others.
  CallStatus* status = nullptr;
};

struct ToolAnnotations {
  bool read_only = false;
  bool destructive = true;
  bool idempotent = false;
  bool open_world = false;
};

// A content block a call returns after its text: an image (execute_code's
// shown PNGs), an audio clip, or an embedded resource (MCP `image`, `audio`,
// `resource` blocks).
struct ContentBlock {
  enum class Kind { kImage, kAudio, kTextResource, kBlobResource };
  std::string mime_type;  // image/png
  std::string data;       // the raw bytes; a text resource's text
  Kind kind = Kind::kImage;
  std::string uri;  // a resource's
};

// What one call returns at the edge: the contract's JSON object (a string
// is sent as the text itself: the conformance fixtures' plain text), and
// whether it is a tool failure (MCP `isError`), which the tool decides from
// its typed result, naming the failure's `code`. The JSON's keys never
// decide it.
struct ToolReply {
  Json value;
  bool is_error = false;
  std::optional<ErrorCode> code;      // the failure's kind
  std::vector<ContentBlock> content;  // after the text
};

// The entry point of a tool (built by `typed_entry`).
using ToolEntry = std::function<ToolReply(const Json& args, CallContext& ctx)>;

struct ToolSpec {
  std::string name;
  std::string toolset;  // one of Registry::known_toolsets()
  std::string description;
  Json input_schema;
  // The JSON Schema of what a successful call returns (MCP `outputSchema`,
  // registry/output_schema.h): built from the tool's typed Output. A call
  // that succeeds sends its JSON as `structuredContent` too. Null: none.
  Json output_schema;
  ToolAnnotations annotations;
  ToolEntry run;
  // The reading tools (read_file, search_files) leave the session's loop
  // counters alone; a call to any other tool resets them.
  bool keeps_loop_counters = false;
  // Whether a call with these arguments only computes and touches files,
  // ending in about a millisecond when the files are on this host (the file
  // tools; not a PDF read, which waits on pdftotext, nor a write that a
  // linter process checks): see `runs_briefly`. Unset: no call is brief.
  // A predicate that follows the links of the call's path leaves what it
  // found (and a write's lock it took) in `found`, for the call.
  std::function<bool(const Json& args, BriefFindings& found)> brief;
  // Whether a call with these arguments is foreground work that may run for
  // minutes, which a client's timeout would cut: the router ticks progress
  // for it and, on the modern wire, may continue it as a task. The tool
  // decides from its own typed parse (`when_parsed`, registry/typed_tool.h);
  // arguments the parse refuses fail at once, so they are not long-running.
  // Unset: no call is.
  std::function<bool(const Json& args)> long_running;
  // What a call with these arguments may change in the workspace, as the
  // tool declares it: the dispatcher records a checkpoint before the call
  // and what it changed after (registry/checkpoint_hook.h). Unset, or
  // nullopt: the call changes nothing there.
  std::function<std::optional<checkpoint::Footprint>(const Json& args)> changes;
  // The client capabilities a call cannot do without, shaped as MCP's
  // ClientCapabilities (`{"sampling": {}}`, `{"extensions": {"…/tasks": {}}}`):
  // on the modern wire, where each request declares its own, a call whose
  // request lacks one is refused (-32021) before it runs. Empty: none.
  Json client_capabilities = Json::object();
  // The tool reports its own progress (no ticker from the router), and a
  // call of it that may become a task becomes one at once: hermes_task,
  // which waits on an agent for minutes.
  bool own_progress = false;
  // A tool whose check fails is not listed and cannot be called.
  std::function<bool(const Services&)> is_available = [](const Services&) { return true; };
  // Optional: a description built per session (execute_code lists the tools
  // really available to scripts). Receives the static description.
  std::function<std::string(const Services&, const std::string&)> describe;
};

// Runs `spec`'s entry point on `args` (an object) without the dispatcher's
// bookkeeping; exceptions propagate. The dispatcher and test harnesses call
// tools through it.
ToolReply invoke_tool(const ToolSpec& spec, const Json& args, CallContext& ctx);

// Whether a call of `spec` on `args` ends in about a millisecond of CPU and
// local I/O: a brief call with the local backend (elsewhere its files are a
// round trip away). A worker pool may queue such calls rather than start
// threads.
// `found`: what the predicate found and took, if anything.
bool runs_briefly(const ToolSpec& spec, const Json& args, const Services& services,
                  BriefFindings& found);

// For a `brief` predicate: the real path (every link followed) of the
// string argument `key` when it is an absolute path, else nullopt. What a
// file tool does is decided by the real path (a link `notes` to `x.pdf` is a
// PDF read), and a relative path resolves against the session's directory,
// which a predicate does not know: such a call is not brief. What it finds
// is also left in `found`.
std::optional<std::string> absolute_real_path(const Json& args, const char* key,
                                              KnownRealPath& found);

// `{"error": message}`: the generic failure shape.
Json error_json(const std::string& message);

}  // namespace hermes::registry
