// SPDX-License-Identifier: MIT
#include "parity/parity_env.h"

#include "tools/register_all.h"

#include <algorithm>
#include <csignal>
#include <map>
#include <regex>

namespace hermes::testing {

ParityEnv::ParityEnv(BackendKind kind, const std::string& extra)
    : ParityEnv([&](const std::string& work) { return backend_yaml(kind, work, extra); }) {}

ParityEnv::ParityEnv(const YamlFor& yaml_for) : tools_(yaml_for) {
  // The server ignores SIGPIPE (cli/main.cc), and so must the process that
  // hosts the tools here: a remote write whose target fails early (a full
  // disk) meets a closed pipe, which must be an EPIPE, not a kill.
  std::signal(SIGPIPE, SIG_IGN);
  tools::register_all_tools(tools_.registry());
}

Json ParityEnv::call(const std::string& tool, const Json& args) { return tools_.call(tool, args); }

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

Json normalize(const Json& value, const ParityEnv& env) {
  if (value.is_string()) {
    std::string s = replace_all(value.get<std::string>(), env.work(), "<work>");
    s = replace_all(s, env.home(), "<home>");
    // execute_code's per-run staging directory (named differently on a target).
    static const std::regex kScriptDir("/tmp/hermes_(sandbox|exec)_[A-Za-z0-9]+/");
    return std::regex_replace(s, kScriptDir, "<script-dir>/");
  }
  if (value.is_array()) {
    Json out = Json::array();
    for (const auto& item : value) out.push_back(normalize(item, env));
    return out;
  }
  if (value.is_object()) {
    Json out = Json::object();
    for (const auto& [key, item] : value.items()) {
      if (key == "full_output_path")
        out[key] = "<spill>";
      else if (key == "duration_seconds")
        out[key] = "<time>";
      else
        out[key] = normalize(item, env);
    }
    return out;
  }
  return value;
}

Json in_path_order(Json r) {
  if (r.contains("counts") && r["counts"].is_object()) {
    std::map<std::string, Json> sorted;
    for (const auto& [path, n] : r["counts"].items()) sorted[path] = n;
    Json counts = Json::object();
    for (auto& [path, n] : sorted) counts[path] = n;
    r["counts"] = counts;
  }
  for (const char* key : {"matches", "files"}) {
    if (!r.contains(key) || !r[key].is_array()) continue;
    std::vector<Json> items(r[key].begin(), r[key].end());
    std::stable_sort(items.begin(), items.end(), [](const Json& a, const Json& b) {
      auto rank = [](const Json& j) {
        return j.is_object() ? std::make_pair(j.value("path", ""), j.value("line", 0))
                             : std::make_pair(j.is_string() ? j.get<std::string>() : "", 0);
      };
      return rank(a) < rank(b);
    });
    r[key] = Json(items);
  }
  return r;
}

}  // namespace hermes::testing
