// SPDX-License-Identifier: MIT
// Applying one Update's hunks to a file's text (BOM hidden), each with the
// fuzzy matcher, using only the patch's own disambiguators (`@@` anchor,
// `*** End of File`, hunk order) to pick between equal candidates.
#pragma once

#include "tools/patch/v4a/parser.h"

#include <optional>
#include <string>
#include <vector>

namespace hermes::v4a {

struct HunkOutcome {
  std::string content;
  bool changed = false;
};

// Applies `hunks` in order. A problem reads `hunk <i> '<hint>' not found — …`
// (or the addition-only anchor messages) for the caller to prefix with the path.
std::variant<HunkOutcome, std::string> apply_hunks(std::string content,
                                                   const std::vector<Hunk>& hunks);

}  // namespace hermes::v4a
