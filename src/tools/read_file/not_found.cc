// SPDX-License-Identifier: MIT
// Not-found helpers: utf8proc NFC plus space/quote folding for the variant
// retry, and the ordered scoring rules for similar names.
#include "tools/read_file/not_found.h"

#include "core/strings.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <set>

namespace hermes::read_file {
namespace {

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

struct NameParts {
  std::string stem, ext;
};

NameParts parts_of(const std::string& lower) {
  size_t dot = lower.find_last_of('.');
  if (dot == std::string::npos || dot == 0) return {lower, ""};
  return {lower.substr(0, dot), lower.substr(dot)};
}

int score(const std::string& request, const std::string& entry) {
  std::string a = to_lower(request), b = to_lower(entry);
  if (a == b) return 100;
  NameParts pa = parts_of(a), pb = parts_of(b);
  if (pa.stem == pb.stem) return 90;
  if (starts_with(a, b) || starts_with(b, a)) return 70;
  if (b.find(a) != std::string::npos) return 60;
  if (b.size() > 2 && a.find(b) != std::string::npos) return 40;
  if (!pa.ext.empty() && pa.ext == pb.ext) {
    std::set<char> sa(a.begin(), a.end()), shared;
    for (char c : b)
      if (sa.count(c)) shared.insert(c);
    if (static_cast<double>(shared.size()) >=
        0.4 * static_cast<double>(std::max(a.size(), b.size())))
      return 30;
  }
  return similarity_ratio(a, b) >= 0.8 ? 50 : 0;
}

// Matching characters of difflib's longest-block recursion.
size_t matching_chars(const std::string& a, size_t alo, size_t ahi, const std::string& b,
                      size_t blo, size_t bhi) {
  if (alo >= ahi || blo >= bhi) return 0;
  size_t best_i = alo, best_j = blo, best = 0;
  for (size_t i = alo; i < ahi; ++i) {
    for (size_t j = blo; j < bhi; ++j) {
      size_t k = 0;
      while (i + k < ahi && j + k < bhi && a[i + k] == b[j + k]) ++k;
      if (k > best) {
        best = k;
        best_i = i;
        best_j = j;
      }
    }
  }
  if (best == 0) return 0;
  return best + matching_chars(a, alo, best_i, b, blo, best_j) +
         matching_chars(a, best_i + best, ahi, b, best_j + best, bhi);
}

}  // namespace

double similarity_ratio(const std::string& a, const std::string& b) {
  if (a.empty() && b.empty()) return 1.0;
  size_t m = matching_chars(a, 0, a.size(), b, 0, b.size());
  return 2.0 * static_cast<double>(m) / static_cast<double>(a.size() + b.size());
}

std::string canonical_name(const std::string& name) {
  std::unique_ptr<char, decltype(&std::free)> nfc(
      reinterpret_cast<char*>(
          utf8proc_NFC(reinterpret_cast<const utf8proc_uint8_t*>(name.c_str()))),
      &std::free);
  std::string out = nfc ? std::string(nfc.get()) : name;
  out = replace_all(out, "\u202F", " ");
  out = replace_all(out, "\u00A0", " ");
  out = replace_all(out, "\u2019", "'");
  return replace_all(out, "\u2018", "'");
}

std::optional<std::string> unicode_variant(const fs::FileSystem& fs, const std::string& dir,
                                           const std::string& name) {
  auto entries = fs.list_dir(dir);
  if (!entries) return std::nullopt;
  const std::string wanted = canonical_name(name);
  std::optional<std::string> found;
  for (const std::string& entry : *entries) {
    if (entry == name || canonical_name(entry) != wanted) continue;
    if (found) return std::nullopt;
    found = entry;
  }
  return found;
}

std::vector<std::string> similar_files(const fs::FileSystem& fs, const std::string& dir,
                                       const std::string& name) {
  auto entries = fs.list_dir(dir);
  if (!entries) return {};
  std::sort(entries->begin(), entries->end());
  if (entries->size() > 50) entries->resize(50);
  std::vector<std::pair<int, std::string>> scored;
  for (const std::string& entry : *entries) {
    int s = score(name, entry);
    if (s > 0) scored.emplace_back(s, entry);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 5; ++i)
    out.push_back(
        sanitize_utf8(dir == "/" ? "/" + scored[i].second : dir + "/" + scored[i].second));
  return out;
}

}  // namespace hermes::read_file
