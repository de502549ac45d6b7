// SPDX-License-Identifier: MIT
// Argument coercion and the error payload.
#include "tools/task/task_json.h"

#include "core/strings.h"
#include "registry/tool_args.h"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace hermes::task {

std::optional<std::string> string_arg(const Json& args, const char* key) {
  if (!args.is_object()) return std::nullopt;
  auto it = args.find(key);
  if (it == args.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

Status check_string_types(const Json& args, std::initializer_list<const char*> keys) {
  if (!args.is_object()) return {};
  for (const char* key : keys) {
    auto it = args.find(key);
    if (it == args.end() || it->is_null() || it->is_string()) continue;
    return Error::InvalidArgument("'" + std::string(key) + "' must be a string, got " +
                                  registry::python_type_name(*it));
  }
  return {};
}

std::optional<double> number_arg(const Json& args, const char* key) {
  if (!args.is_object()) return std::nullopt;
  auto it = args.find(key);
  if (it == args.end()) return std::nullopt;
  double value = 0;
  if (it->is_number()) {
    value = it->get<double>();
  } else if (it->is_string()) {
    std::string text = trim(it->get<std::string>());
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

int64_t positive_int_arg(const Json& args, const char* key, int64_t fallback) {
  auto value = number_arg(args, key);
  if (!value || *value <= 0) return fallback;
  // Past int64 the cast is undefined: such a count saturates.
  if (*value >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::floor(*value + 0.5));
}

Json number_json(double value) {
  if (std::floor(value) == value && std::fabs(value) < 9e15) return static_cast<int64_t>(value);
  return value;
}

Json task_error_json(const TaskError& error) {
  Json out;
  out["ok"] = false;
  out["error"] = error.code;
  out["error_detail"] = error.failure.message;
  if (error.prompt_len) out["prompt_len"] = *error.prompt_len;
  if (error.max_prompt_len) out["max_prompt_len"] = *error.max_prompt_len;
  if (error.run) {
    out["exit_code"] = error.run->exit_code ? Json(*error.run->exit_code) : Json();
    out["duration_ms"] = error.run->duration_ms;
  }
  return out;
}

Json invalid_args_json(const Error& error) {
  return task_error_json(TaskError{.code = "invalid_args", .failure = error});
}

}  // namespace hermes::task
