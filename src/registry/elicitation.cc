// SPDX-License-Identifier: MIT
#include "registry/elicitation.h"

#include "json/json.h"
#include "registry/client_channel.h"

namespace hermes::registry {
namespace {

Json requested_schema(const Elicitation& question) {
  Json schema = {{"type", "object"}, {"properties", Json::object()}};
  if (question.options.empty()) return schema;
  Json values = Json::array();
  Json labels = Json::array();
  for (const ElicitationOption& option : question.options) {
    values.push_back(option.value);
    labels.push_back(option.label);
  }
  schema["properties"][question.field] = {
      {"type", "string"}, {"title", question.title}, {"enum", values}, {"enumNames", labels}};
  schema["required"] = Json::array({question.field});
  return schema;
}

std::string string_at(const Json& object, const std::string& key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::optional<ElicitationAnswer> elicit(ClientChannel& client, const Elicitation& question,
                                        std::chrono::milliseconds timeout, std::stop_token stop) {
  Json params = {{"message", question.message}, {"requestedSchema", requested_schema(question)}};
  auto reply = question.key.empty() ? client.request("elicitation/create", params, timeout, stop)
                                    : client.request_named(question.key, "elicitation/create",
                                                           params, timeout, stop);
  if (!reply || !reply->is_object()) return std::nullopt;
  ElicitationAnswer answer{.action = string_at(*reply, "action")};
  if (auto content = reply->find("content"); content != reply->end() && content->is_object()) {
    if (!question.field.empty()) answer.choice = string_at(*content, question.field);
  }
  return answer;
}

}  // namespace hermes::registry
