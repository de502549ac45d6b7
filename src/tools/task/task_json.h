// SPDX-License-Identifier: MIT
// Edge helpers shared by the four task tools: lenient argument reading with
// the reference's coercions, and the `{ok:false, error, error_detail}` shape.
#pragma once

#include "json/json.h"
#include "registry/output_schema.h"
#include "tools/task/task_service.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <variant>

namespace hermes::task {

// The string at `key`, or nullopt for absent/non-string values.
std::optional<std::string> string_arg(const Json& args, const char* key);

// "'<key>' must be a string, got <type>" (kInvalidArgument) for the first
// of `keys` present with another type (null counts as absent), so a wrong
// type is named instead of read as a missing argument.
Status check_string_types(const Json& args, std::initializer_list<const char*> keys);

// A finite number at `key`; numeric strings count (as JavaScript's Number()
// would read them) but null, booleans, "" and other types are absent.
std::optional<double> number_arg(const Json& args, const char* key);

// A positive number rounded half up, else `fallback`.
int64_t positive_int_arg(const Json& args, const char* key, int64_t fallback);

// An integer-valued double as a JSON integer, otherwise as a double, so
// `1234` is not printed as `1234.0`.
Json number_json(double value);

// `{ok:false, error, error_detail}` plus exit_code/duration_ms for run
// failures and prompt_len/max_prompt_len for prompt_too_long.
Json task_error_json(const TaskError& error);
// A TaskError is a failure, never `structuredContent`.
inline Json shape(registry::Of<TaskError>) { return registry::never_structured(); }
// An outcome's JSON: `render` for a success, task_error_json for a failure.
template <class Success, Json (*render)(const Success&)>
Json outcome_json(const std::variant<Success, TaskError>& outcome) {
  if (const auto* error = std::get_if<TaskError>(&outcome)) return task_error_json(*error);
  return render(std::get<Success>(outcome));
}

// Arguments refused by a parser: `invalid_args` with the error's text.
Json invalid_args_json(const Error& error);

}  // namespace hermes::task
