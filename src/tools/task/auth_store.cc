// SPDX-License-Identifier: MIT
// auth.json parsing (tolerant of every timestamp/code spelling Hermes and the
// reference used) and the locked, atomic exhaustion write-back.
#include "tools/task/auth_store.h"

#include "core/strings.h"
#include "fs/atomic_write.h"
#include "json/capped_json.h"
#include "tools/task/iso_time.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <thread>

namespace hermes::task {
namespace {

constexpr int64_t kStaleLockMs = 30000;
// A credential pool of a few dozen providers is kilobytes; anything near this
// is not an auth.json.
constexpr size_t kMaxAuthBytes = 4u << 20;

const Json& field(const Json& object, const char* key) {
  static const Json kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

Credential credential_of(const Json& entry) {
  Credential c;
  if (!entry.is_object()) return c;
  c.is_object = true;
  c.last_status = field(entry, "last_status");
  c.last_error_code = field(entry, "last_error_code");
  c.last_status_at_ms = epoch_ms_of(field(entry, "last_status_at"));
  c.last_error_reset_at_ms = epoch_ms_of(field(entry, "last_error_reset_at"));
  return c;
}

std::vector<ProviderCredentials> providers_of(const Json& object) {
  std::vector<ProviderCredentials> out;
  for (const auto& [name, value] : object.items()) {
    if (value.is_null()) continue;
    ProviderCredentials entry{name, {}};
    if (value.is_array()) {
      for (const Json& item : value) entry.credentials.push_back(credential_of(item));
    } else {
      entry.credentials.push_back(credential_of(value));
    }
    out.push_back(std::move(entry));
  }
  return out;
}

Result<Json> parse_auth_file(const std::string& path) {
  HERMES_ASSIGN_OR_RETURN(Json doc, read_capped_json(path, kMaxAuthBytes));
  if (!doc.is_object()) return Error::InvalidArgument(path + ": not a JSON object");
  return doc;
}

// Owns `<auth>.lock` while held. The reference server uses the same file, so
// two servers (ours and theirs) never interleave their rewrites.
class LockFile {
 public:
  explicit LockFile(std::string path) : path_(std::move(path)) {}
  ~LockFile() {
    if (held_) ::unlink(path_.c_str());
  }
  LockFile(const LockFile&) = delete;
  LockFile& operator=(const LockFile&) = delete;

  Status acquire(int64_t timeout_ms) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      if (try_create()) return {};
      if (errno != EEXIST) return Error::FromErrno(errno, "create \"" + path_ + "\"");
      if (remove_if_stale()) continue;
      if (std::chrono::steady_clock::now() >= deadline) {
        return Error::Unavailable("auth.json lock \"" + path_ + "\" is busy");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

 private:
  bool try_create() {
    int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    ::close(fd);
    held_ = true;
    return true;
  }
  // A crashed writer leaves its lock behind; one that old cannot be live.
  bool remove_if_stale() {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0) return errno == ENOENT;
    int64_t age_ms = now_epoch_ms() - int64_t{st.st_mtim.tv_sec} * 1000;
    return age_ms > kStaleLockMs && ::unlink(path_.c_str()) == 0;
  }

  std::string path_;
  bool held_ = false;
};

void mark_entry(Json& entry, const ExhaustionMark& mark) {
  if (!entry.is_object()) return;
  entry["last_status"] = "exhausted";
  entry["last_status_at"] = static_cast<double>(mark.now_ms) / 1000.0;
  entry["last_error_code"] = 429;
  entry["last_error_reason"] = "RateLimitError";
  entry["last_error_message"] = mark.message;
  entry["last_error_reset_at"] = static_cast<double>(mark.now_ms + mark.reset_window_ms) / 1000.0;
}

}  // namespace

std::optional<int64_t> epoch_ms_of(const Json& value) {
  double number = 0;
  if (value.is_number()) {
    number = value.get<double>();
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (auto iso = parse_iso8601_ms(text)) return iso;
    char* end = nullptr;
    number = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0') return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(number) || number <= 0) return std::nullopt;
  // Hermes' own parser: values above 1e12 are already milliseconds.
  return static_cast<int64_t>(number > 1e12 ? number : number * 1000.0);
}

Result<AuthSnapshot> read_auth(const std::string& path) {
  HERMES_ASSIGN_OR_RETURN(Json doc, parse_auth_file(path));
  AuthSnapshot snapshot;
  if (auto it = doc.find("credential_pool"); it != doc.end() && it->is_object()) {
    snapshot.has_pool = true;
    snapshot.pool = providers_of(*it);
  }
  if (auto it = doc.find("providers"); it != doc.end() && it->is_object()) {
    snapshot.has_providers = true;
    snapshot.providers = providers_of(*it);
  }
  return snapshot;
}

Result<bool> mark_exhausted(const std::string& path, const std::string& provider,
                            const ExhaustionMark& mark) {
  LockFile lock(path + ".lock");
  HERMES_TRY(lock.acquire(mark.lock_timeout_ms));
  auto doc = parse_auth_file(path);
  if (!doc) return false;
  auto pool = doc->find("credential_pool");
  if (pool == doc->end() || !pool->is_object()) return false;
  auto creds = pool->find(provider);
  if (creds == pool->end() || !(creds->is_object() || creds->is_array())) return false;
  if (creds->is_array()) {
    for (Json& entry : *creds) mark_entry(entry, mark);
  } else {
    mark_entry(*creds, mark);
  }
  std::string text = doc->dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  auto written = fs::atomic_write(path, text);
  if (!written) return written.error();
  return true;
}

}  // namespace hermes::task
