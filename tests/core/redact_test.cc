// SPDX-License-Identifier: MIT
// The redaction engine against a table-driven corpus: one real-shaped secret
// per family, boundary cases, and near-misses that must stay untouched.
#include "core/redact.h"

#include "core/config.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <chrono>
#include <string>
#include <vector>

namespace hermes {
namespace {

struct Case {
  std::string input;
  std::string expected;
};

RedactOptions file_read() { return {}; }
RedactOptions output() { return {RedactMode::kOutput, false}; }
RedactOptions secret_file() { return {RedactMode::kFileRead, true}; }
RedactOptions full_output() { return {RedactMode::kOutput, true}; }

// A realistic body: mixed case and digits, `n` characters.
std::string body(size_t n) {
  static const std::string alphabet = "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz";
  std::string out;
  for (size_t i = 0; i < n; ++i) out += alphabet[(i * 7 + 3) % alphabet.size()];
  return out;
}

struct Family {
  std::string label;   // the sentinel's label
  std::string prefix;  // literal text before the body
  size_t min_body;     // minimum body length
};

const std::vector<Family>& families() {
  static const std::vector<Family> list = {
      {"sk-", "sk-", 10},
      {"sk-", "sk-ant-api03-", 10},
      {"sk-", "sk-proj-", 10},
      {"ghp_", "ghp_", 10},
      {"github_pat_", "github_pat_", 10},
      {"gho_", "gho_", 10},
      {"ghu_", "ghu_", 10},
      {"ghs_", "ghs_", 10},
      {"ghr_", "ghr_", 10},
      {"xapp-", "xapp-1-", 10},
      {"xox", "xoxb-", 10},
      {"xox", "xoxp-", 10},
      {"AIza", "AIza", 30},
      {"pplx-", "pplx-", 10},
      {"fal_", "fal_", 10},
      {"fc-", "fc-", 10},
      {"bb_live_", "bb_live_", 10},
      {"gAAAA", "gAAAA", 20},
      {"sk_live_", "sk_live_", 10},
      {"sk_test_", "sk_test_", 10},
      {"rk_live_", "rk_live_", 10},
      {"SG.", "SG.", 10},
      {"hf_", "hf_", 10},
      {"r8_", "r8_", 10},
      {"npm_", "npm_", 10},
      {"pypi-", "pypi-", 10},
      {"dop_v1_", "dop_v1_", 10},
      {"doo_v1_", "doo_v1_", 10},
      {"am_", "am_", 20},
      {"am_", "am_org_", 20},
      {"sk_", "sk_", 10},
      {"tvly-", "tvly-", 10},
      {"exa_", "exa_", 10},
      {"gsk_", "gsk_", 10},
      {"syt_", "syt_", 10},
      {"retaindb_", "retaindb_", 10},
      {"hsk-", "hsk-", 10},
      {"mem0_", "mem0_", 10},
      {"brv_", "brv_", 10},
      {"xai-", "xai-", 30},
      {"ntn_", "ntn_", 10},
      {"fw-", "fw-", 30},
      {"fw_", "fw_", 30},
      {"fpk_", "fpk_", 30},
      {"glpat-", "glpat-", 10},
      {"gloas-", "gloas-", 10},
      {"gldt-", "gldt-", 10},
      {"glrt-", "glrt-", 10},
      {"glrtr-", "glrtr-", 10},
      {"glcbt-", "glcbt-", 10},
      {"glptt-", "glptt-", 10},
      {"glft-", "glft-", 10},
      {"glimt-", "glimt-", 10},
      {"glagent-", "glagent-", 10},
      {"glsoat-", "glsoat-", 10},
      {"glffct-", "glffct-", 10},
      {"glwt-", "glwt-", 10},
      {"GR1348941", "GR1348941", 10},
      {"pk-lf-", "pk-lf-", 8},
  };
  return list;
}

// Every family: a token at its minimum length and a longer one are replaced
// by the sentinel; one character short, or glued to a word, stays.
TEST(RedactCorpus, EveryVendorFamily) {
  int checked = 0;
  for (const Family& f : families()) {
    SCOPED_TRACE(f.prefix);
    std::string sentinel = "«redacted:" + f.label + "…»";
    std::string exact = f.prefix + body(f.min_body);
    std::string longer = f.prefix + body(f.min_body + 24);
    EXPECT_EQ(redact_secrets("key " + exact + " end", file_read()), "key " + sentinel + " end");
    EXPECT_EQ(redact_secrets("\"" + longer + "\"", file_read()), "\"" + sentinel + "\"");
    std::string shorter = f.prefix + body(f.min_body - 1);
    // `sk-proj-…`/`sk_live_…` one short is still a valid `sk-`/`sk_` token.
    bool shadowed = f.label == "sk-" || f.label == "sk_live_" || f.label == "sk_test_";
    if (!shadowed) {
      EXPECT_EQ(redact_secrets("x " + shorter + " y", file_read()), "x " + shorter + " y");
    }
    std::string glued = "my" + exact;
    if (f.prefix == "SG.") glued = "aSG." + body(f.min_body);
    EXPECT_EQ(redact_secrets(glued, file_read()), glued);
    checked += 4;
  }
  EXPECT_GE(checked, 150);
}

TEST(RedactCorpus, OutputModeMasksHeadAndTail) {
  std::string token = "ghp_" + body(36);
  EXPECT_EQ(redact_secrets("t=" + token, output()),
            "t=" + token.substr(0, 6) + "..." + token.substr(36));
  EXPECT_EQ(redact_secrets("sk-abcdefghijk", output()), "***");
}

const std::vector<std::pair<Case, RedactOptions>>& explicit_cases() {
  static const std::vector<std::pair<Case, RedactOptions>> list = {
      // Boundaries.
      {{"AKIAIOSFODNN7EXAMPLE", "«redacted:AKIA…»"}, file_read()},
      {{"AKIAIOSFODNN7EXAMPLEX", "AKIAIOSFODNN7EXAMPLEX"}, file_read()},
      {{"AKIAIOSFODNN7EXAMPL", "AKIAIOSFODNN7EXAMPL"}, file_read()},
      {{"key=sk-proj-abc.def.ghijklmnop.", "key=«redacted:sk-…»."}, file_read()},
      {{"(ghp_0123456789abcdefABCDEF)", "(«redacted:ghp_…»)"}, file_read()},
      {{"ghp_0123456789abcdef-x", "ghp_0123456789abcdef-x"}, file_read()},
      {{"am_example_identifier_123", "am_example_identifier_123"}, file_read()},
      {{"task-list", "task-list"}, file_read()},
      {{"risk-management-framework", "risk-management-framework"}, file_read()},
      {{"disk_usage_percentage_total", "disk_usage_percentage_total"}, file_read()},
      {{"«redacted:ghp_…»", "«redacted:ghp_…»"}, file_read()},
      // After an escape in JSON-encoded text the boundary is relieved.
      {{"\"line\\nghp_0123456789abcdef\"", "\"line\\n«redacted:ghp_…»\""}, file_read()},
      {{"caf\\u00e9hf_0123456789abcd", "caf\\u00e9«redacted:hf_…»"}, file_read()},
      {{"Xghp_0123456789abcdef", "Xghp_0123456789abcdef"}, file_read()},
      // Split by control / zero-width characters.
      {{"ghp_abc\xE2\x80\x8B"
        "def0123456789",
        "«redacted:ghp_…»"},
       file_read()},
      {{"sk-abc\x1b"
        "def456ghi789",
        "«redacted:sk-…»"},
       file_read()},
      {{"hf_abcd\xEF\xBB\xBF"
        "efghij1234",
        "«redacted:hf_…»"},
       file_read()},
      {{"word\nbutton", "word\nbutton"}, file_read()},
      // Zhipu.
      {{"0123456789abcdef0123456789abcdef.AbCdEfGh12345678", "«redacted-secret»"}, file_read()},
      {{"0123456789abcdef0123456789abcdef.bundle", "0123456789abcdef0123456789abcdef.bundle"},
       file_read()},
      // Headers.
      {{"Authorization: Bearer abcdefghijklmnopqrstuvwxyz", "Authorization: Bearer abcdef...wxyz"},
       file_read()},
      {{"authorization: Basic dXNlcjpwYXNz", "authorization: Basic ***"}, file_read()},
      {{"Proxy-Authorization: Token 0123456789012345678901",
        "Proxy-Authorization: Token 012345...8901"},
       file_read()},
      {{"-H \"Authorization: Bearer sk-proj-0123456789abcdef\"",
        "-H \"Authorization: Bearer «redacted:sk-…»\""},
       file_read()},
      {{"x-api-key: 0123456789abcdefghijkl", "x-api-key: 012345...ijkl"}, file_read()},
      {{"X-Goog-Api-Key: shortvalue", "X-Goog-Api-Key: ***"}, file_read()},
      {{"x-auth-token: abcdefghijklmnopqrstuv", "x-auth-token: abcdef...stuv"}, file_read()},
      {{"x-access-token: abcdefghijklmnopqrstuv", "x-access-token: abcdef...stuv"}, file_read()},
      {{"api-key: abcdefghijklmnopqrstuv", "api-key: abcdef...stuv"}, file_read()},
      {{"Author: Jane Doe", "Author: Jane Doe"}, file_read()},
      // Telegram.
      {{"bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "bot123456789:***"}, file_read()},
      {{"123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "123456789:***"}, file_read()},
      {{"12345678:short", "12345678:short"}, file_read()},
      // PEM.
      {{"a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nb",
        "a\n[REDACTED PRIVATE KEY]\nb"},
       file_read()},
      {{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----",
        "[REDACTED PRIVATE KEY]"},
       file_read()},
      {{"-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
       file_read()},
      // URLs.
      {{"postgres://admin:s3cr3t@db:5432/x", "postgres://admin:***@db:5432/x"}, file_read()},
      {{"postgresql://u:p%40ss@h/db", "postgresql://u:***@h/db"}, file_read()},
      {{"mongodb+srv://user:hunter2@cluster0.mongodb.net",
        "mongodb+srv://user:***@cluster0.mongodb.net"},
       file_read()},
      {{"redis://:mypassword@localhost:6379", "redis://:mypassword@localhost:6379"}, file_read()},
      {{"amqp://guest:guest@rabbit", "amqp://guest:***@rabbit"}, file_read()},
      {{"mysql://root:pw@127.0.0.1/app", "mysql://root:***@127.0.0.1/app"}, file_read()},
      {{"f\"postgresql://{user}:{password}@{host}\"", "f\"postgresql://{user}:{password}@{host}\""},
       file_read()},
      {{"https://tokenvalue1234567890@github.com/o/r", "https://tokenv...7890@github.com/o/r"},
       file_read()},
      {{"https://user:pass@example.com/", "https://user:pass@example.com/"}, file_read()},
      {{"https://example.com/cb?token=abc&code=xyz", "https://example.com/cb?token=abc&code=xyz"},
       file_read()},
      {{"ssh://git@github.com/x", "ssh://git@github.com/x"}, file_read()},
      {{"email me at someone@example.com", "email me at someone@example.com"}, file_read()},
      // JWT.
      {{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
        "XgL0n3I9PlFUP0THsR8U",
        "eyJhbG...sR8U"},
       file_read()},
      {{"eyJshort", "eyJshort"}, file_read()},
      // Phones.
      {{"call +14155552671 now", "call +141****2671 now"}, file_read()},
      {{"+1234567", "+1****67"}, file_read()},
      {{"+123456", "+123456"}, file_read()},
      {{"version 1+2 and c++17", "version 1+2 and c++17"}, file_read()},
      {{"+14155552671abc", "+14155552671abc"}, file_read()},
      // Form body (the whole text).
      {{"grant_type=password&password=hunter2&client_id=abc",
        "grant_type=password&password=***&client_id=abc"},
       output()},
      {{"a=1&b=2", "a=1&b=2"}, output()},
      // Assignments only when the text is secret-bearing.
      {{"MAX_TOKENS=100", "MAX_TOKENS=100"}, file_read()},
      {{"OPENAI_API_KEY=abcdef123456", "OPENAI_API_KEY=abcdef123456"}, file_read()},
      {{"\"apiKey\": \"test\"", "\"apiKey\": \"test\""}, file_read()},
      {{"OPENAI_API_KEY=abcdef123456", "OPENAI_API_KEY=«redacted-secret»"}, secret_file()},
      {{"export DB_PASSWORD=\"hunter2\"", "export DB_PASSWORD=\"«redacted-secret»\""},
       secret_file()},
      {{"GITHUB_TOKEN=ghp_0123456789abcdefABCD", "GITHUB_TOKEN=«redacted:ghp_…»"}, secret_file()},
      {{"MAX_TOKENS=100", "MAX_TOKENS=100"}, secret_file()},
      {{"KEYBOARD=us", "KEYBOARD=us"}, secret_file()},
      {{"SSH_AUTH_SOCK=$HOME/.ssh/agent.sock", "SSH_AUTH_SOCK=$HOME/.ssh/agent.sock"},
       secret_file()},
      {{"API_KEY=os.getenv('X')", "API_KEY=os.getenv('X')"}, secret_file()},
      {{"CACHE_KEY=local", "CACHE_KEY=local"}, secret_file()},
      {{"SESSION_TOKEN=Zx8fQ2mN7pLk4Rt9", "SESSION_TOKEN=«redacted-secret»"}, secret_file()},
      {{"3|ADMIN_PASSWORD=pw", "3|ADMIN_PASSWORD=«redacted-secret»"}, secret_file()},
      {{"password: hunter2", "password: «redacted-secret»"}, secret_file()},
      {{"  api_key: 'abcd'", "  api_key: '«redacted-secret»'"}, secret_file()},
      {{"tokenizer: cl100k_base", "tokenizer: cl100k_base"}, secret_file()},
      {{"Secretary: J.Smith", "Secretary: J.Smith"}, secret_file()},
      {{"{\"apiKey\": \"test\"}", "{\"apiKey\": \"«redacted-secret»\"}"}, secret_file()},
      {{"{\"token\": \"abc\"}", "{\"token\": \"abc\"}"}, secret_file()},
      {{"OPENAI_API_KEY=abcdef1234567890abcdef", "OPENAI_API_KEY=abcdef...cdef"}, full_output()},
      {{"DB_PASSWORD=short", "DB_PASSWORD=***"}, full_output()},
      {{"{\\\"password\\\": \\\"hunter2\\\"}", "{\\\"password\\\": \\\"***\\\"}"}, full_output()},
      // Python repr fields: diagnostic lines in output mode.
      {{"E       assert {'API_KEY': 'opaque-value'} == {}",
        "E       assert {'API_KEY': '***'} == {}"},
       output()},
      {{"KeyError: {'password': 'hunter2'}", "KeyError: {'password': '***'}"}, output()},
      {{"x = {'password': 'hunter2'}", "x = {'password': 'hunter2'}"}, output()},
      {{"E       {'token_count': '12'}", "E       {'token_count': '12'}"}, output()},
  };
  return list;
}

TEST(RedactCorpus, ExplicitCases) {
  for (const auto& [c, options] : explicit_cases()) {
    EXPECT_EQ(redact_secrets(c.input, options), c.expected) << "input: " << c.input;
  }
}

// The token scan looks at eight bytes at a time: a token, a boundary or an
// escape at every offset within and across those words.
TEST(RedactCorpus, EveryOffsetOfTheWordScan) {
  const std::string token = "ghp_0123456789abcdef";
  const std::string masked = "«redacted:ghp_…»";
  for (size_t pad = 0; pad < 18; ++pad) {
    const std::string word(pad, 'a');
    SCOPED_TRACE(pad);
    EXPECT_EQ(redact_secrets(word + " " + token, file_read()), word + " " + masked);
    if (pad) {
      EXPECT_EQ(redact_secrets(word + token, file_read()), word + token);
    }
    EXPECT_EQ(redact_secrets(word + "\\n" + token, file_read()), word + "\\n" + masked);
    EXPECT_EQ(redact_secrets(word + "\\u00e9" + token, file_read()), word + "\\u00e9" + masked);
    EXPECT_EQ(redact_secrets(word + "\\x41" + token, file_read()), word + "\\x41" + masked);
    EXPECT_EQ(redact_secrets(word + "\n" + token + "\n" + word, file_read()),
              word + "\n" + masked + "\n" + word);
    EXPECT_EQ(redact_secrets(word + ".ghp_0123\x1b" + "456789abcdef", file_read()),
              word + "." + masked);
  }
}

TEST(RedactCorpus, PlainTextUnchanged) {
  const std::string code =
      "int main() {\n  const MAX_TOKENS = 100;\n  // see https://example.com/docs\n  return a + "
      "b;\n}\n";
  EXPECT_EQ(redact_secrets(code, file_read()), code);
  EXPECT_EQ(redact_secrets("", file_read()), "");
}

TEST(RedactSwitch, ConfigKeyAndEnvironment) {
  EXPECT_TRUE(redaction_enabled(*Config::from_yaml("")));
  EXPECT_FALSE(redaction_enabled(*Config::from_yaml("security:\n  redact_secrets: false\n")));
  ::setenv("HERMES_REDACT_SECRETS", "false", 1);
  EXPECT_FALSE(redaction_enabled(*Config::from_yaml("security:\n  redact_secrets: true\n")));
  ::unsetenv("HERMES_REDACT_SECRETS");
}

TEST(RedactSwitch, SecretBearingFiles) {
  EXPECT_TRUE(is_secret_bearing_file("/p/.env"));
  EXPECT_TRUE(is_secret_bearing_file("/p/.ENV.local"));
  EXPECT_TRUE(is_secret_bearing_file("/home/u/.zshrc"));
  EXPECT_TRUE(is_secret_bearing_file("/home/u/.hermes/config.yaml"));
  EXPECT_FALSE(is_secret_bearing_file("/p/config.yaml"));
  EXPECT_FALSE(is_secret_bearing_file("/p/.env.example"));
  EXPECT_FALSE(is_secret_bearing_file("/p/main.py"));
}

// Linear time: 2 MB of near-miss material finishes quickly.
TEST(RedactPerf, PathologicalInputStaysLinear) {
  std::string digits(1 << 20, '7');
  std::string glued;
  while (glued.size() < (1 << 20)) glued += "xghp_0123456789abcdef";
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(redact_secrets(digits, output()), digits);
  EXPECT_EQ(redact_secrets(glued, output()), glued);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start);
  EXPECT_LT(ms.count(), 3000);
}

}  // namespace
}  // namespace hermes
