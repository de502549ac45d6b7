// SPDX-License-Identifier: MIT
#include "json/json_parse.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace hermes {
namespace {

// True for an integer literal (no fraction, no exponent): the parser hands
// those to number_float only when they do not fit 64 bits.
bool is_integer_literal(const std::string& raw) {
  return raw.find_first_of(".eE") == std::string::npos;
}

// An object's members as the text gives them, duplicates included.
using Members = std::vector<std::pair<std::string, Json>>;

// Up to this many members, duplicates are found by comparing every pair;
// beyond, by sorting (a hash table could be flooded with colliding keys).
constexpr size_t kPairwiseMembers = 16;

// Marks in `dropped` every repeat of a key after its first member, and gives
// that first member the key's last value: Json::parse's rule.
void merge_repeats_pairwise(Members& members, std::vector<char>& dropped) {
  for (size_t i = 1; i < members.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (dropped[j] || members[j].first != members[i].first) continue;
      members[j].second = std::move(members[i].second);
      dropped[i] = 1;
      break;
    }
  }
}

void merge_repeats_sorted(Members& members, std::vector<char>& dropped) {
  std::vector<size_t> order(members.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    int c = members[a].first.compare(members[b].first);
    return c < 0 || (c == 0 && a < b);
  });
  for (size_t run = 0; run < order.size();) {
    size_t end = run + 1;
    while (end < order.size() && members[order[end]].first == members[order[run]].first) ++end;
    if (end - run > 1) members[order[run]].second = std::move(members[order[end - 1]].second);
    for (size_t k = run + 1; k < end; ++k) dropped[order[k]] = 1;
    run = end;
  }
}

// Moves `members` into `object`, a repeated key keeping its first place and
// its last value. Appending to the object's vector directly skips the
// ordered map's insert, which looks for the key by scanning every member:
// with it, parsing was quadratic in the keys of an object (60,000 keys,
// 0.6 MB: 4 s).
void fill_object(Json& object, Members& members) {
  std::vector<char> dropped(members.size(), 0);
  if (members.size() <= kPairwiseMembers) {
    merge_repeats_pairwise(members, dropped);
  } else {
    merge_repeats_sorted(members, dropped);
  }
  Json::object_t::Container& out = object.get_ref<Json::object_t&>();
  out.reserve(members.size() - static_cast<size_t>(std::count(dropped.begin(), dropped.end(), 1)));
  for (size_t i = 0; i < members.size(); ++i)
    if (!dropped[i]) out.emplace_back(std::move(members[i].first), std::move(members[i].second));
}

// Builds the value Json::parse would, counting depth on the way and keeping
// the first error's message instead of throwing it. An object's members
// wait in a vector of their own until the object closes: that vector moves
// its members when it grows, where the object's own vector (whose keys are
// const) would copy every value, subtrees included.
class BoundedBuilder {
 public:
  BoundedBuilder(Json& result, size_t max_depth) : root_(result), max_depth_(max_depth) {}

  const std::string& error() const { return error_; }

  bool null() { return put(nullptr); }
  bool boolean(bool value) { return put(value); }
  bool number_integer(Json::number_integer_t value) { return put(value); }
  bool number_unsigned(Json::number_unsigned_t value) { return put(value); }
  bool number_float(Json::number_float_t value, const std::string& raw) {
    if (is_integer_literal(raw)) return fail("integer out of range: " + raw.substr(0, 40));
    return put(value);
  }
  bool string(std::string& value) { return put(std::move(value)); }
  bool binary(Json::binary_t& value) { return put(Json::binary(std::move(value))); }
  bool key(std::string& value) {
    frames_.back().members.emplace_back(std::move(value), nullptr);
    return true;
  }
  bool start_object(size_t) { return open(Json::object()); }
  bool end_object() {
    Frame& frame = frames_.back();
    fill_object(*frame.value, frame.members);
    frames_.pop_back();
    return true;
  }
  bool start_array(size_t) { return open(Json::array()); }
  bool end_array() {
    frames_.pop_back();
    return true;
  }

  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    return fail(e.what());
  }

 private:
  // An open container. `value` points into the enclosing frame's storage,
  // which does not grow until this container closes.
  struct Frame {
    Json* value;
    Members members;  // objects only
  };

  // Where the next value goes: the root, the open array's end, or the
  // open object's last key.
  Json* place(Json value) {
    if (frames_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Frame& frame = frames_.back();
    if (frame.value->is_array()) {
      auto& items = frame.value->get_ref<Json::array_t&>();
      items.push_back(std::move(value));
      return &items.back();
    }
    Json& slot = frame.members.back().second;
    slot = std::move(value);
    return &slot;
  }
  bool put(Json value) {
    place(std::move(value));
    return true;
  }
  bool open(Json container) {
    if (frames_.size() >= max_depth_)
      return fail("nesting deeper than " + std::to_string(max_depth_) + " levels");
    Json* slot = place(std::move(container));
    frames_.push_back({slot, {}});
    return true;
  }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }

  Json& root_;
  size_t max_depth_;
  std::vector<Frame> frames_;
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
