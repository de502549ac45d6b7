// SPDX-License-Identifier: MIT
// The checkpoint store's files as something else wrote them (a crash, a
// full disk, or an agent whose root covers the Hermes home): the same bytes
// as a journal, an index, an object, a hold and a workspace's own pack.
// Reading them is an error or a result, never a crash, a hang or a
// sanitizer report.
#include "fs/atomic_write.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "checkpoint/index_file.h"
#include "checkpoint/journal.h"
#include "checkpoint/workspace_objects.h"

namespace {

using namespace hermes::checkpoint;

const std::string kHash(64, 'a');

void write(const std::string& path, std::string_view bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), bytes.size());
}

// A plain array, not a std::string: a static finished after the exit
// handler was registered is destroyed before the handler runs, so the
// handler would read a freed string.
char store_name[] = "/tmp/hermes-checkpoint-fuzz.XXXXXX";

void remove_store() { std::filesystem::remove_all(store_name); }

const std::string& store_dir() {
  static const std::string dir = [] {
    if (!::mkdtemp(store_name)) std::abort();
    std::string made = store_name;
    for (const char* sub : {"/objects", "/objects/aa", "/ws", "/ws/held", "/root"}) {
      ::mkdir((made + sub).c_str(), 0700);
    }
    std::atexit(remove_store);
    return made;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string& dir = store_dir();
  const std::string ws = dir + "/ws";
  write(ws + "/journal", bytes);
  write(ws + "/index", bytes);
  write(ws + "/own.pack", bytes);
  write(ws + "/held/" + kHash, bytes);
  write(dir + "/objects/aa/" + kHash.substr(2), bytes);
  write(dir + "/root/f", bytes);

  (void)Journal(ws).load();
  IndexCopy index;
  (void)Journal(ws).index().read(index);
  BlobStore shared(dir);
  WorkspaceObjects objects(shared, ws, dir + "/root");
  (void)objects.get(kHash);
  for (const std::string& hash : objects.own_hashes()) {
    (void)objects.get(hash);
    (void)objects.base_of(hash);
  }
  (void)objects.keep_only({});
  return 0;
}
