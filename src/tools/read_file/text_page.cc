// SPDX-License-Identifier: MIT
// Streaming line collection (memchr per chunk) and `N|text` rendering with
// the per-line clamp and the char budget.
#include "tools/read_file/text_page.h"

#include "core/strings.h"
#include "core/word_scan.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <vector>

namespace hermes::read_file {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Collects the raw bytes of the requested lines while counting every line:
// all kept bytes in one buffer, each line a range of it (no allocation per
// line).
class LineCollector {
 public:
  LineCollector(const PageRequest& r, uint64_t size_hint)
      : first_(r.offset),
        last_(last_requested_line(r.offset, r.limit)),
        keep_bytes_(static_cast<size_t>(r.max_line_length) * 4 + 4) {
    // The whole file, but not more than the budget's worth of bytes, 256
    // bytes a requested line or 1 MiB; a line slot per 32 bytes, up to
    // 1,024. Past these guesses appends grow as usual.
    constexpr uint64_t kCap = uint64_t{1} << 20;
    const uint64_t limit = std::min(static_cast<uint64_t>(r.limit), kCap);
    const uint64_t budget = std::min(static_cast<uint64_t>(r.max_chars), kCap) * 4;
    kept_.reserve(static_cast<size_t>(std::min({size_hint, budget, limit * 256, kCap})));
    ranges_.reserve(static_cast<size_t>(std::min({limit, size_hint / 32 + 1, uint64_t{1024}})));
  }

  void feed(std::string_view chunk) {
    size_t pos = 0;
    while (pos < chunk.size()) {
      const void* hit = std::memchr(chunk.data() + pos, '\n', chunk.size() - pos);
      size_t end =
          hit ? static_cast<size_t>(static_cast<const char*>(hit) - chunk.data()) : chunk.size();
      append(chunk.substr(pos, end - pos));
      if (!hit) {
        pos = end;
        break;
      }
      finish_line();
      pos = end + 1;
    }
  }

  // Returns the total line count; an unterminated last line counts.
  int64_t finish() {
    if (open_line_) finish_line();
    return line_no_;
  }

  size_t size() const { return ranges_.size(); }
  size_t kept_bytes() const { return kept_.size(); }
  std::string_view line(size_t i) const {
    return std::string_view(kept_).substr(ranges_[i].first, ranges_[i].second);
  }

 private:
  void append(std::string_view bytes) {
    if (bytes.empty()) return;
    open_line_ = true;
    int64_t n = line_no_ + 1;
    if (n < first_ || n > last_ || current_ >= keep_bytes_) return;
    std::string_view kept = bytes.substr(0, keep_bytes_ - current_);
    kept_.append(kept);
    current_ += kept.size();
  }

  void finish_line() {
    ++line_no_;
    if (line_no_ >= first_ && line_no_ <= last_) {
      size_t start = kept_.size() - current_;
      if (line_no_ == 1 && starts_with(std::string_view(kept_).substr(start), kBom)) {
        start += kBom.size();
        current_ -= kBom.size();
      }
      ranges_.emplace_back(start, current_);
    }
    current_ = 0;
    open_line_ = false;
  }

  const int64_t first_, last_;
  const size_t keep_bytes_;
  int64_t line_no_ = 0;
  bool open_line_ = false;
  size_t current_ = 0;  // bytes of the open line kept so far
  std::string kept_;
  std::vector<std::pair<size_t, size_t>> ranges_;  // (start, length) in kept_
};

// `raw` clamped to `max_chars` code points plus the truncation marker, with
// bad UTF-8 replaced; nullopt when it is shown as it is (the common case).
std::optional<std::string> clamp_line(std::string_view raw, int64_t max_chars) {
  const bool ascii = word_scan::all_ascii(raw);
  if (ascii && raw.size() <= static_cast<size_t>(max_chars)) return std::nullopt;
  std::string text = ascii ? std::string(raw) : sanitize_utf8(raw);
  size_t count = 0, i = 0;
  for (; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (count == static_cast<size_t>(max_chars)) return text.substr(0, i) + "... [truncated]";
    ++count;
  }
  if (text == raw) return std::nullopt;
  return text;
}

// The first `n` code points of `s`.
std::string take_chars(const std::string& s, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (count++ == n) return s.substr(0, i);
  }
  return s;
}

int count_conflicts(const LineCollector& lines, size_t shown) {
  int blocks = 0;
  bool open = false;
  for (size_t i = 0; i < shown; ++i) {
    if (starts_with(lines.line(i), "<<<<<<< "))
      open = true;
    else if (open && starts_with(lines.line(i), ">>>>>>> ")) {
      ++blocks;
      open = false;
    }
  }
  return blocks;
}

}  // namespace

Page render_page(const ChunkSource& source, const PageRequest& request, uint64_t size_hint) {
  LineCollector collector(request, size_hint);
  std::string_view chunk;
  while (source(chunk)) collector.feed(chunk);
  Page page;
  page.total_lines = collector.finish();
  page.first_line = request.offset;
  // The kept lines with their labels, within the budget: a reservation of
  // the whole budget (100 KB) per small read costs more than the read.
  const size_t label_bytes = 2 + std::to_string(request.offset + collector.size()).size();
  page.content.reserve(std::min({collector.kept_bytes() + collector.size() * label_bytes,
                                 static_cast<size_t>(request.max_chars), size_t{1} << 20}));
  size_t used = 0;
  for (size_t i = 0; i < collector.size(); ++i) {
    std::optional<std::string> clamped = clamp_line(collector.line(i), request.max_line_length);
    const std::string_view shown = clamped ? std::string_view(*clamped) : collector.line(i);
    char number[24];
    const auto [number_end, ec] =
        std::to_chars(number, number + sizeof number, request.offset + static_cast<int64_t>(i));
    const std::string_view label(number, static_cast<size_t>(number_end - number));
    size_t cost = label.size() + 1 + utf8_length(shown) + (i ? 1 : 0);
    if (used + cost > static_cast<size_t>(request.max_chars)) {
      page.budget_hit = true;
      if (i == 0) {
        page.content = take_chars(std::string(label) + "|" + std::string(shown),
                                  static_cast<size_t>(request.max_chars));
        page.line_cut = true;
        page.lines_shown = 1;
      }
      break;
    }
    if (i) page.content += '\n';
    page.content.append(label).append(1, '|').append(shown);
    if (clamped) page.lines_altered = true;
    used += cost;
    page.lines_shown = static_cast<int64_t>(i) + 1;
  }
  page.conflict_blocks = count_conflicts(collector, static_cast<size_t>(page.lines_shown));
  return page;
}

Page render_page(std::string_view text, const PageRequest& request) {
  bool fed = false;
  return render_page(
      [&](std::string_view& chunk) {
        if (fed) return false;
        chunk = text;
        fed = true;
        return true;
      },
      request, text.size());
}

bool page_truncated(const Page& page, int64_t limit) {
  return page.budget_hit || page.total_lines > last_requested_line(page.first_line, limit);
}

int64_t last_requested_line(int64_t first, int64_t limit) {
  if (limit > INT64_MAX - first) return INT64_MAX;
  return first + limit - 1;
}

}  // namespace hermes::read_file
