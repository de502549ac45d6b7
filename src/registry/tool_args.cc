// SPDX-License-Identifier: MIT
#include "registry/tool_args.h"

#include "core/strings.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hermes::registry {
namespace {

const Json* present(const Json& args, std::string_view name) {
  auto it = args.find(std::string(name));
  return it == args.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace

std::string python_type_name(const Json& value) {
  if (value.is_object()) return "dict";
  if (value.is_array()) return "list";
  if (value.is_boolean()) return "bool";
  if (value.is_number_integer()) return "int";
  if (value.is_number()) return "float";
  if (value.is_null()) return "NoneType";
  return "str";
}

Error wrong_argument_type(std::string_view tool, std::string_view name, std::string_view expected,
                          const Json& value) {
  return Error::InvalidArgument(std::string(tool) + ": '" + std::string(name) + "' must be " +
                                std::string(expected) + ", got " + python_type_name(value) + ".");
}

std::optional<int64_t> coerce_int(const Json& value) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (value.is_number_unsigned()) {
    return static_cast<int64_t>(std::min<uint64_t>(value.get<uint64_t>(), kMax));
  }
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) {
    double d = value.get<double>();
    if (std::isnan(d)) return std::nullopt;
    // 2^63 is exact as a double; the cast is defined only strictly inside.
    if (d >= 9223372036854775808.0) return kMax;
    if (d <= -9223372036854775808.0) return kMin;
    return static_cast<int64_t>(d);
  }
  if (value.is_string()) return parse_int(value.get<std::string>());
  return std::nullopt;
}

std::optional<int64_t> coerce_int_arg(const Json& args, std::string_view name) {
  const Json* value = present(args, name);
  return value ? coerce_int(*value) : std::nullopt;
}

Result<std::optional<std::string>> optional_string_arg(const Json& args, std::string_view tool,
                                                       std::string_view name) {
  const Json* value = present(args, name);
  if (!value) return std::optional<std::string>();
  if (!value->is_string()) return wrong_argument_type(tool, name, "a string", *value);
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::optional<bool>> optional_bool_arg(const Json& args, std::string_view tool,
                                              std::string_view name) {
  const Json* value = present(args, name);
  if (!value) return std::optional<bool>();
  if (!value->is_boolean()) return wrong_argument_type(tool, name, "a boolean", *value);
  return std::optional<bool>(value->get<bool>());
}

}  // namespace hermes::registry
