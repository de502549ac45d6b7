// SPDX-License-Identifier: MIT
// The detector against the corpora: every dangerous command flagged, at most
// 1% of everyday commands flagged. Both figures are printed.
#include "tools/approval/dangerous_command.h"

#include "tools/approval/corpus.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace hermes::approval {
namespace {

TEST(DangerousCommand, AllRulesCompile) { EXPECT_EQ(broken_rules(), std::vector<std::string>{}); }

TEST(DangerousCommand, CorpusDangerousAllFlagged) {
  std::vector<Session> corpus = load_corpus("dangerous.txt");
  ASSERT_GE(corpus.size(), 300u);
  size_t flagged = 0;
  for (const Session& s : corpus) {
    std::optional<Detection> d = detect_session(s);
    flagged += d.has_value();
    EXPECT_TRUE(d.has_value()) << "not flagged: " << s.calls.back();
  }
  std::printf("dangerous corpus: %zu/%zu flagged (%.1f%%)\n", flagged, corpus.size(),
              100.0 * static_cast<double>(flagged) / static_cast<double>(corpus.size()));
}

TEST(DangerousCommand, CorpusEverydayAtMostOnePercent) {
  std::vector<Session> corpus = load_corpus("everyday.txt");
  ASSERT_GE(corpus.size(), 500u);
  size_t flagged = 0;
  for (const Session& s : corpus) {
    if (auto d = detect_session(s)) {
      ++flagged;
      std::printf("everyday flagged: %s  [%s]\n", s.calls.back().c_str(), d->description.c_str());
    }
  }
  std::printf("everyday corpus: %zu/%zu flagged (%.2f%%)\n", flagged, corpus.size(),
              100.0 * static_cast<double>(flagged) / static_cast<double>(corpus.size()));
  EXPECT_LE(flagged * 100, corpus.size());
}

TEST(DangerousCommand, HardlineTier) {
  for (const char* c : {"rm -rf /", "r''m -rf /", "bash -c 'rm -rf ~'", "mkfs.ext4 /dev/sda",
                        "dd if=/dev/zero of=/dev/sda", ":(){ :|:& };:", "kill -9 -1", "reboot",
                        "x=rm; $x -rf /usr", "\xef\xbd\x92\xef\xbd\x8d -rf /",
                        "sudo -u root rm -rf /", "echo 'rm -rf /' | sh", "$'\\x72\\x6d' -rf /"}) {
    auto d = detect_dangerous(c);
    ASSERT_TRUE(d.has_value()) << c;
    EXPECT_TRUE(d->hardline) << c << " -> " << d->description;
  }
}

TEST(DangerousCommand, DescriptionsAreKeys) {
  EXPECT_EQ(detect_dangerous("rm -rf /")->description, "recursive delete of root filesystem");
  EXPECT_EQ(detect_dangerous("rm -rf build")->description, "recursive delete");
  EXPECT_EQ(detect_dangerous("find . -delete")->description, "find -delete");
  EXPECT_EQ(detect_dangerous("python3 -c 'print(1)'")->description,
            "script execution via -e/-c flag");
  EXPECT_EQ(detect_dangerous("bash -c ls")->description, "shell command via -c/-lc flag");
  EXPECT_FALSE(detect_dangerous("git branch -d topic").has_value());
  EXPECT_TRUE(detect_dangerous("git branch -D topic").has_value());
}

// Each probe stands for a class, which the corpus covers.
TEST(DangerousCommand, ClassesBehindTheIssueProbes) {
  const std::pair<const char*, const char*> kProbes[] = {
      {"rsync -a --delete EMPTY/ DIR/", "sync that deletes files"},
      {"ln -sf FILE ~/.ssh/authorized_keys", "write to sensitive system or credential file"},
      {"cat k | dd of=$HOME/.ssh/authorized_keys", "write to sensitive system or credential file"},
      {"git -c alias.p='push --force' p origin main", "git force push"},
      {"sqlite3 DB \"DELETE FROM t WHERE 1=1\"", "SQL DELETE or UPDATE with an always-true WHERE"},
      {"git -c alias.x='!rm -rf build' x", "recursive delete"},
      {"git -c alias.x='!echo hi' x", "shell command via inline git alias"},
      {"psql -c 'UPDATE users SET admin = true'", "SQL UPDATE without WHERE"},
  };
  for (const auto& [command, description] : kProbes) {
    std::optional<Detection> d = detect_dangerous(command);
    ASSERT_TRUE(d.has_value()) << command;
    EXPECT_EQ(d->description, description) << command;
  }
  EXPECT_TRUE(detect_dangerous("git -c alias.x='!rm -rf /' x")->hardline);
  for (const char* c :
       {"git -c alias.st=status st", "psql -c 'DELETE FROM t WHERE id = 1'",
        "psql -c 'DELETE FROM t WHERE a = b'", "rsync -a src/ dst/", "ln -s ../lib lib"}) {
    EXPECT_FALSE(detect_dangerous(c).has_value()) << c;
  }
}

TEST(DangerousCommand, ParserLimitAndExemption) {
  EXPECT_EQ(detect_dangerous(std::string(200'000, 'a'))->description,
            "command parser limit exceeded");
  EXPECT_FALSE(detect_dangerous("rm -f /tmp/hermes-verify-abc123").has_value());
}

TEST(DangerousCommand, QuotedProseIsNotACommand) {
  EXPECT_FALSE(detect_dangerous("echo 'run bash -c later'").has_value());
  EXPECT_FALSE(detect_dangerous("git commit -m \"explain rm -rf usage\"").has_value());
}

}  // namespace
}  // namespace hermes::approval

namespace hermes::approval {
namespace {

TEST(DangerousCommand, HostileInputStaysFast) {
  std::vector<std::string> inputs = {std::string(120'000, '\''),
                                     std::string(120'000, '$'),
                                     [] {
                                       std::string s;
                                       while (s.size() < 100'000) s += "rm -r x; ";
                                       return s;
                                     }(),
                                     [] {
                                       std::string s;
                                       while (s.size() < 100'000) s += "$(echo ";
                                       return s;
                                     }(),
                                     [] {
                                       std::string s;
                                       while (s.size() < 100'000) s += "bash -c '";
                                       return s;
                                     }(),
                                     std::string("\xff\xfe\xc3; rm -rf / \x80", 14)};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& input = inputs[i];
    SCOPED_TRACE("input #" + std::to_string(i));
    auto start = std::chrono::steady_clock::now();
    auto d = detect_dangerous(input);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2))
        << input.substr(0, 20);
    // A runaway `$(echo ` chain is slow to parse, not dangerous.
    if (i != 3) {
      EXPECT_TRUE(d.has_value());
    }
  }
}

}  // namespace
}  // namespace hermes::approval
