// SPDX-License-Identifier: MIT
// search_files' handler: the loop guard, the host the engines run on, the
// search, and redaction of match content (docs/tools/search_files.md).
#include "tools/search_files/search_files.h"

#include "core/config.h"
#include "core/redact.h"
#include "registry/session.h"
#include "registry/session_backend.h"
#include "tools/search_files/search_host.h"
#include "tools/search_files/search_service.h"

#include <memory>
#include <string>

namespace hermes::search {
namespace {

using search::FileOrder;
using search::SearchOutcome;
using search::SearchRequest;
using search::Target;

// Output mode and context are not part of the key: reshaping one search is
// not a repeat. Paging arguments are, so paging never trips the guard.
std::string loop_key(const SearchRequest& req) {
  std::string key = req.pattern;
  for (const std::string& part :
       {std::string(req.target == Target::kFiles ? "files" : "content"), req.path,
        req.file_glob.value_or(""), std::to_string(req.limit), std::to_string(req.offset),
        std::string(req.order == FileOrder::kModified ? "modified" : "discovery")}) {
    key += '\0' + part;
  }
  return key;
}

void redact_matches(SearchOutcome& out, const Config& config) {
  if (!redaction_enabled(config)) return;
  for (auto& match : out.matches) {
    RedactOptions options{.mode = RedactMode::kFileRead,
                          .assignments = is_secret_bearing_file(match.path)};
    match.content = redact_secrets(match.content, options);
  }
}

SearchFilesBlocked blocked(const SearchRequest& req, int repeats) {
  return SearchFilesBlocked{
      .error = Error::PermissionDenied(
          "BLOCKED: You have run this exact search " + std::to_string(repeats) +
          " times in a row. The results have NOT changed. You already have this "
          "information. STOP re-searching and proceed with your task."),
      .pattern = req.pattern,
      .repeats = repeats};
}

}  // namespace

Result<SearchFilesOutput> search_files(const SearchFilesParams& req, registry::CallContext& ctx) {
  auto& state = ctx.session.state<search::SearchSessionState>();
  int repeats = state.record_search(loop_key(req));
  if (repeats >= 4) return SearchFilesOutput(blocked(req, repeats));
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend,
                          registry::session_backend(ctx));
  // System calls on the plain local backend, shell commands
  // through the backend everywhere else.
  std::unique_ptr<search::SearchHost> portable;
  if (!backend->native_files()) portable = search::backend_host(backend, ctx.stop, &state);
  search::SearchHost& host = portable ? *portable : search::native_host();
  search::SearchDeps deps{.paths = ctx.services.paths,
                          .session_cwd = ctx.session.cwd(),
                          .hermes_home = ctx.services.config.home(),
                          .state = state,
                          .env = {.engines = host.engines(), .host = &host, .stop = ctx.stop}};
  HERMES_ASSIGN_OR_RETURN(SearchOutcome outcome, search::run_search(req, deps));
  redact_matches(outcome, ctx.services.config);
  return SearchFilesOutput(SearchFilesResults{.outcome = std::move(outcome),
                                              .next_offset = req.offset + req.limit,
                                              .third_repeat = repeats == 3});
}

const Error* search_files_failure(const SearchFilesOutput& output) {
  if (const auto* blocked = std::get_if<SearchFilesBlocked>(&output)) return &blocked->error;
  const auto& error = std::get<SearchFilesResults>(output).outcome.error;
  return error ? &*error : nullptr;
}

}  // namespace hermes::search
