// SPDX-License-Identifier: MIT
#include "registry/output_schema.h"

namespace hermes::registry {
namespace {

Json typed(const char* type) { return Json{{"type", type}}; }

}  // namespace

Json string_type() { return typed("string"); }
Json integer_type() { return typed("integer"); }
Json number_type() { return typed("number"); }
Json boolean_type() { return typed("boolean"); }
Json null_type() { return typed("null"); }
Json any_value() { return Json::object(); }

Json nullable(Json schema) {
  return Json{{"anyOf", Json::array({std::move(schema), null_type()})}};
}

Json enum_of(std::initializer_list<const char*> values) {
  Json out = typed("string");
  out["enum"] = Json::array();
  for (const char* value : values) out["enum"].push_back(value);
  return out;
}

Json array_of(Json items) {
  Json out = typed("array");
  out["items"] = std::move(items);
  return out;
}

Json map_of(Json values) {
  Json out = typed("object");
  out["additionalProperties"] = std::move(values);
  return out;
}

Field key(std::string name, Json schema) { return {std::move(name), std::move(schema), true}; }

Field optional_key(std::string name, Json schema) {
  return {std::move(name), std::move(schema), false};
}

Json object_shape(std::vector<Field> fields) {
  Json properties = Json::object();
  Json names = Json::array();
  for (Field& field : fields) {
    if (field.required) names.push_back(field.name);
    properties[field.name] = std::move(field.schema);
  }
  Json out = typed("object");
  out["properties"] = std::move(properties);
  if (!names.empty()) out["required"] = std::move(names);
  out["additionalProperties"] = false;
  return out;
}

Json any_of(std::vector<Json> shapes) {
  if (shapes.size() == 1) return std::move(shapes.front());
  Json out = typed("object");
  out["anyOf"] = Json::array();
  for (Json& shape : shapes) out["anyOf"].push_back(std::move(shape));
  return out;
}

}  // namespace hermes::registry
