// SPDX-License-Identifier: MIT
// Result<T>: a value or an Error. Expected failures travel as values; exceptions
// are reserved for faults and are caught at the dispatcher and thread entries.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace hermes {

// Coarse kinds callers branch on; the message carries the details.
enum class ErrorCode {
  kInvalidArgument,
  kNotFound,
  kAlreadyExists,
  kPermissionDenied,
  kOutsideRoot,
  kTooLarge,
  kTimeout,
  kCancelled,
  kConflict,
  kUnavailable,
  kIo,
  kInternal,
};

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  static Error InvalidArgument(std::string m) {
    return {ErrorCode::kInvalidArgument, std::move(m)};
  }
  static Error NotFound(std::string m) { return {ErrorCode::kNotFound, std::move(m)}; }
  static Error PermissionDenied(std::string m) {
    return {ErrorCode::kPermissionDenied, std::move(m)};
  }
  static Error OutsideRoot(std::string m) { return {ErrorCode::kOutsideRoot, std::move(m)}; }
  static Error TooLarge(std::string m) { return {ErrorCode::kTooLarge, std::move(m)}; }
  static Error Timeout(std::string m) { return {ErrorCode::kTimeout, std::move(m)}; }
  static Error Cancelled(std::string m) { return {ErrorCode::kCancelled, std::move(m)}; }
  static Error Unavailable(std::string m) { return {ErrorCode::kUnavailable, std::move(m)}; }
  static Error Io(std::string m) { return {ErrorCode::kIo, std::move(m)}; }
  static Error Internal(std::string m) { return {ErrorCode::kInternal, std::move(m)}; }
  // Maps an errno to a code in one place; `context` names the operation and
  // operand, e.g. `open "a/b.txt"`.
  static Error FromErrno(int err, const std::string& context);
};

// A subset of std::expected's API so a later switch is mechanical.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::move(error)) {}  // NOLINT

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  const Error& error() const { return std::get<1>(v_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T value_or(T fallback) const { return has_value() ? value() : std::move(fallback); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT
  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace hermes

#define HERMES_TRY(expr)                          \
  do {                                            \
    auto hermes_try_ = (expr);                    \
    if (!hermes_try_) return hermes_try_.error(); \
  } while (0)

#define HERMES_CONCAT_INNER(a, b) a##b
#define HERMES_CONCAT(a, b) HERMES_CONCAT_INNER(a, b)
#define HERMES_ASSIGN_OR_RETURN(lhs, expr)                                                    \
  auto HERMES_CONCAT(hermes_r_, __LINE__) = (expr);                                           \
  if (!HERMES_CONCAT(hermes_r_, __LINE__)) return HERMES_CONCAT(hermes_r_, __LINE__).error(); \
  lhs = std::move(HERMES_CONCAT(hermes_r_, __LINE__)).value()
