// SPDX-License-Identifier: MIT
// Long pages: the head and tail a model sees inline, and the full clean
// text stored under `$HERMES_HOME/cache/web/` with a footer naming the
// exact read_file call that pages through the omitted middle.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace hermes::web_tools {

// Stores the full text; its path, or nullopt when it could not be stored.
using PageStorer = std::function<std::optional<std::string>()>;

// `content` for a budget of `char_limit` characters (code points): whole
// when it fits, else head (¾ of the budget) + tail + footer, each cut
// snapped to a nearby line break. `store` runs only when cutting.
std::string fit_page(const std::string& content, size_t char_limit, const PageStorer& store);

// Where the full text of `url` goes: `<dir>/<host slug>-<sha256(url)[:10]>.md`.
std::string stored_page_path(const std::string& dir, const std::string& url);

// Writes `text` (capped at 2,000,000 characters, with a marker) to `path`,
// creating its directory; a symlink at `path` is replaced, never followed.
bool store_page(const std::string& path, const std::string& text);

}  // namespace hermes::web_tools
