// SPDX-License-Identifier: MIT
// A refcounted table of mutexes keyed by path; entries vanish when unused.
#include "fs/path_lock.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace hermes {
namespace {

struct Entry {
  std::mutex mu;
  int users = 0;
};

struct Table {
  std::mutex mu;
  std::map<std::string, Entry> entries;  // node-based: addresses stay valid
};

Table& table() {
  static Table instance;
  return instance;
}

void acquire(const std::string& path) {
  Table& t = table();
  Entry* entry;
  {
    std::lock_guard lock(t.mu);
    entry = &t.entries[path];
    ++entry->users;
  }
  entry->mu.lock();
}

void release(const std::string& path) {
  Table& t = table();
  std::lock_guard lock(t.mu);
  auto it = t.entries.find(path);
  it->second.mu.unlock();
  if (--it->second.users == 0) t.entries.erase(it);
}

}  // namespace

PathLocks::PathLocks(std::vector<std::string> paths) : paths_(std::move(paths)) {
  std::sort(paths_.begin(), paths_.end());
  paths_.erase(std::unique(paths_.begin(), paths_.end()), paths_.end());
  for (const auto& path : paths_) acquire(path);
}

PathLocks::~PathLocks() {
  for (auto it = paths_.rbegin(); it != paths_.rend(); ++it) release(*it);
}

}  // namespace hermes
