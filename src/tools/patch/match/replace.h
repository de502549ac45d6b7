// SPDX-License-Identifier: MIT
// Fuzzy find-and-replace (docs/tools/patch.md, with its precision rule): a
// unique match or an error naming every candidate; guards
// for approximate matches; new text re-indented to the file, its line
// endings taken from the lines it replaces, untouched lines kept byte for
// byte.
#pragma once

#include "core/result.h"
#include "tools/patch/match/strategies.h"

#include <string>
#include <string_view>

namespace hermes::match {

struct ReplaceRequest {
  std::string_view content;  // BOM already hidden
  std::string_view old_text;
  std::string_view new_text;
  bool replace_all = false;
  MatchOptions options;
  // V4A: after the patch's own anchor or cursor narrowed the text, the first
  // of several equal candidates is the one meant.
  bool take_first = false;
};

struct ReplaceOutcome {
  std::string content;
  size_t count = 0;
  Strategy strategy = Strategy::kExact;
};

enum class ReplaceFailure { kInput, kNotFound, kAmbiguous, kRefused };

struct ReplaceError {
  ReplaceFailure kind = ReplaceFailure::kNotFound;
  std::string message;  // the contract's text, diagnostics included
};

// The input checks (empty, whitespace-only, identical).
std::optional<ReplaceError> check_replace_input(std::string_view old_text,
                                                std::string_view new_text);

// Finds `old_text` and replaces it. Does not run the input checks.
std::variant<ReplaceOutcome, ReplaceError> fuzzy_replace(const ReplaceRequest& request);

// "Already applied" (docs/tools/patch.md): new text (≥ 8 chars stripped) is in the file and
// the old text is equal to it or absent.
bool is_already_applied(std::string_view content, std::string_view old_text,
                        std::string_view new_text);

}  // namespace hermes::match
