// SPDX-License-Identifier: MIT
// The `outputSchema` of a tool, built from its typed Output. Each tool's
// `*_json.cc` declares, beside the `to_json` of each output alternative, a
// `shape(Of<Alternative>)`: the JSON Schema of exactly the object that
// `to_json` renders (every key it may write, closed to others). The
// schema of a `std::variant` Output is made from one shape per alternative,
// so an alternative without a shape does not compile, and the tests validate
// what the renderers produce against it (tests/mcp/typed_results_test.cc).
// A call's `structuredContent` is the rendered object itself, sent only when
// the call succeeds: an alternative that is always a failure declares no
// shape (`never_structured()`).
#pragma once

#include "json/json.h"

#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace hermes::registry {

// The tag a shape is chosen by: `Json shape(Of<ReadFilePage>)`.
template <class T>
using Of = std::type_identity<T>;

Json string_type();
Json integer_type();
Json number_type();
Json boolean_type();
Json null_type();
// Any JSON value (data the tool passes through: an agent's tool calls).
Json any_value();
// The schema, or null.
Json nullable(Json schema);
// One of these strings.
Json enum_of(std::initializer_list<const char*> values);
Json array_of(Json items);
// An object whose keys are data (paths, names) and whose values are `values`.
Json map_of(Json values);

// One key of an object shape.
struct Field {
  std::string name;
  Json schema;
  bool required = true;
};
// A key every output of the shape has.
Field key(std::string name, Json schema);
// A key some outputs of the shape have.
Field optional_key(std::string name, Json schema);
// An object with these keys and no others.
Json object_shape(std::vector<Field> fields);

// The shape of an alternative that is always a failure: it is never sent as
// `structuredContent`, so the schema leaves it out.
inline Json never_structured() { return Json(); }

// `{"type": "object", "anyOf": shapes}`, or the one shape alone.
Json any_of(std::vector<Json> shapes);

namespace output_schema_internal {

template <class T>
struct Alternatives {
  using Tags = std::variant<Of<T>>;
};
template <class... Ts>
struct Alternatives<std::variant<Ts...>> {
  using Tags = std::variant<Of<Ts>...>;
};

}  // namespace output_schema_internal

// The `outputSchema` of a tool whose Output is `Output`: `shapes(Of<T>{})`
// for each alternative T (the Output itself when it is not a variant), the
// ones that are never structured left out. Call it with a generic lambda,
// `[](auto of) { return shape(of); }`, so that it finds the tool's overloads.
template <class Output, class Shapes>
Json output_schema(Shapes shapes) {
  using Tags = typename output_schema_internal::Alternatives<Output>::Tags;
  std::vector<Json> found;
  auto add = [&](auto tag) {
    Json one = shapes(tag);
    if (!one.is_null()) found.push_back(std::move(one));
  };
  [&]<size_t... I>(std::index_sequence<I...>) { (add(std::variant_alternative_t<I, Tags>{}), ...); }
  (std::make_index_sequence<std::variant_size_v<Tags>>{});
  return any_of(std::move(found));
}

}  // namespace hermes::registry
