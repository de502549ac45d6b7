// SPDX-License-Identifier: MIT
#include "registry/tool_args.h"

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
