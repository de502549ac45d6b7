// SPDX-License-Identifier: MIT
// What reaching a file through the containment resolver costs per call: a
// 4 KB read by path (realpath(3) + open + read, the plain way) against the
// same read through resolve_links + Beneath (openat2, and the
// per-component fallback), without and with a pinned workspace root. The
// file sits six directories deep, as in a repository.
#include "core/link_walk.h"
#include "fs/beneath.h"
#include "fs/native_file_system.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace hermes {
namespace {

struct Tree {
  Tree() {
    root = std::filesystem::canonical(std::filesystem::temp_directory_path()).string() +
           "/hermes-resolver-bench-" + std::to_string(::getpid());
    std::filesystem::create_directories(root + "/src/module/sub/deeper/leaf");
    file = root + "/src/module/sub/deeper/leaf/page.txt";
    std::ofstream(file) << std::string(4096, 'x');
  }
  ~Tree() { std::filesystem::remove_all(root); }
  std::string root, file;
};

const Tree& tree() {
  static Tree t;
  return t;
}

void BM_PlainRealpathOpenRead(benchmark::State& state) {
  char buf[4096], real[PATH_MAX];
  for (auto _ : state) {
    benchmark::DoNotOptimize(::realpath(tree().file.c_str(), real));
    int fd = ::open(real, O_RDONLY | O_CLOEXEC);
    benchmark::DoNotOptimize(::pread(fd, buf, sizeof buf, 0));
    ::close(fd);
  }
}
BENCHMARK(BM_PlainRealpathOpenRead);

void resolved_read(benchmark::State& state, const fs::FileSystem& fs, fs::WalkMode mode) {
  fs::set_walk_mode(mode);
  char buf[4096];
  for (auto _ : state) {
    std::string real = *resolve_links(tree().file);
    auto file = fs.open_read(real);
    benchmark::DoNotOptimize((*file)->pread(buf, sizeof buf, 0));
  }
  fs::set_walk_mode(fs::WalkMode::kAuto);
}

void BM_ResolverOpenat2NoRoot(benchmark::State& state) {
  resolved_read(state, fs::native_file_system("/"), fs::WalkMode::kAuto);
}
BENCHMARK(BM_ResolverOpenat2NoRoot);

void BM_ResolverOpenat2PinnedRoot(benchmark::State& state) {
  resolved_read(state, fs::native_file_system(tree().root), fs::WalkMode::kAuto);
}
BENCHMARK(BM_ResolverOpenat2PinnedRoot);

void BM_ResolverComponentWalkNoRoot(benchmark::State& state) {
  resolved_read(state, fs::native_file_system("/"), fs::WalkMode::kComponents);
}
BENCHMARK(BM_ResolverComponentWalkNoRoot);

void BM_ResolverComponentWalkPinnedRoot(benchmark::State& state) {
  resolved_read(state, fs::native_file_system(tree().root), fs::WalkMode::kComponents);
}
BENCHMARK(BM_ResolverComponentWalkPinnedRoot);

}  // namespace
}  // namespace hermes

BENCHMARK_MAIN();
