// SPDX-License-Identifier: MIT
// web_extract's checks on what goes out and what comes back: URLs carrying
// secrets are refused before any backend sees them, and inline base64
// images are replaced by placeholders before a model sees them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hermes::web_tools {

// The refusal for a URL that carries a vendor token or a credential-like
// query parameter, or nullopt. `raw` is as given, `normalized` as fetched.
std::optional<std::string> secret_in_url(const std::string& raw, const std::string& normalized);

// `![alt](data:image/…;base64,…)` → `[IMAGE: alt]` (`[IMAGE]` when blank),
// then any remaining parenthesised or bare base64 image data → `[IMAGE]`.
std::string replace_inline_images(const std::string& text);

}  // namespace hermes::web_tools
