// SPDX-License-Identifier: MIT
// The four figures for checkpoints (docs/checkpoints.md), medians of
// several runs, one JSON line each:
//   tool_edit_ms        begin + finish around a 4 KB write_file-sized edit
//   shell_3_files_ms    begin + finish of a shell call in a FILES-file tree
//   shell_no_change_ms  the same when the command changes nothing
//   restore_1000_ms     restore of 1,000 changed files
//   shell_first_call_*  the first shell call in a workspace, which keeps
//                       every file (copies, or clones where the file
//                       system has reflinks: TMPDIR on one); its time and
//                       what the file system grew by
//   shell_captured_*    the same tree with each call's command run for real
//                       under the write capture, which keeps what the
//                       command changes as it changes it: the first call
//                       (hashes only) and its growth, a call's begin +
//                       finish, and the command's time with and without
//                       the capture
//   store_bytes         the store after 1,000 one-line edits of a 1 MB file,
//                       beside the bytes those edits changed (objects; the
//                       blocks the whole store takes; its journal), once
//                       its first state is restored exactly
// Usage: checkpoint_bench [--files N] (default 100000). Other arguments
// (run_all.sh's --benchmark_min_time) are ignored.

#include "fs/atomic_write.h"
#include "fs/disk_usage.h"
#include "proc/run.h"
#include "proc/spawn.h"
#include "proc/write_capture.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace {

using hermes::checkpoint::CallInfo;
using hermes::checkpoint::Checkpoints;
using hermes::checkpoint::Settings;
using hermes::checkpoint::Ticket;

std::string make_temp_dir(const char* tag) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != 0 ? tmp : "/tmp") +
                        "/hermes-cp-bench-" + tag + "-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) std::abort();
  return buf.data();
}

// Plain writes, as a shell command makes them (no fsync: a tree of 100,000
// fsynced files would take the bench minutes to build).
void write(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::abort();
  std::fclose(f);
}

void remove_tree(const std::string& dir) {
  std::string command = "rm -rf '" + dir + "'";
  if (std::system(command.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", dir.c_str());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double time_ms(const std::function<void()>& body) {
  auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

Ticket begin(const Checkpoints& cps, const CallInfo& call, const Settings& s) {
  auto ticket = cps.begin(call, s);
  if (!ticket) {
    std::fprintf(stderr, "begin: %s\n", ticket.error().message.c_str());
    std::abort();
  }
  return *ticket;
}

void finish(const Checkpoints& cps, const Ticket& ticket, const Settings& s) {
  if (!cps.finish(ticket, s)) std::abort();
}

void tool_edit(const Settings& s) {
  std::string home = make_temp_dir("home"), work = make_temp_dir("work");
  Checkpoints cps(home);
  std::string file = work + "/edited.txt";
  std::string text(4096, 'x');
  write(file, text);
  std::vector<double> runs;
  for (int i = 0; i < 200; ++i) {
    text[static_cast<size_t>(i) % text.size()] = static_cast<char>('a' + i % 26);
    CallInfo call{.root = work, .tool = "write_file", .summary = file, .paths = {file}};
    Ticket ticket;
    double before = time_ms([&] { ticket = begin(cps, call, s); });
    write(file, text);
    double after = time_ms([&] { finish(cps, ticket, s); });
    runs.push_back(before + after);
  }
  std::printf("{\"figure\": \"tool_edit_ms\", \"median\": %.3f, \"budget\": 5}\n", median(runs));
  remove_tree(home);
  remove_tree(work);
}

// FILES small files, 50 folders of 40 folders each.
void make_tree(const std::string& work, int files) {
  for (int i = 0; i < files; ++i) {
    std::string dir = work + "/d" + std::to_string(i % 50) + "/s" + std::to_string(i / 50 % 40);
    ::mkdir((work + "/d" + std::to_string(i % 50)).c_str(), 0755);
    ::mkdir(dir.c_str(), 0755);
    write(dir + "/f" + std::to_string(i) + ".txt", "line " + std::to_string(i) + "\n");
  }
}

void shell(const Settings& s, int files) {
  std::string home = make_temp_dir("home"), work = make_temp_dir("tree");
  make_tree(work, files);
  Checkpoints cps(home);
  CallInfo call{.root = work, .tool = "terminal", .summary = "bench", .shell = true};
  int64_t used = hermes::fs::used_bytes(home);
  double arm = time_ms([&] { finish(cps, begin(cps, call, s), s); });
  int64_t first_call_bytes = hermes::fs::used_bytes(home) - used;
  std::vector<double> changed, none;
  for (int i = 0; i < 7; ++i) {
    Ticket ticket;
    double before = time_ms([&] { ticket = begin(cps, call, s); });
    for (int k = 0; k < 3; ++k) {
      write(work + "/d" + std::to_string(k) + "/s0/f" + std::to_string(k) + ".txt",
            "changed " + std::to_string(i) + "\n");
    }
    double after = time_ms([&] { finish(cps, ticket, s); });
    changed.push_back(before + after);
    none.push_back(time_ms([&] { finish(cps, begin(cps, call, s), s); }));
    // A figure for a look that missed the changes would mean nothing.
    auto all = cps.list(work);
    if (!all || all->size() < 2 || (*all)[all->size() - 2].after.size() != 3 ||
        !all->back().after.empty()) {
      std::fprintf(stderr, "shell: the checkpoints do not hold the 3 changed files\n");
      std::abort();
    }
  }
  std::printf(
      "{\"figure\": \"shell_first_call_ms\", \"files\": %d, \"value\": %.1f, "
      "\"fs_bytes_added\": %lld}\n",
      files, arm, static_cast<long long>(first_call_bytes));
  std::printf(
      "{\"figure\": \"shell_3_files_ms\", \"files\": %d, \"median\": %.1f, \"budget\": 50}\n",
      files, median(changed));
  std::printf("{\"figure\": \"shell_no_change_ms\", \"files\": %d, \"median\": %.1f}\n", files,
              median(none));
  remove_tree(home);
  remove_tree(work);
}

// `script` run by sh in `cwd`, under `capture` when given; its time.
double run_command(const std::string& script, const std::string& cwd,
                   const hermes::proc::WriteCapture* capture) {
  return time_ms([&] {
    auto child = hermes::proc::spawn(
        {.argv = {"sh", "-c", script}, .cwd = cwd, .whole_tree = true, .write_capture = capture});
    if (!child) std::abort();
    auto outcome = hermes::proc::run_bounded(*child, {}, {}, [](std::string_view) {});
    if (outcome.status.code != 0) std::abort();
  });
}

void shell_captured(const Settings& s, int files) {
  if (!hermes::proc::write_capture_available(false)) {
    std::printf("{\"figure\": \"shell_captured\", \"skipped\": \"no write capture here\"}\n");
    return;
  }
  std::string home = make_temp_dir("home"), work = make_temp_dir("tree");
  make_tree(work, files);
  Checkpoints cps(home);
  auto capture = cps.write_capture(work, s);
  if (!capture) std::abort();
  CallInfo call{
      .root = work, .tool = "terminal", .summary = "bench", .shell = true, .writes_captured = true};
  int64_t used = hermes::fs::used_bytes(home);
  double arm = time_ms([&] { finish(cps, begin(cps, call, s), s); });
  int64_t first_call_bytes = hermes::fs::used_bytes(home) - used;
  std::vector<double> look, with, without;
  for (int i = 0; i < 7; ++i) {
    std::string script =
        "for k in 0 1 2; do echo changed " + std::to_string(i) + " > d$k/s0/f$k.txt; done";
    Ticket ticket;
    double before = time_ms([&] { ticket = begin(cps, call, s); });
    with.push_back(run_command(script, work, capture->get()));
    double after = time_ms([&] { finish(cps, ticket, s); });
    look.push_back(before + after);
    // A figure only for checkpoints that hold the 3 files' old contents.
    auto all = cps.list(work);
    if (!all || all->back().after.size() != 3) std::abort();
    for (const auto& [rel, was] : all->back().before) {
      if (was.blob.empty() || !cps.store().has(was.blob)) {
        std::fprintf(stderr, "shell_captured: %s was not kept\n", rel.c_str());
        std::abort();
      }
    }
    without.push_back(run_command(script + " # again", work, nullptr));
  }
  std::printf(
      "{\"figure\": \"shell_captured_first_call\", \"files\": %d, \"ms\": %.1f, "
      "\"fs_bytes_added\": %lld}\n",
      files, arm, static_cast<long long>(first_call_bytes));
  std::printf(
      "{\"figure\": \"shell_captured_3_files\", \"files\": %d, \"begin_finish_ms\": %.1f, "
      "\"command_ms\": %.2f, \"command_ms_uncaptured\": %.2f, \"store_bytes\": %llu}\n",
      files, median(look), median(with), median(without),
      static_cast<unsigned long long>(cps.store_bytes()));
  remove_tree(home);
  remove_tree(work);
}

// The first shell call in a tree of 200 files of 256 KiB (50 MB): where the
// store can clone (a reflink file system: run with TMPDIR on one) the
// file system should grow by far less than the tree.
void first_call_large(const Settings& s) {
  std::string home = make_temp_dir("home"), work = make_temp_dir("large");
  std::string block(256u << 10, 'x');
  for (int i = 0; i < 200; ++i) {
    for (size_t at = 0; at + 64 <= block.size(); at += 4096) {
      std::snprintf(block.data() + at, 64, "file %d block %zu", i, at);  // no block alike
    }
    write(work + "/f" + std::to_string(i) + ".bin", block);
  }
  Checkpoints cps(home);
  CallInfo call{.root = work, .tool = "terminal", .summary = "bench", .shell = true};
  int64_t used = hermes::fs::used_bytes(home);
  double ms = time_ms([&] { finish(cps, begin(cps, call, s), s); });
  int64_t added = hermes::fs::used_bytes(home) - used;
  std::printf(
      "{\"figure\": \"shell_first_call_large\", \"files\": 200, \"tree_bytes\": %zu, "
      "\"ms\": %.1f, \"fs_bytes_added\": %lld}\n",
      200 * block.size(), ms, static_cast<long long>(added));
  remove_tree(home);
  remove_tree(work);
}

void restore(const Settings& s) {
  std::vector<double> runs;
  for (int round = 0; round < 5; ++round) {
    std::string home = make_temp_dir("home"), work = make_temp_dir("restore");
    for (int i = 0; i < 1000; ++i)
      write(work + "/f" + std::to_string(i), "old " + std::to_string(i) + "\n");
    Checkpoints cps(home);
    CallInfo call{.root = work, .tool = "terminal", .summary = "bench", .shell = true};
    finish(cps, begin(cps, call, s), s);  // arms the index
    Ticket ticket = begin(cps, call, s);
    for (int i = 0; i < 1000; ++i)
      write(work + "/f" + std::to_string(i), "new " + std::to_string(i) + "\n");
    finish(cps, ticket, s);
    runs.push_back(time_ms([&] {
      auto report = cps.restore({.root = work, .id = ticket.id}, s);
      if (!report || report->restored.size() != 1000) std::abort();
    }));
    remove_tree(home);
    remove_tree(work);
  }
  std::printf("{\"figure\": \"restore_1000_ms\", \"median\": %.1f, \"budget\": 1000}\n",
              median(runs));
}

// What the files under `dir` take on the disk (their blocks, as du counts).
uint64_t disk_bytes(const std::string& dir) {
  static uint64_t total;
  total = 0;
  ::nftw(
      dir.c_str(),
      [](const char*, const struct stat* st, int type, struct FTW*) {
        if (type == FTW_F) total += static_cast<uint64_t>(st->st_blocks) * 512;
        return 0;
      },
      16, FTW_PHYS);
  return total;
}

void store_size(const Settings& s) {
  std::string home = make_temp_dir("home"), work = make_temp_dir("big");
  std::string file = work + "/big.txt";
  std::string text;
  while (text.size() < (1 << 20))
    text += "a line of text in a one megabyte file, number " + std::to_string(text.size()) + "\n";
  write(file, text);
  const std::string original = text;
  Checkpoints cps(home);
  uint64_t changed = 0, first = 0;
  for (int i = 0; i < 1000; ++i) {
    size_t at = text.find('\n', static_cast<size_t>(i) * 1019 % (text.size() - 100)) + 1;
    size_t end = text.find('\n', at);
    std::string line = "edited line " + std::to_string(i);
    changed += std::max(line.size(), end - at);
    text.replace(at, end - at, line);
    CallInfo call{.root = work, .tool = "patch", .summary = file, .paths = {file}};
    Ticket ticket = begin(cps, call, s);
    if (i == 0) first = ticket.id;
    write(file, text);
    finish(cps, ticket, s);
  }
  uint64_t stored = cps.store_bytes(), on_disk = disk_bytes(home);
  struct stat journal {};
  ::stat((cps.journal_of(work).dir() + "/journal").c_str(), &journal);
  // A figure only for a store that brings the first state back.
  auto report = cps.restore({.root = work, .id = first}, s);
  if (!report || report->restored.size() != 1 ||
      hermes::fs::read_whole_file(file).value_or("") != original) {
    std::abort();
  }
  std::printf(
      "{\"figure\": \"store_bytes\", \"edits\": 1000, \"file_bytes\": %zu, \"changed_bytes\": "
      "%llu, "
      "\"store_object_bytes\": %llu, \"ratio\": %.2f, \"budget_ratio\": 2, "
      "\"store_disk_bytes\": %llu, \"journal_bytes\": %llu}\n",
      text.size(), static_cast<unsigned long long>(changed),
      static_cast<unsigned long long>(stored),
      static_cast<double>(stored) / static_cast<double>(changed),
      static_cast<unsigned long long>(on_disk), static_cast<unsigned long long>(journal.st_size));
  remove_tree(home);
  remove_tree(work);
}

}  // namespace

int main(int argc, char** argv) {
  int files = 100000;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--files") == 0) files = std::atoi(argv[i + 1]);
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Settings settings;
  // The figure is for a tree bigger than the default scan cap.
  settings.max_scan_entries = std::max<uint64_t>(settings.max_scan_entries, 2 * files);
  tool_edit(settings);
  store_size(settings);
  restore(settings);
  first_call_large(settings);
  shell(settings, files);
  shell_captured(settings, files);
  return 0;
}
