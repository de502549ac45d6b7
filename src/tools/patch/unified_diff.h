// SPDX-License-Identifier: MIT
// A unified diff (difflib.unified_diff layout, 3 lines of context) of two
// texts, for the `diff` field of patch results.
#pragma once

#include <string>
#include <string_view>

namespace hermes::patch {

// Headers `--- <from_label>` / `+++ <to_label>`; empty when the texts are equal.
std::string unified_diff(std::string_view from, std::string_view to, const std::string& from_label,
                         const std::string& to_label);

}  // namespace hermes::patch
