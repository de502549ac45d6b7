// SPDX-License-Identifier: MIT
// The `native` extract backend: pages fetched here (pinned, every redirect
// hop vetted) and converted here; up to 5 URLs at once, at most 2 per host.
#pragma once

#include "web/backend.h"
#include "web/page_fetch.h"

#include <memory>

namespace hermes::web {

struct NativeConfig {
  std::shared_ptr<const UrlGuard> guard;
  SitePolicy policy;
  HttpLimits limits;
  int max_redirects = 10;
  std::chrono::seconds call_timeout{120};  // every URL of one call together
};

std::unique_ptr<ExtractBackend> make_native_extract(NativeConfig config);

}  // namespace hermes::web
