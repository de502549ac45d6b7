// SPDX-License-Identifier: MIT
// The search and extract backends behind web_search / web_extract. A
// backend's failure text is the contract's exact string for that vendor;
// credentials never appear in it.
#pragma once

#include "core/result.h"
#include "web/site_policy.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::web {

struct SearchHit {
  std::string title;
  std::string url;
  std::string description;
};

struct ExtractRow {
  std::string requested;  // the URL asked for, when the backend knows it
  std::string url;        // the URL the backend reports (the final one)
  std::string title;
  std::string content;
  std::string error;                        // empty on success
  std::optional<PolicyBlock> policy_block;  // a hop blocked by the website policy
};

// Environment as the user configured it: process environment first, then
// `$HERMES_HOME/.env`.
using EnvLookup = std::function<std::string(const std::string& name)>;

class SearchBackend {
 public:
  virtual ~SearchBackend() = default;
  // Up to `limit` hits; an error carries the message to show.
  virtual Result<std::vector<SearchHit>> search(const std::string& query, int limit,
                                                std::stop_token stop) const = 0;
};

class ExtractBackend {
 public:
  virtual ~ExtractBackend() = default;
  // One row per URL the backend answered for, in any order; rows are
  // matched to the request by URL. A whole-call failure is an error.
  virtual Result<std::vector<ExtractRow>> extract(const std::vector<std::string>& urls,
                                                  std::stop_token stop) const = 0;
};

}  // namespace hermes::web
