// SPDX-License-Identifier: MIT
#include "tools/web/page_store.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "web/url.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace hermes::web_tools {
namespace {

constexpr size_t kStoredCap = 2'000'000;

// Byte offset of code point `n` (the size when there are fewer).
size_t byte_offset(std::string_view text, size_t n) {
  size_t i = 0;
  for (size_t seen = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (seen++ == n) return i;
  }
  return text.size();
}

struct Window {
  std::string head;
  std::string tail;
};

Window head_tail(const std::string& content, size_t limit, size_t total) {
  size_t head_budget = limit * 3 / 4;
  size_t tail_budget = limit - head_budget;
  std::string head = content.substr(0, byte_offset(content, head_budget));
  std::string tail = content.substr(byte_offset(content, total - tail_budget));
  size_t nl = head.rfind('\n');
  if (nl != std::string::npos &&
      utf8_length(std::string_view(head).substr(0, nl)) * 2 > head_budget)
    head.resize(nl);
  nl = tail.find('\n');
  if (nl != std::string::npos &&
      utf8_length(std::string_view(tail).substr(0, nl)) * 2 < tail_budget)
    tail.erase(0, nl + 1);
  return {head, tail};
}

std::string footer(const Window& w, size_t total, const std::optional<std::string>& path) {
  std::string out = "\n──────── [TRUNCATED] ────────\nShowing " + with_commas(utf8_length(w.head)) +
                    " chars (head) + " + with_commas(utf8_length(w.tail)) + " chars (tail) of " +
                    with_commas(total) + " total clean characters.\n";
  if (path) {
    size_t offset = static_cast<size_t>(std::count(w.head.begin(), w.head.end(), '\n')) + 2;
    out += "Full text saved to: " + *path + "\nTo read the omitted middle: read_file path=\"" +
           *path + "\" offset=" + std::to_string(offset) +
           " limit=200  (the file is the complete page; raise/lower offset to page through it).\n";
  } else {
    out +=
        "Full text could not be stored; re-run web_extract on a more specific URL or use "
        "browser_navigate for the complete page.\n";
  }
  return out + "─────────────────────────────";
}

std::string slug_of(const std::string& url) {
  auto parsed = web::parse_url(url);
  std::string host = parsed ? parsed->host : "";
  if (parsed && url.find(":" + std::to_string(parsed->port)) != std::string::npos)
    host += ":" + std::to_string(parsed->port);
  if (host.empty()) host = "page";
  std::string slug;
  for (char c : host) {
    bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    slug += c == ':' ? '_' : keep ? c : '-';
  }
  slug = slug.substr(0, 60);
  size_t a = slug.find_first_not_of('-'), b = slug.find_last_not_of('-');
  return a == std::string::npos ? "page" : slug.substr(a, b + 1 - a);
}

bool make_dirs(const std::string& dir) {
  for (size_t at = 1; at != std::string::npos;) {
    at = dir.find('/', at + 1);
    std::string part = dir.substr(0, at);
    if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
  }
  struct stat st {};
  return ::lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string fit_page(const std::string& content, size_t char_limit, const PageStorer& store) {
  size_t total = utf8_length(content);
  if (total <= char_limit) return content;
  Window w = head_tail(content, char_limit, total);
  return w.head + "\n\n[... middle omitted — see footer ...]\n\n" + w.tail + "\n" +
         footer(w, total, store());
}

std::string stored_page_path(const std::string& dir, const std::string& url) {
  return dir + "/" + slug_of(url) + "-" + fs::sha256_hex(url).substr(0, 10) + ".md";
}

bool store_page(const std::string& path, const std::string& text) {
  std::string body = text;
  size_t total = utf8_length(text);
  if (total > kStoredCap)
    body = text.substr(0, byte_offset(text, kStoredCap)) +
           "\n\n[... stored copy truncated at 2,000,000 chars of " + with_commas(total) +
           "; re-extract a more specific URL for the rest ...]";
  std::string dir = path.substr(0, path.rfind('/'));
  if (!make_dirs(dir)) return false;
  std::string temp = path + ".tmp-" + random_hex(6);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = ::write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size());
  ok = ::fchmod(fd, 0644) == 0 && ok;
  ::close(fd);
  ok = ok && ::rename(temp.c_str(), path.c_str()) == 0;
  if (!ok) ::unlink(temp.c_str());
  return ok;
}

}  // namespace hermes::web_tools
