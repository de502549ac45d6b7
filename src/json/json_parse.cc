// SPDX-License-Identifier: MIT
#include "json/json_parse.h"

#include <string>

namespace hermes {
namespace {

using DomBuilder = nlohmann::detail::json_sax_dom_parser<Json>;

// True for an integer literal (no fraction, no exponent): the parser hands
// those to number_float only when they do not fit 64 bits.
bool is_integer_literal(const std::string& raw) {
  return raw.find_first_of(".eE") == std::string::npos;
}

// Builds the value as Json::parse does, counting depth on the way and
// keeping the first error's message instead of throwing it.
class BoundedBuilder {
 public:
  BoundedBuilder(Json& result, size_t max_depth) : dom_(result, false), max_depth_(max_depth) {}

  const std::string& error() const { return error_; }

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(Json::number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(Json::number_float_t value, const std::string& raw) {
    if (is_integer_literal(raw)) return fail("integer out of range: " + raw.substr(0, 40));
    return dom_.number_float(value, raw);
  }
  bool string(std::string& value) { return dom_.string(value); }
  bool binary(Json::binary_t& value) { return dom_.binary(value); }
  bool key(std::string& value) { return dom_.key(value); }
  bool start_object(size_t size) { return enter() && dom_.start_object(size); }
  bool end_object() { return leave() && dom_.end_object(); }
  bool start_array(size_t size) { return enter() && dom_.start_array(size); }
  bool end_array() { return leave() && dom_.end_array(); }

  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    return fail(e.what());
  }

 private:
  bool enter() {
    if (++depth_ <= max_depth_) return true;
    return fail("nesting deeper than " + std::to_string(max_depth_) + " levels");
  }
  bool leave() {
    --depth_;
    return true;
  }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  DomBuilder dom_;
  size_t max_depth_;
  size_t depth_ = 0;
  std::string error_;
};

}  // namespace

Result<Json> parse_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return Error::TooLarge("JSON text of " + std::to_string(text.size()) + " bytes exceeds the " +
                           std::to_string(limits.max_bytes) + "-byte limit");
  }
  Json result;
  BoundedBuilder builder(result, limits.max_depth);
  if (!Json::sax_parse(text, &builder)) {
    return Error::InvalidArgument(builder.error().empty() ? "invalid JSON" : builder.error());
  }
  return result;
}

}  // namespace hermes
