// SPDX-License-Identifier: MIT
#include "checkpoint/record_format.h"

#include <charconv>

namespace hermes::checkpoint {

std::string escape_field(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\t') {
      out += "%09";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

std::string unescape_field(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      std::string_view code = text.substr(i + 1, 2);
      char c = code == "25" ? '%' : code == "09" ? '\t' : code == "0A" ? '\n' : 0;
      if (c != 0) {
        out += c;
        i += 2;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

std::vector<std::string> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    fields.push_back(unescape_field(line.substr(start, tab - start)));
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  return fields;
}

std::string join_fields(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += '\t';
    line += escape_field(fields[i]);
  }
  return line;
}

void append_state(std::vector<std::string>& fields, const PathState& state) {
  char mode[8];
  auto end = std::to_chars(mode, mode + sizeof mode, state.mode, 8).ptr;
  fields.emplace_back(kind_name(state.kind));
  fields.emplace_back(mode, end);
  fields.push_back(state.blob.empty() ? "-" : state.blob);
  fields.push_back(std::to_string(state.size));
  fields.push_back(std::to_string(state.mtime_ns));
  fields.push_back(state.target);
}

namespace {

template <class T>
bool number(const std::string& text, T& out, int base = 10) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

Result<PathState> parse_state(const std::vector<std::string>& fields, size_t at) {
  Error bad = Error::Io("damaged checkpoint record");
  if (fields.size() < at + kStateFields) return bad;
  PathState state;
  state.kind = kind_from_name(fields[at]);
  if (!number(fields[at + 1], state.mode, 8) || !number(fields[at + 3], state.size) ||
      !number(fields[at + 4], state.mtime_ns)) {
    return bad;
  }
  state.blob = fields[at + 2] == "-" ? "" : fields[at + 2];
  state.target = fields[at + 5];
  return state;
}

}  // namespace hermes::checkpoint
