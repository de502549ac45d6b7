// SPDX-License-Identifier: MIT
// Which backend serves each web tool. A stored selection
// (`web.search_backend` / `web.extract_backend`, else `web.backend`) is used
// strictly: a backend that cannot work reports why, nothing switches
// silently. With no selection: the first keyed vendor whose key is set,
// then SearXNG when SEARXNG_URL is set, Brave with its key, and finally the
// keyless defaults (DuckDuckGo search, native extract).
#pragma once

#include "core/result.h"
#include "web/backend.h"
#include "web/native_extract.h"

#include <memory>
#include <string>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::web {

enum class Capability { kSearch, kExtract };

struct Selection {
  std::string name;   // canonical backend name, lower case
  std::string error;  // set when the selection cannot serve this capability
  bool off = false;   // `off`: the tool is not offered
};

Selection select_backend(const Config& config, const EnvLookup& env, Capability capability);

// Each vendor request is bounded by `web.<name>.timeout` seconds (default
// 15 for searxng, brave-free and ddgs, 60 for the keyed vendors).
std::unique_ptr<SearchBackend> make_search_backend(const std::string& name, const Config& config,
                                                   const EnvLookup& env);
std::unique_ptr<ExtractBackend> make_extract_backend(const std::string& name, const Config& config,
                                                     const EnvLookup& env, NativeConfig native);

// `Brave Search (Free)`, `DuckDuckGo (ddgs)`, `SearXNG`, … for messages.
std::string display_name(const std::string& name);

// Process environment first, then `<home>/.env` (read once).
EnvLookup environment_with_dotenv(const std::string& home);

}  // namespace hermes::web
