// SPDX-License-Identifier: MIT
#include "web/backend_select.h"

#include "core/config.h"
#include "core/strings.h"
#include "web/keyed_backends.h"
#include "web/search_backends.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <map>

namespace hermes::web {
namespace {

constexpr std::array<std::string_view, 8> kKnown = {
    "brave-free", "ddgs", "exa", "firecrawl", "native", "parallel", "searxng", "tavily"};
constexpr std::array<std::string_view, 5> kUnsupported = {"xai", "perplexity", "keenable", "nous",
                                                          "gateway"};

bool searches(const std::string& name) { return name != "native"; }
bool extracts(const std::string& name) {
  return name == "native" || name == "tavily" || name == "exa" || name == "parallel" ||
         name == "firecrawl";
}

Selection checked(const std::string& raw, Capability cap) {
  std::string name = to_lower(trim(raw));
  if (name == "off") return {name, "", true};
  if (std::find(kUnsupported.begin(), kUnsupported.end(), name) != kUnsupported.end())
    return {name, name + " is not supported by hermes-tools.", false};
  if (std::find(kKnown.begin(), kKnown.end(), name) == kKnown.end())
    return {name,
            "Unknown web backend '" + name +
                "'. Known: brave-free, ddgs, exa, firecrawl, native, parallel, searxng, tavily.",
            false};
  if (cap == Capability::kSearch && !searches(name))
    return {
        name,
        display_name(name) +
            " does not support web search. Set web.search_backend to a search-capable provider.",
        false};
  if (cap == Capability::kExtract && !extracts(name))
    return {name,
            display_name(name) +
                " is a search-only backend and cannot extract URL content. Set web.extract_backend "
                "to firecrawl, tavily, exa, or parallel.",
            false};
  return {name, "", false};
}

std::string autodetect(const EnvLookup& env, Capability cap) {
  if (!env("TAVILY_API_KEY").empty()) return "tavily";
  if (!env("EXA_API_KEY").empty()) return "exa";
  if (!env("PARALLEL_API_KEY").empty()) return "parallel";
  if (!env("FIRECRAWL_API_KEY").empty() || !env("FIRECRAWL_API_URL").empty()) return "firecrawl";
  if (cap == Capability::kExtract) return "native";
  if (!env("SEARXNG_URL").empty()) return "searxng";
  if (!env("BRAVE_SEARCH_API_KEY").empty()) return "brave-free";
  return "ddgs";
}

// `web.<name>.timeout` seconds (1–300); SearXNG's default also follows
// SEARXNG_TIMEOUT (at least 5) as upstream's does.
std::chrono::seconds vendor_timeout(const Config& config, const EnvLookup& env,
                                    const std::string& name) {
  int64_t fallback = name == "searxng" || name == "brave-free" || name == "ddgs" ? 15 : 60;
  if (name == "searxng")
    if (auto seconds = parse_int(env("SEARXNG_TIMEOUT"))) fallback = std::max<int64_t>(*seconds, 5);
  return std::chrono::seconds(
      std::clamp<int64_t>(config.get_int("web." + name + ".timeout", fallback), 1, 300));
}

VendorConfig vendor(const Config& config, const EnvLookup& env, const std::string& name,
                    const char* key, const char* base) {
  return {env(key), env(base), env("PARALLEL_SEARCH_MODE"), vendor_timeout(config, env, name)};
}

std::map<std::string, std::string> read_dotenv(const std::string& path) {
  std::map<std::string, std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    if (starts_with(line, "export ")) line = trim(line.substr(7));
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string value = trim(line.substr(eq + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    out[trim(line.substr(0, eq))] = value;
  }
  return out;
}

}  // namespace

Selection select_backend(const Config& config, const EnvLookup& env, Capability cap) {
  const char* own = cap == Capability::kSearch ? "web.search_backend" : "web.extract_backend";
  std::string stored = config.get_string(own, "");
  if (trim(stored).empty()) stored = config.get_string("web.backend", "");
  if (!trim(stored).empty()) {
    Selection s = checked(stored, cap);
    if (s.off && config.get_string(own, "").empty()) return checked(autodetect(env, cap), cap);
    return s;
  }
  return checked(autodetect(env, cap), cap);
}

std::unique_ptr<SearchBackend> make_search_backend(const std::string& name, const Config& config,
                                                   const EnvLookup& env) {
  auto timeout = vendor_timeout(config, env, name);
  auto keyed = [&](const char* key, const char* base) {
    return vendor(config, env, name, key, base);
  };
  if (name == "searxng") return make_searxng(env("SEARXNG_URL"), timeout);
  if (name == "ddgs") return make_ddg(env("HERMES_TOOLS_DDG_BASE_URL"), timeout);
  if (name == "brave-free")
    return make_brave(env("BRAVE_SEARCH_API_KEY"), env("HERMES_TOOLS_BRAVE_BASE_URL"), timeout);
  if (name == "tavily") return make_tavily_search(keyed("TAVILY_API_KEY", "TAVILY_BASE_URL"));
  if (name == "exa") return make_exa_search(keyed("EXA_API_KEY", "HERMES_TOOLS_EXA_BASE_URL"));
  if (name == "parallel")
    return make_parallel_search(keyed("PARALLEL_API_KEY", "HERMES_TOOLS_PARALLEL_BASE_URL"));
  if (name == "firecrawl")
    return make_firecrawl_search(keyed("FIRECRAWL_API_KEY", "FIRECRAWL_API_URL"));
  return nullptr;
}

std::unique_ptr<ExtractBackend> make_extract_backend(const std::string& name, const Config& config,
                                                     const EnvLookup& env, NativeConfig native) {
  auto keyed = [&](const char* key, const char* base) {
    return vendor(config, env, name, key, base);
  };
  if (name == "native") return make_native_extract(std::move(native));
  if (name == "tavily") return make_tavily_extract(keyed("TAVILY_API_KEY", "TAVILY_BASE_URL"));
  if (name == "exa") return make_exa_extract(keyed("EXA_API_KEY", "HERMES_TOOLS_EXA_BASE_URL"));
  if (name == "parallel")
    return make_parallel_extract(keyed("PARALLEL_API_KEY", "HERMES_TOOLS_PARALLEL_BASE_URL"));
  if (name == "firecrawl")
    return make_firecrawl_extract(keyed("FIRECRAWL_API_KEY", "FIRECRAWL_API_URL"));
  return nullptr;
}

std::string display_name(const std::string& name) {
  static const std::map<std::string, std::string> kNames = {{"brave-free", "Brave Search (Free)"},
                                                            {"ddgs", "DuckDuckGo (ddgs)"},
                                                            {"searxng", "SearXNG"},
                                                            {"firecrawl", "Firecrawl"},
                                                            {"tavily", "Tavily"},
                                                            {"exa", "Exa"},
                                                            {"parallel", "Parallel"},
                                                            {"native", "Native"}};
  auto it = kNames.find(name);
  return it == kNames.end() ? name : it->second;
}

EnvLookup environment_with_dotenv(const std::string& home) {
  auto dotenv = std::make_shared<const std::map<std::string, std::string>>(
      home.empty() ? std::map<std::string, std::string>{} : read_dotenv(home + "/.env"));
  return [dotenv](const std::string& name) -> std::string {
    if (const char* v = std::getenv(name.c_str()); v && *v) return v;
    auto it = dotenv->find(name);
    return it == dotenv->end() ? "" : it->second;
  };
}

}  // namespace hermes::web
