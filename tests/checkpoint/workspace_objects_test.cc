// SPDX-License-Identifier: MIT
// Holds: a large file a tool edit wrote stays in the workspace, the content
// it replaced is a reverse delta against it. Each edit then costs about its
// bytes, every checkpoint still restores byte for byte, and what a hold
// cannot survive (a change outside the agent's tool edits) is named, never
// restored wrong.
#include "checkpoint/workspace_objects.h"

#include "fs/atomic_write.h"
#include "testutil/temp_dir.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "checkpoint/checkpoints.h"

namespace hermes::checkpoint {
namespace {

using testing::TempDir;

std::string big_text() {
  std::string text;
  while (text.size() < 300'000) text += "line " + std::to_string(text.size()) + " of a big file\n";
  return text;
}

// `text` with its line `n` (counted from 0, wrapping) replaced.
std::string edit_line(std::string text, int n, const std::string& line) {
  size_t at = 0;
  for (int i = 0; i < n % 5000; ++i) at = text.find('\n', at) + 1;
  text.replace(at, text.find('\n', at) - at, line);
  return text;
}

class Holds : public ::testing::Test {
 protected:
  // A tool edit of `rel`: its checkpoint's id.
  uint64_t tool_edit(const std::string& rel, const std::string& content) {
    CallInfo call{.root = work.path(), .tool = "write_file", .paths = {work.file(rel)}};
    auto ticket = checkpoints.begin(call, settings);
    EXPECT_TRUE(ticket.has_value());
    work.write(rel, content);
    EXPECT_TRUE(checkpoints.finish(*ticket, settings).has_value());
    return ticket->id;
  }

  // A shell call running `command` (a function standing for it).
  template <class Command>
  uint64_t shell_call(Command command) {
    CallInfo call{.root = work.path(), .tool = "terminal", .shell = true};
    auto ticket = checkpoints.begin(call, settings);
    EXPECT_TRUE(ticket.has_value());
    command();
    EXPECT_TRUE(checkpoints.finish(*ticket, settings).has_value());
    return ticket->id;
  }

  RestoreReport restore(uint64_t id, bool force = false) {
    auto report = checkpoints.restore({.root = work.path(), .id = id, .force = force}, settings);
    EXPECT_TRUE(report.has_value()) << report.error().message;
    return report.value_or(RestoreReport{});
  }

  size_t own_files() const { return checkpoints.objects_of(work.path()).own_hashes().size(); }

  TempDir home, work;
  Checkpoints checkpoints{home.path() + "/checkpoints"};
  Settings settings;
};

TEST_F(Holds, EveryEditOfAHeldFileRestoresExactlyAndCostsAboutItsBytes) {
  std::vector<std::string> versions{big_text()};
  work.write("big.txt", versions[0]);
  std::vector<uint64_t> ids;
  for (int i = 0; i < 200; ++i) {
    versions.push_back(edit_line(versions.back(), i * 37, "edited " + std::to_string(i)));
    ids.push_back(tool_edit("big.txt", versions.back()));
  }
  // No copy of the file: 200 deltas of a line and a ~40-byte header each.
  EXPECT_LT(checkpoints.store_bytes(), 200u * 100);
  EXPECT_FALSE(checkpoints.store().has(fs::sha256_hex(versions[0])));
  for (size_t i : {0u, 1u, 99u, 199u}) {
    RestoreReport report = restore(ids[i]);
    ASSERT_TRUE(report.not_restored.empty()) << report.not_restored[0].second;
    ASSERT_EQ(work.read("big.txt"), versions[i]) << "checkpoint " << i;
    // The restore is a checkpoint: undoing it brings back the newest.
    restore(report.checkpoint);
    ASSERT_EQ(work.read("big.txt"), versions.back());
  }
}

TEST_F(Holds, AHandEditLosesWhatRestedOnTheFileAndRestoreSaysSo) {
  std::string text = big_text();
  work.write("big.txt", text);
  work.write("small.txt", "small\n");
  CallInfo both{.root = work.path(),
                .tool = "patch",
                .paths = {work.file("big.txt"), work.file("small.txt")}};
  auto ticket = checkpoints.begin(both, settings);
  ASSERT_TRUE(ticket.has_value());
  work.write("big.txt", edit_line(text, 10, "by the agent"));
  work.write("small.txt", "changed\n");
  ASSERT_TRUE(checkpoints.finish(*ticket, settings).has_value());

  work.write("big.txt", edit_line(text, 20, "by hand"));
  RestoreReport refused = restore(ticket->id);
  EXPECT_EQ(refused.hand_edited, std::vector<std::string>{"big.txt"});
  RestoreReport forced = restore(ticket->id, true);
  EXPECT_EQ(forced.restored, std::vector<std::string>{"small.txt"});
  ASSERT_EQ(forced.not_restored.size(), 1u);
  EXPECT_EQ(forced.not_restored[0].first, "big.txt");
  EXPECT_NE(forced.not_restored[0].second.find("changed since"), std::string::npos);
  // Never a wrong file: the hand edit is still there.
  EXPECT_EQ(work.read("big.txt"), edit_line(text, 20, "by hand"));
  EXPECT_EQ(work.read("small.txt"), "small\n");
}

TEST_F(Holds, AShellCallStoresHeldFilesBeforeItRuns) {
  std::string text = big_text();
  work.write("big.txt", text);
  uint64_t first = tool_edit("big.txt", edit_line(text, 1, "one"));
  tool_edit("big.txt", edit_line(text, 2, "two"));
  // The command rewrites the file in place and then removes it.
  shell_call([&] {
    work.write("big.txt", "overwritten\n");
    ASSERT_EQ(::unlink(work.file("big.txt").c_str()), 0);
  });
  EXPECT_EQ(own_files(), 2u);  // the two reverse deltas; the hold is stored
  RestoreReport report = restore(first);
  EXPECT_TRUE(report.not_restored.empty());
  EXPECT_EQ(work.read("big.txt"), text);
}

TEST_F(Holds, ARevertedEditMakesNoLoop) {
  std::string a = big_text(), b = edit_line(a, 7, "b");
  work.write("big.txt", a);
  std::vector<uint64_t> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(tool_edit("big.txt", i % 2 == 0 ? b : a));
  for (int i = 0; i < 6; ++i) {
    restore(ids[i]);
    ASSERT_EQ(work.read("big.txt"), i % 2 == 0 ? a : b) << i;
  }
  auto objects = checkpoints.objects_of(work.path());
  EXPECT_EQ(objects.get(fs::sha256_hex(a)).value_or(""), a);
  EXPECT_EQ(objects.get(fs::sha256_hex(b)).value_or(""), b);
}

// A call that changes only a held file's mode keeps its content once, not as
// a delta against itself (which would loop).
TEST_F(Holds, AModeOnlyChangeKeepsTheContent) {
  std::string text = big_text();
  work.write("big.txt", text);  // never edited: neither held nor stored
  CallInfo call{.root = work.path(), .tool = "patch", .paths = {work.file("big.txt")}};
  auto ticket = checkpoints.begin(call, settings);
  ASSERT_TRUE(ticket.has_value());
  ASSERT_EQ(::chmod(work.file("big.txt").c_str(), 0600), 0);
  ASSERT_TRUE(checkpoints.finish(*ticket, settings).has_value());
  EXPECT_EQ(checkpoints.objects_of(work.path()).get(fs::sha256_hex(text)).value_or(""), text);
  uint64_t edited = tool_edit("big.txt", edit_line(text, 4, "four"));
  work.write("big.txt", "by hand\n");
  RestoreReport report = restore(edited, true);
  EXPECT_TRUE(report.not_restored.empty());
  EXPECT_EQ(work.read("big.txt"), text);
}

// While a command runs (another session's, or a call beside it), anything
// may change a file: an edit then holds nothing, and holds again once the
// command has finished. A mark left by a process that died counts for
// nothing.
TEST_F(Holds, NothingIsHeldWhileACommandRuns) {
  std::string text = big_text();
  CallInfo command{.root = work.path(), .tool = "terminal", .shell = true};
  auto running = checkpoints.begin(command, settings);
  ASSERT_TRUE(running.has_value());
  // A file the command's baseline never saw, made and edited meanwhile.
  std::string first = edit_line(text, 5, "five");
  tool_edit("mid.txt", first);
  uint64_t edited = tool_edit("mid.txt", edit_line(text, 6, "six"));
  EXPECT_EQ(own_files(), 0u);
  work.write("mid.txt", "the command rewrote it\n");
  ASSERT_TRUE(checkpoints.finish(*running, settings).has_value());
  restore(edited, true);
  EXPECT_EQ(work.read("mid.txt"), first);

  std::string folder = checkpoints.journal_of(work.path()).dir();
  home.write(folder.substr(home.path().size() + 1) + "/running/999999999.1", "");
  tool_edit("new.txt", edit_line(text, 9, "nine"));
  EXPECT_EQ(own_files(), 1u);  // the hold: the dead process's mark is gone
}

// A pack that cannot be written (here: a folder where the file should be)
// costs a copy in the store, never the old content.
TEST_F(Holds, AnUnwritablePackFallsBackToTheStore) {
  std::string text = big_text();
  work.write("big.txt", text);
  std::filesystem::create_directories(checkpoints.journal_of(work.path()).dir() + "/own.pack");
  uint64_t edited = tool_edit("big.txt", edit_line(text, 7, "seven"));
  tool_edit("big.txt", edit_line(text, 8, "eight"));
  restore(edited);
  EXPECT_EQ(work.read("big.txt"), text);
}

TEST_F(Holds, SmallFilesAndNewFilesAreKeptAsBefore) {
  tool_edit("small.txt", "one\n");
  tool_edit("small.txt", "two\n");
  EXPECT_TRUE(checkpoints.store().has(fs::sha256_hex("one\n")));
  EXPECT_TRUE(checkpoints.store().has(fs::sha256_hex("two\n")));
  // A large file the agent creates is held: nothing to copy yet.
  uint64_t made = tool_edit("new.txt", big_text());
  EXPECT_EQ(own_files(), 1u);
  restore(made);
  EXPECT_NE(::access(work.file("new.txt").c_str(), F_OK), 0);
}

TEST_F(Holds, PruningDropsWhatNoCheckpointNeedsAndKeepsTheChain) {
  std::vector<std::string> versions{big_text()};
  work.write("big.txt", versions[0]);
  std::vector<uint64_t> ids;
  for (int i = 0; i < 10; ++i) {
    versions.push_back(edit_line(versions.back(), i, "edit " + std::to_string(i)));
    ids.push_back(tool_edit("big.txt", versions.back()));
  }
  size_t before = own_files();
  // Over the size cap: the oldest checkpoints go, and the deltas only they
  // needed with them; the newer ones still restore.
  settings.max_store_bytes = checkpoints.store_bytes() - 1;
  ASSERT_TRUE(checkpoints.prune(settings, ::time(nullptr)).has_value());
  settings = Settings{};
  auto left = checkpoints.list(work.path());
  ASSERT_TRUE(left.has_value());
  ASSERT_FALSE(left->empty());
  EXPECT_LT(own_files(), before);
  size_t oldest = left->front().id - ids[0];
  restore(left->front().id);
  EXPECT_EQ(work.read("big.txt"), versions[oldest]);
}

TEST_F(Holds, ADiffOfAHeldFileStoresNoCopy) {
  std::string text = big_text();
  work.write("big.txt", text);
  uint64_t id = tool_edit("big.txt", edit_line(text, 3, "three"));
  uint64_t bytes = checkpoints.store_bytes();
  auto changes = checkpoints.changes(work.path(), id, std::nullopt);
  ASSERT_TRUE(changes.has_value());
  ASSERT_EQ(changes->size(), 1u);
  EXPECT_EQ(checkpoints.store_bytes(), bytes);
  auto objects = checkpoints.objects_of(work.path());
  EXPECT_EQ(objects.get((*changes)[0].from.blob).value_or(""), text);
  EXPECT_EQ(objects.get((*changes)[0].to.blob).value_or(""), edit_line(text, 3, "three"));
}

}  // namespace
}  // namespace hermes::checkpoint
