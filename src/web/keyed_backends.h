// SPDX-License-Identifier: MIT
// The keyed vendors, each searching and extracting over its REST API:
// Tavily, Exa, Parallel and Firecrawl. `base` overrides the vendor's URL
// (self-hosting, test fakes); an empty key yields the vendor's missing-key
// message.
#pragma once

#include "web/backend.h"

#include <chrono>
#include <memory>
#include <string>

namespace hermes::web {

struct VendorConfig {
  std::string key;
  std::string base;
  std::string mode;                  // Parallel's PARALLEL_SEARCH_MODE
  std::chrono::seconds timeout{60};  // each request
};

std::unique_ptr<SearchBackend> make_tavily_search(VendorConfig config);
std::unique_ptr<ExtractBackend> make_tavily_extract(VendorConfig config);
std::unique_ptr<SearchBackend> make_exa_search(VendorConfig config);
std::unique_ptr<ExtractBackend> make_exa_extract(VendorConfig config);
std::unique_ptr<SearchBackend> make_parallel_search(VendorConfig config);
std::unique_ptr<ExtractBackend> make_parallel_extract(VendorConfig config);
std::unique_ptr<SearchBackend> make_firecrawl_search(VendorConfig config);
std::unique_ptr<ExtractBackend> make_firecrawl_extract(VendorConfig config);

}  // namespace hermes::web
