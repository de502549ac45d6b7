// SPDX-License-Identifier: MIT
// A unified diff (difflib.unified_diff layout, 3 lines of context) of two
// texts, for the `diff` field of patch results.
#pragma once

#include <string>
#include <string_view>

namespace hermes::patch {

// A diff header's name for `path` on `side` ("a" or "b"): `a/calc/ops.py`
// for a relative path, an absolute one as it is (`/srv/proj/ops.py`, not
// `a//srv/proj/ops.py`), as `diff -u` prints it.
std::string diff_label(std::string_view side, const std::string& path);

// Headers `--- <from_label>` / `+++ <to_label>`; empty when the texts are equal.
std::string unified_diff(std::string_view from, std::string_view to, const std::string& from_label,
                         const std::string& to_label);

}  // namespace hermes::patch
