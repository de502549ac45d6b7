// SPDX-License-Identifier: MIT
#include "registry/catalog.h"

namespace hermes::registry {

std::optional<Json> match_uri_template(const std::string& uri_template, const std::string& uri) {
  Json vars = Json::object();
  size_t t = 0, u = 0;
  while (t < uri_template.size()) {
    if (uri_template[t] != '{') {
      if (u >= uri.size() || uri[u] != uri_template[t]) return std::nullopt;
      ++t, ++u;
      continue;
    }
    size_t close = uri_template.find('}', t);
    if (close == std::string::npos) return std::nullopt;
    std::string name = uri_template.substr(t + 1, close - t - 1);
    size_t end = u;
    while (end < uri.size() && uri[end] != '/' &&
           (close + 1 >= uri_template.size() || uri[end] != uri_template[close + 1])) {
      ++end;
    }
    if (end == u) return std::nullopt;
    vars[name] = uri.substr(u, end - u);
    t = close + 1;
    u = end;
  }
  if (u != uri.size()) return std::nullopt;
  return vars;
}

}  // namespace hermes::registry
