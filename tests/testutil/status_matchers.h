// SPDX-License-Identifier: MIT
// GoogleTest matchers for the error model: `IsOk()` for a `Result<T>` or
// `Status` that holds a value, `IsError(code)` for one that failed with
// `code` — and for a tool call that failed with `code` (`ToolCallResult`).
// Tests assert on codes; they compare message text only where the text is
// the contract.
#pragma once

#include "core/result.h"
#include "registry/dispatcher.h"

#include <gmock/gmock.h>

#include <ostream>

namespace hermes {

// The enumerator's name, for failure messages.
inline const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "kInvalidArgument";
    case ErrorCode::kNotFound:
      return "kNotFound";
    case ErrorCode::kAlreadyExists:
      return "kAlreadyExists";
    case ErrorCode::kPermissionDenied:
      return "kPermissionDenied";
    case ErrorCode::kOutsideRoot:
      return "kOutsideRoot";
    case ErrorCode::kTooLarge:
      return "kTooLarge";
    case ErrorCode::kTimeout:
      return "kTimeout";
    case ErrorCode::kCancelled:
      return "kCancelled";
    case ErrorCode::kConflict:
      return "kConflict";
    case ErrorCode::kUnavailable:
      return "kUnavailable";
    case ErrorCode::kIo:
      return "kIo";
    case ErrorCode::kInternal:
      return "kInternal";
  }
  return "?";
}

inline void PrintTo(ErrorCode code, std::ostream* os) { *os << error_code_name(code); }

namespace testing {

// The code a result failed with, or nullopt when it holds a value.
template <class T>
std::optional<ErrorCode> failure_code(const Result<T>& result) {
  if (result) return std::nullopt;
  return result.error().code;
}
inline std::optional<ErrorCode> failure_code(const registry::ToolCallResult& result) {
  if (!result.is_error) return std::nullopt;
  return result.code;
}

template <class T>
std::string failure_text(const Result<T>& result) {
  return result ? "" : result.error().message;
}
inline std::string failure_text(const registry::ToolCallResult& result) { return result.text; }

MATCHER(IsOk, "succeeded") {
  if (auto code = failure_code(arg)) {
    *result_listener << "failed with " << error_code_name(*code) << ": " << failure_text(arg);
    return false;
  }
  if constexpr (std::is_same_v<std::decay_t<decltype(arg)>, registry::ToolCallResult>) {
    if (arg.is_error) {
      *result_listener << "failed without a code: " << arg.text;
      return false;
    }
  }
  return true;
}

MATCHER_P(IsError, code, std::string("failed with ") + error_code_name(code)) {
  auto got = failure_code(arg);
  if (!got) {
    *result_listener << "succeeded";
    return false;
  }
  *result_listener << "failed with " << error_code_name(*got) << ": " << failure_text(arg);
  return *got == code;
}

}  // namespace testing
}  // namespace hermes
