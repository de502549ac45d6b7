// SPDX-License-Identifier: MIT
// A missing file (docs/tools/read_file.md): the unicode-equivalent sibling it
// probably meant (NFC, special spaces and quotes), else scored suggestions.
#pragma once

#include "fs/file_system.h"

#include <optional>
#include <string>
#include <vector>

namespace hermes::read_file {

// NFC, U+202F/U+00A0 → space, U+2018/U+2019 → `'`.
std::string canonical_name(const std::string& name);
// The one entry of `dir` (other than `name` itself) equal to `name` after
// canonicalisation; nullopt for zero or several.
std::optional<std::string> unicode_variant(const fs::FileSystem& fs, const std::string& dir,
                                           const std::string& name);
// Up to 5 absolute paths from the first 50 names of `dir` (alphabetical),
// best score first.
std::vector<std::string> similar_files(const fs::FileSystem& fs, const std::string& dir,
                                       const std::string& name);
// difflib.SequenceMatcher(None, a, b).ratio() for short strings.
double similarity_ratio(const std::string& a, const std::string& b);

}  // namespace hermes::read_file
