// SPDX-License-Identifier: MIT
// A small strict ISO-8601 reader/writer on top of timegm/gmtime_r.
#include "tools/task/iso_time.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace hermes::task {
namespace {

// Reads exactly `width` digits at `pos`; advances `pos`.
std::optional<int> digits(std::string_view s, size_t& pos, size_t width) {
  if (pos + width > s.size()) return std::nullopt;
  int value = 0;
  for (size_t i = 0; i < width; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  pos += width;
  return value;
}

bool expect(std::string_view s, size_t& pos, char c) {
  if (pos >= s.size() || s[pos] != c) return false;
  ++pos;
  return true;
}

// Fractional seconds as milliseconds (extra digits ignored).
int fraction_ms(std::string_view s, size_t& pos) {
  if (pos >= s.size() || s[pos] != '.') return 0;
  ++pos;
  int ms = 0;
  int scale = 100;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    ms += (s[pos] - '0') * scale;
    scale /= 10;
    ++pos;
  }
  return ms;
}

// The zone suffix as an offset in minutes east of UTC.
std::optional<int> zone_minutes(std::string_view s, size_t& pos) {
  if (pos == s.size()) return 0;
  if (s[pos] == 'Z' || s[pos] == 'z')
    return ++pos == s.size() ? std::optional<int>(0) : std::nullopt;
  if (s[pos] != '+' && s[pos] != '-') return std::nullopt;
  int sign = s[pos++] == '-' ? -1 : 1;
  auto hours = digits(s, pos, 2);
  if (pos < s.size() && s[pos] == ':') ++pos;
  auto minutes = digits(s, pos, 2);
  if (!hours || !minutes || pos != s.size()) return std::nullopt;
  return sign * (*hours * 60 + *minutes);
}

}  // namespace

std::optional<int64_t> parse_iso8601_ms(std::string_view s) {
  size_t pos = 0;
  std::tm tm{};
  auto year = digits(s, pos, 4);
  if (!year || !expect(s, pos, '-')) return std::nullopt;
  auto month = digits(s, pos, 2);
  if (!month || !expect(s, pos, '-')) return std::nullopt;
  auto day = digits(s, pos, 2);
  if (!day || *month < 1 || *month > 12 || *day < 1 || *day > 31) return std::nullopt;
  tm.tm_year = *year - 1900;
  tm.tm_mon = *month - 1;
  tm.tm_mday = *day;
  int ms = 0;
  int offset = 0;
  if (pos < s.size()) {
    if (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' ') return std::nullopt;
    ++pos;
    auto hour = digits(s, pos, 2);
    if (!hour || !expect(s, pos, ':')) return std::nullopt;
    auto minute = digits(s, pos, 2);
    if (!minute) return std::nullopt;
    tm.tm_hour = *hour;
    tm.tm_min = *minute;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      auto second = digits(s, pos, 2);
      if (!second) return std::nullopt;
      tm.tm_sec = *second;
      ms = fraction_ms(s, pos);
    }
    auto zone = zone_minutes(s, pos);
    if (!zone) return std::nullopt;
    offset = *zone;
  }
  int64_t seconds = static_cast<int64_t>(timegm(&tm)) - int64_t{offset} * 60;
  return seconds * 1000 + ms;
}

std::string format_iso8601_ms(int64_t epoch_ms) {
  std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(epoch_ms % 1000));
  return buf;
}

int64_t now_epoch_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace hermes::task
