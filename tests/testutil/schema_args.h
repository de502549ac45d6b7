// SPDX-License-Identifier: MIT
// Arguments made from a tool's inputSchema, as a careless or hostile model
// sends them: every property in turn given values of the other JSON types,
// with the required properties filled by harmless valid values. The
// wrong-typed argument test and the tool-table fuzzer share it.
#pragma once

#include "json/json.h"
#include "registry/tool.h"

#include <string>
#include <vector>

namespace hermes::testing {

// One value of each JSON type and edge a model sends (13 kinds): null,
// booleans, integers at the edges, floats past int64, strings that look
// like other types, arrays and objects.
inline const std::vector<Json>& probe_values() {
  static const std::vector<Json> values = {
      Json(),
      Json(true),
      Json(false),
      Json(0),
      Json(-1),
      Json(uint64_t{18446744073709551615ULL}),
      Json(1.5),
      Json(1e300),
      Json(-1e300),
      Json("yes"),
      Json("1e400"),
      Json::array({1, "a"}),
      Json{{"a", Json::array()}},
  };
  return values;
}

// The JSON types a property's schema declares ("type": a name or a list).
inline std::vector<std::string> declared_types(const Json& property) {
  std::vector<std::string> types;
  if (!property.is_object() || !property.contains("type")) return types;
  const Json& type = property["type"];
  if (type.is_string()) types.push_back(type.get<std::string>());
  if (type.is_array()) {
    for (const Json& t : type)
      if (t.is_string()) types.push_back(t.get<std::string>());
  }
  return types;
}

// Whether `value` has one of the JSON types `types` names.
inline bool has_declared_type(const Json& value, const std::vector<std::string>& types) {
  for (const std::string& type : types) {
    if (type == "string" && value.is_string()) return true;
    if (type == "boolean" && value.is_boolean()) return true;
    if (type == "integer" && value.is_number_integer()) return true;
    if (type == "number" && value.is_number()) return true;
    if (type == "array" && value.is_array()) return true;
    if (type == "object" && value.is_object()) return true;
    if (type == "null" && value.is_null()) return true;
  }
  return false;
}

// The probe values whose type the property does not declare.
inline std::vector<Json> wrong_typed_values(const Json& property) {
  std::vector<Json> out;
  std::vector<std::string> types = declared_types(property);
  for (const Json& value : probe_values()) {
    if (!has_declared_type(value, types)) out.push_back(value);
  }
  return out;
}

// A valid value for a required property that does nothing harmful: a
// command that ends at once, code that does nothing, a URL the address
// guard refuses, the first value an enum allows.
inline Json harmless_value(const std::string& tool, const std::string& name, const Json& property) {
  if (tool == "terminal" && name == "command") return "true";
  if (tool == "execute_code" && name == "code") return "pass";
  if (property.contains("enum") && property["enum"].is_array() && !property["enum"].empty())
    return property["enum"][0];
  std::vector<std::string> types = declared_types(property);
  std::string type = types.empty() ? "string" : types.front();
  if (type == "boolean") return false;
  if (type == "integer" || type == "number") return 1;
  if (type == "object") return Json::object();
  if (type == "array") {
    const Json& items = property.value("items", Json::object());
    if (declared_types(items) == std::vector<std::string>{"string"})
      return Json::array({name == "urls" ? "http://127.0.0.1:9/" : "x"});
    return Json::array();
  }
  if (name == "path") return "probe.txt";
  return "x";
}

// The tool's required properties filled with harmless values.
inline Json required_arguments(const registry::ToolSpec& spec) {
  Json args = Json::object();
  const Json& schema = spec.input_schema;
  if (!schema.contains("required") || !schema.contains("properties")) return args;
  for (const Json& name : schema["required"]) {
    if (!name.is_string()) continue;
    const std::string& key = name.get_ref<const std::string&>();
    args[key] = harmless_value(spec.name, key, schema["properties"].value(key, Json::object()));
  }
  return args;
}

}  // namespace hermes::testing
