// SPDX-License-Identifier: MIT
// Typed reads of a tool's JSON arguments, for the `*_json.cc` adapters. An
// absent or null argument is nullopt (the tool's default applies); a value of
// another JSON type is an error that names the argument and the type it has,
// "<tool>: '<name>' must be a string, got int.", instead of being read as
// absent or thrown from deep inside the tool.
#pragma once

#include "core/result.h"
#include "json/json.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hermes::registry {

// The value's type as Python names it, as the contract's messages do:
// `dict`, `list`, `str`, `int`, `float`, `bool`, `NoneType`.
std::string python_type_name(const Json& value);

// kInvalidArgument "<tool>: '<name>' must be <expected>, got <type>."
Error wrong_argument_type(std::string_view tool, std::string_view name, std::string_view expected,
                          const Json& value);

// Python's int() over an argument, as the contracts coerce counts and
// timeouts: integers as they are (saturated to int64), numbers truncated
// (saturated; NaN is none), numeric strings parsed; any other value nullopt.
std::optional<int64_t> coerce_int(const Json& value);
// `coerce_int` of the member `name`; nullopt when absent.
std::optional<int64_t> coerce_int_arg(const Json& args, std::string_view name);

Result<std::optional<std::string>> optional_string_arg(const Json& args, std::string_view tool,
                                                       std::string_view name);
Result<std::optional<bool>> optional_bool_arg(const Json& args, std::string_view tool,
                                              std::string_view name);

}  // namespace hermes::registry
